// What comes back without a webhook, and within Xero's limits: the poll asks Xero only for the
// invoices changed since it last began (If-Modified-Since) and queues a read of each one synced
// here; and a burst of webhook events spends no more of the organisation's calls a minute than
// its budget (the app's is below Xero's 60; here a smaller one), the rest put off to the next
// minute and done then.
import { xeroWebhookDelivery } from '@tradie/testkit/fake-xero';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { pollXero } from '../../../src/integrations/xero/poll.ts';
import { connectedUser, makeDocument, runOutbox, sendCmd, startXeroApp, type User, type XeroTestApp } from './support.ts';

const WEBHOOK_KEY = 'whk_poll_51c2';
/** A budget small enough that a burst meets it (the app's own is XERO_CALLS_PER_MINUTE, below Xero's 60). */
const BUDGET_PER_MINUTE = 10;
let x: XeroTestApp;
beforeAll(async () => {
  x = await startXeroApp({ adapter: { paymentsAccountCode: '090' }, env: { XERO_WEBHOOK_KEY: WEBHOOK_KEY }, budget: { perMinute: BUDGET_PER_MINUTE } });
});
afterAll(() => x?.close());

const paymentsHere = async (user: User, id: string) => (await loadDocument(x.t.deps.store, user.userId, id)).state.payments;
const listReads = () => x.fake.state.requests.filter((r) => r.method === 'GET' && /\/Invoices\?/.test(r.url));

/** A sent invoice synced to Xero; the clock then moves a minute on, so setting up spends no burst's budget. */
async function synced(user: User) {
  const doc = await makeDocument(x.t, user, { then: [sendCmd] });
  expect((await x.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
  x.clock.advance(60_000);
  return { doc, inv: x.fake.state.invoices.find((i) => i.Reference === doc.reference)! };
}

describe('the poll (webhooks off)', () => {
  it('brings a payment made in Xero here within one poll, asking Xero only for what changed since the last poll began', async () => {
    const user = await connectedUser(x);
    const { doc, inv } = await synced(user);
    const untouched = await synced(user);
    x.clock.advance(60_000);
    await pollXero(x.t.deps);
    await runOutbox(x);

    x.clock.advance(60_000);
    x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12', reference: 'ANZ 0412' });
    x.clock.advance(60_000);
    const before = listReads().length;
    const polled = await pollXero(x.t.deps);
    expect(polled).toMatchObject({ queued: 1, failed: 0 });
    const read = listReads().slice(before);
    expect(read.length).toBeGreaterThan(0);
    expect(read.every((r) => typeof r.headers['if-modified-since'] === 'string')).toBe(true);

    await runOutbox(x);
    expect((await paymentsHere(user, doc.id)).map((p) => p.amount)).toEqual(['465.75']);
    expect(await paymentsHere(user, untouched.doc.id)).toEqual([]);

    // Nothing changed since: the next poll queues nothing, and nothing is recorded twice.
    x.clock.advance(60_000);
    expect(await pollXero(x.t.deps)).toMatchObject({ queued: 0, failed: 0 });
    await runOutbox(x);
    expect(await paymentsHere(user, doc.id)).toHaveLength(1);
  });
});

describe("the organisation's call budget", () => {
  it('100 webhook events in a burst: no minute spends more than the budget, the rest waits for the next minute, and every payment comes back', { timeout: 120_000 }, async () => {
    const user = await connectedUser(x);
    const tenantId = (await x.t.get('/integrations/xero/status', user.token)).json.tenant_id as string;
    const invoices: Awaited<ReturnType<typeof synced>>[] = [];
    for (let i = 0; i < 12; i++) invoices.push(await synced(user));
    for (const { inv } of invoices) x.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12' });

    // Ten deliveries a second apart, 100 events: each invoice changed again and again.
    const start = x.clock.now().getTime();
    for (let d = 0; d < 10; d++) {
      const events = Array.from({ length: 10 }, (_, i) => ({ tenantId, resourceId: invoices[(d + i) % invoices.length]!.inv.InvoiceID }));
      const delivery = xeroWebhookDelivery(WEBHOOK_KEY, events, new Date(start + d * 1000));
      const res = await x.t.call('POST', '/integrations/xero/webhook', { body: delivery.body, headers: { 'Content-Type': 'application/json', 'x-xero-signature': delivery.signature } });
      expect(res.status).toBe(200);
    }
    const paid = async () => (await Promise.all(invoices.map(({ doc }) => paymentsHere(user, doc.id)))).filter((p) => p.length > 0).length;
    const waiting = async () => (await x.t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE reaction = 'xero-pull' AND done_at IS NULL AND account_id = $1", [user.userId]))[0]?.n ?? 0;
    const minute = Math.floor(x.clock.now().getTime() / 60_000);
    await runOutbox(x);
    expect(x.fake.callsByMinute(tenantId).get(minute)).toBe(BUDGET_PER_MINUTE);
    expect(await waiting()).toBeGreaterThan(0);
    for (let m = 0; m < 15 && (await waiting()) > 0; m++) {
      x.clock.advance(60_000);
      await runOutbox(x);
    }
    expect(await waiting()).toBe(0);
    expect(await paid()).toBe(12);
    expect(Math.max(...x.fake.callsByMinute(tenantId).values())).toBeLessThanOrEqual(BUDGET_PER_MINUTE);
  });
});
