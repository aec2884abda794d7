// Shared by the reliability suites (fuzz, access): the real app on PGlite with Xero and Stripe
// configured against their local fakes (so no route answers 'not configured'), an account with
// one resource of every kind made through the API, and a fingerprint of everything an account
// has stored, to prove that a refused request wrote nothing.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nzDateOf } from '@tradie/domain';
import { startFakeStripe, type FakeStripe } from '@tradie/testkit/fake-stripe';
import { startFakeXero, type FakeXero } from '@tradie/testkit/fake-xero';
import { apiOperations } from '../../src/openapi/apiOperations.ts';
import type { Operation } from '../../src/openapi/describe.ts';
import { createStripeBilling, parseApiBase } from '../../src/integrations/stripe/index.ts';
import { createStripeConnect } from '../../src/integrations/stripe/connect.ts';
import { createXeroAdapter } from '../../src/integrations/xero/index.ts';
import { createTestApp, signUp, TestClock, type TestApp, type TestAppOptions } from '../support/testApp.ts';

export const REDIRECT_URI = 'http://app.test/api/v1/integrations/xero/callback';
const STRIPE = { key: 'sk_test_reliability', price: 'price_reliability', whsec: 'whsec_reliability', connectWhsec: 'whsec_connect_reliability' } as const;

export interface ReliabilityApp {
  t: TestApp;
  clock: TestClock;
  xero: FakeXero;
  stripe: FakeStripe;
  close(): Promise<void>;
}

/**
 * A tiny stand-in for the web build (apps/web/dist): a pre-rendered page, the SPA shell and an
 * asset, so page routes answer as in production without building the web app.
 */
export function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradie-web-dist-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'pricing'));
  const page = (title: string) => `<!doctype html><html lang="en-NZ"><head><meta charset="utf-8"><title>${title}</title><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>`;
  writeFileSync(join(dir, 'index.html'), page('Tradie Quotes'));
  writeFileSync(join(dir, 'spa.html'), page('Tradie Quotes app'));
  writeFileSync(join(dir, 'pricing', 'index.html'), page('Pricing'));
  writeFileSync(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app");\n');
  return dir;
}

/**
 * The app with every integration configured against a fake on loopback; Xero's waits are never
 * slept. PGlite in memory unless `databaseUrl` names a PostgreSQL database.
 */
export async function startReliabilityApp(options: { env?: Record<string, string>; databaseUrl?: string; mailKind?: TestAppOptions['mailKind'] } = {}): Promise<ReliabilityApp> {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  const xero = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now() });
  // The fake's signed webhooks go straight into the app made below.
  const holder: { app?: TestApp } = {};
  const stripe = await startFakeStripe({
    webhookSecret: STRIPE.whsec,
    secretKey: STRIPE.key,
    now: () => clock.now(),
    webhookUrl: 'http://app.test/api/v1/billing/webhook',
    connectWebhookUrl: 'http://app.test/api/v1/payments/webhook',
    connectWebhookSecret: STRIPE.connectWhsec,
    fetch: async (req) => holder.app!.app.fetch(req),
  });
  const accounting = createXeroAdapter({
    clientId: xero.clientId,
    clientSecret: xero.clientSecret,
    redirectUri: REDIRECT_URI,
    loginUrl: xero.loginUrl,
    identityUrl: xero.identityUrl,
    apiUrl: xero.apiUrl,
    fetch: globalThis.fetch,
    now: () => clock.now(),
    sleep: async () => {},
  });
  const billing = createStripeBilling(
    { secretKey: STRIPE.key, priceId: STRIPE.price, webhookSecret: STRIPE.whsec, api: parseApiBase(stripe.url), maxNetworkRetries: 0 },
    { now: () => clock.now() },
  );
  // Card payments through the business's own Stripe account (Connect), against the same fake.
  const connect = createStripeConnect({ secretKey: STRIPE.key, connectWebhookSecret: STRIPE.connectWhsec, api: parseApiBase(stripe.url), maxNetworkRetries: 0 }, { now: () => clock.now() });
  const t = await createTestApp({
    clock, env: { WEB_DIST: fakeWebDist(), ...options.env }, overrides: { accounting, billing, connect }, databaseUrl: options.databaseUrl, mailKind: options.mailKind,
  });
  holder.app = t;
  return {
    t,
    clock,
    xero,
    stripe,
    async close() {
      await t.close();
      await xero.stop();
      await stripe.stop();
    },
  };
}

export type User = Awaited<ReturnType<typeof signUp>>;

/** One resource of every kind an id-bearing route names, all made through the API. */
export interface Fixtures {
  user: User;
  clientId: string;
  /** A draft invoice (revisable, deletable). */
  draftId: string;
  /** A draft quote (accept, decline, convert). */
  quoteId: string;
  /** A sent invoice of $1,150,000 with one payment: room for many more payments. */
  invoiceId: string;
  paymentId: string;
  /** A voided invoice. */
  voidId: string;
  /** A receipt, and hours worked. */
  costId: string;
  hoursId: string;
  /** A repeating expense (monthly, from today). */
  recurringId: string;
}

export const validLine = { description: 'Switchboard upgrade', qty: 1, unit_price: 1_000_000, tax_included: false, tax_rate: 0.15 };

async function must(r: { status: number; text: string }, what: string, status = 200): Promise<void> {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
}

/** A fresh account with a client, a draft, a quote, a sent invoice with a payment and a voided invoice. */
export async function makeFixtures(t: TestApp, name = 'Aroha Tamihana', clientName = 'Kōwhai Builders'): Promise<Fixtures> {
  const user = await signUp(t, name);
  const tk = user.token;
  const client = await t.post('/clients', { name: clientName, email: 'accounts@kowhai.example.nz' }, tk);
  await must(client, 'client', 201);
  const clientId = client.json.id as string;
  const doc = async (type: 'invoice' | 'quote') => {
    const r = await t.post('/invoices', { type, client_id: clientId, line_items: [validLine] }, tk);
    await must(r, type, 201);
    return r.json.id as string;
  };
  const draftId = await doc('invoice');
  const quoteId = await doc('quote');
  const invoiceId = await doc('invoice');
  await must(await t.post(`/invoices/${invoiceId}/send`, {}, tk), 'send');
  const pay = await t.post(`/invoices/${invoiceId}/payments`, { amount: 100, date: nzDateOf(t.clock.now()) }, tk);
  await must(pay, 'payment', 201);
  const voidId = await doc('invoice');
  await must(await t.post(`/invoices/${voidId}/void`, { reason: 'Raised in error' }, tk), 'void');
  const cost = await t.post('/costs', { supplier: 'Plumbing World', date: '2026-05-05', amount: '86.25' }, tk);
  await must(cost, 'cost', 201);
  const hours = await t.post('/hours', { date: '2026-05-05', hours: '3', rate: '45.00' }, tk);
  await must(hours, 'hours', 201);
  const recurring = await t.post('/recurring-costs', { supplier: 'One NZ', amount: '65.00', frequency: 'monthly', start_date: nzDateOf(t.clock.now()) }, tk);
  await must(recurring, 'recurring', 201);
  return {
    user, clientId, draftId, quoteId, invoiceId, paymentId: pay.json.id as string, voidId, costId: cost.json.id as string, hoursId: hours.json.id as string,
    recurringId: recurring.json.id as string,
  };
}

/** Follows the Connect window: our authorize → the fake's consent → its redirect back to our callback. */
export async function connectXero(t: TestApp, token: string): Promise<void> {
  const auth = await t.get('/integrations/xero/authorize', token);
  await must(auth, 'authorize');
  // The browser that pressed Connect brings its Connect cookie back to the callback.
  const cookie = auth.headers.getSetCookie().find((c) => c.startsWith('xero_connect='))?.split(';')[0] ?? '';
  const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  await must(await t.call('GET', `${back.pathname}${back.search}`, { headers: { Cookie: cookie } }), 'callback');
}

/** The kind of resource a path parameter names, read from the route's path. */
export type IdKind = 'client' | 'document' | 'payment' | 'variation' | 'cost' | 'hours' | 'recurring';
export function paramKind(op: Operation, param: string): IdKind {
  if (param === 'paymentId') return 'payment';
  if (param === 'variationId') return 'variation';
  if (param === 'costId') return 'cost';
  if (op.path.startsWith('/costs')) return 'cost';
  if (op.path.startsWith('/hours')) return 'hours';
  if (op.path.startsWith('/recurring-costs')) return 'recurring';
  return op.path.startsWith('/clients') ? 'client' : 'document';
}

/** The ids of an account a parameter of this kind may take (the documents in several states). */
export function idsOf(f: Fixtures, kind: IdKind): string[] {
  if (kind === 'client') return [f.clientId];
  if (kind === 'payment') return [f.paymentId];
  if (kind === 'cost') return [f.costId];
  if (kind === 'hours') return [f.hoursId];
  if (kind === 'recurring') return [f.recurringId];
  // A variation's id names nothing without its quote: one stands for all (the public answers from one address are limited).
  if (kind === 'variation') return [f.quoteId];
  return [f.draftId, f.quoteId, f.invoiceId, f.voidId];
}

export const pathParams = (op: Operation): string[] => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The path with its parameters replaced (values inserted as given: the caller encodes). */
export const fillPath = (op: Operation, values: Record<string, string>): string => op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

/** Every /api/v1 operation, as the routes describe themselves (the OpenAPI document's list). */
export const operations: readonly Operation[] = apiOperations();

/** Operations that name a resource in their path. */
export const idBearing = (): Operation[] => operations.filter((op) => pathParams(op).length > 0);

export const opKey = (op: Operation): string => `${op.method.toUpperCase()} ${op.path}`;

// ---- what is stored ------------------------------------------------------------------------

/** Tables that a refused request may legitimately write, or that hold no account's data. */
const UNFINGERPRINTED = new Set([
  // A wrong password is recorded (login throttling): a 401 from /auth/login writes one row by design.
  'login_failures',
  // Rate-limit counters count refused requests too: that is what they are for.
  'rate_limits',
  // The security audit log records refused sign-ins on purpose.
  'audit_log',
  'schema_migrations',
  'projection_versions',
  'app_secrets',
]);

let tableCache: string[] | undefined;

async function tables(t: TestApp): Promise<string[]> {
  tableCache ??= (
    await t.deps.store.db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
  )
    .map((r) => r.table_name)
    .filter((name) => !UNFINGERPRINTED.has(name));
  return tableCache;
}

/**
 * Everything stored, as one comparable value: for every ordinary table, its row count and the
 * newest transaction id among its rows (xmin). A committed insert or update gives a row a newer
 * xmin, a delete lowers the count; a rolled-back transaction leaves both as they were. So equal
 * fingerprints mean no request committed a write to any row of any account.
 */
export async function fingerprint(t: TestApp): Promise<Record<string, string>> {
  const list = await tables(t);
  const parts = list.map((name) => `(SELECT count(*)::text || ' rows, newest xid ' || coalesce(max(xmin::text::bigint), 0)::text FROM ${name}) AS "${name}"`);
  const [row] = await t.deps.store.db.query<Record<string, string>>(`SELECT ${parts.join(', ')}`);
  return row ?? {};
}

/**
 * The next transaction id PostgreSQL will hand out. Only a transaction that writes is given one,
 * so when this has not moved, nothing was written (nor even tried and rolled back) since.
 */
export async function nextXid(t: TestApp): Promise<string> {
  const [row] = await t.deps.store.db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x');
  return row?.x ?? '';
}

/** The names of the tables whose fingerprints differ. */
export const changedTables = (a: Record<string, string>, b: Record<string, string>): string[] => Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]);

/** The account's event count: a refused request leaves it unchanged (docs/reliability.md). */
export async function eventCount(t: TestApp, accountId: string): Promise<number> {
  const [row] = await t.deps.store.db.query<{ n: number | string }>('SELECT count(*)::int AS n FROM events WHERE account_id = $1', [accountId]);
  return Number(row?.n ?? 0);
}

// ---- valid requests ------------------------------------------------------------------------

const line = validLine;

/** A valid body per route ('METHOD /path'), for the account's fixtures; `n` makes new emails unique. */
const BODY: Record<string, (f: Fixtures, n: number) => Record<string, unknown>> = {
  'POST /auth/register': (_f, n) => ({ email: `fuzz-${n}@example.nz`, password: 'long enough password', full_name: 'Fuzz Person' }),
  'POST /auth/login': (f) => ({ email: f.user.email, password: f.user.password }),
  'POST /auth/refresh': () => ({ refresh_token: 'not-a-real-token' }),
  'POST /auth/forgot-password': (f) => ({ email: f.user.email }),
  'POST /auth/reset-password': () => ({ token: 'not-a-real-token', new_password: 'long enough password' }),
  'POST /clients': () => ({ name: 'Hemi Walker', email: 'hemi@example.nz', phone: '021 555 0101', is_business: 'true', business_name: 'Walker Ltd', gst_number: '49-091-850', default_payment_terms: '20th of next month' }),
  'PUT /clients/{id}': () => ({ name: 'Kōwhai Builders Ltd', email: 'accounts@kowhai.example.nz', version: 1 }),
  'POST /invoices': (f) => ({ type: 'invoice', client_id: f.clientId, line_items: [line, { ...line, qty: 2.5, unit_price: '90.00', tax_included: true }], issue_date: '2026-05-05', due_date: '2026-05-20', payment_terms: '7 days', notes: 'Thanks' }),
  'PUT /invoices/{id}': (f) => ({ line_items: [line], client_id: f.clientId, issue_date: '2026-05-06', notes: 'Revised', version: 1 }),
  'POST /invoices/{id}/void': () => ({ reason: 'Raised in error' }),
  'POST /invoices/{id}/send': () => ({ to: 'accounts@kowhai.example.nz', cc: ['a@example.nz'], subject: 'Your invoice', message: 'Kia ora' }),
  'POST /invoices/{id}/mark-paid': () => ({ date: '2026-05-06', method: 'cash', reference: 'Paid on site' }),
  'POST /invoices/{id}/payments': () => ({ amount: 10.5, date: '2026-05-06', method: 'bank_transfer', reference: 'INV-0003' }),
  'POST /reports/export-links': () => ({ kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30', basis: 'payments', year: 2026 }),
  'POST /templates': () => ({ name: 'Bathroom refit', type: 'quote', line_items: [{ description: 'Labour', qty: 8, unit_price: 95.5, tax_included: false, tax_rate: 0.15 }], profit_margin_percent: 25 }),
  'PUT /templates/{id}': () => ({ name: 'Bathroom refit', line_items: [], version: 1 }),
  'POST /price-book/items': () => ({ name: 'Copper pipe 15 mm', unit: 'm', cost: 3.8, supplier: 'Plumbing World', supplier_code: 'CP15' }),
  'PUT /price-book/items/{id}': () => ({ name: 'Copper pipe 15 mm', unit: 'm', cost: 4.1, version: 1 }),
  'POST /costs': () => ({ kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-05', amount: '86.25', gst: 'standard', category: 'materials', note: 'Fittings' }),
  'PUT /costs/{id}': () => ({ kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', amount: '90.00', version: 1 }),
  'PATCH /invoices/{id}/photos/{photoId}': () => ({ in_pdf: true }),
  'PUT /integrations/xero/bill-accounts': () => ({ category: 'fuel', code: '429' }),
  'POST /hours': () => ({ who: 'owner', date: '2026-05-05', hours: '3', rate: '45.00', note: 'Rough-in' }),
  'PUT /hours/{id}': () => ({ date: '2026-05-05', hours: '2.5', rate: '45.00', version: 1 }),
  'POST /recurring-costs': () => ({ supplier: 'One NZ', amount: '65.00', gst: 'standard', supply_information_held: true, category: 'other', note: 'Phone', frequency: 'monthly', start_date: '2026-05-05', end_date: null, paid_on_date: true }),
  'PUT /business-settings': () => ({ business_name: 'Sparky Ltd', gst_number: '49-091-850', email: 'me@example.nz', gst_rounding: 'total', default_currency: 'NZD', enable_multi_currency: false, cc_email: '' }),
  'POST /billing/webhook': () => ({ id: 'evt_fuzz', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_1', client_reference_id: 'x' } } }),
  'POST /public/quotes/{token}/accept': () => ({ signer_name: 'Jo Bloggs', terms_accepted: true, shown_sha256: '0'.repeat(64), version: 1 }),
  'POST /public/quotes/{token}/decline': () => ({ reasons: ['price'], note: 'Too dear for now' }),
  'POST /public/quotes/{token}/changes': () => ({ note: 'Could the tap be chrome?' }),
  'PUT /reminders/settings': () => ({ enabled: true, minimum_balance: 5, steps: [{ id: 'due', offset_days: 0, subject: 'Invoice [Invoice Number] is due', message: 'Please pay [Balance].' }] }),
  'PUT /reminders/invoices/{id}/paused': () => ({ paused: true }),
  'PUT /reminders/clients/{id}': () => ({ no_reminders: true }),
  'PUT /payments/settings': () => ({ surcharge_enabled: true, surcharge_percent: 2.5 }),
  'POST /invoices/{id}/stages': () => ({ kind: 'deposit', percent: '30' }),
  'POST /invoices/{id}/variations': () => ({ line: { description: 'Extra socket', qty: 1, unit_price: 85, tax_included: false, tax_rate: 0.15 } }),
  'POST /invoices/{id}/variations/{variationId}/send': () => ({ subject: 'Variation 1', message: 'Kia ora' }),
  'POST /public/quotes/{token}/variations/{variationId}/accept': () => ({ signer_name: 'Jo Bloggs', shown_sha256: '0'.repeat(64) }),
  'POST /public/quotes/{token}/variations/{variationId}/decline': () => ({ note: 'Not this year' }),
  'POST /invoices/{id}/credit-notes': () => ({ lines: [{ line_index: 0 }], reason: 'Returned part' }),
  'POST /invoices/{id}/price-book-moves/update': () => ({ line_index: 0, version: 1 }),
  'POST /credit-notes/{id}/refunds': () => ({ amount: 10, date: '2026-05-06', method: 'bank_transfer', reference: 'Refund' }),
  'POST /credit-notes/{id}/send': () => ({ to: 'accounts@kowhai.example.nz', subject: 'Your credit note', message: 'Kia ora' }),
  'PUT /invoices/{id}/payment-claim': () => ({ contract_reference: 'GB-7', contract_date: '2026-04-20', site: '1 Main Road', work: 'Framing', period_from: '2026-04-20', period_to: '2026-05-04', retention_percent: 5, due_date_choice: 'act' }),
  'POST /invoices/{id}/payment-schedules': () => ({ received_on: '2026-05-12', scheduled_amount: 10, reasons: 'Part done' }),
  'POST /invoices/{id}/retention-releases': () => ({ amount: 1, date: '2026-09-01' }),
  'PUT /payment-claims/clients/{id}': () => ({ payment_claims: true }),
};

/** A valid query per route. */
const QUERY: Record<string, (f: Fixtures) => Record<string, string>> = {
  'GET /clients': () => ({ q: 'kōwhai', limit: '10' }),
  'GET /invoices': (f) => ({ type: 'invoice', status: 'draft,sent,paid', client_id: f.clientId, q: 'inv', from: '2026-01-01', to: '2026-12-31', limit: '10', cursor: '' }),
  'GET /reports/gst': () => ({ start_date: '2026-04-01', end_date: '2026-06-30', basis: 'payments' }),
  'GET /reports/export/gst-csv': () => ({ start_date: '2026-04-01', end_date: '2026-06-30', basis: 'invoice' }),
  'GET /reports/annual': () => ({ year: '2026' }),
  'GET /reports/export/annual-csv': () => ({ year: '2026' }),
  'GET /invoices/{id}/pdf': () => ({ download: '1' }),
  'GET /business-settings/logo': () => ({ v: '0123456789abcdef', a: 'x', exp: '9999999999', sig: 'AAAA' }),
  'GET /integrations/xero/callback': () => ({ state: 'made-up', code: 'made-up' }),
};

/** A valid JSON body for the route, or undefined when none is listed (a route without a body needs none). */
export const validBody = (op: Operation, f: Fixtures, n = 0): Record<string, unknown> | undefined => BODY[opKey(op)]?.(f, n);
export const validQuery = (op: Operation, f: Fixtures): Record<string, string> | undefined => QUERY[opKey(op)]?.(f);
