// Two API processes on one PostgreSQL database, one fake Xero: the same signed webhook delivered
// to both at once (Xero redelivers, and a load balancer may spread the copies) records a payment
// made in Xero exactly once, and the push sends nothing back.
import { startFakeXero, type FakeXero, xeroWebhookDelivery } from '@tradie/testkit/fake-xero';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/documents/repository.ts';
import { TestClock } from '../../support/testApp.ts';
import { connectedUser, makeDocument, REDIRECT_URI, sendCmd, startXeroApp, xeroCalls, type XeroTestApp } from './support.ts';

const WEBHOOK_KEY = 'whk_pg_4e1a';
let fake: FakeXero;
let one: XeroTestApp;
let two: XeroTestApp;
const clock = new TestClock('2026-05-04T21:30:00.000Z');

beforeAll(async () => {
  fake = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now() });
  const databaseUrl = await freshDatabaseUrl('xero_webhook');
  const env = { XERO_WEBHOOK_KEY: WEBHOOK_KEY };
  one = await startXeroApp({ databaseUrl, clock, sharedFake: fake, env });
  two = await startXeroApp({ databaseUrl, clock, sharedFake: fake, env });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await fake?.stop();
});

describe('two API processes, one database', () => {
  it('one signed delivery to both at once: the payment made in Xero is recorded once, and not pushed back', async () => {
    const user = await connectedUser(one);
    const doc = await makeDocument(one.t, user, { then: [sendCmd] });
    expect((await one.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token)).status).toBe(200);
    const inv = fake.state.invoices.find((i) => i.Reference === doc.reference)!;
    const tenantId = (await one.t.get('/integrations/xero/status', user.token)).json.tenant_id as string;
    const there = fake.payInXero(inv.InvoiceID, { amount: '465.75', date: '2026-05-12' });
    const puts = xeroCalls(fake, 'PUT', 'Payments').length;

    const d = xeroWebhookDelivery(WEBHOOK_KEY, [{ tenantId, resourceId: inv.InvoiceID }], clock.now());
    const post = (x: XeroTestApp) => x.t.call('POST', '/integrations/xero/webhook', { body: d.body, headers: { 'Content-Type': 'application/json', 'x-xero-signature': d.signature } });
    const answers = await Promise.all([post(one), post(two), post(one)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // Whichever process was busy with the invoice left it to the other; a later delivery finds it done.
    expect((await post(two)).status).toBe(200);

    const payments = (await loadDocument(two.t.deps.store, user.userId, doc.id)).state.payments;
    expect(payments.map((p) => [p.amount, p.source?.externalId])).toEqual([['465.75', there.PaymentID]]);
    expect(xeroCalls(fake, 'PUT', 'Payments')).toHaveLength(puts);
  });
});
