// /api/v1/billing: the free trial and the subscription (docs/api/billing.md).
//
//   GET  /subscription-status       signed in: trial and subscription state
//   POST /create-checkout-session   signed in: {checkout_url} of a Stripe Checkout Session
//   POST /create-portal-session     signed in: {portal_url} of a Stripe Billing Portal session
//   POST /webhook                   Stripe only, no bearer: verified by its Stripe-Signature
import { BILLING_MESSAGES, checkoutSessionResponse, portalSessionResponse, subscriptionStatusResponse } from '@tradie/contracts';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/problem.ts';
import {
  BillingError,
  notConfiguredBilling,
  subscriptionStatus,
  trialEndsAt,
  type BillingProvider,
} from '../integrations/stripe/index.ts';
import { describe } from '../openapi/describe.ts';
import { applyWebhookEvent, loadAccountBilling, statusResponse, type AccountBilling } from './repository.ts';

/** HTTP status for the adapter's typed errors (port.ts says which is meant). */
const BILLING_ERROR_STATUS: Record<BillingError['code'], ContentfulStatusCode> = {
  BILLING_NOT_CONFIGURED: 503,
  BILLING_UNAVAILABLE: 503,
  BILLING_REJECTED: 502,
  WEBHOOK_REJECTED: 400,
};

export function billingRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);
  const provider: BillingProvider = deps.billing ?? notConfiguredBilling();

  /** Runs a provider call; its typed errors become {detail} answers, with the provider's words in the log. */
  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof BillingError) {
        deps.log(e.code === 'BILLING_NOT_CONFIGURED' ? 'info' : 'error', `billing: ${what} failed`, { code: e.code, message: e.message });
        throw new ApiError(BILLING_ERROR_STATUS[e.code], e.detail, undefined, e.code === 'BILLING_UNAVAILABLE' ? { 'Retry-After': '30' } : undefined);
      }
      throw e;
    }
  }

  async function accountBilling(accountId: string): Promise<AccountBilling> {
    const billing = await loadAccountBilling(deps.store.db, accountId);
    if (!billing) throw new ApiError(401, 'Your session has ended. Please sign in again.');
    return billing;
  }

  const settingsUrl = (query = ''): string => `${deps.config.appUrl}/app/settings${query}`;

  r.get('/subscription-status', describe({ tag: 'Billing', summary: 'Trial and subscription status', response: { status: 200, schema: subscriptionStatusResponse } }), auth, async (c) => {
    const billing = await accountBilling(c.get('accountId'));
    return c.json(statusResponse(billing, deps.clock.now(), provider.configured));
  });

  r.post('/create-checkout-session', describe({ tag: 'Billing', summary: 'Start a subscription: the Stripe Checkout address', response: { status: 200, schema: checkoutSessionResponse }, errors: [409, 502, 503] }), auth, async (c) => {
    const accountId = c.get('accountId');
    const billing = await accountBilling(accountId);
    if (!provider.configured) throw new ApiError(503, BILLING_MESSAGES.notConfigured);
    const status = subscriptionStatus({ trialStartedAt: billing.trialStartedAt, subscription: billing.state.subscription, now: deps.clock.now() });
    if (status.subscription_active) throw new ApiError(409, BILLING_MESSAGES.alreadySubscribed);
    const session = await call('checkout session', () =>
      provider.createCheckoutSession({
        accountId,
        email: billing.email,
        customerId: billing.state.customerId,
        successUrl: settingsUrl('?tab=billing&checkout=success&session_id={CHECKOUT_SESSION_ID}'),
        cancelUrl: settingsUrl('?tab=billing&checkout=cancelled'),
        // Stripe's trial ends when ours does: subscribing on day 10 does not add 14 more free days.
        trialEndsAt: trialEndsAt(billing.trialStartedAt),
      }),
    );
    return c.json({ checkout_url: session.url });
  });

  r.post('/create-portal-session', describe({ tag: 'Billing', summary: 'Manage the subscription: the Stripe billing portal address', response: { status: 200, schema: portalSessionResponse }, errors: [409, 502, 503] }), auth, async (c) => {
    const billing = await accountBilling(c.get('accountId'));
    if (!provider.configured) throw new ApiError(503, BILLING_MESSAGES.notConfigured);
    const customerId = billing.state.customerId;
    if (!customerId) throw new ApiError(409, BILLING_MESSAGES.noCustomer);
    const portal = await call('portal session', () => provider.createPortalSession({ customerId, returnUrl: settingsUrl('?tab=billing') }));
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
