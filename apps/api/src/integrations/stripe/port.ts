// The BillingProvider port: what the API needs from a subscription biller (Stripe today).
// The API never sees Stripe's objects: the adapter turns a verified webhook into a
// `BillingEvent`, and the pure reducer (webhookReducer.ts) folds those into an account's
// billing state. Times are unix seconds, as Stripe sends them.

/** Stripe's subscription statuses. A status this code does not know arrives as 'incomplete' (no access). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'incomplete_expired', 'canceled'] as const;
export type SubscriptionStatusName = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Statuses that keep the paid features on. `past_due` is Stripe's retry window after a failed
 * renewal: access stays while Stripe retries.
 */
export const ACCESS_STATUSES: readonly SubscriptionStatusName[] = ['trialing', 'active', 'past_due'];
export const grantsAccess = (status: SubscriptionStatusName): boolean => ACCESS_STATUSES.includes(status);

export interface CheckoutRequest {
  accountId: string;
  email: string;
  /** The account's Stripe customer, when it has one already (then `email` is not sent). */
  customerId?: string | null;
  successUrl: string;
  cancelUrl: string;
  /**
   * When the account's free trial ends. Absent: Stripe's trial is the full 14 days. Present:
   * Stripe's trial runs to that moment, so subscribing on day 10 does not add 14 more free days;
   * when less than 48 hours are left (Stripe's minimum for `trial_end`) there is no Stripe trial.
   */
  trialEndsAt?: Date;
}

export interface CheckoutSessionRef {
  id: string;
  url: string;
}

export interface PortalRequest {
  customerId: string;
  returnUrl: string;
}

/** A subscription as one event saw it (a snapshot, never a delta). */
export interface SubscriptionSnapshot {
  id: string;
  status: SubscriptionStatusName;
  /** Unix seconds; from the first subscription item (where Stripe keeps it since 2025-03-31). */
  currentPeriodEnd: number | null;
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  priceId: string | null;
}

export interface InvoiceSnapshot {
  id: string;
  subscriptionId: string | null;
  /** Whole cents, as Stripe sends them. */
  amountPaid: number;
  currency: string;
  attemptCount: number;
  nextPaymentAttempt: number | null;
  billingReason: string | null;
}

interface EventBase {
  /** Stripe's event id (`evt_...`): the API records it so a redelivery is skipped. */
  id: string;
  /** Unix seconds when Stripe created the event: the order the reducer trusts, not arrival order. */
  created: number;
  /** Our account id, from `client_reference_id` or the subscription's `metadata.account_id`. */
  accountId: string | null;
  customerId: string | null;
}

export type CheckoutCompletedEvent = EventBase & {
  type: 'checkout.session.completed';
  sessionId: string;
  subscriptionId: string | null;
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
};

export type SubscriptionEvent = EventBase & {
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted';
  subscription: SubscriptionSnapshot;
};

export type InvoiceEvent = EventBase & {
  type: 'invoice.paid' | 'invoice.payment_failed';
  invoice: InvoiceSnapshot;
};

/** A verified event of a type we do not act on: answer 2xx and move on. */
export interface IgnoredEvent {
  type: 'ignored';
  id: string;
  created: number;
  stripeType: string;
}

export type BillingEvent = CheckoutCompletedEvent | SubscriptionEvent | InvoiceEvent | IgnoredEvent;

export type WebhookRejection = 'missing_signature' | 'malformed_signature' | 'bad_signature' | 'stale_timestamp' | 'malformed_body';

export type WebhookVerification = { ok: true; event: BillingEvent } | { ok: false; error: WebhookVerificationError };

export interface BillingProvider {
  /** False when the server has no Stripe settings: every call below throws BillingNotConfiguredError. */
  readonly configured: boolean;
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionRef>;
  createPortalSession(request: PortalRequest): Promise<{ url: string }>;
  /** `rawBody` exactly as received (read it before any JSON parsing). Never throws for a bad signature. */
  verifyWebhook(rawBody: string | Uint8Array, signatureHeader: string | null | undefined): Promise<WebhookVerification>;
}

// Errors. `detail` is what a person may read; `code` is stable; the suggested HTTP status is
// the API's call (comments give the intended mapping).

export type BillingErrorCode = 'BILLING_NOT_CONFIGURED' | 'BILLING_UNAVAILABLE' | 'BILLING_REJECTED' | 'WEBHOOK_REJECTED';

export class BillingError extends Error {
  readonly code: BillingErrorCode;
  readonly detail: string;
  constructor(code: BillingErrorCode, detail: string, message?: string, options?: ErrorOptions) {
    super(message ?? detail, options);
    this.name = 'BillingError';
    this.code = code;
    this.detail = detail;
  }
}

/** 503: the server has no Stripe settings. The trial still counts. */
export class BillingNotConfiguredError extends BillingError {
  readonly missing: readonly string[];
  constructor(missing: readonly string[]) {
    super('BILLING_NOT_CONFIGURED', 'Billing is not set up on this server yet. Your free trial still counts.', `Billing not configured: missing ${missing.join(', ')}`);
    this.name = 'BillingNotConfiguredError';
    this.missing = missing;
  }
}

/** 503: Stripe could not be reached, timed out, rate-limited us, failed (5xx) or refused our key. */
export class BillingUnavailableError extends BillingError {
  constructor(message: string, options?: ErrorOptions) {
    super('BILLING_UNAVAILABLE', "We couldn't reach the payment provider right now. Please try again in a few minutes.", message, options);
    this.name = 'BillingUnavailableError';
  }
}

/** 502: Stripe answered that our request was wrong (unknown customer, portal not set up, ...). */
export class BillingRejectedError extends BillingError {
  /** Stripe's own words, for the log (may name ids; not for the screen). */
  readonly providerMessage: string;
  readonly providerCode: string | null;
  constructor(providerMessage: string, providerCode: string | null, options?: ErrorOptions) {
    super('BILLING_REJECTED', 'The payment provider turned the request down. Please try again, or contact support if it keeps happening.', `Stripe rejected the request: ${providerMessage}`, options);
    this.name = 'BillingRejectedError';
    this.providerMessage = providerMessage;
    this.providerCode = providerCode;
  }
}

/** 400: a webhook whose signature, timestamp or body did not check out. */
export class WebhookVerificationError extends BillingError {
  readonly reason: WebhookRejection;
  constructor(reason: WebhookRejection, message: string, options?: ErrorOptions) {
    super('WEBHOOK_REJECTED', 'Webhook signature verification failed.', message, options);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}
