// Benchmark of the reports through the HTTP app (app.request, no port): an account with 10,000
// invoices in one tax year — seeded as events through the store with the domain's decider, so the
// report rows are the inline projections' own — then the p95 of many requests for the GST report
// (both bases), the annual summary and the two CSV exports of the whole year.
//
// The JSON reports are memoised per account version (memo.ts), so each is measured twice:
// `warm`, the same report asked for again with nothing changed, and `cold`, with an event appended
// to the account before every request (outside the timing: that moves its version on), so every
// answer is computed afresh from the projections (the memo lives in apps/api/src/reports/memo.ts).
// The CSV exports are never memoised.
// Budgets: GST report and annual summary p95 ≤ 20 ms; a CSV of 10,000 rows ≤ 300 ms.
//
// Called by `npm run bench -- reports` as benchReports(); `node apps/cli/src/bench/reportsBench.ts`
// runs it alone and prints one JSON line per figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { type AppDeps, type Mailer, allMigrations, createApp, loadConfig, secretsFrom } from '@tradie/api';
import { type SeedDocument, seedDocuments } from './seed.ts';

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
}

export interface ReportsBenchOptions {
  /** A PostgreSQL server; omitted → PGlite in memory. */
  databaseUrl?: string;
  invoices?: number;
  /** Timed requests per JSON report (CSV exports get a fifth of these, at least 20). */
  requests?: number;
  progress?: (message: string) => void;
}

/** A small deterministic generator: every run benchmarks the same data. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const CLIENTS = ['Aroha Ngata', 'Ben Smith', 'Mere Tane', 'Hemi Walker', 'Kōwhai Builders', 'Tūī Electrical', 'Ōtaki Plumbing', 'Wiremu Parata'];
const DAY_MS = 86_400_000;
const dayOf = (start: string, offset: number): string => new Date(Date.parse(`${start}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
const money = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** `n` invoices spread over the tax year 1 April 2026 – 31 March 2027, with quotes and voided invoices beside them. */
export function benchDocuments(n: number, seed = 2027): SeedDocument[] {
  const rnd = lcg(seed);
  const docs: SeedDocument[] = [];
  for (let i = 0; i < n; i++) {
    const issueDate = dayOf('2026-04-01', i % 365);
    const lineCount = 1 + Math.floor(rnd() * 3);
    const lines = Array.from({ length: lineCount }, (_, k) => ({
      description: `Job ${i + 1} line ${k + 1}`,
      qty: String(1 + Math.floor(rnd() * 4)),
      unit_price: money(1000 + Math.floor(rnd() * 200_000)),
      tax_included: rnd() < 0.2,
      tax_rate: rnd() < 0.1 ? '0' : '0.15',
    }));
    const name = `${CLIENTS[i % CLIENTS.length]} ${Math.floor(i / CLIENTS.length) % 40}`;
    const doc: SeedDocument = { number: i + 1, at: `${issueDate}T00:00:00.000Z`, issueDate, client: { name, gst_number: i % 5 === 0 ? '49-091-850' : '' }, lines, sent: true };
    const r = rnd();
    if (r < 0.6) doc.markPaidOn = dayOf(issueDate, Math.floor(rnd() * 30));
    else if (r < 0.75) doc.payments = [{ amount: '10.00', date: dayOf(issueDate, Math.floor(rnd() * 20)) }];
    else if (r < 0.8) doc.payments = [{ amount: '5.00', date: dayOf(issueDate, -1 - Math.floor(rnd() * 10)) }]; // a deposit before the invoice
    docs.push(doc);
  }
  for (let i = 0; i < Math.ceil(n / 50); i++) {
    const issueDate = dayOf('2026-04-01', (i * 7) % 365);
    docs.push({ number: i + 1, type: 'quote', at: `${issueDate}T00:00:00.000Z`, lines: [{ description: 'Quoted job', qty: 1, unit_price: '999.00' }], sent: true });
    docs.push({ number: n + i + 1, at: `${issueDate}T00:00:00.000Z`, lines: [{ description: 'Raised in error', qty: 1, unit_price: '50.00' }], sent: true, voided: true });
  }
  return docs;
}

const noMail: Mailer = {
  kind: 'outbox',
  send: () => Promise.reject(new Error('The reports benchmark sends no mail')),
  close: () => Promise.resolve(),
};

function p(xs: readonly number[], pct: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((pct / 100) * s.length) - 1))] ?? NaN;
}
const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function benchReports(options: ReportsBenchOptions = {}): Promise<BenchFigure[]> {
  const invoices = options.invoices ?? 10_000;
  const requests = options.requests ?? 200;
  const progress = options.progress ?? ((m: string) => process.stderr.write(`  reports: ${m}\n`));
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-reports-bench-'));
  const store = await openStore({ databaseUrl: options.databaseUrl }, projections, allMigrations);
  const db = store.db.kind;
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PASSWORD_COST: '10', WEB_DIST: join(dataDir, 'no-web') });
    const deps: AppDeps = {
      config, store, clock: { now: () => new Date() }, ids: { uuid: () => uuidv7() }, mailer: noMail,
      secrets: secretsFrom(Buffer.from('reports-bench-secret')), log: () => {},
    };
    const app = createApp(deps);
    const json = async (path: string, init: RequestInit = {}): Promise<Record<string, unknown>> => {
      const res = await app.request(`/api/v1${path}`, init);
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };
    const post = (path: string, body: unknown) => json(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const account = { email: `bench-${uuidv7()}@example.nz`, password: 'correct horse battery' };
    const user = await post('/auth/register', { ...account, full_name: 'Bench Tradie' });
    const token = String((await post('/auth/login', account)).access_token);
    const accountId = String(user.id);

    progress(`seeding ${invoices} invoices on ${db}`);
    const t0 = performance.now();
    const log = await seedDocuments(store, accountId, benchDocuments(invoices));
    // Another account's rows share the tables: every query must stay within its own account.
    await seedDocuments(store, `other-${accountId}`, benchDocuments(Math.ceil(invoices / 5), 7));
    const seedSeconds = (performance.now() - t0) / 1000;

    const headers = { Authorization: `Bearer ${token}` };
    // A change that touches no figure but moves the account on: a PDF recorded on an invoice
    // (a different one each time, so no stream grows long).
    const streams = [...new Set(log.filter((e) => e.type === 'DocumentDrafted').map((e) => e.stream))];
    let touches = 0;
    const touch = async (): Promise<void> => {
      const stream = streams[touches % streams.length]!;
      const documentId = stream.slice('document-'.length);
      touches++;
      await store.transaction(async (tx) => {
        const snap = await tx.readStream(stream);
        await tx.append(stream, snap.version, [
          { type: 'PdfGenerated', version: 1, data: { documentId, sha256: touches.toString(16).padStart(64, '0') }, meta: { accountId, at: new Date().toISOString() } },
        ], snap.events);
      });
    };

    async function timed(name: string, path: string, n: number, check: (res: Response, body: string) => void, before?: () => Promise<void>): Promise<BenchFigure[]> {
      const once = async (): Promise<[number, number]> => {
        await before?.();
        const cpu = process.cpuUsage();
        const start = performance.now();
        const res = await app.request(`/api/v1${path}`, { headers });
        const body = await res.text();
        const ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
        check(res, body);
        return [ms, (used.user + used.system) / 1000];
      };
      for (let i = 0; i < 5; i++) await once();
      const times: number[] = [];
      const cpus: number[] = [];
      for (let i = 0; i < n; i++) {
        const [ms, cpu] = await once();
        times.push(ms);
        cpus.push(cpu);
      }
      progress(`${name}: p50 ${round2(p(times, 50))} ms, p95 ${round2(p(times, 95))} ms over ${n} (this process's CPU p95 ${round2(p(cpus, 95))} ms)`);
      return [
        { name: `reports.${name}_p95_${db}`, value: round2(p(times, 95)), unit: 'ms' },
        { name: `reports.${name}_p50_${db}`, value: round2(p(times, 50)), unit: 'ms' },
        // On a busy machine the wall clock includes time waiting for a CPU; the CPU time the API
        // process spent (with PGlite: the database too) is what an idle machine would wait.
        { name: `reports.${name}_cpu_p95_${db}`, value: round2(p(cpus, 95)), unit: 'ms' },
      ];
    }
    const expectCount = (body: string, field: string): void => {
      const n = (JSON.parse(body) as Record<string, unknown>)[field];
      if (typeof n !== 'number' || n < invoices * 0.7) throw new Error(`the report counted ${String(n)} invoices`);
    };
    const expectRows = (body: string): void => {
      let lines = 0;
      for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) lines++;
      if (lines < invoices * 0.7) throw new Error(`the CSV has ${lines} lines`);
    };
    const expectAnnual = (_r: Response, b: string): void => {
      const s = JSON.parse(b) as { monthly_breakdown: { count: number }[] };
      expectCount(JSON.stringify({ n: s.monthly_breakdown.reduce((a, m) => a + m.count, 0) }), 'n');
    };
    const year = 'start_date=2026-04-01&end_date=2027-03-31';
    const csvRequests = Math.max(20, Math.floor(requests / 5));
    const figures: BenchFigure[] = [{ name: `reports.seed_${invoices}_invoices_${db}`, value: round2(seedSeconds), unit: 's' }];
    for (const [label, before] of [['cold', touch], ['warm', undefined]] as const) {
      figures.push(
        ...(await timed(`gst_year_${label}`, `/reports/gst?${year}`, requests, (_r, b) => expectCount(b, 'invoice_count'), before)),
        ...(await timed(`gst_year_payments_basis_${label}`, `/reports/gst?${year}&basis=payments`, requests, (_r, b) => expectCount(b, 'invoice_count'), before)),
        ...(await timed(`annual_${label}`, '/reports/annual?year=2027', requests, expectAnnual, before)),
      );
    }
    figures.push(
      ...(await timed('gst_csv_year', `/reports/export/gst-csv?${year}`, csvRequests, (_r, b) => expectRows(b))),
      ...(await timed('annual_csv', '/reports/export/annual-csv?year=2027', csvRequests, (_r, b) => expectRows(b))),
    );
    return figures;
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const url = process.argv.find((a) => a.startsWith('postgres'));
  for (const f of await benchReports(url ? { databaseUrl: url } : {})) console.log(JSON.stringify(f));
}
