// Two API processes on one PostgreSQL database, one fake Xero: the same signed webhook delivered
// to both at once (Xero redelivers, and a load balancer may spread the copies) queues one read,
// the two outboxes running at once read Xero once and record the payment made there exactly once,
// and the push sends nothing back.
import { xeroWebhookDelivery } from '@tradie/testkit/fake-xero';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { xeroCallBudget } from '../../../src/integrations/xero/callBudget.ts';
import { connectedUser, makeDocument, runOutbox, sendCmd, xeroCalls, type XeroTestApp } from './support.ts';
import { twoProcesses } from './twoProcesses.ts';

const WEBHOOK_KEY = 'whk_pg_4e1a';
const apps = twoProcesses('xero_webhook', { XERO_WEBHOOK_KEY: WEBHOOK_KEY });
const { clock } = apps;

describe('two API processes, one database', () => {
  it('one signed delivery to both at once: the payment made in Xero is recorded once, and not pushed back', async () => {
    const user = await connectedUser(apps.one);
    const doc = await makeDocument(apps.one.t, user, { then: [sendCmd] });
    expect((await apps.one.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
    const inv = apps.fake.state.invoices.find((i) => i.Reference === doc.reference)!;
    const tenantId = (await apps.one.t.get('/integrations/xero/status', user.token)).json.tenant_id as string;
    const there = apps.fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12' });
    const puts = xeroCalls(apps.fake, 'PUT', 'Payments').length;

    const d = xeroWebhookDelivery(WEBHOOK_KEY, [{ tenantId, resourceId: inv.InvoiceID }], clock.now());
    const post = (x: XeroTestApp) => x.t.call('POST', '/integrations/xero/webhook', { body: d.body, headers: { 'Content-Type': 'application/json', 'x-xero-signature': d.signature } });
    const answers = await Promise.all([post(apps.one), post(apps.two), post(apps.one)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await post(apps.two)).status).toBe(200);
    const rows = await apps.one.t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE reaction = 'xero-pull' AND account_id = $1", [user.userId]);
    expect(rows[0]?.n).toBe(1);
    const reads = () => apps.fake.state.requests.filter((r) => r.method === 'GET' && r.url.includes(inv.InvoiceID)).length;
    const before = reads();
    await Promise.all([runOutbox(apps.one), runOutbox(apps.two), runOutbox(apps.one)]);
    expect(reads()).toBe(before + 1);

    const payments = (await loadDocument(apps.two.t.deps.store, user.userId, doc.id)).state.payments;
    expect(payments.map((p) => [p.amount, p.source?.externalId])).toEqual([['465.75', there.PaymentID]]);
    expect(xeroCalls(apps.fake, 'PUT', 'Payments')).toHaveLength(puts);
  });

  it("the organisation's call budget holds across both processes: of 20 calls taken at once with 5 a minute left, 5 go", async () => {
    const budget = (x: XeroTestApp) => xeroCallBudget(() => x.t.deps.store.db, () => clock.now(), { perMinute: 5 });
    const takes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => budget(i % 2 === 0 ? apps.one : apps.two).take('tenant-budget-pg')));
    expect(takes.filter((t) => t.status === 'fulfilled')).toHaveLength(5);
    const refused = takes.find((t) => t.status === 'rejected');
    expect(refused?.status === 'rejected' ? refused.reason : null).toMatchObject({ kind: 'rate_limited' });
  });
});
