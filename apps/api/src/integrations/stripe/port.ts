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
  /** The recurring price to subscribe to. Absent: the adapter's own (STRIPE_PRICE_ID, monthly). */
  priceId?: string;
  /**
   * Stripe Tax Rates on the line item (`line_items[0][tax_rates][]`): NZ GST, 15 % exclusive, so
   * the fee is shown excluding GST and Checkout, the invoices and the receipts add it on top.
   */
  taxRateIds?: readonly string[];
}

/** A recurring price as Stripe holds it: whole cents excluding GST, per `interval`. */
export interface PlanPrice {
  priceId: string;
  /** The product (`prod_...`) the price belongs to: the portal lists switchable prices under it. */
  product: string;
  unitAmount: number;
  currency: string;
  /** Stripe's `recurring.interval` ('month', 'year', ...); null for a one-off price. */
  interval: string | null;
}

/** The NZ GST tax rate the adapter creates when none is configured: 15 %, added on top (exclusive). */
export const NZ_GST_TAX_RATE = { displayName: 'GST', percentage: 15, inclusive: false, country: 'NZ', jurisdiction: 'NZ', description: 'New Zealand GST', taxType: 'gst' } as const;

export interface CheckoutSessionRef {
  id: string;
  url: string;
}

export interface PortalRequest {
  customerId: string;
  returnUrl: string;
  /** A portal configuration (`bpc_...`) to open with; absent: the account's default one from the dashboard. */
  configurationId?: string;
}

/** The prices a customer may switch between in the billing portal, grouped by their product (Stripe's `features.subscription_update.products`). */
export type PortalSwitchableProducts = ReadonlyArray<{ product: string; prices: readonly string[] }>;

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
  /** 'live' for a live key, else 'test': a tax rate made in one mode does not exist in the other. */
  readonly mode: 'test' | 'live';
  /** The price `priceId` (absent: the adapter's own), from Stripe; the same id is fetched once per process. */
  retrievePrice(priceId?: string): Promise<PlanPrice>;
  /** Creates NZ_GST_TAX_RATE in Stripe (POST /v1/tax_rates, with an idempotency key) and answers its `txr_...` id. */
  createGstTaxRate(): Promise<string>;
  /**
   * Creates a billing portal configuration (POST /v1/billing_portal/configurations) in which the
   * customer may switch between `products`' prices (monthly ↔ annual), update the card, see
   * invoices and cancel at the period's end; answers its `bpc_...` id.
   */
  createPortalConfiguration(products: PortalSwitchableProducts): Promise<string>;
  /**
   * Ends the subscription now (Stripe: DELETE /v1/subscriptions/{id}), with no further charge;
   * Stripe then sends `customer.subscription.deleted`. Used when the account is deleted.
   */
  cancelSubscription(subscriptionId: string): Promise<void>;
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
