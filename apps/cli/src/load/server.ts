// A real API process for load and fault runs: `node apps/api/src/start.ts` as a child process on
// loopback, with an empty WEB_DIST (no web build needed), its own data directory or a PostgreSQL
// URL. It can be killed with any signal (kill -9 included) and started again on the same port
// and data.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@tradie/testkit/postgres-server';

const START = resolve(import.meta.dirname, '../../../api/src/start.ts');

/** Variables the API reads; the parent's are never passed on, only what the run sets. */
const API_ENV = /^(PORT|HOST|DATA_DIR|DATABASE_URL|APP_URL|APP_SECRET|APP_SECRET_PREVIOUS|ACCESS_TOKEN_TTL_SECONDS|REFRESH_TOKEN_TTL_DAYS|SMTP_URL|MAIL_FROM|XERO_.*|STRIPE_.*|WEB_DIST|LOG_LEVEL|PASSWORD_COST|IP_LIMIT_MULTIPLIER|TRUSTED_PROXIES|TRIAL_DAILY_RECIPIENTS|SEND_DAILY_RECIPIENTS)$/;

/**
 * The APP_SECRET of every process this run starts on PostgreSQL, unless `env` names one: the API
 * requires it with DATABASE_URL, and processes on one database must share it.
 */
const RUN_SECRET = randomBytes(36).toString('base64');

export interface ApiProcessOptions {
  /** PGlite's data directory is DATA_DIR/db; also the outbox. Default: a new temporary directory. */
  dataDir?: string;
  databaseUrl?: string;
  /** Default: a free loopback port, kept across restarts. */
  port?: number;
  /** More environment (APP_SECRET, SMTP_URL, …). */
  env?: Record<string, string>;
  /** How long to wait for /api/v1/health, ms. Default 180,000 (a busy machine starts slowly). */
  startTimeoutMs?: number;
}

export interface ApiProcess {
  url: string;
  port: number;
  dataDir: string;
  readonly pid: number;
  /** Sends a signal and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, data and environment. */
  restart(): Promise<void>;
  /** SIGTERM (a clean shutdown) and wait. */
  stop(): Promise<void>;
  /** The last lines it wrote to stderr (its error log). */
  log(): string;
  /** Settles when the process ends without being asked to (a crash): rejects with its exit and log. */
  readonly crashed: Promise<never>;
}

export async function startApiProcess(options: ApiProcessOptions = {}): Promise<ApiProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tradie-load-'));
  const webDist = join(dataDir, 'web-dist-empty');
  mkdirSync(webDist, { recursive: true });
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !API_ENV.test(e[0])));
  Object.assign(env, {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: webDist, LOG_LEVEL: 'error', PASSWORD_COST: '12', IP_LIMIT_MULTIPLIER: '100000', APP_URL: url,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, APP_SECRET: RUN_SECRET } : {}),
    ...options.env,
  });
  let child: ChildProcess | undefined;
  let tail: string[] = [];
  let asked = false;
  let crash!: (e: Error) => void;
  const crashed = new Promise<never>((_, reject) => (crash = reject));
  crashed.catch(() => {});

  async function launch(): Promise<void> {
    const c = spawn(process.execPath, [START], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    asked = false;
    c.once('exit', (code, signal) => {
      if (!asked) crash(new Error(`the API process ${c.pid} ended by itself (${code ?? signal}):\n${tail.join('\n')}`));
    });
    c.stderr?.setEncoding('utf8');
    c.stderr?.on('data', (chunk: string) => {
      tail = [...tail, ...chunk.split('\n').filter(Boolean)].slice(-40);
    });
    const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
    while (Date.now() < deadline) {
      if (c.exitCode !== null || c.signalCode !== null) throw new Error(`the API exited (${c.exitCode ?? c.signalCode}) while starting:\n${tail.join('\n')}`);
      try {
        const res = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
        await res.text();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    c.kill('SIGKILL');
    throw new Error(`the API did not answer /api/v1/health within ${options.startTimeoutMs ?? 180_000} ms:\n${tail.join('\n')}`);
  }

  async function kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    asked = true;
    c.kill(signal);
    await exited;
  }

  try {
    await launch();
  } catch (e) {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    url,
    port,
    dataDir,
    get pid() {
      return child?.pid ?? -1;
    },
    kill,
    restart: launch,
    stop: () => kill('SIGTERM'),
    log: () => tail.join('\n'),
    crashed,
  };
}
