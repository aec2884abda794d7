// The Stripe adapter of the BillingProvider port, on the official `stripe` SDK.
//
// Configuration (from the environment, read once by the API's main and passed in here):
//   STRIPE_SECRET_KEY      sk_live_... / sk_test_...
//   STRIPE_PRICE_ID        price_... of the $7.50/month (NZD 750, excl. GST) plan
//   STRIPE_WEBHOOK_SECRET  whsec_... of the webhook endpoint
//   STRIPE_API_BASE        optional, e.g. http://127.0.0.1:12111 — where the API lives (tests
//                          point it at the fake Stripe server; the SDK takes host/port/protocol)
// The annual price (STRIPE_PRICE_ID_ANNUAL) and the GST tax rate (STRIPE_TAX_RATE_ID) are chosen
// per checkout by the billing feature (apps/api/src/billing/routes.ts) and passed in the request.
// Any of the first three missing → billing is "not configured": every call throws
// BillingNotConfiguredError (the API answers 503) and the trial still counts.
import Stripe from 'stripe';
import {
  BillingNotConfiguredError,
  BillingRejectedError,
  BillingUnavailableError,
  NZ_GST_TAX_RATE,
  SUBSCRIPTION_STATUSES,
  WebhookVerificationError,
  type BillingEvent,
  type BillingProvider,
  type CheckoutRequest,
  type PlanPrice,
  type PortalSwitchableProducts,
  type SubscriptionSnapshot,
  type SubscriptionStatusName,
  type WebhookRejection,
} from './port.ts';

/** How this server talks to Stripe's API, for billing and for Connect alike. */
export interface StripeClientConfig {
  secretKey: string;
  /** Where Stripe's API is; absent → api.stripe.com:443 over https. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
  /** The SDK retries connection errors, 409 and 5xx with the same idempotency key. Default 1. */
  maxNetworkRetries?: number;
  /** Per request, in ms. Default 20 s (the SDK's own default is 80 s). */
  timeoutMs?: number;
  /** Webhook timestamp tolerance in seconds. Default 300, Stripe's. */
  webhookToleranceSeconds?: number;
}

export interface StripeBillingConfig extends StripeClientConfig {
  priceId: string;
  webhookSecret: string;
}

/** The SDK configured by `config`, and the age in seconds a webhook may have. */
export function stripeClient(config: StripeClientConfig): { stripe: Stripe; tolerance: number } {
  const stripe = new Stripe(config.secretKey, {
    maxNetworkRetries: config.maxNetworkRetries ?? 1,
    timeout: config.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: 'tradie-quotes' },
    ...(config.api ?? {}),
  });
  return { stripe, tolerance: config.webhookToleranceSeconds ?? 300 };
}

export interface StripeBillingDeps {
  now: () => Date;
}

export const TRIAL_PERIOD_DAYS = 14;
/** Stripe refuses a `trial_end` less than 48 hours ahead. */
const MIN_TRIAL_END_SECONDS = 48 * 3600;

export type StripeEnv = Readonly<Record<string, string | undefined>>;

/** The Stripe settings in `env`, or the names of the missing ones. Throws on a malformed STRIPE_API_BASE. */
export function stripeConfigFromEnv(env: StripeEnv): { config: StripeBillingConfig } | { missing: string[] } {
  const required = ['STRIPE_SECRET_KEY', 'STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET'] as const;
  const missing = required.filter((k) => !env[k]?.trim());
  if (missing.length > 0) return { missing };
  const config: StripeBillingConfig = {
    secretKey: env.STRIPE_SECRET_KEY!.trim(),
    priceId: env.STRIPE_PRICE_ID!.trim(),
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!.trim(),
  };
  const base = env.STRIPE_API_BASE?.trim();
  if (base) config.api = parseApiBase(base);
  return { config };
}

export function parseApiBase(base: string): NonNullable<StripeBillingConfig['api']> {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`STRIPE_API_BASE must be an http(s) URL, got ${base}`);
  if (url.pathname !== '/' && url.pathname !== '') throw new Error('STRIPE_API_BASE takes no path: the SDK adds /v1/');
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** The BillingProvider for `env`: Stripe when configured, otherwise one that says so. */
export function billingFromEnv(env: StripeEnv, deps: StripeBillingDeps): BillingProvider {
  const found = stripeConfigFromEnv(env);
  return 'config' in found ? createStripeBilling(found.config, deps) : notConfiguredBilling(found.missing);
}

export function notConfiguredBilling(missing: readonly string[] = ['STRIPE_SECRET_KEY', 'STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET']): BillingProvider {
  const fail = async (): Promise<never> => {
    throw new BillingNotConfiguredError(missing);
  };
  return {
    configured: false, mode: 'test', createCheckoutSession: fail, createPortalSession: fail, cancelSubscription: fail, verifyWebhook: fail,
    retrievePrice: fail, createGstTaxRate: fail, createPortalConfiguration: fail,
  };
}

export function createStripeBilling(config: StripeBillingConfig, deps: StripeBillingDeps): BillingProvider {
  const { stripe, tolerance } = stripeClient(config);
  /** Prices by id: a price's amount and interval never change in Stripe (a new price is made instead). */
  const prices = new Map<string, Promise<PlanPrice>>();

  return {
    configured: true,
    mode: /^[sr]k_live_/.test(config.secretKey) ? 'live' : 'test',

    async createCheckoutSession(req: CheckoutRequest) {
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'subscription',
        // GST is added on top of the price by the tax rate, so Checkout, the invoice and the receipt show it.
        line_items: [{ price: req.priceId ?? config.priceId, quantity: 1, ...(req.taxRateIds?.length ? { tax_rates: [...req.taxRateIds] } : {}) }],
        client_reference_id: req.accountId,
        metadata: { account_id: req.accountId },
        // Copied onto the subscription, so every customer.subscription.* event names the account.
        subscription_data: { metadata: { account_id: req.accountId }, ...trialParams(req.trialEndsAt, deps.now()) },
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        // Stripe refuses both at once.
        ...(req.customerId ? { customer: req.customerId } : { customer_email: req.email }),
      };
      const session = await call(() => stripe.checkout.sessions.create(params));
      if (!session.url) throw new BillingUnavailableError(`Checkout session ${session.id} came back without a url`);
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customerId, returnUrl, configurationId }) {
      const session = await call(() =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl, ...(configurationId ? { configuration: configurationId } : {}) }),
      );
      return { url: session.url };
    },

    async cancelSubscription(subscriptionId) {
      // DELETE /v1/subscriptions/{id}: ends it at once (no proration invoice, no refund).
      await call(() => stripe.subscriptions.cancel(subscriptionId));
    },

    retrievePrice(priceId = config.priceId) {
      let found = prices.get(priceId);
      if (!found) {
        found = call(() => stripe.prices.retrieve(priceId)).then((p) => ({
          priceId: p.id,
          product: typeof p.product === 'string' ? p.product : p.product.id,
          unitAmount: p.unit_amount ?? 0,
          currency: p.currency,
          interval: p.recurring?.interval ?? null,
        }));
        prices.set(priceId, found);
        // A failure is not remembered: the next call asks again.
        found.catch(() => prices.delete(priceId));
      }
      return found;
    },

    async createGstTaxRate() {
      const rate = NZ_GST_TAX_RATE;
      const created = await call(() =>
        stripe.taxRates.create(
          {
            display_name: rate.displayName,
            percentage: rate.percentage,
            inclusive: rate.inclusive,
            country: rate.country,
            jurisdiction: rate.jurisdiction,
            description: rate.description,
            tax_type: rate.taxType,
          },
          // Two servers creating it at once get the same rate back (Stripe keeps keys 24 hours).
          { idempotencyKey: `tradie-nz-gst-${rate.percentage}-exclusive` },
        ),
      );
      return created.id;
    },

    async createPortalConfiguration(products: PortalSwitchableProducts) {
      const created = await call(() =>
        stripe.billingPortal.configurations.create(
          {
            features: {
              // Switching between the monthly and annual price is a price update; Stripe prorates it.
              subscription_update: {
                enabled: true,
                default_allowed_updates: ['price'],
                proration_behavior: 'create_prorations',
                products: products.map((p) => ({ product: p.product, prices: [...p.prices] })),
              },
              subscription_cancel: { enabled: true, mode: 'at_period_end' },
              payment_method_update: { enabled: true },
              invoice_history: { enabled: true },
              customer_update: { enabled: true, allowed_updates: ['email', 'address', 'tax_id'] },
            },
          },
          { idempotencyKey: `tradie-portal-${products.flatMap((p) => p.prices).join('-')}` },
        ),
      );
      return created.id;
    },

    async verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeWebhook(stripe, { rawBody, signatureHeader, secret: config.webhookSecret, tolerance, now: deps.now() }, toBillingEvent);
    },
  };
}

/** A fresh sign-up gets 14 days; a later subscriber's Stripe trial ends with ours (none if < 48 h are left). */
export function trialParams(trialEndsAt: Date | undefined, now: Date): Pick<Stripe.Checkout.SessionCreateParams.SubscriptionData, 'trial_period_days' | 'trial_end'> {
  if (!trialEndsAt) return { trial_period_days: TRIAL_PERIOD_DAYS };
  const end = Math.floor(trialEndsAt.getTime() / 1000);
  return end - Math.floor(now.getTime() / 1000) >= MIN_TRIAL_END_SECONDS ? { trial_end: end } : {};
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw mapStripeError(e);
  }
}

export function mapStripeError(e: unknown): Error {
  if (e instanceof Stripe.errors.StripeInvalidRequestError || e instanceof Stripe.errors.StripeCardError || e instanceof Stripe.errors.StripeIdempotencyError) {
    return new BillingRejectedError(e.message, e.code ?? null, { cause: e });
  }
  // Connection, timeout, 5xx (StripeAPIError), 429, and 401/403 (our key is wrong: an operator's
  // problem, not the user's) all mean "billing is unavailable right now".
  return new BillingUnavailableError(e instanceof Error ? e.message : String(e), { cause: e });
}

/**
 * A Stripe webhook checked with the SDK's own verification (HMAC-SHA256 over `${t}.${rawBody}`,
 * constant-time compare, age ≤ tolerance) and turned into ours by `map`; a refusal says why. One
 * check for the billing and the Connect endpoints, each with its own secret.
 */
export function verifyStripeWebhook<E>(
  stripe: Stripe,
  input: { rawBody: Parameters<Stripe["webhooks"]["constructEvent"]>[0]; signatureHeader: string | null | undefined; secret: string; tolerance: number; now: Date },
  map: (event: Stripe.Event) => E,
): { ok: true; event: E } | { ok: false; error: WebhookVerificationError } {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(input.rawBody, input.signatureHeader ?? '', input.secret, input.tolerance, undefined, input.now.getTime());
  } catch (e) {
    return { ok: false, error: new WebhookVerificationError(rejectionOf(e), e instanceof Error ? e.message : String(e), { cause: e }) };
  }
  try {
    return { ok: true, event: map(event) };
  } catch (e) {
    return { ok: false, error: new WebhookVerificationError('malformed_body', e instanceof Error ? e.message : String(e), { cause: e }) };
  }
}

function rejectionOf(e: unknown): WebhookRejection {
  if (!(e instanceof Stripe.errors.StripeSignatureVerificationError)) return 'malformed_body';
  const m = e.message;
  if (m.includes('Timestamp outside the tolerance zone')) return 'stale_timestamp';
  if (m.includes('No stripe-signature header')) return 'missing_signature';
  if (m.includes('Unable to extract timestamp') || m.includes('No signatures found with expected scheme')) return 'malformed_signature';
  return 'bad_signature';
}

const idOf = (x: string | { id: string } | null | undefined): string | null => (x == null ? null : typeof x === 'string' ? x : x.id);

const statusOf = (s: string): SubscriptionStatusName => ((SUBSCRIPTION_STATUSES as readonly string[]).includes(s) ? (s as SubscriptionStatusName) : 'incomplete');

function subscriptionSnapshot(sub: Stripe.Subscription): SubscriptionSnapshot {
  const item = sub.items?.data?.[0];
  return {
    id: sub.id,
    status: statusOf(sub.status),
    currentPeriodEnd: item?.current_period_end ?? null,
    trialEnd: sub.trial_end ?? null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    priceId: item?.price?.id ?? null,
  };
}

/** Stripe's event → ours. Throws on an object missing what we rely on (reported as malformed_body). */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, created: event.created };
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      if (s.mode !== 'subscription') return { ...base, type: 'ignored', stripeType: event.type };
      return {
        ...base,
        type: event.type,
        accountId: s.client_reference_id ?? s.metadata?.account_id ?? null,
        customerId: idOf(s.customer),
        sessionId: s.id,
        subscriptionId: idOf(s.subscription),
        paymentStatus: s.payment_status === 'paid' ? 'paid' : s.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      if (typeof sub.id !== 'string' || typeof sub.status !== 'string') throw new Error(`${event.type} ${event.id} has no subscription object`);
      return { ...base, type: event.type, accountId: sub.metadata?.account_id ?? null, customerId: idOf(sub.customer), subscription: subscriptionSnapshot(sub) };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const inv = event.data.object;
      if (typeof inv.id !== 'string') throw new Error(`${event.type} ${event.id} has no invoice object`);
      const details = inv.parent?.subscription_details ?? null;
      return {
        ...base,
        type: event.type,
        accountId: details?.metadata?.account_id ?? inv.metadata?.account_id ?? null,
        customerId: idOf(inv.customer),
        invoice: {
          id: inv.id,
          subscriptionId: idOf(details?.subscription),
          amountPaid: inv.amount_paid ?? 0,
          currency: inv.currency ?? 'nzd',
          attemptCount: inv.attempt_count ?? 0,
          nextPaymentAttempt: inv.next_payment_attempt ?? null,
          billingReason: inv.billing_reason ?? null,
        },
      };
    }
    default:
      return { ...base, type: 'ignored', stripeType: event.type };
  }
}
