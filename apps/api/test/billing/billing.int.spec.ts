// /billing through the HTTP app on PGlite, against the fake Stripe server: the real Stripe SDK
// calls the fake on loopback, and the fake's signed webhooks go straight into app.fetch.
import { BILLING_MESSAGES, SUBSCRIPTION_REQUIRED_CODE } from '@tradie/contracts';
import { startFakeStripe, type FakeStripe } from '@tradie/testkit/fake-stripe';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/app.ts';
import { requireAuth } from '../../src/auth/middleware.ts';
import { requireActiveSubscription } from '../../src/billing/access.ts';
import { toResponse } from '../../src/http/problem.ts';
import { createStripeBilling, parseApiBase } from '../../src/integrations/stripe/index.ts';
import { refusal } from '../support/refusal.ts';
import { createTestApp, signUp, TestClock, useTestApp, type TestApp } from '../support/testApp.ts';
import { STRIPE_KEY, STRIPE_PRICE, STRIPE_WHSEC, useBillingApp } from './support.ts';

const PRICE_ANNUAL = 'price_full_access_yearly';
/** The fake's prices: monthly and yearly, excluding GST (the annual amount is only a test value). */
const PRICES = [
  { id: STRIPE_PRICE, unitAmount: 750, currency: 'nzd', interval: 'month' as const },
  { id: PRICE_ANNUAL, unitAmount: 7500, currency: 'nzd', interval: 'year' as const },
];
const DAY = 86_400_000;
/** 9:30 am on Tuesday 5 May 2026 in Auckland. */
const SIGN_UP = '2026-05-04T21:30:00.000Z';

describe('billing', () => {
  const clock = new TestClock(SIGN_UP);
  const { t, fake } = useBillingApp(clock, { prices: PRICES, env: { STRIPE_PRICE_ID_ANNUAL: PRICE_ANNUAL } });

  /** A new account signed up at `at` (the clock is left there). */
  async function account(at = SIGN_UP) {
    clock.set(at);
    return signUp(t);
  }
  const status = async (token: string) => (await t.get('/billing/subscription-status', token)).json;
  const lastRequest = (path: string) => fake.requests.filter((r) => r.path === path).at(-1)!;

  async function subscribe(token: string) {
    const r = await t.post('/billing/create-checkout-session', undefined, token);
    expect(r.status).toBe(200);
    const sessionId = (r.json.checkout_url as string).split('/').at(-1)!;
    return fake.completeCheckout(sessionId);
  }

  /** Sign in again after moving the clock (access tokens last 15 minutes). */
  const signIn = async (user: { email: string; password: string }): Promise<string> =>
    (await t.post('/auth/login', { email: user.email, password: user.password })).json.access_token as string;

  const postWebhook = (body: string, signature: string) =>
    t.call('POST', '/billing/webhook', { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature } });

  describe('trial', () => {
    it('shows 14 days on the sign-up day, counts down by NZ calendar day, and has ended on day 15', async () => {
      const user = await account();
      expect(await status(user.token)).toEqual({
        is_trial_active: true,
        trial_days_left: 14,
        trial_ended: false,
        subscription_active: false,
        trial_ends_at: '2026-05-18T12:00:00.000Z',
        subscription_status: null,
        current_period_end: null,
        cancel_at_period_end: false,
        payment_failed: false,
        billing_configured: true,
      });

      clock.set('2026-05-05T11:59:00.000Z'); // 11:59 pm the same NZ day
      expect((await status(await signIn(user))).trial_days_left).toBe(14);
      clock.set('2026-05-05T12:00:00.000Z'); // midnight: day 2
      expect((await status(await signIn(user))).trial_days_left).toBe(13);
      clock.set('2026-05-18T11:59:00.000Z'); // last minute of day 14
      expect(await status(await signIn(user))).toMatchObject({ is_trial_active: true, trial_days_left: 1, trial_ended: false });
      clock.set(new Date(Date.parse(SIGN_UP) + 14 * DAY).toISOString()); // day 15
      expect(await status(await signIn(user))).toMatchObject({ is_trial_active: false, trial_days_left: 0, trial_ended: true, subscription_active: false });
    });

    it('needs a signed-in user', async () => {
      expect((await t.get('/billing/subscription-status')).status).toBe(401);
      expect((await t.post('/billing/create-checkout-session')).status).toBe(401);
      expect((await t.post('/billing/create-portal-session')).status).toBe(401);
    });
  });

  describe('checkout', () => {
    it('creates a subscription-mode Checkout Session for the plan, for this account, ending Stripe’s trial with ours', async () => {
      const user = await account();
      const r = await t.post('/billing/create-checkout-session', undefined, user.token);
      expect(r.status).toBe(200);
      expect(r.json.checkout_url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
      const req = lastRequest('/v1/checkout/sessions');
      expect(req.params).toMatchObject({
        mode: 'subscription',
        line_items: [{ price: STRIPE_PRICE, quantity: '1' }],
        client_reference_id: user.userId,
        customer_email: user.email,
        metadata: { account_id: user.userId },
        subscription_data: { metadata: { account_id: user.userId }, trial_end: String(Date.parse('2026-05-18T12:00:00.000Z') / 1000) },
        success_url: 'http://app.test/app/settings?tab=billing&checkout=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://app.test/app/settings?tab=billing&checkout=cancelled',
      });
    });

    it('gives no Stripe trial to an account whose trial has ended', async () => {
      const user = await account();
      clock.advance(20 * DAY);
      expect((await t.post('/billing/create-checkout-session', undefined, await signIn(user))).status).toBe(200);
      expect(lastRequest('/v1/checkout/sessions').params.subscription_data).toEqual({ metadata: { account_id: user.userId } });
    });

    it('turns the signed checkout.session.completed and customer.subscription.created into an active subscription', async () => {
      const user = await account();
      const done = await subscribe(user.token);
      expect(done.deliveries.map((d) => [d.type, d.status])).toEqual([
        ['checkout.session.completed', 200],
        ['customer.subscription.created', 200],
        ['invoice.paid', 200],
      ]);
      expect(done.deliveries.map((d) => JSON.parse(d.responseBody).outcome)).toEqual(['applied', 'applied', 'applied']);
      expect(await status(user.token)).toMatchObject({
        is_trial_active: true,
        subscription_active: true,
        subscription_status: 'trialing',
        current_period_end: '2026-05-18T12:00:00.000Z',
        payment_failed: false,
      });
      const [row] = await t.deps.store.db.query<{ customer_id: string; subscription_id: string; status: string }>(
        'SELECT customer_id, subscription_id, status FROM billing_accounts WHERE account_id = $1',
        [user.userId],
      );
      expect(row).toEqual({ customer_id: done.customer.id, subscription_id: done.subscription.id, status: 'trialing' });

      // Subscribing again is refused while the subscription grants access.
      const again = await t.post('/billing/create-checkout-session', undefined, user.token);
      expect(refusal(again)).toEqual({ status: 409, detail: BILLING_MESSAGES.alreadySubscribed });
    });

    it('keeps the subscription active through the trial’s end and a failed renewal (past_due), and ends it on cancel', async () => {
      const user = await account();
      const done = await subscribe(user.token);
      clock.advance(15 * DAY);
      await fake.failRenewal(done.subscription.id);
      const token = await signIn(user);
      expect(await status(token)).toMatchObject({ trial_ended: true, subscription_active: true, subscription_status: 'past_due', payment_failed: true });
      clock.advance(2 * DAY);
      await fake.renew(done.subscription.id);
      expect(await status(await signIn(user))).toMatchObject({ subscription_active: true, subscription_status: 'active', payment_failed: false });
      clock.advance(DAY);
      await fake.cancelSubscription(done.subscription.id);
      expect(await status(await signIn(user))).toMatchObject({ trial_ended: true, subscription_active: false, subscription_status: 'canceled' });
    });
  });

  describe('monthly or annual, GST added at checkout', () => {
    const checkout = (token: string, body?: unknown) => t.post('/billing/create-checkout-session', body, token);
    const sessionOf = (url: string) => fake.checkoutSessions.get(url.split('/').at(-1)!)!;
    const taxRateCreations = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/tax_rates');

    it('lists both plans from Stripe, excluding GST', async () => {
      const user = await account();
      const r = await t.get('/billing/plans', user.token);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        plans: [
          { interval: 'month', unit_amount: 750, currency: 'nzd' },
          { interval: 'year', unit_amount: 7500, currency: 'nzd' },
        ],
        gst_percent: 15,
      });
      expect((await t.get('/billing/plans')).status).toBe(401);
    });

    it('monthly: the monthly price with a 15% exclusive NZ GST tax rate on the line item, created once', async () => {
      const user = await account();
      const r = await checkout(user.token, { interval: 'month' });
      expect(r.status).toBe(200);
      const [rate, ...more] = [...fake.taxRates.values()];
      expect(more).toEqual([]);
      expect(rate).toMatchObject({ display_name: 'GST', percentage: 15, inclusive: false, country: 'NZ', jurisdiction: 'NZ', tax_type: 'gst', active: true });
      expect(taxRateCreations()).toHaveLength(1);
      expect(lastRequest('/v1/checkout/sessions').params.line_items).toEqual([{ price: STRIPE_PRICE, quantity: '1', tax_rates: [rate!.id] }]);
      // The session, as Stripe reports it: $7.50 + $1.13 GST (15%, rounded to the cent) = $8.63.
      expect(sessionOf(r.json.checkout_url)).toMatchObject({ currency: 'nzd', amount_subtotal: 750, amount_total: 863, total_details: { amount_tax: 113 } });

      // No body at all is monthly too, and the tax rate remembered in the database is reused.
      const other = await account();
      expect((await checkout(other.token)).status).toBe(200);
      expect(lastRequest('/v1/checkout/sessions').params.line_items).toEqual([{ price: STRIPE_PRICE, quantity: '1', tax_rates: [rate!.id] }]);
      expect(taxRateCreations()).toHaveLength(1);
    });

    it('annual: the yearly price with the same tax rate; paying gives a subscription billed by the year', async () => {
      const user = await account();
      clock.advance(20 * DAY); // past our trial: no Stripe trial, the first year is paid at once
      const token = await signIn(user);
      const r = await checkout(token, { interval: 'year' });
      expect(r.status).toBe(200);
      const [rate] = [...fake.taxRates.values()];
      expect(lastRequest('/v1/checkout/sessions').params.line_items).toEqual([{ price: PRICE_ANNUAL, quantity: '1', tax_rates: [rate!.id] }]);
      expect(sessionOf(r.json.checkout_url)).toMatchObject({ amount_subtotal: 7500, amount_total: 8625, total_details: { amount_tax: 1125 } });

      const done = await fake.completeCheckout(sessionOf(r.json.checkout_url).id);
      const item = done.subscription.items.data[0]!;
      expect(item).toMatchObject({ price: { id: PRICE_ANNUAL, recurring: { interval: 'year' } }, tax_rates: [{ id: rate!.id }] });
      const paid = [...fake.invoices.values()].find((i) => i.id === done.subscription.latest_invoice)!;
      expect(paid).toMatchObject({ subtotal: 7500, total: 8625, amount_paid: 8625, total_taxes: [{ amount: 1125, tax_behavior: 'exclusive', tax_rate_details: { tax_rate: rate!.id } }] });
      const s = await status(token);
      expect(s).toMatchObject({ subscription_active: true, subscription_status: 'active' });
      // Billed by the year: the paid-up period ends a year after paying.
      const paidAt = clock.now();
      const yearLater = new Date(paidAt);
      yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
      expect(s.current_period_end).toBe(new Date(Math.floor(yearLater.getTime() / 1000) * 1000).toISOString());
    });

    it('switching monthly ↔ annual is the billing portal’s: its configuration lists both prices, made once and reused', async () => {
      const user = await account();
      const done = await subscribe(user.token);
      const configRequests = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/billing_portal/configurations');
      const first = await t.post('/billing/create-portal-session', undefined, user.token);
      expect(first.status).toBe(200);
      expect(configRequests()).toHaveLength(1);
      const [config, ...others] = [...fake.portalConfigurations.values()];
      expect(others).toEqual([]);
      expect(config!.features).toMatchObject({
        subscription_update: { enabled: 'true', default_allowed_updates: ['price'], products: [{ product: 'prod_full_access', prices: [STRIPE_PRICE, PRICE_ANNUAL] }] },
      });
      expect(lastRequest('/v1/billing_portal/sessions').params).toMatchObject({ customer: done.customer.id, configuration: config!.id });
      // The next portal session reuses the configuration remembered in the database.
      expect((await t.post('/billing/create-portal-session', undefined, user.token)).status).toBe(200);
      expect(configRequests()).toHaveLength(1);
      expect(lastRequest('/v1/billing_portal/sessions').params).toMatchObject({ configuration: config!.id });

      // In the (fake) portal: switch to annual. The price changes on the same item and the tax rate stays.
      const portalId = (first.json.portal_url as string).split('/').at(-1)!;
      const page = await (await fetch(first.json.portal_url as string)).text();
      expect(page).toContain('Switch to annual billing');
      const switched = await fetch(`${fake.url}/portal/${portalId}/switch/${PRICE_ANNUAL}`, { method: 'POST', redirect: 'manual' });
      expect(switched.status).toBe(303);
      const item = fake.subscriptions.get(done.subscription.id)!.items.data[0]!;
      expect(item).toMatchObject({ price: { id: PRICE_ANNUAL, recurring: { interval: 'year' } }, tax_rates: [{ percentage: 15, inclusive: false }] });
      expect(fake.events.at(-1)).toMatchObject({ type: 'customer.subscription.updated' });
      expect(await status(user.token)).toMatchObject({ subscription_active: true });
    });

    it('answers 422 to an interval other than month or year, and asks nothing of Stripe', async () => {
      const user = await account();
      const before = fake.requests.length;
      for (const body of [{ interval: 'week' }, { interval: 'annual' }, { interval: 12 }]) {
        const r = await checkout(user.token, body);
        expect(refusal(r), JSON.stringify(body)).toEqual({ status: 422, detail: "interval must be 'month' or 'year'" });
      }
      expect(fake.requests).toHaveLength(before);
    });
  });

  describe('webhook', () => {
    it('applies a redelivered event once: the second delivery is a no-op answered 2xx', async () => {
      const user = await account();
      const done = await subscribe(user.token);
      const before = await status(user.token);
      const countEvents = async () => (await t.deps.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM billing_webhook_events'))[0]?.n;
      const eventsBefore = await countEvents();

      const created = fake.events.find((e) => e.type === 'customer.subscription.created' && e.data.object.id === done.subscription.id)!;
      const body = JSON.stringify(created);
      const r = await postWebhook(body, fake.sign(body));
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ received: true, outcome: 'duplicate' });

      expect(await countEvents()).toBe(eventsBefore);
      expect(await status(user.token)).toEqual(before);
    });

    it('records two concurrent deliveries of one event once', async () => {
      const user = await account();
      const { event } = await fake.sendEvent('customer.subscription.updated', {
        id: 'sub_concurrent', object: 'subscription', status: 'active', customer: 'cus_concurrent', metadata: { account_id: user.userId },
        items: { object: 'list', data: [] }, cancel_at_period_end: false,
      });
      const body = JSON.stringify({ ...event, id: 'evt_concurrent_once' });
      const answers = await Promise.all([postWebhook(body, fake.sign(body)), postWebhook(body, fake.sign(body))]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => a.json.outcome).sort()).toEqual(['applied', 'duplicate']);
    });

    it('answers 400 to a tampered body, a missing or forged signature, and a stale timestamp, and changes nothing', async () => {
      const user = await account();
      const payload = JSON.stringify({
        id: 'evt_tampered', object: 'event', type: 'customer.subscription.created', created: Math.floor(clock.now().getTime() / 1000), api_version: '2026-10-28.endive',
        data: { object: { id: 'sub_forged', object: 'subscription', status: 'active', customer: 'cus_forged', metadata: { account_id: user.userId }, items: { object: 'list', data: [] } } },
      });
      const signature = fake.sign(payload);
      for (const [body, sig] of [
        [payload.replace('"active"', '"trialing"'), signature],
        [payload, ''],
        [payload, 't=1,v1=deadbeef'],
        [payload, fake.sign(payload, Math.floor(clock.now().getTime() / 1000) - 301)],
      ] as const) {
        const r = await postWebhook(body, sig);
        expect(refusal(r)).toEqual({ status: 400, detail: 'Webhook signature verification failed.' });
      }
      expect((await status(user.token)).subscription_active).toBe(false);
      expect(await t.deps.store.db.query('SELECT 1 FROM billing_webhook_events WHERE event_id = $1', ['evt_tampered'])).toEqual([]);

      // The same body, correctly signed, is accepted.
      expect((await postWebhook(payload, signature)).json).toEqual({ received: true, outcome: 'applied' });
      expect((await status(user.token)).subscription_active).toBe(true);
    });

    it('needs no bearer token, and answers 2xx to events it does not act on or cannot place', async () => {
      const ignored = await fake.sendEvent('customer.updated', { id: 'cus_x', object: 'customer' });
      expect(ignored.delivery.status).toBe(200);
      expect(JSON.parse(ignored.delivery.responseBody)).toEqual({ received: true, outcome: 'ignored' });
      const nobody = await fake.sendEvent('customer.subscription.updated', {
        id: 'sub_nobody', object: 'subscription', status: 'active', customer: 'cus_nobody', metadata: { account_id: 'no-such-account' }, items: { object: 'list', data: [] },
      });
      expect(JSON.parse(nobody.delivery.responseBody)).toEqual({ received: true, outcome: 'unmatched' });
    });

    it('finds the account through its Stripe customer when an event names no account', async () => {
      const user = await account();
      const done = await subscribe(user.token);
      const sub = { ...done.subscription, metadata: {}, cancel_at_period_end: true };
      clock.advance(60_000);
      const r = await fake.sendEvent('customer.subscription.updated', sub);
      expect(JSON.parse(r.delivery.responseBody).outcome).toBe('applied');
      expect((await status(await signIn(user))).cancel_at_period_end).toBe(true);
    });
  });

  describe('portal', () => {
    it('answers 409 before the account has subscribed', async () => {
      const user = await account();
      const r = await t.post('/billing/create-portal-session', undefined, user.token);
      expect(refusal(r)).toEqual({ status: 409, detail: BILLING_MESSAGES.noCustomer });
    });

    it("opens the billing portal for the account's Stripe customer", async () => {
      const user = await account();
      const done = await subscribe(user.token);
      const r = await t.post('/billing/create-portal-session', undefined, user.token);
      expect(r.status).toBe(200);
      expect(r.json.portal_url).toMatch(new RegExp(`^${fake.url}/portal/bps_`));
      // With an annual price the portal opens with the configuration that lists both prices (below).
      expect(lastRequest('/v1/billing_portal/sessions').params).toEqual({ customer: done.customer.id, return_url: 'http://app.test/app/settings?tab=billing', configuration: expect.stringMatching(/^bpc_/) });
    });

    it('answers 502 with a readable detail when Stripe turns the request down', async () => {
      const user = await account();
      await subscribe(user.token);
      fake.portalConfigured = false;
      try {
        const r = await t.post('/billing/create-portal-session', undefined, user.token);
        expect(refusal(r)).toEqual({ status: 502, detail: 'The payment provider turned the request down. Please try again, or contact support if it keeps happening.' });
      } finally {
        fake.portalConfigured = true;
      }
    });
  });

  describe('what an expired trial blocks (requireActiveSubscription)', () => {
    /** A stand-in feature route: a read and a write behind the gate. */
    const feature = (): Hono<AppEnv> => {
      const app = new Hono<AppEnv>();
      app.onError((e, c) => toResponse(c, e, () => {}));
      app.use('*', requireAuth(t.deps), requireActiveSubscription(t.deps));
      app.get('/thing', (c) => c.json({ ok: true }));
      app.post('/thing', (c) => c.json({ ok: true }, 201));
      return app;
    };
    const call = async (method: string, token: string) => {
      const res = await feature().request('/thing', { method, headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, json: (await res.json()) as { detail?: string; code?: string } };
    };

    it('lets writes through during the trial and while subscribed; after the trial only reads', async () => {
      const user = await account();
      expect((await call('POST', user.token)).status).toBe(201);

      clock.advance(14 * DAY);
      const token = await signIn(user);
      expect((await call('GET', token)).status).toBe(200);
      const blocked = await call('POST', token);
      expect(blocked).toEqual({ status: 402, json: { detail: BILLING_MESSAGES.trialEnded, code: SUBSCRIPTION_REQUIRED_CODE } });

      const done = await subscribe(token);
      expect((await call('POST', token)).status).toBe(201);

      clock.advance(DAY);
      await fake.cancelSubscription(done.subscription.id);
      const after = await call('POST', await signIn(user));
      expect(after).toEqual({ status: 402, json: { detail: BILLING_MESSAGES.subscriptionEnded, code: SUBSCRIPTION_REQUIRED_CODE } });
    });
  });
});

describe('billing not configured', () => {
  const clock = new TestClock(SIGN_UP);
  const t = useTestApp({ clock });

  it('answers 503 to checkout, portal and webhooks with a clear detail; the trial still counts and nothing is blocked', async () => {
    const user = await signUp(t);
    for (const path of ['/billing/create-checkout-session', '/billing/create-portal-session', '/billing/webhook']) {
      const r = await t.post(path, undefined, user.token);
      expect(r.status, path).toBe(503);
      expect(r.json.detail, path).toBe('Billing is not set up on this server yet. Your free trial still counts.');
    }
    expect((await t.get('/billing/subscription-status', user.token)).json).toMatchObject({
      is_trial_active: true, trial_days_left: 14, subscription_active: false, billing_configured: false,
    });
    expect((await t.get('/billing/plans', user.token)).json).toEqual({ plans: [], gst_percent: 15 });

    clock.advance(30 * DAY);
    const token = (await t.post('/auth/login', { email: user.email, password: user.password })).json.access_token as string;
    expect((await t.get('/billing/subscription-status', token)).json).toMatchObject({ trial_ended: true, trial_days_left: 0 });
    const app = new Hono<AppEnv>();
    app.post('/thing', requireAuth(t.deps), requireActiveSubscription(t.deps), (c) => c.json({ ok: true }, 201));
    expect((await app.request('/thing', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status).toBe(201);
  });
});

describe('billing with only a monthly price and a configured tax rate', () => {
  const clock = new TestClock(SIGN_UP);
  let t: TestApp;
  let fake: FakeStripe;
  let taxRateId: string;
  beforeAll(async () => {
    fake = await startFakeStripe({ webhookSecret: STRIPE_WHSEC, secretKey: STRIPE_KEY, now: () => clock.now(), prices: PRICES.slice(0, 1) });
    // Made beforehand in Stripe's dashboard (or API), and named by STRIPE_TAX_RATE_ID.
    const made = await fetch(`${fake.url}/v1/tax_rates`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${STRIPE_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'display_name=GST&percentage=15&inclusive=false&country=NZ',
    });
    taxRateId = ((await made.json()) as { id: string }).id;
    const billing = createStripeBilling({ secretKey: STRIPE_KEY, priceId: STRIPE_PRICE, webhookSecret: STRIPE_WHSEC, api: parseApiBase(fake.url), maxNetworkRetries: 0 }, { now: () => clock.now() });
    t = await createTestApp({ clock, env: { STRIPE_TAX_RATE_ID: taxRateId }, overrides: { billing } });
  });
  afterAll(async () => {
    await fake.stop();
    await t.close();
  });

  it('offers monthly only (annual answers 422) and puts the configured tax rate on the line item without making one', async () => {
    const user = await signUp(t);
    expect((await t.get('/billing/plans', user.token)).json).toEqual({ plans: [{ interval: 'month', unit_amount: 750, currency: 'nzd' }], gst_percent: 15 });
    const annual = await t.post('/billing/create-checkout-session', { interval: 'year' }, user.token);
    expect(refusal(annual)).toEqual({ status: 422, detail: BILLING_MESSAGES.annualNotOffered });
    expect(fake.requests.some((r) => r.path === '/v1/checkout/sessions')).toBe(false);

    expect((await t.post('/billing/create-checkout-session', { interval: 'month' }, user.token)).status).toBe(200);
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(created.map((r) => r.params.line_items)).toEqual([[{ price: STRIPE_PRICE, quantity: '1', tax_rates: [taxRateId] }]]);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/tax_rates')).toHaveLength(1); // only the one made above
  });

  it('the fake answers Stripe-shaped errors for a bad tax rate request and an unknown tax rate on a line item', async () => {
    const post = async (path: string, body: string) => {
      const r = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${STRIPE_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body });
      return { status: r.status, json: (await r.json()) as { error: Record<string, unknown> } };
    };
    expect(await post('/v1/tax_rates', 'display_name=GST&inclusive=false')).toEqual({
      status: 400, json: { error: { type: 'invalid_request_error', message: 'Missing required param: percentage.', code: 'parameter_missing', param: 'percentage' } },
    });
    expect((await post('/v1/tax_rates', 'display_name=GST&percentage=15&inclusive=maybe')).json.error).toMatchObject({ type: 'invalid_request_error', param: 'inclusive' });
    const unknown = await post('/v1/checkout/sessions', 'mode=subscription&line_items[0][price]=price_full_access_nzd750&line_items[0][quantity]=1&line_items[0][tax_rates][0]=txr_nope&success_url=http://x/s');
    expect(unknown).toEqual({
      status: 400, json: { error: { type: 'invalid_request_error', message: "No such tax rate: 'txr_nope'", code: 'resource_missing', param: 'line_items[0][tax_rates][0]' } },
    });
    const noPrice = await post('/v1/checkout/sessions', 'mode=subscription&line_items[0][price]=price_unknown&line_items[0][quantity]=1&success_url=http://x/s');
    expect(noPrice.json.error).toMatchObject({ code: 'resource_missing', param: 'line_items[0][price]' });
  });
});
