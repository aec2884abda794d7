// Stripe Connect for clients paying a tradie's invoice by card: direct charges on the tradie's own
// Standard account (docs/decisions/0012-card-payments-connect-direct-charges.md). The tradie is the merchant of
// record; every payment call carries the `Stripe-Account` header (the SDK's `stripeAccount`
// option), so the Checkout Session, the PaymentIntent, the charge, its fees, refunds and disputes
// all live on their account, never on the platform's.
//
// Configuration: STRIPE_SECRET_KEY (the platform's key), STRIPE_CONNECT_WEBHOOK_SECRET (the signing
// secret of the Connect webhook endpoint, which receives events of connected accounts; separate from
// STRIPE_WEBHOOK_SECRET of the platform's own billing endpoint), STRIPE_API_BASE (tests).
// The API never sees Stripe's objects: a verified webhook becomes a `ConnectEvent`.
import Stripe from 'stripe';
import { BillingRejectedError, BillingUnavailableError, type WebhookVerificationError } from './port.ts';
import { mapStripeError, parseApiBase, type StripeClientConfig, stripeClient, verifyStripeWebhook } from './stripeBilling.ts';

export interface ConnectedAccountSnapshot {
  /** `acct_...` */
  id: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface PaymentCheckoutRequest {
  /** The tradie's Stripe account (`acct_...`): the session is made on it (Stripe-Account). */
  connectedAccountId: string;
  accountId: string;
  documentId: string;
  linkId: string;
  /** 'INV-0001': the line reads 'Invoice INV-0001'. */
  reference: string;
  /** What the invoice still owes, in cents. */
  balanceCents: number;
  /** The card surcharge the business passes on, in cents; 0 for none (then no surcharge line). */
  surchargeCents: number;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** Sent as the Idempotency-Key: a retried create gives the same session back. */
  idempotencyKey?: string;
}

export interface PaymentCheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: string;
  amountTotal: number | null;
  paymentIntentId: string | null;
  /** Unix seconds. */
  expiresAt: number;
}

/** The metadata every session and PaymentIntent carries: whose invoice it pays. */
export interface PaymentMetadata {
  accountId: string | null;
  documentId: string | null;
  linkId: string | null;
}

interface ConnectEventBase {
  /** `evt_...`: each is applied once. */
  id: string;
  /** Unix seconds. */
  created: number;
  /** The connected account the event happened on (`event.account`), or null. */
  connectedAccountId: string | null;
}

export type ConnectEvent =
  | (ConnectEventBase & {
      type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded';
      session: { id: string; paymentStatus: string; paymentIntentId: string | null; amountTotal: number; metadata: PaymentMetadata };
    })
  | (ConnectEventBase & { type: 'checkout.session.expired'; session: { id: string } })
  | (ConnectEventBase & { type: 'payment_intent.succeeded'; paymentIntent: { id: string; amountReceived: number; metadata: PaymentMetadata } })
  | (ConnectEventBase & {
      type: 'charge.refunded';
      charge: { id: string; paymentIntentId: string | null; amount: number; amountRefunded: number; latestRefundId: string | null };
    })
  | (ConnectEventBase & {
      type: 'charge.dispute.created';
      dispute: { id: string; chargeId: string | null; paymentIntentId: string | null; amount: number; reason: string; status: string };
    })
  | (ConnectEventBase & { type: 'account.updated'; account: ConnectedAccountSnapshot })
  | (ConnectEventBase & { type: 'account.application.deauthorized' })
  | (ConnectEventBase & { type: 'ignored'; stripeType: string });

export type ConnectVerification = { ok: true; event: ConnectEvent } | { ok: false; error: WebhookVerificationError };

/** What the payments feature needs from Stripe Connect. */
export interface ConnectProvider {
  /** POST /v1/accounts: a Standard account in NZ for the business. */
  createAccount(input: { accountId: string; email: string }): Promise<ConnectedAccountSnapshot>;
  retrieveAccount(connectedAccountId: string): Promise<ConnectedAccountSnapshot>;
  /** POST /v1/account_links: Stripe's hosted onboarding, a fresh single-use address each time. */
  createAccountLink(input: { connectedAccountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string }>;
  createCheckoutSession(request: PaymentCheckoutRequest): Promise<PaymentCheckoutSession>;
  retrieveCheckoutSession(connectedAccountId: string, sessionId: string): Promise<PaymentCheckoutSession>;
  /** POST /v1/checkout/sessions/{id}/expire; a session that is no longer open is left as it is. */
  expireCheckoutSession(connectedAccountId: string, sessionId: string): Promise<PaymentCheckoutSession>;
  /** Checks Stripe-Signature against the Connect endpoint's secret; never throws. */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined): ConnectVerification;
}

export interface StripeConnectConfig extends StripeClientConfig {
  connectWebhookSecret: string;
}

/** The Connect provider for `env`, or null when card payments are not configured on this server. */
export function connectFromEnv(env: Readonly<Record<string, string | undefined>>, deps: { now: () => Date }): ConnectProvider | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const connectWebhookSecret = env.STRIPE_CONNECT_WEBHOOK_SECRET?.trim();
  if (!secretKey || !connectWebhookSecret) return null;
  const base = env.STRIPE_API_BASE?.trim();
  return createStripeConnect({ secretKey, connectWebhookSecret, ...(base ? { api: parseApiBase(base) } : {}) }, deps);
}

const idOf = (x: string | { id: string } | null | undefined): string | null => (x == null ? null : typeof x === 'string' ? x : x.id);

function metadataOf(m: Record<string, string> | null | undefined): PaymentMetadata {
  return { accountId: m?.account_id ?? null, documentId: m?.document_id ?? null, linkId: m?.link_id ?? null };
}

const accountSnapshot = (a: Stripe.Account): ConnectedAccountSnapshot => ({ id: a.id, chargesEnabled: a.charges_enabled === true, detailsSubmitted: a.details_submitted === true });

function sessionOf(s: Stripe.Checkout.Session): PaymentCheckoutSession {
  return {
    id: s.id,
    url: s.url ?? null,
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    paymentStatus: s.payment_status,
    amountTotal: s.amount_total ?? null,
    paymentIntentId: idOf(s.payment_intent),
    expiresAt: s.expires_at,
  };
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw mapStripeError(e);
  }
}

/** Stripe's event → ours. Throws on an object missing what we rely on (reported as malformed_body). */
export function toConnectEvent(event: Stripe.Event): ConnectEvent {
  const base = { id: event.id, created: event.created, connectedAccountId: event.account ?? null };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = event.data.object;
      if (s.mode !== 'payment') return { ...base, type: 'ignored', stripeType: event.type };
      return {
        ...base,
        type: event.type,
        session: { id: s.id, paymentStatus: s.payment_status, paymentIntentId: idOf(s.payment_intent), amountTotal: s.amount_total ?? 0, metadata: metadataOf(s.metadata) },
      };
    }
    case 'checkout.session.expired':
      return { ...base, type: event.type, session: { id: event.data.object.id } };
    case 'payment_intent.succeeded': {
      const pi = event.data.object;
      return { ...base, type: event.type, paymentIntent: { id: pi.id, amountReceived: pi.amount_received ?? 0, metadata: metadataOf(pi.metadata) } };
    }
    case 'charge.refunded': {
      const ch = event.data.object;
      const refunds = ch.refunds?.data ?? [];
      const latest = refunds.reduce<Stripe.Refund | null>((a, r) => (!a || r.created > a.created ? r : a), null);
      return {
        ...base,
        type: event.type,
        charge: { id: ch.id, paymentIntentId: idOf(ch.payment_intent), amount: ch.amount, amountRefunded: ch.amount_refunded ?? 0, latestRefundId: latest?.id ?? null },
      };
    }
    case 'charge.dispute.created': {
      const d = event.data.object;
      return {
        ...base,
        type: event.type,
        dispute: { id: d.id, chargeId: idOf(d.charge), paymentIntentId: idOf(d.payment_intent), amount: d.amount, reason: d.reason, status: d.status },
      };
    }
    case 'account.updated': {
      const a = event.data.object;
      if (typeof a.id !== 'string') throw new Error(`${event.type} ${event.id} has no account object`);
      return { ...base, connectedAccountId: event.account ?? a.id, type: event.type, account: accountSnapshot(a) };
    }
    case 'account.application.deauthorized':
      return { ...base, type: event.type };
    default:
      return { ...base, type: 'ignored', stripeType: event.type };
  }
}

export function createStripeConnect(config: StripeConnectConfig, deps: { now: () => Date }): ConnectProvider {
  const { stripe, tolerance } = stripeClient(config);

  return {
    async createAccount({ accountId, email }) {
      const a = await call(() =>
        stripe.accounts.create({ type: 'standard', country: 'NZ', email, metadata: { account_id: accountId } }, { idempotencyKey: `tradie-connect-account-${accountId}` }),
      );
      return accountSnapshot(a);
    },

    async retrieveAccount(connectedAccountId) {
      return accountSnapshot(await call(() => stripe.accounts.retrieve(connectedAccountId)));
    },

    async createAccountLink({ connectedAccountId, refreshUrl, returnUrl }) {
      const link = await call(() => stripe.accountLinks.create({ account: connectedAccountId, type: 'account_onboarding', refresh_url: refreshUrl, return_url: returnUrl }));
      return { url: link.url };
    },

    async createCheckoutSession(req) {
      if (!Number.isSafeInteger(req.balanceCents) || req.balanceCents <= 0) throw new BillingRejectedError(`Nothing to pay: ${req.balanceCents} cents`, null);
      const metadata = { account_id: req.accountId, document_id: req.documentId, link_id: req.linkId };
      const line = (name: string, cents: number): Stripe.Checkout.SessionCreateParams.LineItem => ({
        price_data: { currency: 'nzd', unit_amount: cents, product_data: { name } },
        quantity: 1,
      });
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'payment',
        currency: 'nzd',
        line_items: [line(`Invoice ${req.reference}`, req.balanceCents), ...(req.surchargeCents > 0 ? [line('Card surcharge', req.surchargeCents)] : [])],
        metadata,
        payment_intent_data: { metadata },
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        expires_at: Math.floor(req.expiresAt.getTime() / 1000),
      };
      const s = await call(() =>
        stripe.checkout.sessions.create(params, { stripeAccount: req.connectedAccountId, ...(req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : {}) }),
      );
      if (!s.url) throw new BillingUnavailableError(`Checkout session ${s.id} came back without a url`);
      return sessionOf(s);
    },

    async retrieveCheckoutSession(connectedAccountId, sessionId) {
      return sessionOf(await call(() => stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: connectedAccountId })));
    },

    async expireCheckoutSession(connectedAccountId, sessionId) {
      try {
        return sessionOf(await stripe.checkout.sessions.expire(sessionId, {}, { stripeAccount: connectedAccountId }));
      } catch (e) {
        // Stripe refuses to expire a session that is complete or already expired: read it instead.
        if (e instanceof Stripe.errors.StripeInvalidRequestError) return sessionOf(await call(() => stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: connectedAccountId })));
        throw mapStripeError(e);
      }
    },

    verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeWebhook(stripe, { rawBody, signatureHeader, secret: config.connectWebhookSecret, tolerance, now: deps.now() }, toConnectEvent);
    },
  };
}
