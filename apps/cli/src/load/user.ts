// One simulated tradie: signed in to their own account, looping through the day's work — add a
// client, price a job as an invoice (or a quote they convert), fix a draft, take a part payment,
// mark an invoice paid, delete a draft made by mistake, and look at the lists and the GST figures.
// Writes carry an Idempotency-Key, and now and then the same request goes twice (a double tap on
// a weak signal). Every answer goes into the ledger as the API gave it.
//
// With `retry` (the fault runs) a request that got no answer, or a 503, is sent again with the
// same key until it is answered — what the app does on a flaky connection — so the ledger stays
// exact across a killed server or a database restart. Commands without a key (a revision, a
// delete, a conversion) are reconciled by reading the document back.
import { centsToString, nzDateOf, taxYearOf } from '@tradie/domain';
import type { Answer, CallInit, HttpClient } from './http.ts';
import { type AccountLedger, type LedgerDocument, balanceCents, cents, documentFromDetail } from './ledger.ts';
import type { LoadStats } from './stats.ts';

export interface UserRun {
  http: HttpClient;
  stats: LoadStats;
  /** A seeded generator in [0, 1): every run with one seed does the same work. */
  rng: () => number;
  /** Unique per run: keys and emails are made from it. */
  runId: string;
  index: number;
  /** Epoch ms: no new operation starts after this. */
  endAt: number;
  /** Set when the run is to end early: no operation starts after (and when aborted, no retry either). */
  stop: { stopped: boolean; aborted: boolean };
  /** Epoch ms: a request still unanswered is given up after this (retry mode). */
  giveUpAt: number;
  maxOps: number;
  retry: boolean;
  /** Mean pause between operations, ms (0: back to back). */
  thinkMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const JOBS = [
  'Replace hot water cylinder valve', 'Labour', 'Call-out fee', 'Copper pipe 15 mm (per metre)', 'Install heat pump', 'Rewire kitchen circuit',
  'Gib stopping', 'Deck stain (per m²)', 'Kōwhai hedge trim', 'Travel — Whanganui', 'Toilet cistern repair', 'Switchboard upgrade',
];
const NAMES = ['Aroha Ngata', 'Hemi Walker', 'Mere Tūhoe', 'Sione Fifita', 'Grace Chen', 'Liam O’Connor', 'Priya Patel', 'Tama Rangi'];

export async function runUser(u: UserRun, ledger: AccountLedger): Promise<number> {
  const { http, stats, rng } = u;
  let seq = 0;
  const key = (what: string): string => `${u.runId}-${u.index}-${what}-${++seq}`;
  const int = (lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const auth = (init: CallInit = {}): CallInit => ({ ...init, token: ledger.token });

  /** Sends until answered (retry mode) — the same request, so the same Idempotency-Key. */
  async function send(route: string, method: string, path: string, init: CallInit): Promise<{ a: Answer | null; retried: boolean }> {
    let wait = 150;
    let retried = false;
    for (;;) {
      const a = await http.call(route, method, path, init);
      if (a && (a.status !== 503 || !u.retry)) return { a, retried };
      if (!u.retry || Date.now() > u.giveUpAt || u.stop.aborted) {
        if (method !== 'GET') stats.unresolved(route);
        return { a, retried };
      }
      retried = true;
      await sleep(wait);
      wait = Math.min(wait * 1.5, 1500);
    }
  }

  function expectStatus(route: string, a: Answer | null, status: number): a is Answer {
    if (a?.status === status) return true;
    if (a && a.status < 500) stats.surprise(`${route}: ${a.status} ${JSON.stringify(a.json)?.slice(0, 200)} (expected ${status})`);
    return false;
  }

  /** A double tap: the same keyed request again must replay the first answer and create nothing. */
  async function doubleTap(route: string, path: string, body: unknown, k: string, first: Answer): Promise<void> {
    if (rng() >= 0.1) return;
    const { a } = await send(route, 'POST', path, auth({ json: body, headers: { 'Idempotency-Key': k } }));
    if (!a || a.status >= 500) return;
    if (a.status !== first.status || a.json?.id !== first.json?.id || a.headers.get('Idempotent-Replayed') !== 'true') {
      stats.surprise(`${route} replay: ${a.status} id ${a.json?.id} replayed=${a.headers.get('Idempotent-Replayed')}, first was ${first.status} id ${first.json?.id}`);
    }
  }

  const lines = (): { description: string; qty: string; unit_price: string; tax_rate: number; tax_included: boolean }[] =>
    Array.from({ length: int(1, 4) }, () => ({
      description: pick(JOBS),
      qty: pick(['1', '2', '2.5', '0.5', '3', '10', '1.25']),
      unit_price: centsToString(BigInt(int(500, 60_000))),
      tax_rate: rng() < 0.1 ? 0 : 0.15,
      tax_included: rng() < 0.2,
    }));

  const invoices = (): LedgerDocument[] => [...ledger.documents.values()].filter((d) => d.type === 'invoice');
  const today = (): string => nzDateOf(new Date());

  async function refresh(id: string): Promise<void> {
    const { a } = await send('GET /invoices/{id}', 'GET', `/invoices/${id}`, auth());
    if (a?.status === 200) ledger.documents.set(id, documentFromDetail(a.json));
    else if (a?.status === 404) {
      ledger.documents.delete(id);
      ledger.deleted.add(id);
    }
  }

  // ---- writes ------------------------------------------------------------------------------

  async function createClient(): Promise<void> {
    const route = 'POST /clients';
    const n = seq + 1;
    const business = rng() < 0.4;
    const name = `${pick(NAMES)} ${u.index}-${n}`;
    const body = {
      name, email: `client${n}.u${u.index}@example.nz`, phone: `021 555 ${String(1000 + n).slice(-4)}`, address: `${n} Kōwhai Street, Nelson`,
      is_business: business ? 'true' : 'false', business_name: business ? `${name.split(' ')[0]} Builders Ltd` : '',
    };
    const k = key('client');
    const { a } = await send(route, 'POST', '/clients', auth({ json: body, headers: { 'Idempotency-Key': k } }));
    if (!expectStatus(route, a, 201)) return;
    ledger.clients.set(String(a.json.id), { name, version: Number(a.json.version ?? 1) });
    await doubleTap(route, '/clients', body, k, a);
  }

  async function createDocument(type: 'invoice' | 'quote'): Promise<LedgerDocument | undefined> {
    const route = 'POST /invoices';
    const clientIds = [...ledger.clients.keys()];
    const items = lines();
    const body = { type, line_items: items, client_id: clientIds.length > 0 && rng() < 0.8 ? pick(clientIds) : null };
    const k = key(type);
    const { a } = await send(route, 'POST', '/invoices', auth({ json: body, headers: { 'Idempotency-Key': k } }));
    if (!expectStatus(route, a, 201)) return undefined;
    const d = documentFromDetail(a.json);
    if (d.lines !== items.length) stats.surprise(`${route}: ${d.reference} answered ${d.lines} lines, ${items.length} sent`);
    ledger.documents.set(d.id, d);
    await doubleTap(route, '/invoices', body, k, a);
    return d;
  }

  async function quoteToInvoice(): Promise<void> {
    const quote = await createDocument('quote');
    if (!quote || rng() < 0.4) return;
    const route = 'POST /invoices/{id}/convert';
    const { a, retried } = await send(route, 'POST', `/invoices/${quote.id}/convert`, auth());
    if (a?.status === 409 && retried) {
      // The first attempt went through before its answer was lost: read where it went.
      const q = await send('GET /invoices/{id}', 'GET', `/invoices/${quote.id}`, auth());
      const to = q.a?.json?.converted_to as string | undefined;
      if (to) await refresh(to);
      await refresh(quote.id);
      return;
    }
    if (!expectStatus(route, a, 201)) return;
    const inv = documentFromDetail(a.json);
    if (inv.totalCents !== quote.totalCents || inv.lines !== quote.lines) stats.surprise(`${route}: ${inv.reference} differs from its quote ${quote.reference}`);
    ledger.documents.set(inv.id, inv);
    quote.converted = true;
  }

  async function reviseDraft(): Promise<void> {
    const drafts = invoices().filter((d) => !d.issued);
    if (drafts.length === 0) return void (await createDocument('invoice'));
    const d = pick(drafts);
    const route = 'PUT /invoices/{id}';
    const items = lines();
    const { a, retried } = await send(route, 'PUT', `/invoices/${d.id}`, auth({ json: { line_items: items, version: d.version } }));
    if (a?.status === 409 && retried) return refresh(d.id);
    if (!expectStatus(route, a, 200)) return;
    const revised = documentFromDetail(a.json);
    if (revised.lines !== items.length) stats.surprise(`${route}: ${revised.reference} answered ${revised.lines} lines, ${items.length} sent`);
    ledger.documents.set(d.id, revised);
  }

  async function partPayment(): Promise<void> {
    const owing = invoices().filter((d) => balanceCents(d) >= 2n);
    if (owing.length === 0) return void (await createDocument('invoice'));
    const d = pick(owing);
    const route = 'POST /invoices/{id}/payments';
    const amount = (balanceCents(d) * BigInt(int(20, 70))) / 100n || 1n;
    const body = { amount: centsToString(amount), method: pick(['bank_transfer', 'cash', 'card']) };
    const k = key('payment');
    const { a } = await send(route, 'POST', `/invoices/${d.id}/payments`, auth({ json: body, headers: { 'Idempotency-Key': k } }));
    if (!expectStatus(route, a, 201)) return;
    d.payments.set(String(a.json.id), cents(a.json.amount));
    d.issued = true; // money taken against a draft issues it
    if (cents(a.json.amount) !== amount) stats.surprise(`${route}: recorded ${a.json.amount}, sent ${body.amount}`);
    if (cents(a.json.balance) !== balanceCents(d)) stats.surprise(`${route}: balance ${a.json.balance}, the ledger says ${centsToString(balanceCents(d))}`);
    await doubleTap(route, `/invoices/${d.id}/payments`, body, k, a);
  }

  async function markPaid(): Promise<void> {
    const owing = invoices().filter((d) => balanceCents(d) > 0n);
    if (owing.length === 0) return void (await createDocument('invoice'));
    const d = pick(owing);
    const route = 'POST /invoices/{id}/mark-paid';
    const k = key('paid');
    const { a } = await send(route, 'POST', `/invoices/${d.id}/mark-paid`, auth({ headers: { 'Idempotency-Key': k } }));
    if (!expectStatus(route, a, 200)) return;
    const after = documentFromDetail(a.json);
    if (balanceCents(after) !== 0n) stats.surprise(`${route}: ${after.reference} still owes ${centsToString(balanceCents(after))}`);
    ledger.documents.set(d.id, after);
  }

  async function markIssued(): Promise<void> {
    const drafts = invoices().filter((d) => !d.issued);
    if (drafts.length === 0) return void (await createDocument('invoice'));
    const d = pick(drafts);
    const route = 'POST /invoices/{id}/issue';
    const { a, retried } = await send(route, 'POST', `/invoices/${d.id}/issue`, auth());
    if (a?.status === 409 && retried) return refresh(d.id);
    if (!expectStatus(route, a, 200)) return;
    ledger.documents.set(d.id, documentFromDetail(a.json));
  }

  async function deleteDraft(): Promise<void> {
    const drafts = invoices().filter((d) => !d.issued);
    if (drafts.length < 3) return;
    const d = pick(drafts);
    const route = 'DELETE /invoices/{id}';
    const { a, retried } = await send(route, 'DELETE', `/invoices/${d.id}`, auth());
    if (a?.status === 404 && retried) return refresh(d.id);
    if (!expectStatus(route, a, 200)) return;
    if (a.json.outcome !== 'deleted') stats.surprise(`${route}: ${d.reference} was ${a.json.outcome}, not deleted`);
    ledger.documents.delete(d.id);
    ledger.deleted.add(d.id);
  }

  // ---- reads -------------------------------------------------------------------------------

  async function read(route: string, path: string): Promise<Answer | null> {
    const { a } = await send(route, 'GET', path, auth());
    expectStatus(route, a, 200);
    return a;
  }

  async function listInvoices(): Promise<void> {
    const first = await read('GET /invoices', '/invoices?limit=50');
    const next = first?.headers.get('X-Next-Cursor');
    if (next && rng() < 0.3) await read('GET /invoices', `/invoices?limit=50&cursor=${encodeURIComponent(next)}`);
  }

  const gstPeriod = (): string => {
    const t = today();
    const [y, m] = t.split('-').map(Number) as [number, number];
    const startMonth = m % 2 === 0 ? m - 1 : m; // two-monthly GST periods end in even months
    const endMonth = startMonth + 1;
    const last = new Date(Date.UTC(y, endMonth, 0)).getUTCDate();
    return `start_date=${y}-${String(startMonth).padStart(2, '0')}-01&end_date=${y}-${String(endMonth).padStart(2, '0')}-${last}`;
  };

  const ops: [number, () => Promise<void>][] = [
    [8, createClient],
    [18, async () => void (await createDocument('invoice'))],
    [4, quoteToInvoice],
    [6, reviseDraft],
    [9, partPayment],
    [7, markPaid],
    [2, deleteDraft],
    [4, markIssued],
    [12, listInvoices],
    [4, async () => void (await read('GET /invoices?status=', '/invoices?type=invoice&status=paid,partial&limit=50'))],
    [4, async () => void (await read('GET /invoices/counts', '/invoices/counts'))],
    [8, async () => void (await read('GET /clients', '/clients'))],
    [6, async () => {
      const all = [...ledger.documents.values()];
      if (all.length > 0) await read('GET /invoices/{id}', `/invoices/${pick(all).id}`);
    }],
    [7, async () => void (await read('GET /reports/gst', `/reports/gst?${gstPeriod()}&basis=${rng() < 0.7 ? 'invoice' : 'payments'}`))],
    [5, async () => void (await read('GET /reports/annual', `/reports/annual?year=${taxYearOf(today())}`))],
  ];
  const totalWeight = ops.reduce((s, [w]) => s + w, 0);

  let done = 0;
  // The first client and invoice come before anything else, as on a tradie's first morning.
  await createClient();
  await createDocument('invoice');
  done += 2;
  while (Date.now() < u.endAt && !u.stop.stopped && done < u.maxOps) {
    let r = rng() * totalWeight;
    const op = ops.find(([w]) => (r -= w) < 0)?.[1] ?? ops[0]![1];
    await op();
    done++;
    if (u.thinkMs > 0) await sleep(rng() * 2 * u.thinkMs);
  }
  return done;
}
