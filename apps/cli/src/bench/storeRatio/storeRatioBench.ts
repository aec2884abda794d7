// `npm run bench -- store-ratio`: the product's payment command against the floor of its own SQL,
// alternating in one run, as ratios (this machine's absolute speed swings from day to day; a ratio
// of runs a few seconds apart does not).
//
// - product: the API's payment command as POST /invoices/{id}/payments runs it with an
//   Idempotency-Key (runDocumentCommand: load the invoice, decide with the domain, append with the
//   expected version, the read models and the outbox rows, the key's answer), without the
//   reactions it settles after the commit, on PostgreSQL.
// - floor: the statements the product sent for the same commands, recorded once and replayed
//   through the same adapter (postgres.js, the same pool size, the same server): what a command
//   costs with nothing worked out in this process.
// - floor_today: the same replay of the statements the command sent before they became one
//   statement (frozen.ts), so the product is also compared with that floor in the same run.
//
// Fixed work: 4 clients, each on its own invoices (no retries), 2,000 commands of warm-up then
// 4,000 timed; every contender starts on its own copy of one seeded database (CREATE DATABASE …
// TEMPLATE), so each does the same work on the same data. Three rounds, the contenders' order
// rotating; each figure is the median of the three. After every round the databases the three
// wrote are compared (events, read models, outbox, keys, account versions, less what is random or
// handed out by the server), and the product's read models with a rebuild of them.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type CommandPorts, type RecordedPayment, allMigrations, outboxWriter, recordedPaymentOf, runDocumentCommand, toNewEvents } from '@tradie/api';
import { type DocumentState, type DocumentView, documentDecider, documentStreamId, nzDateOf } from '@tradie/domain';
import { domainEventOf, projections } from '@tradie/projections';
import { type Db, type EventStore, createEventStore, openPostgres, openStore } from '@tradie/store';
import { startPostgres } from '@tradie/testkit/postgres-server';
import postgres from 'postgres';
import type { Figure } from '../figures.ts';
import { seedDocuments, type SeedDocument } from '../seed.ts';
import { frozenAnswer, frozenClaim, frozenTransaction } from './frozen.ts';
import { type Step, recorder, replay } from './replay.ts';

const CLIENTS = 4;
const WARM_UP = 2_000;
const TIMED = 4_000;
const ROUNDS = 3;
const POOL = 8;
/** Payments per invoice: the commands are spread over this many passes of each client's invoices. */
const PASSES = 4;
const INVOICES = (WARM_UP + TIMED) / PASSES;
const ACCOUNT = 'bench-ratio';
const TODAY = '2026-05-01';

const progress = (m: string): void => {
  process.stderr.write(`  store-ratio: ${m}\n`);
};

/** The invoice and the payment of client `w`'s command `k`: each client pays its own invoices, pass after pass. */
function commandOf(w: number, k: number): { documentId: string; paymentId: string; key: string } {
  const perClient = INVOICES / CLIENTS;
  const invoice = w + CLIENTS * (k % perClient);
  const n = w * 100_000 + k;
  return {
    documentId: `00000000-0000-4000-8000-${String(invoice).padStart(12, '0')}`,
    // The same ids in every contender, so their databases can be compared.
    paymentId: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`,
    key: `pay-${n}`,
  };
}

const input = { amount: '1.00', date: TODAY, method: 'cash' as const, reference: '' };
const clock = { now: () => new Date(`${TODAY}T02:00:00.000Z`) };

/** The product: the payment command of documents/commands/payments.ts (recordPayment) without the reactions it settles after. */
function productCommand(store: EventStore): (w: number, k: number) => Promise<void> {
  const ports = { store, clock, ids: { uuid: randomUUID }, log: () => {} } as unknown as CommandPorts;
  const actor = { accountId: ACCOUNT, userId: 'bench-user' };
  return async (w, k) => {
    const c = commandOf(w, k);
    await runDocumentCommand(ports, actor, { status: 201, once: { scope: `documents:payment:${c.documentId}`, key: c.key, request: input } }, async (work) => {
      // recordPayment asks ports.ids for it; here it is fixed so the contenders' databases compare.
      const paymentId = c.paymentId;
      const paid = await work.decide(c.documentId, { type: 'RecordPayment', data: { paymentId, amount: '1', date: input.date, method: input.method, reference: input.reference } });
      return recordedPaymentOf(paid.view, paymentId, work.today());
    });
  };
}

/** The same command as it ran before (frozen.ts): claim, read, the append's statement, the answer, the account version with the COMMIT. */
function frozenCommand(db: Db): (w: number, k: number) => Promise<void> {
  const eventRows = outboxWriter();
  const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex');
  return async (w, k) => {
    const c = commandOf(w, k);
    const streamId = documentStreamId(c.documentId);
    await frozenTransaction(db, projections, eventRows, async (tx) => {
      const claim = { accountId: ACCOUNT, scope: `documents:payment:${c.documentId}`, key: c.key, hash };
      if ((await frozenClaim(tx, claim)).length === 0) throw new Error(`key ${c.key} was taken`);
      const snap = await tx.readStream(streamId);
      let state: DocumentState = documentDecider.initialState();
      for (const e of snap.events) state = documentDecider.evolve(state, { ...domainEventOf(e), meta: { at: e.meta.at } } as never);
      const meta = { accountId: ACCOUNT, at: clock.now().toISOString(), actor: 'bench-user' };
      const events = documentDecider.decide({ type: 'RecordPayment', data: { paymentId: c.paymentId, amount: '1', date: TODAY, method: 'cash', reference: '' } }, state);
      await tx.append(streamId, snap.version, toNewEvents(events, meta), snap.events);
      for (const e of events) state = documentDecider.evolve(state, { ...e, meta: { at: meta.at } });
      const body: RecordedPayment = recordedPaymentOf(state as DocumentView, c.paymentId, nzDateOf(clock.now()));
      await frozenAnswer(tx, claim, { status: 201, body });
    });
  };
}

/** CPU seconds (user + system) of the PostgreSQL server's processes: the postmaster and its children. */
function serverCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command's name in parentheses: state, ppid, … utime is field 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(name) === postmaster || Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

interface Run {
  perSecond: number;
  nodeCpuMs: number;
  serverCpuMs: number;
}

/** 4 clients; each runs its commands 0 … WARM_UP/CLIENTS − 1 untimed, then the rest timed. */
async function runClients(command: (w: number, k: number) => Promise<void>, serverDir: string): Promise<Run> {
  const warm = WARM_UP / CLIENTS;
  const timed = TIMED / CLIENTS;
  await Promise.all(Array.from({ length: CLIENTS }, async (_, w) => {
    for (let k = 0; k < warm; k++) await command(w, k);
  }));
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuSeconds(serverDir);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async (_, w) => {
    for (let k = warm; k < warm + timed; k++) await command(w, k);
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server = serverCpuSeconds(serverDir) - server0;
  return { perSecond: TIMED / seconds, nodeCpuMs: (cpu.user + cpu.system) / 1000 / TIMED, serverCpuMs: (server * 1000) / TIMED };
}

/** What a command leaves in the database, less what is random (event ids) or handed out by the server (positions, times). */
async function contents(db: Db): Promise<string> {
  const tables: [string, string][] = [
    ['events', 'SELECT stream_id, stream_version, event_type, schema_version, account_id, data, meta FROM events ORDER BY stream_id, stream_version'],
    ['outbox', 'SELECT account_id, reaction, stream_id, event_type, payload, created_at, next_attempt_at FROM outbox ORDER BY stream_id, event_type, reaction, payload::text'],
    ['idempotency_keys', 'SELECT account_id, scope, key, request_hash, status, response FROM idempotency_keys ORDER BY account_id, scope, key'],
    ['account_versions', 'SELECT account_id, version FROM account_versions ORDER BY account_id'],
  ];
  for (const p of projections) for (const t of p.tables) tables.push([t.name, `SELECT t::text AS r FROM ${t.name} t ORDER BY t::text`]);
  const digest = createHash('sha256');
  for (const [name, query] of tables) digest.update(name).update(JSON.stringify(await db.query(query)));
  return digest.digest('hex');
}

/** The read models as they are, then rebuilt from the log: the same or not. */
async function rebuildsTheSame(store: EventStore): Promise<boolean> {
  const dump = async (): Promise<string> => {
    const parts: unknown[] = [];
    for (const p of projections) for (const t of p.tables) parts.push(await store.db.query(`SELECT t::text AS r FROM ${t.name} t ORDER BY t::text`));
    return JSON.stringify(parts);
  };
  const live = await dump();
  await store.rebuildProjections();
  return (await dump()) === live;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, places: number): number => Number(x.toFixed(places));

export async function storeRatioFigures(): Promise<Figure[]> {
  const load0 = loadavg()[0]!;
  progress('starting PostgreSQL');
  const server = await startPostgres();
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  const urlOf = (name: string): string => {
    const u = new URL(server.url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const clone = async (name: string): Promise<string> => {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ratio_seed`);
    return urlOf(name);
  };
  const drop = (name: string) => admin.unsafe(`DROP DATABASE ${name}`);
  const open = (url: string): Promise<Db> => openPostgres({ url, max: POOL });
  const storeOn = (db: Db): EventStore => createEventStore(db, projections, { eventRows: outboxWriter() });
  try {
    progress(`seeding ${INVOICES} emailed invoices`);
    await admin.unsafe('CREATE DATABASE ratio_seed');
    const seedStore = await openStore({ databaseUrl: urlOf('ratio_seed'), poolSize: POOL }, projections, allMigrations, { eventRows: outboxWriter() });
    try {
      const docs: SeedDocument[] = Array.from({ length: INVOICES }, (_, i) => ({
        documentId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        number: i + 1,
        at: new Date(Date.UTC(2026, 3, 1) + (i % 28) * 86_400_000).toISOString(),
        client: { name: `Client ${i % 40}`, email: `client${i % 40}@example.nz` },
        lines: Array.from({ length: 5 }, (_, l) => ({ description: `Line ${l + 1}`, qty: String(l + 1), unit_price: `${(i % 50) + 10}.50` })),
        sent: true,
      }));
      await seedDocuments(seedStore, ACCOUNT, docs);
      await seedStore.db.query('VACUUM ANALYZE');
    } finally {
      await seedStore.close();
    }

    // The statements each contender sends, recorded once (untimed) on a copy of its own.
    const scripts = async (name: string, command: (db: Db) => (w: number, k: number) => Promise<void>): Promise<Step[][][]> => {
      const db = await open(await clone(name));
      const rec = recorder(db);
      const run = command(rec.db);
      const byClient: Step[][][] = [];
      try {
        for (let w = 0; w < CLIENTS; w++) {
          const steps: Step[][] = [];
          for (let k = 0; k < (WARM_UP + TIMED) / CLIENTS; k++) {
            await run(w, k);
            steps.push(rec.take());
          }
          byClient.push(steps);
        }
      } finally {
        await db.close();
        await drop(name);
      }
      return byClient;
    };
    progress('recording the product’s statements');
    const now = await scripts('ratio_record_product', (db) => productCommand(storeOn(db)));
    progress('recording the frozen statements');
    const before = await scripts('ratio_record_frozen', (db) => frozenCommand(db));
    const roundTrips = (s: Step[][][]): number => s.flat().reduce((n, steps) => n + steps.reduce((m, st) => m + (st.tx ? st.statements.length + 2 : 1), 0), 0) / (WARM_UP + TIMED);

    type Contender = 'product' | 'floor' | 'floor_today';
    const contenders: Record<Contender, (db: Db) => (w: number, k: number) => Promise<void>> = {
      product: (db) => productCommand(storeOn(db)),
      floor: (db) => (w, k) => replay(db, now[w]![k]!),
      floor_today: (db) => (w, k) => replay(db, before[w]![k]!),
    };
    const order: Contender[] = ['product', 'floor', 'floor_today'];
    const runs: Record<Contender, Run[]> = { product: [], floor: [], floor_today: [] };
    let sameResult = true;
    let rebuildSame = true;
    for (let r = 0; r < ROUNDS; r++) {
      const digests: string[] = [];
      for (let i = 0; i < order.length; i++) {
        const who = order[(i + r) % order.length]!;
        const name = `ratio_${who}_${r}`;
        const db = await open(await clone(name));
        try {
          const run = await runClients(contenders[who](db), server.dir);
          runs[who].push(run);
          progress(`round ${r + 1}, ${who}: ${Math.round(run.perSecond)} commands/s, CPU per command ${run.nodeCpuMs.toFixed(3)} ms here, ${run.serverCpuMs.toFixed(3)} ms in the server (load ${loadavg()[0]!.toFixed(1)})`);
          digests.push(await contents(db));
          if (who === 'product') rebuildSame &&= await rebuildsTheSame(storeOn(db));
        } finally {
          await db.close();
          await drop(name);
        }
      }
      if (new Set(digests).size !== 1) {
        sameResult = false;
        progress(`round ${r + 1}: the three databases differ`);
      }
    }

    const perSecond = (who: Contender): number => median(runs[who].map((x) => x.perSecond));
    const figures: Figure[] = [];
    for (const who of order) {
      figures.push({ name: `store_ratio.${who}`, value: Math.round(perSecond(who)), unit: 'commands/s' });
      figures.push({ name: `store_ratio.${who}_node_cpu_per_command`, value: round(median(runs[who].map((x) => x.nodeCpuMs)), 3), unit: 'ms' });
      figures.push({ name: `store_ratio.${who}_server_cpu_per_command`, value: round(median(runs[who].map((x) => x.serverCpuMs)), 3), unit: 'ms' });
    }
    figures.push(
      { name: 'store_ratio.product_to_floor', value: round(perSecond('product') / perSecond('floor'), 3), unit: 'ratio' },
      { name: 'store_ratio.floor_to_floor_today', value: round(perSecond('floor') / perSecond('floor_today'), 3), unit: 'ratio' },
      { name: 'store_ratio.product_to_floor_today', value: round(perSecond('product') / perSecond('floor_today'), 3), unit: 'ratio' },
      { name: 'store_ratio.statements_per_command', value: round(roundTrips(now), 2), unit: 'round trips' },
      { name: 'store_ratio.statements_per_command_today', value: round(roundTrips(before), 2), unit: 'round trips' },
      { name: 'store_ratio.same_database_result', value: sameResult ? 1 : 0, unit: 'boolean' },
      { name: 'store_ratio.rebuild_equals_live', value: rebuildSame ? 1 : 0, unit: 'boolean' },
      { name: 'store_ratio.load_average_start', value: round(load0, 2), unit: 'load' },
      { name: 'store_ratio.load_average_end', value: round(loadavg()[0]!, 2), unit: 'load' },
    );
    return figures;
  } finally {
    await admin.end({ timeout: 5 });
    await server.stop();
  }
}
