// /api/v1/billing: the free trial and the subscription (docs/api/billing.md).
//
//   GET  /subscription-status       signed in: trial and subscription state
//   GET  /plans                     signed in: the monthly and annual prices, excluding GST
//   POST /create-checkout-session   signed in, {interval?}: {checkout_url} of a Stripe Checkout Session
//   POST /create-portal-session     signed in: {portal_url} of a Stripe Billing Portal session
//   POST /webhook                   Stripe only, no bearer: verified by its Stripe-Signature
import {
  BILLING_GST_PERCENT, BILLING_MESSAGES, billingPlansResponse, checkoutSessionRequest, checkoutSessionResponse, portalSessionResponse, subscriptionStatusResponse,
  type BillingInterval, type BillingPlan,
} from '@tradie/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { readBody } from '../http/body.ts';
import { ApiError } from '../http/problem.ts';
import {
  notConfiguredBilling,
  subscriptionStatus,
  trialEndsAt,
  type BillingProvider,
} from '../integrations/stripe/index.ts';
import { stripeCall } from '../integrations/stripe/answer.ts';
import { describe } from '../openapi/describe.ts';
import { applyWebhookEvent, gstTaxRateId, loadAccountBilling, portalConfigurationId, statusResponse, type AccountBilling } from './repository.ts';

export function billingRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);
  const provider: BillingProvider = deps.billing ?? notConfiguredBilling();

  const call = <T>(what: string, fn: () => Promise<T>): Promise<T> => stripeCall(deps, 'billing', what, fn);

  async function accountBilling(accountId: string): Promise<AccountBilling> {
    const billing = await loadAccountBilling(deps.store.db, accountId);
    if (!billing) throw new ApiError(401, 'Your session has ended. Please sign in again.');
    return billing;
  }

  const settingsUrl = (query = ''): string => `${deps.config.appUrl}/app/settings${query}`;

  /**
   * The Stripe price of each interval: monthly is the adapter's own (STRIPE_PRICE_ID); annual is
   * STRIPE_PRICE_ID_ANNUAL, and without it only monthly is offered.
   */
  const annualPriceId = deps.config.env.STRIPE_PRICE_ID_ANNUAL;
  const priceIdOf = (interval: BillingInterval): string | undefined | null => (interval === 'month' ? undefined : (annualPriceId ?? null));
  const offered: readonly BillingInterval[] = annualPriceId ? ['month', 'year'] : ['month'];

  r.get('/plans', describe({ tag: 'Billing', summary: 'The plans on offer: price per month and per year, excluding GST (added at checkout)', response: { status: 200, schema: billingPlansResponse }, errors: [502, 503] }), auth, async (c) => {
    if (!provider.configured) return c.json({ plans: [], gst_percent: BILLING_GST_PERCENT });
    const plans: BillingPlan[] = [];
    for (const interval of offered) {
      const price = await call('price', () => provider.retrievePrice(priceIdOf(interval) ?? undefined));
      plans.push({ interval, unit_amount: price.unitAmount, currency: price.currency });
    }
    return c.json({ plans, gst_percent: BILLING_GST_PERCENT });
  });

  r.get('/subscription-status', describe({ tag: 'Billing', summary: 'Trial and subscription status', response: { status: 200, schema: subscriptionStatusResponse } }), auth, async (c) => {
    const billing = await accountBilling(c.get('accountId'));
    return c.json(statusResponse(billing, deps.clock.now(), provider.configured));
  });

  r.post('/create-checkout-session', describe({
    tag: 'Billing', summary: 'Start a subscription, billed monthly or annually (GST added): the Stripe Checkout address', body: checkoutSessionRequest,
    response: { status: 200, schema: checkoutSessionResponse }, errors: [409, 502, 503],
  }), auth, async (c) => {
    const accountId = c.get('accountId');
    const { interval } = await readBody(c, checkoutSessionRequest, { optional: true });
    const billing = await accountBilling(accountId);
    if (!provider.configured) throw new ApiError(503, BILLING_MESSAGES.notConfigured);
    const priceId = priceIdOf(interval);
    if (priceId === null) throw new ApiError(422, BILLING_MESSAGES.annualNotOffered);
    const status = subscriptionStatus({ trialStartedAt: billing.trialStartedAt, subscription: billing.state.subscription, now: deps.clock.now() });
    if (status.subscription_active) throw new ApiError(409, BILLING_MESSAGES.alreadySubscribed);
    const taxRateId = await call('GST tax rate', () => gstTaxRateId(deps.store.db, provider, deps.config.env.STRIPE_TAX_RATE_ID, deps.clock.now()));
    const session = await call('checkout session', () =>
      provider.createCheckoutSession({
        accountId,
        email: billing.email,
        customerId: billing.state.customerId,
        successUrl: settingsUrl('?tab=billing&checkout=success&session_id={CHECKOUT_SESSION_ID}'),
        cancelUrl: settingsUrl('?tab=billing&checkout=cancelled'),
        // Stripe's trial ends when ours does: subscribing on day 10 does not add 14 more free days.
        trialEndsAt: trialEndsAt(billing.trialStartedAt),
        ...(priceId ? { priceId } : {}),
        taxRateIds: [taxRateId],
      }),
    );
    return c.json({ checkout_url: session.url });
  });

  r.post('/create-portal-session', describe({ tag: 'Billing', summary: 'Manage the subscription: the Stripe billing portal address', response: { status: 200, schema: portalSessionResponse }, errors: [409, 502, 503] }), auth, async (c) => {
    const billing = await accountBilling(c.get('accountId'));
    if (!provider.configured) throw new ApiError(503, BILLING_MESSAGES.notConfigured);
    const customerId = billing.state.customerId;
    if (!customerId) throw new ApiError(409, BILLING_MESSAGES.noCustomer);
    // With an annual price the portal must list both prices for monthly ↔ annual switching: a
    // configuration made for them (once); otherwise the account's default portal settings.
    const configurationId = annualPriceId
      ? await call('portal configuration', () => portalConfigurationId(deps.store.db, provider, [undefined, annualPriceId], deps.clock.now()))
      : undefined;
    const portal = await call('portal session', () =>
      provider.createPortalSession({ customerId, returnUrl: settingsUrl('?tab=billing'), ...(configurationId ? { configurationId } : {}) }),
    );
    return c.json({ portal_url: portal.url });
  });

  r.post('/webhook', describe({ tag: 'Billing', summary: 'Stripe webhooks (verified by Stripe-Signature; each event applied once)', auth: false, bodyNote: 'the raw Stripe event JSON', response: { status: 200, schema: z.object({}).passthrough() }, errors: [400] }), async (c) => {
    // The signature covers the exact bytes: read them before anything parses the body.
    const raw = await c.req.text();
    const verified = await call('webhook', () => provider.verifyWebhook(raw, c.req.header('stripe-signature')));
    if (!verified.ok) {
      deps.log('info', 'billing: webhook rejected', { reason: verified.error.reason, message: verified.error.message });
      throw new ApiError(400, BILLING_MESSAGES.webhookRejected);
    }
    const event = verified.event;
    const result = await deps.store.db.tx((tx) => applyWebhookEvent(tx, event, deps.clock.now()));
    if (result.outcome === 'unmatched') deps.log('info', 'billing: webhook event for no known account', { id: event.id, type: event.type });
    // Only now, with the event and the new state committed, does Stripe hear 2xx.
    return c.json({ received: true, outcome: result.outcome });
  });

  return r;
}
