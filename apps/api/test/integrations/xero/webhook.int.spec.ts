// Xero's webhooks: the Intent to Receive check (200 signed, 401 otherwise), a forged, tampered or
// oversized delivery changes nothing, and a signed invoice event is queued once (answered before
// Xero is read) and brings a payment made in Xero here once through the outbox — for the account
// connected to that organisation only; Xero's 429 puts the read off until its Retry-After.
import { type FakeWebhookEvent, xeroWebhookDelivery } from '@tradie/testkit/fake-xero';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { xeroSignatureValid } from '../../../src/integrations/xero/webhook.ts';
import { connectedUser, makeDocument, runOutbox, sendCmd, startXeroApp, type User, type XeroTestApp } from './support.ts';

const WEBHOOK_KEY = 'whk_test_9c0b1d7e3f';
let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' }, env: { XERO_WEBHOOK_KEY: WEBHOOK_KEY } });
});
afterAll(() => x?.close());

const deliver = (body: string, signature: string | null) =>
  x.t.call('POST', '/integrations/xero/webhook', { body, headers: { 'Content-Type': 'application/json', ...(signature === null ? {} : { 'x-xero-signature': signature }) } });
const signed = (events: FakeWebhookEvent[], key = WEBHOOK_KEY) => {
  const d = xeroWebhookDelivery(key, events, x.clock.now());
  return deliver(d.body, d.signature);
};
const paymentsHere = async (user: User, id: string) => (await loadDocument(x.t.deps.store, user.userId, id)).state.payments;
const tenantOf = async (user: User) => (await x.t.get('/integrations/xero/status', user.token)).json.tenant_id as string;

async function syncedInvoice() {
  const user = await connectedUser(x);
  const doc = await makeDocument(x.t, user, { then: [sendCmd] });
  expect((await x.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
  const inv = x.fake.state.invoices.find((i) => i.Reference === doc.reference)!;
  return { user, doc, inv, tenantId: await tenantOf(user) };
}

describe('the signature', () => {
  it("is the base64 HMAC-SHA256 of the raw body with the webhook key (Xero's documented example shape)", () => {
    const { body, signature } = xeroWebhookDelivery(WEBHOOK_KEY, []);
    const bytes = new TextEncoder().encode(body);
    expect(xeroSignatureValid(bytes, signature, WEBHOOK_KEY)).toBe(true);
    expect(xeroSignatureValid(bytes, signature, 'another key')).toBe(false);
    expect(xeroSignatureValid(new TextEncoder().encode(`${body} `), signature, WEBHOOK_KEY)).toBe(false);
    expect(xeroSignatureValid(bytes, undefined, WEBHOOK_KEY)).toBe(false);
    expect(xeroSignatureValid(bytes, `${signature}=`, WEBHOOK_KEY)).toBe(false);
    expect(xeroSignatureValid(bytes, signature, '')).toBe(false);
  });
});

describe('POST /integrations/xero/webhook', () => {
  it("answers Xero's Intent to Receive: 200 for the correctly signed delivery, 401 with an empty body for the wrongly signed one", async () => {
    const good = await signed([]);
    expect(good.status).toBe(200);
    const forged = await signed([], 'not the key');
    expect(forged.status).toBe(401);
    expect(forged.text).toBe('');
    const unsigned = await deliver(xeroWebhookDelivery(WEBHOOK_KEY, []).body, null);
    expect(unsigned.status).toBe(401);
  });

  it('a signed invoice event brings a payment made in Xero here once; a redelivery records nothing more', async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    const there = x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12', reference: 'ANZ 0412' });
    const event = { tenantId, resourceId: inv.InvoiceID };

    expect((await signed([event, event])).status).toBe(200);
    await runOutbox(x);
    expect((await paymentsHere(user, doc.id)).map((p) => [p.amount, p.source?.externalId])).toEqual([['465.75', there.PaymentID]]);
    expect((await x.t.get(`/invoices/${doc.id}`, user.token)).json).toMatchObject({ payment_status: 'paid', balance: 0 });

    expect((await signed([event])).status).toBe(200);
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);
  });

  it('answers before Xero is read: the read is queued in the outbox once per event, and the same event delivered again queues nothing', async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12' });
    const reads = () => x.fake.state.requests.filter((r) => r.method === 'GET' && r.url.includes(inv.InvoiceID)).length;
    const queued = () => x.t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE reaction = 'xero-pull' AND account_id = $1", [user.userId]);
    const before = reads();
    // One event as Xero would redeliver it: the very same delivery twice.
    const d = xeroWebhookDelivery(WEBHOOK_KEY, [{ tenantId, resourceId: inv.InvoiceID }], x.clock.now());
    for (let i = 0; i < 2; i++) expect((await deliver(d.body, d.signature)).status).toBe(200);
    expect(reads()).toBe(before);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
    expect((await queued())[0]?.n).toBe(1);

    expect(await runOutbox(x)).toMatchObject({ failed: 0 });
    expect(reads()).toBe(before + 1);
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);
    // Delivered again after it was done: still the one row, nothing read.
    expect((await deliver(d.body, d.signature)).status).toBe(200);
    await runOutbox(x);
    expect(reads()).toBe(before + 1);
    expect((await queued())[0]?.n).toBe(1);
  });

  it("Xero's 429 puts the read off until its Retry-After, spending no attempt; it is done then", async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12' });
    x.fake.failNext(`GET /Invoices/${inv.InvoiceID}`, 429, { 'Retry-After': '600', 'X-Rate-Limit-Problem': 'minute' });
    expect((await signed([{ tenantId, resourceId: inv.InvoiceID }])).status).toBe(200);
    await runOutbox(x);
    const [row] = await x.t.deps.store.db.query<{ attempts: number; next_attempt_at: Date | string; done_at: unknown }>(
      "SELECT attempts, next_attempt_at, done_at FROM outbox WHERE reaction = 'xero-pull' AND account_id = $1", [user.userId],
    );
    expect(row).toMatchObject({ attempts: 0, done_at: null });
    expect(new Date(row!.next_attempt_at).getTime()).toBe(x.clock.now().getTime() + 600_000);
    expect(await paymentsHere(user, doc.id)).toEqual([]);

    x.clock.advance(600_000);
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);
  });

  it('a forged, tampered or oversized delivery changes nothing and reads nothing from Xero', async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '100.00', date: '2026-05-12' });
    const reads = () => x.fake.state.requests.filter((r) => r.method === 'GET' && r.url.includes(inv.InvoiceID)).length;
    const before = reads();

    expect((await signed([{ tenantId, resourceId: inv.InvoiceID }], 'guessed-key')).status).toBe(401);
    const d = xeroWebhookDelivery(WEBHOOK_KEY, [{ tenantId: 'another-tenant', resourceId: inv.InvoiceID }]);
    expect((await deliver(d.body.replace('another-tenant', tenantId), d.signature)).status).toBe(401);
    const big = xeroWebhookDelivery(WEBHOOK_KEY, Array.from({ length: 400 }, () => ({ tenantId, resourceId: inv.InvoiceID })));
    expect((await deliver(big.body, big.signature)).status).toBe(413);
    expect(reads()).toBe(before);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
  });

  it("an event from another organisation, or for a disconnected account, touches no account's invoice", async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '100.00', date: '2026-05-12' });
    // Another account connected to the same organisation did not sync this invoice: it gets nothing either.
    const other = await connectedUser(x);
    expect(await tenantOf(other)).toBe(tenantId);

    expect((await signed([{ tenantId: '6a1c0f2e-0000-4000-8000-000000000001', resourceId: inv.InvoiceID }])).status).toBe(200);
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
    await x.t.del('/integrations/xero/disconnect', user.token);
    expect((await signed([{ tenantId, resourceId: inv.InvoiceID }])).status).toBe(200);
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
  });

  it('an account closed (deleted, waiting for its purge) takes nothing from Xero, still connected or not', async () => {
    const { user, doc, inv, tenantId } = await syncedInvoice();
    x.fake.payInXero(inv.InvoiceID, { amount: '100.00', date: '2026-05-12' });
    await x.t.deps.store.db.query('INSERT INTO account_deletions (account_id, email, requested_at, purge_after) VALUES ($1, $2, $3, $3)', [user.userId, 'closed@example.nz', x.clock.now().toISOString()]);
    expect((await signed([{ tenantId, resourceId: inv.InvoiceID }])).status).toBe(200);
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toEqual([]);
  });
});
