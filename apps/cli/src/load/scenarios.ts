// The runs behind `npm run bench -- load`, the load CLI and the reliability tests: a load run
// against a real API process on PGlite or PostgreSQL, the same with the API killed (-9) and
// restarted on its data mid-run, and with PostgreSQL stopped and started again mid-run. Each
// ends with the same proof: every account adds up to the driver's ledger (through the API), and
// the store holds no partial command and rebuilds to exactly its live read models.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { createDatabase, startPostgres, type PostgresServer } from '@tradie/testkit/postgres-server';
import { type LoadOptions, type LoadResult, runLoad } from './driver.ts';
import { httpClient } from './http.ts';
import { verifyLedgers } from './ledger.ts';
import { type ApiProcess, startApiProcess } from './server.ts';
import { LoadStats } from './stats.ts';
import { type StoreCheck, checkStore } from './verify.ts';

export type DbKind = 'pglite' | 'postgres';

export interface RunShape {
  db: DbKind;
  /** PostgreSQL: use this database instead of starting a server. */
  databaseUrl?: string;
  users: number;
  seconds: number;
  thinkMs?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface RunReport extends LoadResult {
  db: DbKind;
  users: number;
  seconds: number;
  /** The 1-minute load average of the machine before and after the run (it is shared). */
  loadAverage: { before: number; after: number; cpus: number };
  /** Mismatches between the accounts (as the API reports them) and the driver's ledger. */
  ledgerProblems: string[];
  store: StoreCheck;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const la = (): number => Math.round(loadavg()[0]! * 100) / 100;

/**
 * A database for the run: PGlite in the API's data directory, the PostgreSQL database given, or a
 * fresh database on a throw-away PostgreSQL server (durable: PostgreSQL's fsync and synchronous
 * commits on, as in production; off otherwise, for speed).
 */
async function database(db: DbKind, given?: string, durable = false): Promise<{ pg: PostgresServer | undefined; databaseUrl: string | undefined }> {
  if (db === 'pglite') return { pg: undefined, databaseUrl: undefined };
  if (given) return { pg: undefined, databaseUrl: given };
  const pg = await startPostgres({ durable });
  return { pg, databaseUrl: await createDatabase(pg.url, 'load') };
}

async function finish(shape: RunShape, api: ApiProcess, databaseUrl: string | undefined, result: LoadResult, before: number): Promise<RunReport> {
  shape.log?.('load: checking every account against the ledger');
  const ledgerProblems = await verifyLedgers(httpClient(api.url, new LoadStats()), result.ledgers);
  await api.stop();
  shape.log?.('load: checking the store and rebuilding the projections');
  const store = await checkStore(databaseUrl ? { databaseUrl } : { dataDir: join(api.dataDir, 'db') });
  return { ...result, db: shape.db, users: shape.users, seconds: shape.seconds, loadAverage: { before, after: la(), cpus: availableParallelism() }, ledgerProblems, store };
}

function loadOptions(shape: RunShape, api: ApiProcess, extra: Partial<LoadOptions> = {}): LoadOptions {
  // A crashed API ends the run at once (the report says why), rather than retrying until the give-up time.
  const abort = new AbortController();
  api.crashed.catch(() => abort.abort());
  return {
    baseUrl: api.url, users: shape.users, seconds: shape.seconds, thinkMs: shape.thinkMs ?? 0, seed: shape.seed ?? 42, signal: abort.signal,
    ...(shape.log ? { log: shape.log } : {}), ...extra,
  };
}

/**
 * Load with a fault `faultAfter` seconds in: `fault` runs once the users have started and slept
 * that long, and they keep going through it, retrying what got no answer with the same keys.
 * `shape.seconds` of load in all, not counting the fault itself. Ends at once if the API crashes.
 */
async function loadWithFault(shape: RunShape, api: ApiProcess, faultAfter: number, fault: () => Promise<void>): Promise<LoadResult> {
  let started!: () => void;
  const start = new Promise<void>((r) => (started = r));
  let faultOver!: () => void;
  const over = new Promise<void>((r) => (faultOver = r));
  const after = over.then(() => sleep(Math.max(0, shape.seconds - faultAfter) * 1000));
  const running = runLoad(loadOptions(shape, api, { retry: true, onStart: () => started(), stopWhen: after, seconds: shape.seconds + 600 }));
  const faulted = (async () => {
    await start;
    await sleep(faultAfter * 1000);
    await fault();
  })().finally(() => faultOver());
  const [result] = await Promise.race([Promise.all([running, faulted]), api.crashed]);
  return result;
}

/** Load only: N users for T seconds against a spawned API. */
export async function loadRun(shape: RunShape): Promise<RunReport> {
  const before = la();
  const { pg, databaseUrl } = await database(shape.db, shape.databaseUrl);
  const api = await startApiProcess(databaseUrl ? { databaseUrl } : {}).catch(async (e: unknown) => {
    await pg?.stop();
    throw e;
  });
  try {
    const result = await Promise.race([runLoad(loadOptions(shape, api)), api.crashed]);
    return await finish(shape, api, databaseUrl, result, before);
  } finally {
    await api.kill('SIGKILL');
    await pg?.stop();
    rmSync(api.dataDir, { recursive: true, force: true });
  }
}

export interface KillReport extends RunReport {
  /** The killed process's pid, the pid in PGlite's lock file right after the kill (left behind), and the new process's. */
  lock: { killedPid: number; leftBehind: number | null; newPid: number; takenOver: boolean } | null;
  /** From the kill to /health answering again (the restart included), ms. */
  downMs: number;
}

/**
 * Load with `kill -9` of the API `killAfter` seconds into the run, then a restart on the same data
 * directory (or database). The users keep retrying what got no answer with the same keys.
 */
export async function killRun(shape: RunShape & { killAfter: number }): Promise<KillReport> {
  const before = la();
  const { pg, databaseUrl } = await database(shape.db, shape.databaseUrl);
  const api = await startApiProcess(databaseUrl ? { databaseUrl } : {}).catch(async (e: unknown) => {
    await pg?.stop();
    throw e;
  });
  const lockFile = join(api.dataDir, 'db', 'pglite.lock');
  const readLock = (): number | null => (existsSync(lockFile) ? Number(readFileSync(lockFile, 'utf8').trim()) : null);
  let lock: KillReport['lock'] = null;
  let downMs = 0;
  try {
    const result = await loadWithFault(shape, api, shape.killAfter, async () => {
      const killedPid = api.pid;
      shape.log?.(`load: kill -9 ${killedPid}`);
      const t0 = performance.now();
      await api.kill('SIGKILL');
      const leftBehind = databaseUrl ? null : readLock();
      await api.restart();
      downMs = Math.round(performance.now() - t0);
      if (!databaseUrl) lock = { killedPid, leftBehind, newPid: api.pid, takenOver: leftBehind === killedPid && readLock() === api.pid };
      shape.log?.(`load: restarted as ${api.pid} after ${downMs} ms`);
    });
    const report = await finish(shape, api, databaseUrl, result, before);
    return { ...report, lock, downMs };
  } finally {
    await api.kill('SIGKILL');
    await pg?.stop();
    rmSync(api.dataDir, { recursive: true, force: true });
  }
}

export interface DatabaseRestartReport extends RunReport {
  /** How long PostgreSQL was down, ms. */
  downMs: number;
  /** /health while it was down: how many asked, the slowest answer (ms), every status seen. */
  healthWhileDown: { asked: number; slowestMs: number; statuses: number[] };
  /** From PostgreSQL being back to /health answering 200 (the API was not restarted), ms. */
  recoveryMs: number;
  /** The API process's pid before and after (the same: it was never restarted). */
  pids: [number, number];
}

/**
 * Load on PostgreSQL with the database stopped (fast shutdown) `stopAfter` seconds in and started
 * again `downSeconds` later. The API is left alone: it must answer 503 quickly meanwhile and
 * recover by itself.
 */
export async function databaseRestartRun(
  shape: Omit<RunShape, 'db' | 'databaseUrl'> & { stopAfter: number; downSeconds: number; signal?: NodeJS.Signals; durable?: boolean },
): Promise<DatabaseRestartReport> {
  const before = la();
  const signal = shape.signal ?? 'SIGINT';
  // A fast shutdown (SIGINT, SIGTERM) writes every commit out first; an immediate stop (SIGQUIT,
  // SIGKILL) is a crash, and only a durable server keeps what it acknowledged.
  const { pg, databaseUrl } = await database('postgres', undefined, shape.durable ?? !['SIGINT', 'SIGTERM'].includes(signal));
  const server = pg!;
  const api = await startApiProcess({ databaseUrl: databaseUrl! }).catch(async (e: unknown) => {
    await server.stop();
    throw e;
  });
  const pidBefore = api.pid;
  let downMs = 0;
  let recoveryMs = 0;
  const health = { asked: 0, slowestMs: 0, statuses: [] as number[] };
  try {
    const result = await loadWithFault({ ...shape, db: 'postgres' }, api, shape.stopAfter, async () => {
      shape.log?.('load: stopping PostgreSQL');
      await server.kill(signal);
      const t0 = performance.now();
      while (performance.now() - t0 < shape.downSeconds * 1000) {
        const h0 = performance.now();
        const status = await fetch(`${api.url}/api/v1/health`, { signal: AbortSignal.timeout(30_000) }).then(async (r) => (await r.text(), r.status), () => 0);
        health.asked++;
        health.slowestMs = Math.max(health.slowestMs, Math.round(performance.now() - h0));
        if (!health.statuses.includes(status)) health.statuses.push(status);
        await sleep(200);
      }
      await server.restart();
      downMs = Math.round(performance.now() - t0);
      shape.log?.(`load: PostgreSQL is back after ${downMs} ms`);
      const r0 = performance.now();
      for (;;) {
        const ok = await fetch(`${api.url}/api/v1/health`, { signal: AbortSignal.timeout(30_000) }).then(async (r) => (await r.text(), r.ok), () => false);
        if (ok) break;
        await sleep(50);
      }
      recoveryMs = Math.round(performance.now() - r0);
    });
    const pidAfter = api.pid;
    const report = await finish({ ...shape, db: 'postgres' }, api, databaseUrl, result, before);
    return { ...report, downMs, healthWhileDown: health, recoveryMs, pids: [pidBefore, pidAfter] };
  } finally {
    await api.kill('SIGKILL');
    await server.stop();
    rmSync(api.dataDir, { recursive: true, force: true });
  }
}
