// The API with the real Xero adapter pointed at a fake Xero on loopback, sharing the app's test
// clock; the adapter's waits are recorded, never slept. Invoices are made by appending the
// domain's own events through the store (the documents API is another feature's).
import { afterAll, beforeAll } from 'vitest';
import { documentDecider, type DocumentCommand, type LineInput, linesSchema } from '@tradie/domain';
import { type FakeXero, type FakeXeroOptions, startFakeXero } from '@tradie/testkit/fake-xero';
import { decideAndAppend, eventMeta, execute, loadStream } from '../../../src/commands.ts';
import type { Sql } from '@tradie/store';
import type { XeroConfig } from '../../../src/integrations/xero/index.ts';
import { xeroCallBudget } from '../../../src/integrations/xero/callBudget.ts';
import { outboxProcessor, type RunResult } from '../../../src/reactions/outbox.ts';
import { REACTIONS } from '../../../src/reactions/registry.ts';
import { createTestApp, signUp, type TestApp, TestClock } from '../../support/testApp.ts';
import { client, defaultLines } from './documents.ts';
import { adapterOnFake, REDIRECT_URI } from './fakeXero.ts';

export { REDIRECT_URI };

export interface XeroTestApp {
  t: TestApp;
  fake: FakeXero;
  clock: TestClock;
  /** Every wait the adapter asked for, in ms. */
  sleeps: number[];
  /** Everything the app logged. */
  logs: { level: string; message: string; extra?: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startXeroApp(
  opts: { fake?: FakeXeroOptions; adapter?: Partial<XeroConfig>; databaseUrl?: string; clock?: TestClock; sharedFake?: FakeXero; env?: Record<string, string>; mailKind?: 'smtp'; budget?: { perMinute?: number; perDay?: number } } = {},
): Promise<XeroTestApp> {
  const clock = opts.clock ?? new TestClock('2026-05-04T21:30:00.000Z');
  const fake = opts.sharedFake ?? (await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now(), ...opts.fake }));
  const sleeps: number[] = [];
  // The organisation's call budget in the app's own database (bound once the app is made), as main.ts wires it.
  let db: Sql | null = null;
  const budget = opts.budget ? xeroCallBudget(() => {
    if (!db) throw new Error('the test app is not started yet');
    return db;
  }, () => clock.now(), opts.budget) : undefined;
  const accounting = adapterOnFake(fake, () => clock.now(), sleeps, { ...opts.adapter, ...(budget ? { budget } : {}) });
  // Tests move the clock past Xero's 30-minute tokens: our own sign-in must outlive that.
  const env = { ACCESS_TOKEN_TTL_SECONDS: String(7 * 24 * 3600), ...opts.env };
  const logs: XeroTestApp['logs'] = [];
  const log = (level: string, message: string, extra?: Record<string, unknown>) => {
    logs.push({ level, message, ...(extra ? { extra } : {}) });
  };
  const t = await createTestApp({ clock, env, overrides: { accounting, log }, ...(opts.mailKind ? { mailKind: opts.mailKind } : {}), ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) });
  db = t.deps.store.db;
  return {
    t,
    fake,
    clock,
    sleeps,
    logs,
    async close() {
      await t.close();
      if (!opts.sharedFake) await fake.stop();
    },
  };
}

export type User = Awaited<ReturnType<typeof signUp>>;

/** Runs the outbox's due rows now, as its sweep would (the reads a webhook or the poll queued). */
export const runOutbox = (x: XeroTestApp): Promise<RunResult> => outboxProcessor(x.t.deps, REACTIONS).runDue();

/**
 * Starts, before the file's tests, the Xero app and a bare app (no Xero configured), hands them to
 * `use`, and closes both after the tests.
 */
export function xeroAndBareApps(use: (apps: { x: XeroTestApp; bare: TestApp }) => void): void {
  const apps: { x?: XeroTestApp; bare?: TestApp } = {};
  beforeAll(async () => {
    apps.x = await startXeroApp();
    apps.bare = await createTestApp();
    use({ x: apps.x, bare: apps.bare });
  });
  afterAll(async () => {
    await apps.x?.close();
    await apps.bare?.close();
  });
}

/**
 * The Connect cookie an answer sets, as the browser would send it back ('xero_connect=…'), or ''
 * when there is none. The browser keeps the cookie from /authorize and sends it to the callback.
 */
export function connectCookie(res: { headers: Headers }): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('xero_connect='));
  return set ? (set.split(';')[0] ?? '') : '';
}

/** GET on the callback as a browser holding `cookie` ('' = a browser without it). */
export const callbackWith = (t: TestApp, pathAndQuery: string, cookie: string) => t.call('GET', pathAndQuery, cookie ? { headers: { Cookie: cookie } } : {});

/** Follows the Connect window: our authorize → the fake's consent → its redirect back to our callback, in the browser that pressed Connect. */
export async function connectXero(x: XeroTestApp, user: User): Promise<{ callback: Awaited<ReturnType<TestApp['get']>>; state: string; code: string; cookie: string }> {
  const auth = await x.t.get('/integrations/xero/authorize', user.token);
  if (auth.status !== 200) throw new Error(`authorize: ${auth.status} ${auth.text}`);
  const cookie = connectCookie(auth);
  const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  const callback = await callbackWith(x.t, `${back.pathname}${back.search}`, cookie);
  return { callback, state: back.searchParams.get('state') ?? '', code: back.searchParams.get('code') ?? '', cookie };
}

export const aroha = { ...client, id: 'client-aroha' };

let invoiceSeq = 0;

/** A fresh reference: every test's invoices land in the one fake Xero organisation, whose invoice numbers are unique. */
export const nextReference = (prefix = 'INV'): string => `${prefix}-${String(++invoiceSeq).padStart(4, '0')}`;

export async function command(t: TestApp, user: User, documentId: string, cmd: DocumentCommand): Promise<void> {
  await execute(t.deps, async (tx) => {
    const loaded = await loadStream(tx, `document-${documentId}`, documentDecider);
    await decideAndAppend(tx, loaded, documentDecider, cmd, eventMeta(t.deps, { accountId: user.userId, userId: user.userId }));
  });
}

/** A new user (GST-registered unless `gst` is false: then with no GST number) whose Connect went through. */
export async function connectedUser(x: XeroTestApp, gst = true): Promise<User> {
  const user = await signUp(x.t, 'Aroha Tamihana', { gst: 'new' });
  if (gst) await setGstNumber(x.t, user);
  const { callback } = await connectXero(x, user);
  if (callback.status !== 200) throw new Error(`connect failed: ${callback.text}`);
  return user;
}

export async function makeDocument(
  t: TestApp,
  user: User,
  opts: { type?: 'invoice' | 'quote'; lines?: LineInput[]; reference?: string; client?: typeof aroha | null; then?: DocumentCommand[]; gstRegistered?: boolean } = {},
): Promise<{ id: string; reference: string }> {
  const id = t.deps.ids.uuid();
  const reference = opts.reference ?? nextReference(opts.type === 'quote' ? 'QTE' : 'INV');
  const lines = linesSchema.parse(opts.lines ?? defaultLines);
  await command(t, user, id, {
    type: 'DraftDocument',
    data: {
      documentId: id, type: opts.type ?? 'invoice', number: invoiceSeq, reference, client: opts.client === undefined ? aroha : opts.client, lines, gstRounding: 'total', issueDate: '2026-05-05', paymentTerms: '7 days',
      ...(opts.gstRegistered !== undefined ? { gstRegistered: opts.gstRegistered } : {}),
    },
  });
  for (const c of opts.then ?? []) await command(t, user, id, c);
  return { id, reference };
}

export const sendCmd: DocumentCommand = { type: 'SendDocument', data: { to: ['aroha@example.nz'], cc: [], bcc: [], subject: 'Invoice' } };
export const payCmd = (paymentId: string, amount: string, date = '2026-05-06'): DocumentCommand => ({ type: 'RecordPayment', data: { paymentId, amount, date, method: 'bank_transfer', reference: '' } });
export const voidCmd: DocumentCommand = { type: 'VoidDocument', data: { reason: 'Raised in error' } };

export async function setGstNumber(t: TestApp, user: User, gstNumber = '123-456-789'): Promise<void> {
  await t.deps.store.db.query('INSERT INTO business_settings (account_id, gst_number) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET gst_number = EXCLUDED.gst_number', [user.userId, gstNumber]);
}

export const xeroCalls = (fake: FakeXero, method: string, resource: string) =>
  fake.state.requests.filter((r) => r.method === method && new URL(r.url, 'http://x').pathname === `/api/api.xro/2.0/${resource}`);

export const tokenCalls = (fake: FakeXero, grantType: 'refresh_token' | 'authorization_code') =>
  fake.state.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/identity/connect/token') && new URLSearchParams(r.body).get('grant_type') === grantType);

/** Waits (without a deadline of its own: the test's timeout is the limit) until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 5));
}

export { signUp };
