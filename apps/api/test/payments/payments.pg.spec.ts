// Card payments on a real PostgreSQL server (postgres.js), where requests really run at once: the
// per-invoice lock makes one payable session from many taps, and the session's event, its
// redeliveries and the PaymentIntent backstop arriving together record one payment.
import { startFakeStripe, type FakeStripe } from '@tradie/testkit/fake-stripe';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeConnect } from '../../src/integrations/stripe/connect.ts';
import { parseApiBase } from '../../src/integrations/stripe/index.ts';
import { documentFor, publicClient, sendAndReadLink } from '../clientLinks/support.ts';
import { line } from '../documents/support.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

const KEY = 'sk_test_connect_platform_pg';
const CONNECT_WHSEC = 'whsec_connect_endpoint_pg';

describe('card payments on PostgreSQL', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  let t: TestApp;
  let fake: FakeStripe;

  beforeAll(async () => {
    fake = await startFakeStripe({
      webhookSecret: 'whsec_billing_pg', connectWebhookSecret: CONNECT_WHSEC, connectWebhookUrl: 'http://app.test/api/v1/payments/webhook',
      secretKey: KEY, now: () => clock.now(), fetch: async (req) => t.app.fetch(req),
    });
    const connect = createStripeConnect({ secretKey: KEY, connectWebhookSecret: CONNECT_WHSEC, api: parseApiBase(fake.url), maxNetworkRetries: 0 }, { now: () => clock.now() });
    t = await createTestApp({ clock, databaseUrl: await freshDatabaseUrl('payments'), overrides: { connect } });
  });
  afterAll(async () => {
    await fake.stop();
    await t.close();
  });

  it('many taps at once make one session; the events arriving together record one payment', async () => {
    const u = await signUp(t);
    const onboarding = (await t.post('/payments/connect', undefined, u.token)).json.onboarding_url as string;
    await fetch(`${onboarding}/complete`, { method: 'POST', redirect: 'manual' });
    const inv = await documentFor(t, u, 'invoice', { line_items: [line('Callout', 1, 100)] });
    const { token } = await sendAndReadLink(t, u, inv.id);
    const c = publicClient(t);

    const taps = await Promise.all(Array.from({ length: 5 }, () => c.post(`/invoices/${token}/checkout`)));
    expect(taps.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(taps.map((r) => r.json.checkout_url)).size).toBe(1);
    expect(await t.deps.store.db.query('SELECT status FROM payment_checkout_sessions WHERE document_id = $1', [inv.id])).toEqual([{ status: 'open' }]);

    const sessionId = (taps[0]!.json.checkout_url as string).split('/').at(-1)!;
    await fake.completeConnectCheckout(sessionId, { events: [] });
    const session = { ...fake.connectSessions.get(sessionId)!, account: undefined };
    const pi = { ...fake.paymentIntents.get(session.payment_intent!)!, account: undefined };
    const account = fake.connectSessions.get(sessionId)!.account;
    const deliveries = await Promise.all([
      fake.sendConnectEvent('checkout.session.completed', session, account),
      fake.sendConnectEvent('checkout.session.completed', session, account),
      fake.sendConnectEvent('payment_intent.succeeded', pi, account),
      fake.sendConnectEvent('payment_intent.succeeded', pi, account),
    ]);
    expect(deliveries.map((d) => d.delivery.status)).toEqual([200, 200, 200, 200]);
    const payments = (await t.get(`/invoices/${inv.id}/payments`, u.token)).json as { amount: number; method: string }[];
    expect(payments).toEqual([expect.objectContaining({ amount: 115, method: 'card' })]);
  });
});
