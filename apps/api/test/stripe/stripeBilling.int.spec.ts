// The Stripe adapter against the fake Stripe server on loopback: the official SDK's real
// requests, the fake's real signed webhooks, the SDK's own signature check.
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '@tradie/testkit/fake-stripe';
import {
  BillingNotConfiguredError,
  BillingRejectedError,
  BillingUnavailableError,
  billingFromEnv,
  createStripeBilling,
  parseApiBase,
  reduceBillingEvents,
  stripeConfigFromEnv,
  subscriptionStatus,
  type BillingEvent,
  type BillingProvider,
  type StripeBillingConfig,
} from '../../src/integrations/stripe/index.ts';

const NOW = new Date('2026-11-05T09:00:00Z');
/** One clock for the fake and the adapter; a test may move it on (reset before each test). */
let clock = NOW;
const now = (): Date => clock;
const advanceDays = (days: number): void => {
  clock = new Date(clock.getTime() + days * 86_400_000);
};
const T = Math.floor(NOW.getTime() / 1000);
const WHSEC = 'whsec_test_0123456789abcdef';
const KEY = 'sk_test_fake_key_123';
const PRICE = 'price_full_access_nzd750';

let fake: FakeStripe;
let config: StripeBillingConfig;
let billing: BillingProvider;
/** Webhooks the fake sent, captured instead of POSTed to a server. */
let received: { body: string; signature: string }[] = [];

beforeAll(async () => {
  fake = await startFakeStripe({
    webhookSecret: WHSEC,
    webhookUrl: 'http://api.test/api/v1/billing/webhook',
    secretKey: KEY,
    now,
    fetch: async (req) => {
      received.push({ body: await req.text(), signature: req.headers.get('stripe-signature') ?? '' });
      return new Response('{"received":true}', { status: 200 });
    },
  });
  config = { secretKey: KEY, priceId: PRICE, webhookSecret: WHSEC, api: parseApiBase(fake.url), maxNetworkRetries: 0 };
  billing = createStripeBilling(config, { now });
});
afterAll(() => fake.stop());
beforeEach(() => {
  received = [];
  clock = NOW;
});

const lastRequest = (path: string) => fake.requests.filter((r) => r.path === path).at(-1)!;
const checkoutRequest = { accountId: 'acc_123', email: 'sam@sparky.co.nz', successUrl: 'http://app.test/app/settings?billing=done&session_id={CHECKOUT_SESSION_ID}', cancelUrl: 'http://app.test/app/settings' };

async function verifyAll(deliveries: { body: string; signature: string }[]): Promise<BillingEvent[]> {
  const events: BillingEvent[] = [];
  for (const d of deliveries) {
    const v = await billing.verifyWebhook(d.body, d.signature);
    if (!v.ok) throw v.error;
    events.push(v.event);
  }
  return events;
}

describe('Stripe adapter ↔ fake Stripe', () => {
  it('creates a subscription-mode Checkout Session for the plan with a 14-day trial', async () => {
    const session = await billing.createCheckoutSession(checkoutRequest);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.url}/checkout/${session.id}`);

    const req = lastRequest('/v1/checkout/sessions');
    expect(req.method).toBe('POST');
    expect(req.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: PRICE, quantity: '1' }],
      client_reference_id: 'acc_123',
      customer_email: 'sam@sparky.co.nz',
      success_url: checkoutRequest.successUrl,
      cancel_url: checkoutRequest.cancelUrl,
      metadata: { account_id: 'acc_123' },
      subscription_data: { trial_period_days: '14', metadata: { account_id: 'acc_123' } },
    });
    expect(req.params).not.toHaveProperty('customer');
    expect(req.idempotencyKey).toMatch(/^stripe-node-retry-/);
    expect(req.stripeVersion).toBe(Stripe.API_VERSION);
    expect(fake.checkoutSessions.get(session.id)).toMatchObject({ mode: 'subscription', status: 'open', client_reference_id: 'acc_123' });
  });

  it("ends Stripe's trial with ours when the account is part-way through it, and gives none in the last 48 hours", async () => {
    const tenDays = new Date(NOW.getTime() + 10 * 86_400_000);
    await billing.createCheckoutSession({ ...checkoutRequest, trialEndsAt: tenDays });
    expect(lastRequest('/v1/checkout/sessions').params.subscription_data).toEqual({ trial_end: String(T + 10 * 86_400), metadata: { account_id: 'acc_123' } });

    await billing.createCheckoutSession({ ...checkoutRequest, trialEndsAt: new Date(NOW.getTime() + 47 * 3_600_000) });
    expect(lastRequest('/v1/checkout/sessions').params.subscription_data).toEqual({ metadata: { account_id: 'acc_123' } });
  });

  it('completing checkout sends signed webhooks the adapter verifies and the reducer turns into an active subscription', async () => {
    const session = await billing.createCheckoutSession(checkoutRequest);
    const done = await fake.completeCheckout(session.id);
    expect(done.deliveries.map((d) => [d.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
      ['customer.subscription.created', 200],
      ['invoice.paid', 200],
    ]);
    const events = await verifyAll(received);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    for (const e of events) expect(e).toMatchObject({ accountId: 'acc_123', customerId: done.customer.id });
    expect(events[0]).toMatchObject({ sessionId: session.id, subscriptionId: done.subscription.id, paymentStatus: 'no_payment_required' });
    expect(events[1]).toMatchObject({ subscription: { id: done.subscription.id, status: 'trialing', trialEnd: T + 14 * 86_400, currentPeriodEnd: T + 14 * 86_400, priceId: PRICE } });
    expect(events[2]).toMatchObject({ invoice: { amountPaid: 0, subscriptionId: done.subscription.id, billingReason: 'subscription_create' } });

    const state = reduceBillingEvents(events);
    expect(state).toMatchObject({ customerId: done.customer.id, subscription: { id: done.subscription.id, status: 'trialing', provisional: false } });
    expect(subscriptionStatus({ trialStartedAt: NOW, subscription: state.subscription, now: NOW }).subscription_active).toBe(true);

    // Renewal failure, recovery and cancellation arrive the same way, days apart (events in
    // the same second have no order to go by), each verified when it arrives.
    const afterwards: BillingEvent[] = [];
    const after = async (days: number, action: () => Promise<unknown>): Promise<void> => {
      advanceDays(days);
      received = [];
      await action();
      afterwards.push(...(await verifyAll(received)));
    };
    await after(14, () => fake.failRenewal(done.subscription.id));
    await after(2, () => fake.renew(done.subscription.id));
    await after(20, () => fake.cancelSubscription(done.subscription.id));
    expect(afterwards.map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.updated', 'customer.subscription.updated', 'invoice.paid', 'customer.subscription.deleted']);
    const later = reduceBillingEvents(afterwards, state);
    expect(later.subscription?.status).toBe('canceled');
    expect(later.lastInvoice).toMatchObject({ outcome: 'paid', amountPaid: 750 });
  });

  it('uses the existing customer instead of the email once the account has one', async () => {
    const first = await fake.completeCheckout((await billing.createCheckoutSession(checkoutRequest)).id);
    await billing.createCheckoutSession({ ...checkoutRequest, customerId: first.customer.id });
    const req = lastRequest('/v1/checkout/sessions');
    expect(req.params.customer).toBe(first.customer.id);
    expect(req.params).not.toHaveProperty('customer_email');
  });

  it('opens a billing portal session for a customer', async () => {
    const { customer } = await fake.completeCheckout((await billing.createCheckoutSession(checkoutRequest)).id);
    const portal = await billing.createPortalSession({ customerId: customer.id, returnUrl: 'http://app.test/app/settings' });
    expect(portal.url).toMatch(new RegExp(`^${fake.url}/portal/bps_`));
    expect(lastRequest('/v1/billing_portal/sessions').params).toEqual({ customer: customer.id, return_url: 'http://app.test/app/settings' });
  });

  it("turns Stripe's 4xx answers into BillingRejectedError", async () => {
    await expect(billing.createPortalSession({ customerId: 'cus_nobody', returnUrl: 'http://app.test/' })).rejects.toMatchObject({
      name: 'BillingRejectedError',
      providerCode: 'resource_missing',
      providerMessage: "No such customer: 'cus_nobody'",
    });
    await expect(billing.createCheckoutSession({ ...checkoutRequest, customerId: 'cus_nobody' })).rejects.toBeInstanceOf(BillingRejectedError);

    const { customer } = await fake.completeCheckout((await billing.createCheckoutSession(checkoutRequest)).id);
    fake.portalConfigured = false;
    try {
      await expect(billing.createPortalSession({ customerId: customer.id, returnUrl: 'http://app.test/' })).rejects.toMatchObject({
        code: 'BILLING_REJECTED',
        providerMessage: expect.stringContaining("can't create a portal session in test mode"),
      });
    } finally {
      fake.portalConfigured = true;
    }
  });

  it('answers BillingUnavailableError for a refused key and for a server that is not there', async () => {
    const wrongKey = createStripeBilling({ ...config, secretKey: 'sk_test_not_the_key' }, { now });
    await expect(wrongKey.createCheckoutSession(checkoutRequest)).rejects.toBeInstanceOf(BillingUnavailableError);

    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const nowhere = createStripeBilling({ ...config, api: { host: '127.0.0.1', port: closedPort, protocol: 'http' } }, { now });
    const error = await nowhere.createCheckoutSession(checkoutRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingUnavailableError);
    expect((error as BillingUnavailableError).detail).toBe("We couldn't reach the payment provider right now. Please try again in a few minutes.");
  });

  describe('webhook signatures (verified by the SDK, signed by the fake)', () => {
    const payload = (): string => JSON.stringify({ id: 'evt_sig', object: 'event', type: 'customer.updated', created: T, data: { object: { id: 'cus_1', object: 'customer' } } }, null, 2);

    it("signs exactly as Stripe's SDK does", async () => {
      const sdk = new Stripe(KEY);
      expect(fake.sign(payload(), T - 5)).toBe(sdk.webhooks.generateTestHeaderString({ payload: payload(), secret: WHSEC, timestamp: T - 5 }));
    });

    it('accepts a correctly signed event, as a string or as bytes', async () => {
      const body = payload();
      expect(await billing.verifyWebhook(body, fake.sign(body))).toEqual({ ok: true, event: { type: 'ignored', id: 'evt_sig', created: T, stripeType: 'customer.updated' } });
      expect((await billing.verifyWebhook(new TextEncoder().encode(body), fake.sign(body))).ok).toBe(true);
    });

    it('rejects a tampered body', async () => {
      const body = payload();
      const v = await billing.verifyWebhook(body.replace('cus_1', 'cus_2'), fake.sign(body));
      expect(v).toMatchObject({ ok: false, error: { name: 'WebhookVerificationError', reason: 'bad_signature', code: 'WEBHOOK_REJECTED' } });
    });

    it('rejects a body re-serialised after parsing (the signature covers the raw bytes)', async () => {
      const body = payload();
      const v = await billing.verifyWebhook(JSON.stringify(JSON.parse(body)), fake.sign(body));
      expect(v).toMatchObject({ ok: false, error: { reason: 'bad_signature' } });
    });

    it('rejects an event signed with another secret', async () => {
      const body = payload();
      const other = createStripeBilling({ ...config, webhookSecret: 'whsec_some_other_endpoint' }, { now });
      expect(await other.verifyWebhook(body, fake.sign(body))).toMatchObject({ ok: false, error: { reason: 'bad_signature' } });
    });

    it('rejects a timestamp older than 300 seconds and accepts one just inside', async () => {
      const body = payload();
      expect(await billing.verifyWebhook(body, fake.sign(body, T - 301))).toMatchObject({ ok: false, error: { reason: 'stale_timestamp' } });
      expect((await billing.verifyWebhook(body, fake.sign(body, T - 300))).ok).toBe(true);
    });

    it('rejects a missing or unreadable header, and a signed body that is not JSON', async () => {
      const body = payload();
      expect(await billing.verifyWebhook(body, undefined)).toMatchObject({ ok: false, error: { reason: 'missing_signature' } });
      expect(await billing.verifyWebhook(body, 'nonsense')).toMatchObject({ ok: false, error: { reason: 'malformed_signature' } });
      expect(await billing.verifyWebhook(body, `t=${T},v0=abc`)).toMatchObject({ ok: false, error: { reason: 'malformed_signature' } });
      expect(await billing.verifyWebhook('not json', fake.sign('not json'))).toMatchObject({ ok: false, error: { reason: 'malformed_body' } });
    });
  });

  describe('the checkout page a browser sees', () => {
    it("shows 'Fake Stripe Checkout' with a Pay button that fires the webhooks and redirects to success_url", async () => {
      const session = await billing.createCheckoutSession(checkoutRequest);
      const page = await fetch(session.url);
      const html = await page.text();
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('Fake Stripe Checkout');
      expect(html).toContain('14 days free, then NZ$7.50 per month');
      expect(html).toMatch(/<button type="submit">Pay<\/button>/);

      const pay = await fetch(`${fake.url}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toBe(`http://app.test/app/settings?billing=done&session_id=${session.id}`);
      expect(received.map((r) => JSON.parse(r.body).type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);

      // Paying again (a double tap) sends nothing more.
      const again = await fetch(`${fake.url}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
      expect(again.status).toBe(303);
      expect(received).toHaveLength(3);
    });
  });

  it('the portal page cancels the subscription (customer.subscription.deleted) and returns to the app', async () => {
    const { customer, subscription } = await fake.completeCheckout((await billing.createCheckoutSession(checkoutRequest)).id);
    const portal = await billing.createPortalSession({ customerId: customer.id, returnUrl: 'http://app.test/app/settings' });
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('Fake Stripe Billing Portal');
    expect(html).toContain('trialing');
    received = [];
    const cancel = await fetch(`${portal.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe('http://app.test/app/settings');
    const events = await verifyAll(received);
    expect(events).toMatchObject([{ type: 'customer.subscription.deleted', subscription: { id: subscription.id, status: 'canceled' } }]);
  });

  it('delivers over real HTTP with the raw body intact when no fetch is injected', async () => {
    const bodies: { body: string; signature: string; contentType: string }[] = [];
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']), contentType: String(req.headers['content-type']) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const plain = await startFakeStripe({ webhookSecret: WHSEC, now, webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/billing/webhook` });
    try {
      const { delivery } = await plain.sendEvent('customer.subscription.updated', { id: 'sub_http', object: 'subscription', status: 'past_due', customer: 'cus_http', metadata: { account_id: 'acc_http' }, items: { object: 'list', data: [] } });
      expect(delivery.status).toBe(204);
      expect(bodies[0]!.contentType).toBe('application/json; charset=utf-8');
      const v = await billing.verifyWebhook(bodies[0]!.body, bodies[0]!.signature);
      expect(v).toMatchObject({ ok: true, event: { type: 'customer.subscription.updated', accountId: 'acc_http', customerId: 'cus_http', subscription: { id: 'sub_http', status: 'past_due' } } });
    } finally {
      await plain.stop();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  describe('the wire contract of the fake', () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${fake.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    const json = async (r: Response) => (await r.json()) as { id: string; error: { type: string; message: string; code?: string; param?: string } };
    const form = 'mode=subscription&line_items[0][price]=price_x&line_items[0][quantity]=1&customer_email=a%40b.nz&success_url=http%3A%2F%2Fx';

    it('replays an idempotent request and refuses the same key with other parameters', async () => {
      const a = await post('/v1/checkout/sessions', form, { 'idempotency-key': 'key-1' });
      const b = await post('/v1/checkout/sessions', form, { 'idempotency-key': 'key-1' });
      expect((await json(a)).id).toBe((await json(b)).id);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      const c = await post('/v1/checkout/sessions', `${form}&client_reference_id=other`, { 'idempotency-key': 'key-1' });
      expect(c.status).toBe(400);
      expect((await json(c)).error.type).toBe('idempotency_error');
    });

    it('checks the key and answers errors in Stripe’s shape with a Request-Id', async () => {
      const noKey = await fetch(`${fake.url}/v1/checkout/sessions`, { method: 'POST', body: form });
      expect(noKey.status).toBe(401);
      expect(noKey.headers.get('request-id')).toMatch(/^req_/);
      expect((await json(noKey)).error.type).toBe('invalid_request_error');

      const both = await post('/v1/checkout/sessions', `${form}&customer=cus_x`);
      expect(both.status).toBe(400);
      expect((await json(both)).error.message).toBe('You may only specify one of these parameters: customer, customer_email.');

      const noMode = await post('/v1/checkout/sessions', 'customer_email=a%40b.nz');
      expect(await noMode.json()).toEqual({ error: { type: 'invalid_request_error', message: 'Missing required param: mode.', code: 'parameter_missing', param: 'mode' } });

      const zeroTrial = await post('/v1/checkout/sessions', `${form}&subscription_data[trial_period_days]=0`);
      expect((await json(zeroTrial)).error.param).toBe('subscription_data[trial_period_days]');

      const unknown = await post('/v1/checkout/sessions', `${form}&payment_methods=card`);
      expect((await json(unknown)).error.code).toBe('parameter_unknown');
    });
  });
});

describe('configuration', () => {
  it('is not configured until all three settings are present, and says which are missing', async () => {
    expect(stripeConfigFromEnv({ STRIPE_SECRET_KEY: 'sk_test_1' })).toEqual({ missing: ['STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET'] });
    const off = billingFromEnv({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_ID: ' ' }, { now });
    expect(off.configured).toBe(false);
    const error = await off.createCheckoutSession(checkoutRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingNotConfiguredError);
    expect(error).toMatchObject({ code: 'BILLING_NOT_CONFIGURED', missing: ['STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET'], detail: 'Billing is not set up on this server yet. Your free trial still counts.' });
    await expect(off.createPortalSession({ customerId: 'cus_1', returnUrl: 'http://x/' })).rejects.toBeInstanceOf(BillingNotConfiguredError);
    await expect(off.verifyWebhook('{}', 't=1,v1=00')).rejects.toBeInstanceOf(BillingNotConfiguredError);
  });

  it('reads the API base override into host, port and protocol', () => {
    const env = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_ID: 'price_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_BASE: 'http://127.0.0.1:12111' };
    expect(stripeConfigFromEnv(env)).toEqual({ config: { secretKey: 'sk_test_1', priceId: 'price_1', webhookSecret: 'whsec_1', api: { host: '127.0.0.1', port: 12111, protocol: 'http' } } });
    expect(parseApiBase('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(() => parseApiBase('ftp://x')).toThrow();
    expect(billingFromEnv(env, { now }).configured).toBe(true);
  });
});
