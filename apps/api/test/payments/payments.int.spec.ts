// Clients paying an invoice by card through the business's own Stripe account (Connect, Standard,
// direct charges), through the HTTP app on PGlite against the fake Stripe on loopback: the real
// SDK calls the fake, and the fake's signed Connect webhooks go straight into app.fetch.
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { startFakeStripe, type FakeStripe } from '@tradie/testkit/fake-stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeConnect } from '../../src/integrations/stripe/connect.ts';
import { parseApiBase } from '../../src/integrations/stripe/index.ts';
import { cardPaymentId } from '../../src/payments/webhook.ts';
import { documentFor, publicClient, sendAndReadLink, type User } from '../clientLinks/support.ts';
import { line, signInAgain } from '../documents/support.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

const KEY = 'sk_test_connect_platform';
const CONNECT_WHSEC = 'whsec_connect_endpoint_secret';
/** 9:30 am on Tuesday 5 May 2026 in Auckland. */
const START = '2026-05-04T21:30:00.000Z';

describe('card payments (Stripe Connect)', () => {
  const clock = new TestClock(START);
  let t: TestApp;
  let fake: FakeStripe;

  beforeAll(async () => {
    fake = await startFakeStripe({
      webhookSecret: 'whsec_billing_endpoint_secret',
      connectWebhookSecret: CONNECT_WHSEC,
      connectWebhookUrl: 'http://app.test/api/v1/payments/webhook',
      secretKey: KEY,
      now: () => clock.now(),
      fetch: async (req) => t.app.fetch(req),
    });
    const connect = createStripeConnect({ secretKey: KEY, connectWebhookSecret: CONNECT_WHSEC, api: parseApiBase(fake.url), maxNetworkRetries: 0 }, { now: () => clock.now() });
    t = await createTestApp({ clock, overrides: { connect } });
  });
  afterAll(async () => {
    await fake.stop();
    await t.close();
  });

  const db = () => t.deps.store.db;

  /** A business whose Stripe account finished onboarding on the fake's hosted page. */
  async function connectedUser(): Promise<User & { stripeAccount: string }> {
    clock.set(START);
    const u = await signUp(t);
    const r = await t.post('/payments/connect', undefined, u.token);
    expect(r.status).toBe(200);
    const done = await fetch(`${r.json.onboarding_url as string}/complete`, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('http://app.test/app/settings?tab=payments&connect=done');
    const [row] = await db().query<{ stripe_account_id: string }>('SELECT stripe_account_id FROM payment_accounts WHERE account_id = $1', [u.userId]);
    return { ...u, stripeAccount: row!.stripe_account_id };
  }

  /** An invoice of $115.00 ($100 + GST), emailed, and its link's token. */
  async function invoiceWithLink(u: User) {
    const inv = await documentFor(t, u, 'invoice', { line_items: [line('Callout', 1, 100)] });
    const { token } = await sendAndReadLink(t, u, inv.id);
    return { inv, token, c: publicClient(t) };
  }

  const checkout = (c: ReturnType<typeof publicClient>, token: string) => c.post(`/invoices/${token}/checkout`);
  const sessionIdOf = (url: string): string => url.split('/').at(-1)!;
  const pay = (url: string) => fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  /** invoiceWithLink, paid in full by card on the fake's checkout page; `pi` is the PaymentIntent. */
  async function paidByCard(u: User) {
    const link = await invoiceWithLink(u);
    const url = (await checkout(link.c, link.token)).json.checkout_url as string;
    await pay(url);
    return { ...link, pi: fake.connectSessions.get(sessionIdOf(url))!.payment_intent! };
  }
  const invoiceOf = async (u: User, id: string) => (await t.get(`/invoices/${id}`, u.token)).json;
  const paymentsOf = async (u: User, id: string) => (await t.get(`/invoices/${id}/payments`, u.token)).json as { amount: number; method: string; reference: string; id: string; date: string }[];
  const postWebhook = (body: string, signature: string) =>
    t.call('POST', '/payments/webhook', { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature } });

  it('onboarding: the account is made once, each connect gives a fresh link, and account.updated turns the offer on', async () => {
    const u = await signUp(t);
    expect((await t.get('/payments/settings', u.token)).json).toEqual({ available: true, status: 'none', surcharge_enabled: false, surcharge_percent: 0 });
    const accountsBefore = fake.accounts.size;
    const first = await t.post('/payments/connect', undefined, u.token);
    const second = await t.post('/payments/connect', undefined, u.token);
    expect(first.json.onboarding_url).toMatch(new RegExp(`^${fake.url}/connect/onboarding/`));
    expect(second.json.onboarding_url).not.toBe(first.json.onboarding_url);
    expect(fake.accounts.size).toBe(accountsBefore + 1);
    const account = [...fake.accounts.values()].at(-1)!;
    expect(account).toMatchObject({ type: 'standard', country: 'NZ', email: u.email, metadata: { account_id: u.userId }, charges_enabled: false });
    expect((await t.get('/payments/settings', u.token)).json.status).toBe('onboarding');

    const { token, c } = await invoiceWithLink(u);
    expect((await c.get(`/invoices/${token}`)).json.pay).toBeNull();
    expect((await checkout(c, token)).json).toEqual({ detail: CLIENT_LINK_MESSAGES.payUnavailable });

    const done = await fetch(`${second.json.onboarding_url as string}/complete`, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(303);
    const delivery = fake.deliveries.at(-1)!;
    expect(delivery).toMatchObject({ type: 'account.updated', status: 200 });
    expect((await t.get('/payments/settings', u.token)).json.status).toBe('enabled');
    expect((await c.get(`/invoices/${token}`)).json.pay).toEqual({ surcharge: null });
  });

  it('checkout → Pay on the fake → webhook: the invoice is paid by card, balance 0, and another checkout is refused', async () => {
    const u = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(u);
    const r = await checkout(c, token);
    expect(r.status).toBe(200);
    const url = r.json.checkout_url as string;
    // A second tap hands out the same session.
    expect((await checkout(c, token)).json.checkout_url).toBe(url);
    const session = fake.connectSessions.get(sessionIdOf(url))!;
    expect(session).toMatchObject({
      account: u.stripeAccount, mode: 'payment', currency: 'nzd', amount_total: 11500,
      metadata: { account_id: u.userId, document_id: inv.id }, success_url: `http://app.test/i/${token}?paid=1`, cancel_url: `http://app.test/i/${token}?cancelled=1`,
    });
    expect(session.expires_at - session.created).toBe(3600);
    const created = fake.requests.filter((q) => q.path === '/v1/checkout/sessions' && q.method === 'POST').at(-1)!;
    expect(created.params).toMatchObject({ line_items: [{ price_data: { currency: 'nzd', unit_amount: '11500', product_data: { name: `Invoice ${inv.reference}` } }, quantity: '1' }] });
    expect(created.params.payment_intent_data).toEqual({ metadata: { account_id: u.userId, document_id: inv.id, link_id: expect.any(String) } });

    const paid = await pay(url);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/i/${token}?paid=1`);
    expect(fake.deliveries.slice(-2).map((d) => [d.type, d.status])).toEqual([['checkout.session.completed', 200], ['payment_intent.succeeded', 200]]);

    const detail = await invoiceOf(u, inv.id);
    expect(detail).toMatchObject({ status: 'paid', paid: 115, balance: 0 });
    const payments = await paymentsOf(u, inv.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 115, method: 'card', reference: `Stripe ${session.payment_intent}`, date: '2026-05-05', id: cardPaymentId(session.payment_intent!) });
    expect((await c.get(`/invoices/${token}`)).json.pay).toBeNull();
    const again = await checkout(c, token);
    expect(again.status).toBe(409);
    expect(again.json.detail).toBe(CLIENT_LINK_MESSAGES.paid);
  });

  it('after a part payment typed in, Pay now expires the old session and makes one for the new balance', async () => {
    const u = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(u);
    const first = (await checkout(c, token)).json.checkout_url as string;
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: 15 }, u.token)).status).toBe(201);
    // Part paid: the session of $115.00 stays open (a reaction expires it only when nothing is owed).
    expect(fake.connectSessions.get(sessionIdOf(first))!.status).toBe('open');
    const second = (await checkout(c, token)).json.checkout_url as string;
    expect(second).not.toBe(first);
    expect(fake.connectSessions.get(sessionIdOf(first))!.status).toBe('expired');
    expect(fake.connectSessions.get(sessionIdOf(second))!.amount_total).toBe(10000);
    expect(await db().query("SELECT amount_cents::text AS cents, status FROM payment_checkout_sessions WHERE document_id = $1 ORDER BY created_at, status", [inv.id]))
      .toEqual(expect.arrayContaining([{ cents: '11500', status: 'expired' }, { cents: '10000', status: 'open' }]));
    // Two taps at once still make one payable session.
    const [x, y] = await Promise.all([checkout(c, token), checkout(c, token)]);
    expect(x.json.checkout_url).toBe(second);
    expect(y.json.checkout_url).toBe(second);
    await pay(second);
    expect((await invoiceOf(u, inv.id))).toMatchObject({ status: 'paid', balance: 0 });
  });

  it('a replayed event and the payment_intent backstop record nothing twice, in either order', async () => {
    const u = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(u);
    const url = (await checkout(c, token)).json.checkout_url as string;
    // Only the backstop arrives first: it records the payment.
    await fake.completeConnectCheckout(sessionIdOf(url), { events: ['payment_intent.succeeded'] });
    expect(await paymentsOf(u, inv.id)).toHaveLength(1);
    // Then the session's own event, and a redelivery of it (same event id, signed again).
    const session = fake.connectSessions.get(sessionIdOf(url))!;
    const { event } = await fake.sendConnectEvent('checkout.session.completed', { ...session, account: undefined }, u.stripeAccount);
    const payload = JSON.stringify(event, null, 2);
    const replay = await postWebhook(payload, fake.signConnect(payload));
    expect(replay.status).toBe(200);
    expect(replay.json.outcome).toBe('duplicate');
    // And the backstop once more, under a new event id.
    const pi = fake.paymentIntents.get(session.payment_intent!)!;
    const { delivery } = await fake.sendConnectEvent('payment_intent.succeeded', { ...pi, account: undefined }, u.stripeAccount);
    expect(delivery.status).toBe(200);
    expect(await paymentsOf(u, inv.id)).toHaveLength(1);
    expect((await invoiceOf(u, inv.id)).balance).toBe(0);
  });

  it('a delayed payment method: recorded when async_payment_succeeded arrives, not at completion', async () => {
    const u = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(u);
    const url = (await checkout(c, token)).json.checkout_url as string;
    await fake.completeConnectCheckout(sessionIdOf(url), { events: [] });
    const session = { ...fake.connectSessions.get(sessionIdOf(url))!, account: undefined };
    const unpaid = await fake.sendConnectEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' }, u.stripeAccount);
    expect(JSON.parse(unpaid.delivery.responseBody)).toMatchObject({ outcome: 'not_paid_yet' });
    expect(await paymentsOf(u, inv.id)).toHaveLength(0);
    const succeeded = await fake.sendConnectEvent('checkout.session.async_payment_succeeded', session, u.stripeAccount);
    expect(JSON.parse(succeeded.delivery.responseBody)).toMatchObject({ outcome: 'payment_recorded' });
    expect((await paymentsOf(u, inv.id)).map((p) => p.amount)).toEqual([115]);
  });

  it('a full refund through the fake\'s test control owes the whole invoice again', async () => {
    const u = await connectedUser();
    const { inv, token, c, pi } = await paidByCard(u);
    const r = await fetch(`${fake.url}/__test/connect/charges/${pi}/refund`, { method: 'POST' });
    expect(((await r.json()) as { delivery: { status: number } }).delivery.status).toBe(200);
    expect(await invoiceOf(u, inv.id)).toMatchObject({ paid: 0, balance: 115 });
    // The page offers card payment again.
    expect((await c.get(`/invoices/${token}`)).json.pay).toEqual({ surcharge: null });
  });

  it('a bad signature is 400 and writes nothing', async () => {
    const u = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(u);
    const url = (await checkout(c, token)).json.checkout_url as string;
    const session = { ...fake.connectSessions.get(sessionIdOf(url))!, status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged', account: undefined };
    const event = { id: 'evt_forged_1', object: 'event', type: 'checkout.session.completed', account: u.stripeAccount, created: Math.floor(clock.now().getTime() / 1000), data: { object: session } };
    const payload = JSON.stringify(event);
    const forged = await postWebhook(payload, fake.sign(payload)); // the billing endpoint's secret, not the Connect one
    expect(forged.status).toBe(400);
    expect((await postWebhook(payload, 't=1,v1=00')).status).toBe(400);
    expect(await paymentsOf(u, inv.id)).toHaveLength(0);
    expect(await db().query("SELECT 1 FROM payment_webhook_events WHERE event_id = 'evt_forged_1'")).toHaveLength(0);
  });

  it('the surcharge shown is what the session charges, and the payment recorded leaves it out', async () => {
    const u = await connectedUser();
    expect((await t.put('/payments/settings', { surcharge_enabled: true, surcharge_percent: 5.5 }, u.token)).status).toBe(422);
    expect((await t.put('/payments/settings', { surcharge_enabled: true, surcharge_percent: 2.555 }, u.token)).status).toBe(422);
    const saved = await t.put('/payments/settings', { surcharge_enabled: true, surcharge_percent: 2.5 }, u.token);
    expect(saved.json).toEqual({ available: true, status: 'enabled', surcharge_enabled: true, surcharge_percent: 2.5 });
    expect(await db().query('SELECT surcharge_enabled, surcharge_percent::text AS p FROM payment_surcharge_changes WHERE account_id = $1', [u.userId])).toEqual([{ surcharge_enabled: true, p: '2.50' }]);

    const { inv, token, c } = await invoiceWithLink(u);
    // 2.5 % of $115.00 is $2.875: never more than the percentage shown, so $2.87.
    const page = (await c.get(`/invoices/${token}`)).json;
    expect(page.pay).toEqual({ surcharge: { percent: 2.5, amount: 2.87, formatted: '$2.87', total_formatted: '$117.87' } });
    const url = (await checkout(c, token)).json.checkout_url as string;
    const session = fake.connectSessions.get(sessionIdOf(url))!;
    expect(session.amount_total).toBe(11787);
    const created = fake.requests.filter((q) => q.path === '/v1/checkout/sessions' && q.method === 'POST').at(-1)!;
    expect((created.params.line_items as { price_data: { unit_amount: string; product_data: { name: string } } }[]).map((l) => [l.price_data.product_data.name, l.price_data.unit_amount]))
      .toEqual([[`Invoice ${inv.reference}`, '11500'], ['Card surcharge', '287']]);
    await pay(url);
    expect((await paymentsOf(u, inv.id)).map((p) => p.amount)).toEqual([115]);
    expect((await invoiceOf(u, inv.id)).balance).toBe(0);
  });

  it('a refund in June puts the balance back up and counts as a negative payment in June (payments basis)', async () => {
    const u = await connectedUser();
    const { inv, pi } = await paidByCard(u);
    clock.set('2026-06-09T22:00:00.000Z'); // 10 am, 10 June in Auckland
    const delivery = await fake.refundCharge(pi, 4600);
    expect(delivery).toMatchObject({ type: 'charge.refunded', status: 200 });
    // A redelivery of the same refund changes nothing.
    const ch = [...fake.charges.values()].find((x) => x.payment_intent === pi)!;
    await fake.sendConnectEvent('charge.refunded', { ...ch, account: undefined }, u.stripeAccount);
    const token2 = await signInAgain(t, u);
    const detail = (await t.get(`/invoices/${inv.id}`, token2)).json;
    expect(detail).toMatchObject({ paid: 69, balance: 46 });
    // The payment history carries the refund under its payment, so the list adds up to Paid.
    expect(detail.payments).toMatchObject([{ amount: 115, date: '2026-05-05', refunds: [{ id: expect.stringMatching(/^re_/), amount: 46, date: '2026-06-10' }] }]);
    const listed = (detail.payments as { amount: number; refunds: { amount: number }[] }[]).reduce((a, p) => a + Math.round(p.amount * 100) - p.refunds.reduce((b, r) => b + Math.round(r.amount * 100), 0), 0);
    expect(listed).toBe(Math.round(detail.paid * 100));
    expect((await t.get(`/invoices/${inv.id}/payments`, token2)).json).toEqual(detail.payments);

    // By hand: paid $115.00 on 5 May (GST 115 × 15/115 = $15.00); $46.00 refunded on 10 June,
    // its GST share 46 × 15/115 = $6.00, both negative.
    const rows = await db().query<{ kind: string; date: string; amount_cents: string; gst_cents: string }>(
      "SELECT kind, to_char(date, 'YYYY-MM-DD') AS date, amount_cents::text, gst_cents::text FROM report_payments WHERE document_id = $1 ORDER BY date",
      [inv.id],
    );
    expect(rows).toEqual([
      { kind: 'payment', date: '2026-05-05', amount_cents: '11500', gst_cents: '1500' },
      { kind: 'refund', date: '2026-06-10', amount_cents: '-4600', gst_cents: '-600' },
    ]);
    const june = (await t.get('/reports/gst?start_date=2026-06-01&end_date=2026-06-30&basis=payments', token2)).json;
    expect(june).toMatchObject({ total_gst_collected: -6, corrections: { count: 1, gst: -6 } });
    const may = (await t.get('/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=payments', token2)).json;
    expect(may).toMatchObject({ total_gst_collected: 15 });
  });

  it('voiding the invoice expires its open session; a payment typed in meanwhile is honoured and the card overpayment flagged', async () => {
    const u = await connectedUser();
    const one = await invoiceWithLink(u);
    const url = (await one.c.post(`/invoices/${one.token}/checkout`)).json.checkout_url as string;
    expect((await t.post(`/invoices/${one.inv.id}/void`, { reason: 'Wrong client' }, u.token)).status).toBe(200);
    expect(fake.connectSessions.get(sessionIdOf(url))!.status).toBe('expired');
    expect(await db().query('SELECT status FROM payment_checkout_sessions WHERE id = $1', [sessionIdOf(url)])).toEqual([{ status: 'expired' }]);

    // Part paid by bank transfer after the client opened Checkout for the whole $115.00.
    const two = await invoiceWithLink(u);
    const url2 = (await two.c.post(`/invoices/${two.token}/checkout`)).json.checkout_url as string;
    expect((await t.post(`/invoices/${two.inv.id}/payments`, { amount: 15 }, u.token)).status).toBe(201);
    await pay(url2);
    expect((await paymentsOf(u, two.inv.id)).map((p) => [p.method, p.amount])).toEqual([['bank_transfer', 15], ['card', 100]]);
    expect(await db().query("SELECT kind, amount_cents::text AS cents FROM payment_issues WHERE account_id = $1 AND document_id = $2", [u.userId, two.inv.id])).toEqual([{ kind: 'overpaid', cents: '1500' }]);

    // The home screen's list says so in dollars, with the invoice, until the business marks it done.
    const issues = (await t.get('/payments/issues', u.token)).json.items;
    expect(issues).toEqual([
      {
        id: expect.stringMatching(/^[0-9]+$/), kind: 'overpaid', document_id: two.inv.id, reference: two.inv.reference, amount: 15,
        detail: 'The invoice was paid some other way while the client paid by card: $15.00 more than was owed. Refund the difference in Stripe.',
        at: expect.any(String),
      },
    ]);
    const stranger = await signUp(t, 'Someone Else');
    expect((await t.get('/payments/issues', stranger.token)).json).toEqual({ items: [] });
    expect((await t.post(`/payments/issues/${issues[0].id}/done`, undefined, stranger.token)).status).toBe(404);
    for (const bad of ['0', 'abc', '1e3', '99999999999999999999']) expect((await t.post(`/payments/issues/${bad}/done`, undefined, u.token)).status).toBe(404);
    expect((await t.post(`/payments/issues/${issues[0].id}/done`, undefined, u.token)).status).toBe(204);
    expect((await t.get('/payments/issues', u.token)).json).toEqual({ items: [] });
    const again = await t.post(`/payments/issues/${issues[0].id}/done`, undefined, u.token);
    expect([again.status, again.json.detail]).toEqual([404, 'No such payment issue']);
  });

  it('a dispute is kept on the account; removing our access disconnects and the offer goes', async () => {
    const u = await connectedUser();
    const { inv, pi } = await paidByCard(u);
    expect(await fake.disputeCharge(pi)).toMatchObject({ type: 'charge.dispute.created', status: 200 });
    expect(await db().query('SELECT kind, document_id, amount_cents::text AS cents FROM payment_issues WHERE account_id = $1', [u.userId])).toEqual([{ kind: 'dispute', document_id: inv.id, cents: '11500' }]);
    expect((await t.get('/payments/issues', u.token)).json.items).toMatchObject([{ kind: 'dispute', document_id: inv.id, reference: inv.reference, amount: 115 }]);
    expect((await t.get('/payments/issues', u.token)).json.items[0].detail).toMatch(/^The client disputed a card payment of \$115\.00 \([a-z ]+\)\. Answer it in your Stripe dashboard before Stripe's deadline\.$/);

    const other = await invoiceWithLink(u);
    expect((await other.c.get(`/invoices/${other.token}`)).json.pay).toEqual({ surcharge: null });
    const { delivery } = await fake.sendConnectEvent('account.application.deauthorized', { id: 'ca_platform', object: 'application' }, u.stripeAccount);
    expect(delivery.status).toBe(200);
    expect((await t.get('/payments/settings', u.token)).json.status).toBe('disconnected');
    expect((await other.c.get(`/invoices/${other.token}`)).json.pay).toBeNull();
    expect((await other.c.post(`/invoices/${other.token}/checkout`)).json.detail).toBe(CLIENT_LINK_MESSAGES.payUnavailable);
  });

  it("another account's invoice is never reachable through a connected account's events", async () => {
    const a = await connectedUser();
    const b = await connectedUser();
    const { inv, token, c } = await invoiceWithLink(a);
    const url = (await checkout(c, token)).json.checkout_url as string;
    expect(fake.connectSessions.get(sessionIdOf(url))!.account).toBe(a.stripeAccount);
    // B's Stripe account sends an event naming A's invoice: nothing is recorded.
    const forged = { id: 'cs_test_forged', object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged_b', amount_total: 11500, metadata: { account_id: a.userId, document_id: inv.id } };
    const { delivery } = await fake.sendConnectEvent('checkout.session.completed', forged, b.stripeAccount);
    expect(JSON.parse(delivery.responseBody)).toMatchObject({ outcome: 'unmatched' });
    const { delivery: d2 } = await fake.sendConnectEvent('checkout.session.completed', { ...fake.connectSessions.get(sessionIdOf(url))!, status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged_b2', account: undefined }, b.stripeAccount);
    expect(JSON.parse(d2.responseBody)).toMatchObject({ outcome: 'unmatched' });
    expect(await paymentsOf(a, inv.id)).toHaveLength(0);
    // Each account reads only its own settings.
    await t.put('/payments/settings', { surcharge_enabled: true, surcharge_percent: 1 }, b.token);
    expect((await t.get('/payments/settings', a.token)).json.surcharge_enabled).toBe(false);
  });
});
