// The reports served by two API processes (two `node apps/api/src/start.ts`, each with its own
// memory) on one PostgreSQL database, while both write to the same account at once: new invoices,
// payments (sometimes two on one invoice at the same moment) and client edits, with reports asked
// for in the middle of it all. After every round each process's GST report (invoice and payments
// basis) and annual summary must equal its CSV export and what this test works out on its own
// from what it created — the independent oracle in packages/testkit and plain sums of cents.
//
// Each round also forces the interleaving that once served a stale report: a payment has taken
// its place in the log but not committed (the test holds a lock its projection needs), a client
// edit made after it commits, both processes answer a report in between, then the payment
// commits. The report must then include the payment on both processes. The test checks that the
// payment's event really sits before the edit's in the log, so the case cannot quietly vanish.
//
// 50 rounds in one test; a failure names the round, the process and the report.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { openPostgres, type Db } from '@tradie/store';
import { oracleAnnualSummary, oracleGstReport, oracleTotals, type OracleInvoice, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type HttpClient, httpClient } from '../../../cli/src/load/http.ts';
import { type ApiProcess, startApiProcess } from '../../../cli/src/load/server.ts';
import { LoadStats } from '../../../cli/src/load/stats.ts';
import { cents, dollars, toCents } from './money.ts';

const ROUNDS = 50;
/** Tax year 1 April 2025 – 31 March 2026; every date below falls in it. */
const YEAR = 2026;
const START = '2025-04-01';
const END = '2026-03-31';

let started: ApiProcess[] = [];
let A: HttpClient;
let B: HttpClient;
/** The test's own connections to the same database: to hold a lock, and to look at the log. */
let db: Db;

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl('reportcache');
  // Both processes sign with one secret, as every process of one deployment must.
  const env = { APP_SECRET: randomBytes(32).toString('base64') };
  const both = await Promise.allSettled([startApiProcess({ databaseUrl, env }), startApiProcess({ databaseUrl, env })]);
  started = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = both.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  A = httpClient(started[0]!.url, new LoadStats());
  B = httpClient(started[1]!.url, new LoadStats());
  db = await openPostgres({ url: databaseUrl, max: 2 });
}, 240_000);

afterAll(async () => {
  await db?.close();
  await Promise.all(started.map((p) => p.stop()));
  for (const p of started) rmSync(p.dataDir, { recursive: true, force: true });
});

// ---- helpers ---------------------------------------------------------------------------------

/** A small deterministic generator: every run makes the same choices. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const DAY_MS = 86_400_000;
const dayOf = (start: string, offset: number): string => new Date(Date.parse(`${start}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);

async function call(api: HttpClient, method: string, path: string, token: string, json?: unknown): Promise<Answer> {
  const answer = await api.call(`${method} ${path}`, method, path, { token, json });
  if (!answer) throw new Error(`${method} ${path} on ${api.baseUrl}: no answer`);
  return answer;
}

async function must(answer: Promise<Answer>, status: number, what: string): Promise<Answer> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.json)}`);
  return a;
}

/** GET with the bearer header, the body as text (the CSV exports). */
async function text(api: HttpClient, path: string, token: string): Promise<string> {
  const res = await fetch(`${api.baseUrl}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body}`);
  return body;
}

const GST = (basis: 'invoice' | 'payments') => `/reports/gst?start_date=${START}&end_date=${END}&basis=${basis}`;
const GST_CSV = (basis: 'invoice' | 'payments') => `/reports/export/gst-csv?start_date=${START}&end_date=${END}&basis=${basis}`;
const ANNUAL = `/reports/annual?year=${YEAR}`;
const ANNUAL_CSV = `/reports/export/annual-csv?year=${YEAR}`;

/** The report's figures without the fields that only echo the query. */
function figuresOf(json: Record<string, unknown>): Record<string, unknown> {
  const { basis: _b, start_date: _s, end_date: _e, year: _y, label: _l, ...figures } = json;
  return figures;
}

// ---- the account's history as this test made it ---------------------------------------------

interface Made extends OracleInvoice {
  /** Cents of payments this test has sent and not yet seen answered: kept free so no payment is refused. */
  pending: bigint;
}

const totalOf = (inv: OracleInvoice): bigint => oracleTotals(inv.lines, inv.rounding).total;
const receivedOf = (inv: OracleInvoice): bigint => inv.steps.reduce((a, s) => (s.kind === 'pay' ? a + s.cents : a), 0n);
const roomOn = (inv: Made): bigint => totalOf(inv) - receivedOf(inv) - inv.pending;

/** Plain sums of what was made, without the oracle: the reports' headline figures. */
function plainSums(ledger: readonly OracleInvoice[]): { invoicedCents: bigint; subtotalCents: bigint; receivedCents: bigint } {
  let invoicedCents = 0n;
  let subtotalCents = 0n;
  let receivedCents = 0n;
  for (const inv of ledger) {
    const t = oracleTotals(inv.lines, inv.rounding);
    invoicedCents += t.total;
    subtotalCents += t.subtotal;
    receivedCents += receivedOf(inv);
  }
  return { invoicedCents, subtotalCents, receivedCents };
}

describe('reports on two API processes writing to one account at once (PostgreSQL)', () => {
  it(`${ROUNDS} rounds: each process's reports equal its CSV exports and the test's own sums, even when a payment commits after a later event`, async () => {
    const rnd = lcg(20260514);
    const email = `reports-scale-${Date.now().toString(36)}@example.nz`;
    const password = 'correct horse battery';
    await must(call(A, 'POST', '/auth/register', '', { email, password, full_name: 'Mere Tane' }), 201, 'register');
    const login = await must(call(B, 'POST', '/auth/login', '', { email, password }), 200, 'login');
    const token = login.json.access_token as string;
    // Registered for GST with its number, so its invoices may be marked issued.
    await must(call(A, 'PUT', '/business-settings', token, { gst_number: '49-091-850' }), 200, 'GST number');

    const clients = [
      { name: 'Kōwhai Builders', id: '' },
      { name: 'Tūī Electrical', id: '' },
    ];
    for (const [i, c] of clients.entries()) c.id = (await must(call(i === 0 ? A : B, 'POST', '/clients', token, { name: c.name }), 201, 'client')).json.id as string;

    const ledger: Made[] = [];
    const apis = [A, B] as const;
    /** Rounds in which both processes paid the same invoice at once. */
    let twoOnOne = 0;

    const randomLines = (): OracleLine[] =>
      Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
        qty: String(1 + Math.floor(rnd() * 3)),
        unitPrice: dollars(BigInt(20_000 + Math.floor(rnd() * 180_000))),
        inclusive: rnd() < 0.3,
        rate: rnd() < 0.15 ? ('0' as const) : ('0.15' as const),
      }));

    /** Creates an invoice on `api` and marks it issued; only then is it in the ledger. */
    async function newInvoice(api: HttpClient, date: string): Promise<void> {
      const client = rnd() < 0.2 ? null : clients[Math.floor(rnd() * clients.length)]!;
      const lines = randomLines();
      const made = await must(call(api, 'POST', '/invoices', token, { type: 'invoice', issue_date: date, client_id: client?.id ?? null, line_items: lines.map(toDomainLine) }), 201, 'create invoice');
      const id = made.json.id as string;
      await must(call(api, 'POST', `/invoices/${id}/issue`, token, {}), 200, 'mark issued');
      ledger.push({ id, issueDate: date, client: client?.name ?? '', lines, rounding: 'total', issued: true, steps: [], voidDate: null, pending: 0n });
    }

    /** Records a payment on `api`; the room for it is kept while it is in flight. */
    async function pay(api: HttpClient, inv: Made, amount: bigint, date: string): Promise<string> {
      inv.pending += amount;
      try {
        const r = await must(call(api, 'POST', `/invoices/${inv.id}/payments`, token, { amount: dollars(amount), date }), 201, 'payment');
        const id = r.json.id as string;
        inv.steps.push({ kind: 'pay', id, cents: amount, date });
        return id;
      } finally {
        inv.pending -= amount;
      }
    }

    /** A full replacement of the client's details that keeps its name (the reports show names). */
    const editClient = (api: HttpClient, c: { name: string; id: string }, n: number) =>
      must(call(api, 'PUT', `/clients/${c.id}`, token, { name: c.name, phone: `021 555 ${String(n).padStart(4, '0')}`, email: `accounts${n}@example.nz` }), 200, 'client edit');

    const readReports = (api: HttpClient) => Promise.all([GST('invoice'), GST('payments'), ANNUAL].map((p) => must(call(api, 'GET', p, token), 200, `GET ${p}`)));

    /** Every report on `api` against the oracle, the plain sums and the CSV exports. */
    async function check(api: HttpClient, label: string): Promise<void> {
      const [invoiceBasis, paymentsBasis, annual] = (await readReports(api)).map((r) => r.json as Record<string, unknown>);
      const [invoiceCsv, paymentsCsv, annualCsv] = (await Promise.all([GST_CSV('invoice'), GST_CSV('payments'), ANNUAL_CSV].map((p) => text(api, p, token)))).map(
        (t) => parse(t, { bom: true }) as string[][],
      );
      // The CSVs above are downloads of a tax year that has ended, which closes it for GST: every
      // invoice made in a later round would then be an adjustment carried out of it. Carrying has
      // tests of its own (gstCarry.spec.ts, adjustmentsToCarry.int.spec.ts); here the reports of two
      // processes writing at once are the subject, so the account forgets its downloads each time.
      await db.query('DELETE FROM gst_exports');
      const plain = plainSums(ledger);
      // The test's own sums, then the oracle's whole report.
      expect(toCents(invoiceBasis!.total_sales as number), `${label}: invoice-basis sales = the invoices made`).toBe(plain.invoicedCents);
      expect(toCents(paymentsBasis!.total_sales as number), `${label}: payments-basis sales = the payments made`).toBe(plain.receivedCents);
      expect(toCents(annual!.total_revenue as number), `${label}: annual revenue = the invoices' subtotals`).toBe(plain.subtotalCents);
      expect(figuresOf(invoiceBasis!), `${label}: GST report, invoice basis`).toEqual(oracleGstReport(ledger, START, END, 'invoice'));
      expect(figuresOf(paymentsBasis!), `${label}: GST report, payments basis`).toEqual(oracleGstReport(ledger, START, END, 'payments'));
      expect(figuresOf(annual!), `${label}: annual summary`).toEqual(oracleAnnualSummary(ledger, YEAR));
      // The CSV exports (never memoised) say the same.
      for (const [csv, json, what] of [[invoiceCsv!, invoiceBasis!, 'invoice'], [paymentsCsv!, paymentsBasis!, 'payments']] as const) {
        const total = csv.find((row) => row[0] === 'Total')!;
        expect(cents(total[6]!), `${label}: ${what}-basis CSV total = the report`).toBe(toCents(json.total_sales as number));
        expect(cents(total[5]!), `${label}: ${what}-basis CSV GST = the report`).toBe(toCents(json.total_gst_collected as number));
      }
      const annualTotal = annualCsv!.find((row) => row[0] === 'Total')!;
      expect(cents(annualTotal[4]!), `${label}: annual CSV revenue = the summary`).toBe(toCents(annual!.total_revenue as number));
      expect(cents(annualTotal[5]!), `${label}: annual CSV GST = the summary`).toBe(toCents(annual!.total_gst as number));
      expect(cents(annualCsv!.find((row) => row[0] === 'Paid')![4]!), `${label}: annual CSV paid revenue`).toBe(toCents(annual!.paid_revenue as number));
    }

    /** How many other sessions are waiting for a lock held by the session `pid`. */
    const blockedBy = async (pid: number): Promise<number> =>
      Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))', [pid]))[0]?.n ?? 0);

    /** Asks the database until `n` sessions wait on `pid`'s lock, or one of `watched` has answered (then that answer is wrong). */
    async function untilBlocked(pid: number, n: number, watched: Promise<unknown>[]): Promise<'blocked' | 'answered'> {
      let answered = false;
      for (const w of watched) w.then(() => (answered = true), () => (answered = true));
      for (let i = 0; i < 50_000; i++) {
        if ((await blockedBy(pid)) >= n) return 'blocked';
        if (answered) return 'answered';
      }
      throw new Error(`no session waited on the test's lock after 50,000 looks`);
    }

    const positionOf = async (sql: string, params: unknown[]): Promise<bigint> => BigInt((await db.query<{ p: string }>(sql, params))[0]!.p);

    for (let round = 0; round < ROUNDS; round++) {
      const date = dayOf(START, round * 7);
      const label = `round ${round + 1}`;

      // 1. Both processes at once: an invoice each, payments (now and then two on one invoice),
      // client edits, and reports asked for while the writes are in flight.
      const open = ledger.filter((inv) => roomOn(inv) >= 2_000n);
      const burst: Promise<unknown>[] = [newInvoice(A, date), newInvoice(B, date), editClient(A, clients[1]!, round * 2), editClient(B, clients[0]!, round * 2 + 1)];
      if (open.length > 0) {
        const first = open[Math.floor(rnd() * open.length)]!;
        const second = rnd() < 0.3 ? first : open[Math.floor(rnd() * open.length)]!;
        if (first === second) twoOnOne++;
        burst.push(pay(A, first, BigInt(100 + Math.floor(rnd() * 900)), date), pay(B, second, BigInt(100 + Math.floor(rnd() * 900)), date));
        // Now and then one is paid off in full (on the other process).
        const rest = open.filter((inv) => inv !== first && inv !== second);
        if (round % 4 === 3 && rest.length > 0) burst.push(pay(apis[round % 2]!, rest[0]!, roomOn(rest[0]!), date));
      }
      burst.push(readReports(A), readReports(B));
      await Promise.all(burst);

      // 2. The forced interleaving: the payment takes its place in the log first and commits last.
      const payer = apis[round % 2]!;
      const editor = apis[(round + 1) % 2]!;
      const target = ledger.filter((inv) => roomOn(inv) >= 777n)[Math.floor(rnd() * 5)] ?? ledger.find((inv) => roomOn(inv) >= 777n)!;
      const before = ledger.map((inv) => ({ ...inv, steps: [...inv.steps] }));
      let payment!: Promise<string>;
      let edit!: Promise<unknown>;
      const seen = await db.tx(async (sql) => {
        const [me] = await sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // The payment's projection of the invoice waits for this lock, after its event is in the log.
        await sql.query('SELECT 1 FROM documents_list WHERE id = $1 FOR UPDATE', [target.id]);
        payment = pay(payer, target, 777n, date);
        payment.catch(() => {});
        expect(await untilBlocked(me!.pid, 1, [payment]), `${label}: the payment waits for the lock`).toBe('blocked');
        // A later event for the same account commits meanwhile (or waits too, if commits are serialised).
        edit = editClient(editor, clients[round % 2]!, 1000 + round);
        edit.catch(() => {});
        await Promise.race([edit, untilBlocked(me!.pid, 2, [edit])]);
        // Both processes answer a report now: without the payment, which has not committed.
        return Promise.all([readReports(A), readReports(B)]);
      });
      await Promise.all([payment, edit]);
      const expectedBefore = [oracleGstReport(before, START, END, 'invoice'), oracleGstReport(before, START, END, 'payments'), oracleAnnualSummary(before, YEAR)];
      for (const [p, answers] of seen.entries()) {
        // While the payment was in flight the reports did not show it (and showed everything else).
        for (const [i, r] of answers.entries()) expect(figuresOf(r.json as Record<string, unknown>), `${label}: process ${'AB'[p]} answered report ${i} in the window`).toEqual(expectedBefore[i]);
      }
      const paymentId = target.steps.at(-1)!.id;
      const paymentPosition = await positionOf(`SELECT position::text AS p FROM events WHERE stream_id = $1 AND event_type = 'PaymentRecorded' AND data->>'paymentId' = $2`, [`document-${target.id}`, paymentId]);
      const editPosition = await positionOf(`SELECT max(position)::text AS p FROM events WHERE stream_id = $1`, [`client-${clients[round % 2]!.id}`]);
      expect(paymentPosition < editPosition, `${label}: the payment's event is before the edit's in the log`).toBe(true);

      // 3. Every report on both processes, now.
      await check(A, `${label}, process A`);
      await check(B, `${label}, process B`);
    }
    // What the rounds were for happened: every invoice made, some paid off, some paid twice at once.
    expect(ledger.length).toBe(ROUNDS * 2);
    expect(twoOnOne).toBeGreaterThan(0);
    expect(ledger.some((inv) => receivedOf(inv) === totalOf(inv))).toBe(true);
  }, 600_000);
});
