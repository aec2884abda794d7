// A small stateful fake of the parts of Stripe the app uses, on loopback, speaking Stripe's wire
// contract: form-encoded bodies with bracket nesting, Bearer
// `sk_` auth, `Request-Id`, idempotency keys, Stripe-shaped error bodies, Prices (monthly and
// yearly), Tax Rates on Checkout line items, Checkout Sessions, Billing Portal configurations
// and sessions, and webhook events signed exactly as Stripe signs them.
//
// The official SDK talks to it with `new Stripe(key, { host, port, protocol })`. A session's
// `url` opens a 'Fake Stripe Checkout' page on this server whose Pay button completes the
// checkout (the webhooks fire) and redirects to the session's success_url, so a browser test
// can walk the whole subscribe flow. A portal session's page offers Cancel, and 'Switch to
// annual/monthly billing' for the prices its configuration lists.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';

export const FAKE_STRIPE_API_VERSION = '2026-10-28.endive';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json | undefined };
type Obj = { [k: string]: Json | undefined };

export interface FakePrice extends Obj {
  id: string;
  object: 'price';
  unit_amount: number;
  currency: string;
  recurring: { interval: string; interval_count: number; usage_type?: string };
}

export interface FakeTaxRate extends Obj {
  id: string;
  object: 'tax_rate';
  active: boolean;
  display_name: string;
  percentage: number;
  effective_percentage: number;
  inclusive: boolean;
  country: string | null;
  jurisdiction: string | null;
  description: string | null;
  tax_type: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

/** A price the fake knows: whole cents per `interval` ('month' or 'year'). */
export interface FakePriceSpec {
  id: string;
  unitAmount: number;
  currency: string;
  interval: 'day' | 'week' | 'month' | 'year';
  /** Its product; default 'prod_full_access'. */
  product?: string;
}

export interface FakePortalConfiguration extends Obj {
  id: string;
  object: 'billing_portal.configuration';
  active: boolean;
  is_default: boolean;
  features: Obj;
  created: number;
  livemode: false;
}

export interface FakeCustomer extends Obj {
  id: string;
  object: 'customer';
  email: string | null;
  created: number;
  metadata: Record<string, string>;
}

export interface FakeCheckoutSession extends Obj {
  id: string;
  object: 'checkout.session';
  url: string | null;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  client_reference_id: string | null;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  success_url: string | null;
  cancel_url: string | null;
  metadata: Record<string, string>;
  created: number;
  expires_at: number;
  livemode: false;
}

export interface FakePortalSession extends Obj {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
}

export interface FakeSubscription extends Obj {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  created: number;
  trial_start: number | null;
  trial_end: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Obj[] };
  latest_invoice: string | null;
}

export interface FakeEvent extends Obj {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  data: { object: Obj; previous_attributes?: Obj };
}

export interface FakeRequest {
  method: string;
  path: string;
  /** The form body (POST) or query (GET), parsed with bracket nesting. */
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  /** HTTP status of our POST; 0 when it could not be sent (no webhookUrl, connection refused). */
  status: number;
  responseBody: string;
  error?: string;
}

export interface FakeStripeOptions {
  /** The endpoint's `whsec_...` secret; every webhook is signed with it. */
  webhookSecret: string;
  /** Where webhooks are POSTed. Can be set later through `fake.webhookUrl`. */
  webhookUrl?: string;
  /** How webhooks are sent; default the global fetch. Pass `(req) => app.fetch(req)` to reach a Hono app without a port. */
  fetch?: (request: Request) => Promise<Response>;
  /** Accept only this secret key. Default: any key starting `sk_test_` or `sk_live_`. */
  secretKey?: string;
  /** Connect: where events of connected accounts are POSTed (the platform's Connect endpoint). Can be set later through `fake.connectWebhookUrl`. */
  connectWebhookUrl?: string;
  /** Connect: the Connect endpoint's `whsec_...` secret; events of connected accounts are signed with it. Default: `webhookSecret`. */
  connectWebhookSecret?: string;
  /** Clock for `created`, trial ends and webhook timestamps. */
  now?: () => Date;
  /**
   * The prices that exist, e.g. a monthly and a yearly one. Given: any other price id is refused
   * as Stripe does ('No such price'). Absent: every `price_...` id resolves to `price`.
   */
  prices?: FakePriceSpec[];
  /** The plan every price id resolves to when `prices` is absent (unit amount in cents). Default NZD 750 a month. */
  price?: { unitAmount: number; currency: string; interval: string };
}

export interface CompletedCheckout {
  session: FakeCheckoutSession;
  customer: FakeCustomer;
  subscription: FakeSubscription;
  deliveries: WebhookDelivery[];
}

export interface FakeStripe {
  host: string;
  port: number;
  protocol: 'http';
  /** http://127.0.0.1:PORT */
  url: string;
  webhookUrl: string | undefined;
  /** Flip to false to answer portal requests the way Stripe does before the portal is set up. */
  portalConfigured: boolean;
  checkoutSessions: Map<string, FakeCheckoutSession>;
  portalSessions: Map<string, FakePortalSession>;
  customers: Map<string, FakeCustomer>;
  subscriptions: Map<string, FakeSubscription>;
  /** Tax rates made with POST /v1/tax_rates (or put here by a test), by id. */
  taxRates: Map<string, FakeTaxRate>;
  /** Billing portal configurations made with POST /v1/billing_portal/configurations, by id. */
  portalConfigurations: Map<string, FakePortalConfiguration>;
  invoices: Map<string, Obj>;
  /** Every API request, in order. */
  requests: FakeRequest[];
  events: FakeEvent[];
  deliveries: WebhookDelivery[];
  /** What Pay does: customer + trialing subscription + a 0.00 invoice, then signed `checkout.session.completed`, `customer.subscription.created`, `invoice.paid`, in that order. */
  completeCheckout(sessionId: string): Promise<CompletedCheckout>;
  /** Build, sign and deliver one event around `object`. */
  sendEvent(type: string, object: Obj, options?: { previousAttributes?: Obj }): Promise<{ event: FakeEvent; delivery: WebhookDelivery }>;
  /** Change a subscription and send `customer.subscription.updated` with `previous_attributes`. */
  updateSubscription(id: string, patch: Partial<FakeSubscription>): Promise<WebhookDelivery>;
  /** End a subscription now: status canceled, `customer.subscription.deleted`. */
  cancelSubscription(id: string): Promise<WebhookDelivery>;
  /** A failed renewal: `invoice.payment_failed`, then the subscription goes `past_due`. */
  failRenewal(id: string): Promise<WebhookDelivery[]>;
  /** A paid renewal: the subscription goes `active` for another period of its price's interval (month or year), then `invoice.paid`. */
  renew(id: string): Promise<WebhookDelivery[]>;
  /** The `Stripe-Signature` header for a payload, as Stripe computes it. */
  sign(payload: string, timestamp?: number): string;
  // ---- Connect (Standard accounts, direct charges) ----
  connectWebhookUrl: string | undefined;
  /** Connected accounts made with POST /v1/accounts, by id. */
  accounts: Map<string, FakeAccount>;
  /** Account Links (onboarding), by their id in the url. */
  accountLinks: Map<string, { account: string; refresh_url: string; return_url: string; used: boolean }>;
  /** Checkout Sessions made with a Stripe-Account header, by id (each knows its `account`). */
  connectSessions: Map<string, FakeConnectSession>;
  paymentIntents: Map<string, Obj & { id: string; account: string }>;
  charges: Map<string, Obj & { id: string; account: string; payment_intent: string; amount: number; amount_refunded: number }>;
  /** Onboarding completed: the account may take charges; `account.updated` goes to the Connect endpoint. */
  completeOnboarding(accountId: string): Promise<WebhookDelivery>;
  /**
   * What Pay does on a connected account's session: a PaymentIntent and its charge succeed, the session
   * is complete and paid; then `checkout.session.completed` and `payment_intent.succeeded` (in `events`' order) go to the Connect endpoint.
   */
  completeConnectCheckout(sessionId: string, options?: { events?: ('checkout.session.completed' | 'payment_intent.succeeded')[] }): Promise<WebhookDelivery[]>;
  /** A refund of `amount` cents (default: all that is left) of a charge or PaymentIntent: `charge.refunded`. */
  refundCharge(chargeOrPaymentIntentId: string, amount?: number): Promise<WebhookDelivery>;
  /** The client disputes a charge: `charge.dispute.created`. */
  disputeCharge(chargeOrPaymentIntentId: string): Promise<WebhookDelivery>;
  /** Build, sign (with the Connect secret) and deliver an event of connected account `account`. */
  sendConnectEvent(type: string, object: Obj, account: string): Promise<{ event: FakeEvent; delivery: WebhookDelivery }>;
  /** The `Stripe-Signature` header for a payload, signed with the Connect secret. */
  signConnect(payload: string, timestamp?: number): string;
  stop(): Promise<void>;
}

export interface FakeAccount extends Obj {
  id: string;
  object: 'account';
  type: 'standard' | 'express' | 'custom';
  country: string;
  email: string | null;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  metadata: Record<string, string>;
  created: number;
}

export interface FakeConnectSession extends FakeCheckoutSession {
  /** The connected account the session lives on (not a field Stripe returns; kept here). */
  account: string;
  payment_intent: string | null;
}

/** `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>` — Stripe's webhook signature scheme. */
export function signStripePayload(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

class StripeApiError extends Error {
  readonly status: number;
  readonly body: Obj;
  constructor(status: number, error: Obj) {
    super(String(error.message));
    this.status = status;
    this.body = { error };
  }
}

const invalid = (message: string, extra: Obj = {}, status = 400): StripeApiError => new StripeApiError(status, { type: 'invalid_request_error', message, ...extra });
const missingParam = (param: string): StripeApiError => invalid(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
const noSuch = (kind: string, id: string, param?: string): StripeApiError =>
  invalid(`No such ${kind}: '${id}'`, { code: 'resource_missing', ...(param ? { param } : {}) }, param ? 400 : 404);

const CHECKOUT_PARAMS = new Set([
  'mode', 'line_items', 'client_reference_id', 'metadata', 'subscription_data', 'success_url', 'cancel_url', 'customer', 'customer_email',
  'allow_promotion_codes', 'automatic_tax', 'locale', 'expires_at', 'payment_method_collection', 'billing_address_collection', 'ui_mode',
  'expand', 'consent_collection', 'custom_text', 'tax_id_collection', 'customer_update', 'discounts', 'return_url', 'currency',
  'payment_method_configuration', 'phone_number_collection', 'saved_payment_method_options', 'submit_type', 'allowed_payment_method_types',
]);

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const strRecord = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
const formatCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** One billing period after `unix`, for a price's `recurring.interval`. */
function addInterval(unix: number, interval: string): number {
  const d = new Date(unix * 1000);
  if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else if (interval === 'day') d.setUTCDate(d.getUTCDate() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

const TAX_RATE_PARAMS = new Set(['display_name', 'inclusive', 'percentage', 'active', 'country', 'description', 'jurisdiction', 'metadata', 'state', 'tax_type', 'expand']);
const TAX_TYPES = new Set(['amusement_tax', 'communications_tax', 'gst', 'hst', 'igst', 'jct', 'lease_tax', 'pst', 'qst', 'retail_delivery_fee', 'rst', 'sales_tax', 'service_tax', 'vat']);

/** Stripe's form booleans: 'true' / 'false'. */
function formBoolean(v: unknown, param: string): boolean {
  if (v === 'true' || v === true) return true;
  if (v === 'false' || v === false) return false;
  throw invalid(`Invalid boolean: ${String(v)}`, { param });
}

/** The tax on `amount` cents at each rate: exclusive rates add to it, inclusive ones are part of it (Stripe rounds half up per rate). */
function taxOn(amount: number, rates: readonly FakeTaxRate[]): { exclusive: number; inclusive: number } {
  let exclusive = 0, inclusive = 0;
  for (const r of rates) {
    if (r.inclusive) inclusive += Math.round(amount - amount / (1 + r.percentage / 100));
    else exclusive += Math.round((amount * r.percentage) / 100);
  }
  return { exclusive, inclusive };
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const now = options.now ?? (() => new Date());
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const plan = options.price ?? { unitAmount: 750, currency: 'nzd', interval: 'month' };
  const knownPrices = options.prices ? new Map(options.prices.map((p) => [p.id, p])) : null;
  const unix = (): number => Math.floor(now().getTime() / 1000);
  const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
  const idempotency = new Map<string, { fingerprint: string; status: number; body: Obj }>();
  /** The params each session was created with (Stripe does not echo line_items or subscription_data). */
  const sessionParams = new Map<string, Record<string, unknown>>();

  /** The price `id`, or Stripe's 'No such price' (with `param` when it came from a request parameter). */
  const priceOf = (id: string, param?: string): FakePrice => {
    const spec = knownPrices ? knownPrices.get(id) : id.startsWith('price_') ? { id, ...plan } : undefined;
    if (!spec) throw noSuch('price', id, param);
    return {
      id,
      object: 'price',
      product: ('product' in spec ? spec.product : undefined) ?? 'prod_full_access',
      active: true,
      type: 'recurring',
      unit_amount: spec.unitAmount,
      currency: spec.currency,
      recurring: { interval: spec.interval, interval_count: 1, usage_type: 'licensed' },
      livemode: false,
    };
  };
  /** The line items a session was created with: price, quantity and tax rates, as Stripe lists them. */
  const lineItemsOf = (sessionId: string): { price: FakePrice; quantity: number; taxRates: FakeTaxRate[] }[] => {
    const items = (sessionParams.get(sessionId)?.line_items ?? []) as Record<string, unknown>[];
    return items.map((i) => ({
      price: priceOf(String(i.price)),
      quantity: Number(i.quantity ?? 1),
      taxRates: (Array.isArray(i.tax_rates) ? (i.tax_rates as string[]) : []).map((t) => fake.taxRates.get(t)!),
    }));
  };
  /** Subtotal, tax and total of a session's line items, in cents. */
  const amountsOf = (items: readonly { price: FakePrice; quantity: number; taxRates: readonly FakeTaxRate[] }[]): { subtotal: number; tax: number; total: number } => {
    let subtotal = 0, tax = 0, added = 0;
    for (const li of items) {
      const amount = li.price.unit_amount * li.quantity;
      const t = taxOn(amount, li.taxRates);
      subtotal += amount;
      tax += t.exclusive + t.inclusive;
      added += t.exclusive;
    }
    return { subtotal, tax, total: subtotal + added };
  };

  const PORTAL_CONFIGURATION_PARAMS = new Set(['features', 'business_profile', 'default_return_url', 'login_page', 'metadata', 'name', 'expand']);

  /** POST /v1/billing_portal/configurations: `features` required; switchable prices must exist and belong to the product they are listed under. */
  function createPortalConfiguration(params: Record<string, unknown>): FakePortalConfiguration {
    for (const k of Object.keys(params)) if (!PORTAL_CONFIGURATION_PARAMS.has(k)) throw invalid(`Received unknown parameter: ${k}`, { code: 'parameter_unknown', param: k });
    const features = params.features as Record<string, unknown> | undefined;
    if (!features || typeof features !== 'object') throw missingParam('features');
    const update = features.subscription_update as Record<string, unknown> | undefined;
    if (update !== undefined) {
      const enabled = formBoolean(update.enabled, 'features[subscription_update][enabled]');
      const products = Array.isArray(update.products) ? (update.products as Record<string, unknown>[]) : [];
      if (enabled && products.length === 0) throw missingParam('features[subscription_update][products]');
      for (const [n, p] of products.entries()) {
        const product = str(p.product);
        if (!product) throw missingParam(`features[subscription_update][products][${n}][product]`);
        const prices = Array.isArray(p.prices) ? (p.prices as unknown[]) : [];
        if (prices.length === 0) throw missingParam(`features[subscription_update][products][${n}][prices]`);
        for (const [k, id] of prices.entries()) {
          const param = `features[subscription_update][products][${n}][prices][${k}]`;
          const price = priceOf(String(id), param);
          if (price.product !== product) throw invalid(`The price ${price.id} does not belong to the product ${product}.`, { param });
        }
      }
    }
    const config: FakePortalConfiguration = {
      id: newId('bpc'),
      object: 'billing_portal.configuration',
      active: true,
      is_default: false,
      features: structuredClone(features) as Obj,
      metadata: strRecord(params.metadata),
      created: unix(),
      livemode: false,
    };
    fake.portalConfigurations.set(config.id, config);
    return config;
  }

  /** The prices a portal session's configuration lets its customer switch to. */
  function switchablePrices(session: FakePortalSession): string[] {
    const config = fake.portalConfigurations.get(String(session.configuration));
    const update = config?.features.subscription_update as { enabled?: string; products?: { prices?: string[] }[] } | undefined;
    if (!update || update.enabled !== 'true') return [];
    return (update.products ?? []).flatMap((p) => p.prices ?? []);
  }

  function createTaxRate(params: Record<string, unknown>): FakeTaxRate {
    for (const k of Object.keys(params)) if (!TAX_RATE_PARAMS.has(k)) throw invalid(`Received unknown parameter: ${k}`, { code: 'parameter_unknown', param: k });
    const displayName = str(params.display_name);
    if (!displayName) throw missingParam('display_name');
    if (params.inclusive === undefined) throw missingParam('inclusive');
    if (params.percentage === undefined) throw missingParam('percentage');
    const inclusive = formBoolean(params.inclusive, 'inclusive');
    const percentage = Number(params.percentage);
    if (typeof params.percentage !== 'string' || !/^\d+(\.\d+)?$/.test(params.percentage) || percentage > 100) throw invalid(`Invalid decimal: ${String(params.percentage)}`, { param: 'percentage' });
    const taxType = str(params.tax_type);
    if (taxType && !TAX_TYPES.has(taxType)) throw invalid(`Invalid tax_type: must be one of ${[...TAX_TYPES].join(', ')}`, { param: 'tax_type' });
    const rate: FakeTaxRate = {
      id: newId('txr'),
      object: 'tax_rate',
      active: params.active === undefined ? true : formBoolean(params.active, 'active'),
      display_name: displayName,
      percentage,
      effective_percentage: percentage,
      inclusive,
      country: str(params.country),
      jurisdiction: str(params.jurisdiction),
      jurisdiction_level: null,
      state: str(params.state),
      description: str(params.description),
      tax_type: taxType,
      metadata: strRecord(params.metadata),
      created: unix(),
      livemode: false,
    };
    fake.taxRates.set(rate.id, rate);
    return rate;
  }

  function checkKey(req: IncomingMessage): void {
    const auth = req.headers.authorization ?? '';
    const m = /^Bearer (\S+)$/.exec(auth);
    if (!m) {
      throw invalid("You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').", {}, 401);
    }
    const key = m[1]!;
    const ok = options.secretKey ? key === options.secretKey : /^sk_(test|live)_\w+/.test(key);
    if (!ok) throw invalid(`Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`, {}, 401);
  }

  function createCustomer(params: Record<string, unknown>): FakeCustomer {
    const customer: FakeCustomer = { id: newId('cus'), object: 'customer', email: str(params.email), name: str(params.name), created: unix(), metadata: strRecord(params.metadata), livemode: false };
    fake.customers.set(customer.id, customer);
    return customer;
  }

  /** A new open, unpaid Checkout Session with the caller's reference, email, URLs and metadata; its page is at `${fake.url}/${pagePath}/${id}`. */
  function openSession(params: Record<string, unknown>, pagePath: string, mode: string, created: number, expiresAt: number): FakeCheckoutSession {
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    return {
      id,
      object: 'checkout.session',
      url: `${fake.url}/${pagePath}/${id}`,
      mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: str(params.client_reference_id),
      customer: str(params.customer),
      customer_email: str(params.customer_email),
      subscription: null,
      success_url: str(params.success_url),
      cancel_url: str(params.cancel_url),
      metadata: strRecord(params.metadata),
      created,
      expires_at: expiresAt,
      livemode: false,
    };
  }

  function createCheckoutSession(params: Record<string, unknown>): FakeCheckoutSession {
    for (const k of Object.keys(params)) if (!CHECKOUT_PARAMS.has(k)) throw invalid(`Received unknown parameter: ${k}`, { code: 'parameter_unknown', param: k });
    const mode = str(params.mode);
    if (!mode) throw missingParam('mode');
    if (!['payment', 'setup', 'subscription'].includes(mode)) throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, { param: 'mode' });
    const items = Array.isArray(params.line_items) ? (params.line_items as Record<string, unknown>[]) : [];
    if (mode === 'subscription') {
      if (items.length === 0 || !items.every((i) => str(i?.price))) {
        throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', { param: 'line_items' });
      }
      for (const [n, i] of items.entries()) {
        const price = priceOf(str(i.price)!, `line_items[${n}][price]`);
        if (!price.recurring) throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', { param: 'line_items' });
        if (i.quantity !== undefined && !/^[1-9]\d*$/.test(String(i.quantity))) throw invalid('Invalid integer: quantity', { param: `line_items[${n}][quantity]` });
      }
    }
    for (const [n, i] of items.entries()) {
      if (i?.tax_rates === undefined) continue;
      if (!Array.isArray(i.tax_rates)) throw invalid('Invalid array', { param: `line_items[${n}][tax_rates]` });
      for (const [k, t] of (i.tax_rates as unknown[]).entries()) {
        const rate = typeof t === 'string' ? fake.taxRates.get(t) : undefined;
        if (!rate) throw noSuch('tax rate', String(t), `line_items[${n}][tax_rates][${k}]`);
        if (!rate.active) throw invalid(`The tax rate ${rate.id} is not active and cannot be used.`, { param: `line_items[${n}][tax_rates][${k}]` });
      }
    }
    const customer = str(params.customer);
    const customerEmail = str(params.customer_email);
    if (customer && customerEmail) throw invalid('You may only specify one of these parameters: customer, customer_email.', { param: 'customer' });
    if (customer && !fake.customers.has(customer)) throw noSuch('customer', customer, 'customer');
    const sub = (params.subscription_data ?? {}) as Record<string, unknown>;
    if (sub.trial_period_days !== undefined) {
      if (!/^\d+$/.test(String(sub.trial_period_days)) || Number(sub.trial_period_days) < 1) {
        throw invalid('Invalid integer: trial_period_days must be an integer of at least 1', { param: 'subscription_data[trial_period_days]' });
      }
    }
    if (sub.trial_end !== undefined) {
      if (!/^\d+$/.test(String(sub.trial_end))) throw invalid('Invalid integer: trial_end', { param: 'subscription_data[trial_end]' });
      if (Number(sub.trial_end) < unix() + 48 * 3600) throw invalid('`subscription_data[trial_end]` must be at least 48 hours in the future.', { param: 'subscription_data[trial_end]' });
    }
    if (sub.trial_end !== undefined && sub.trial_period_days !== undefined) {
      throw invalid('You may only specify one of these parameters: trial_end, trial_period_days.', { param: 'subscription_data[trial_end]' });
    }
    const ref = str(params.client_reference_id);
    if (ref && ref.length > 200) throw invalid('client_reference_id must be at most 200 characters', { param: 'client_reference_id' });
    const created = unix();
    const session: FakeCheckoutSession = {
      ...openSession(params, 'checkout', mode, created, created + 24 * 3600),
      currency: plan.currency,
      amount_subtotal: null,
      amount_total: null,
      total_details: null,
      ui_mode: 'hosted_page',
    };
    const id = session.id;
    fake.checkoutSessions.set(id, session);
    sessionParams.set(id, params);
    if (items.length > 0 && items.every((i) => str(i?.price))) {
      const amounts = amountsOf(lineItemsOf(id));
      Object.assign(session, {
        currency: lineItemsOf(id)[0]!.price.currency,
        amount_subtotal: amounts.subtotal,
        amount_total: amounts.total,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: amounts.tax },
      });
    }
    return session;
  }

  function createPortalSession(params: Record<string, unknown>): FakePortalSession {
    const customer = str(params.customer);
    if (!customer) throw missingParam('customer');
    if (!fake.customers.has(customer)) throw noSuch('customer', customer, 'customer');
    if (!fake.portalConfigured) {
      throw invalid("You can't create a portal session in test mode until you save your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.");
    }
    const configuration = str(params.configuration);
    if (configuration && !fake.portalConfigurations.has(configuration)) throw noSuch('configuration', configuration, 'configuration');
    const id = newId('bps');
    const session: FakePortalSession = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: str(params.return_url),
      url: `${fake.url}/portal/${id}`,
      configuration: configuration ?? 'bpc_fake',
      created: unix(),
      livemode: false,
      locale: null,
      flow: null,
      on_behalf_of: null,
    };
    fake.portalSessions.set(id, session);
    return session;
  }

  /** Posts `event` to an endpoint as Stripe does, signed with that endpoint's secret, and records the answer. */
  async function deliverTo(event: FakeEvent, url: string | undefined, urlName: string, sign: (payload: string) => string): Promise<WebhookDelivery> {
    // Stripe sends pretty-printed JSON: a handler that re-serialises the body breaks the signature.
    const payload = JSON.stringify(event, null, 2);
    const base = { eventId: event.id, type: event.type };
    let delivery: WebhookDelivery;
    if (!url) delivery = { ...base, status: 0, responseBody: '', error: `no ${urlName} set` };
    else {
      try {
        const res = await send(
          new Request(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'stripe-signature': sign(payload),
              'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            },
            body: payload,
          }),
        );
        delivery = { ...base, status: res.status, responseBody: await res.text() };
      } catch (e) {
        delivery = { ...base, status: 0, responseBody: '', error: e instanceof Error ? e.message : String(e) };
      }
    }
    fake.deliveries.push(delivery);
    return delivery;
  }

  const deliver = (event: FakeEvent): Promise<WebhookDelivery> => deliverTo(event, fake.webhookUrl, 'webhookUrl', (payload) => fake.sign(payload));

  function makeEvent(type: string, object: Obj, previousAttributes?: Obj): FakeEvent {
    const event: FakeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: FAKE_STRIPE_API_VERSION,
      created: unix(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      // A snapshot: later changes to the stored object must not show through.
      data: { object: structuredClone(object), ...(previousAttributes ? { previous_attributes: structuredClone(previousAttributes) } : {}) },
    };
    fake.events.push(event);
    return event;
  }

  /** An invoice for one period of `sub`: its items' prices plus their tax rates, or `zero` for a trial's first invoice. */
  function newInvoice(sub: FakeSubscription, zero: 0 | null, paid: boolean, reason: string): Obj {
    const periodEnd = (sub.items.data[0]?.current_period_end as number | undefined) ?? unix();
    const items = sub.items.data.map((i) => ({ price: i.price as FakePrice, quantity: Number(i.quantity ?? 1), taxRates: (i.tax_rates ?? []) as FakeTaxRate[] }));
    const amounts = zero === 0 ? { subtotal: 0, tax: 0, total: 0 } : amountsOf(items);
    const amount = amounts.total;
    const totalTaxes: Obj[] = [];
    for (const li of items) {
      for (const rate of li.taxRates) {
        const base = zero === 0 ? 0 : li.price.unit_amount * li.quantity;
        const t = taxOn(base, [rate]);
        totalTaxes.push({ amount: t.exclusive + t.inclusive, tax_behavior: rate.inclusive ? 'inclusive' : 'exclusive', taxable_amount: base, taxability_reason: 'standard_rated', type: 'tax_rate_details', tax_rate_details: { tax_rate: rate.id } });
      }
    }
    const invoice: Obj = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      subtotal: amounts.subtotal,
      total_excluding_tax: amounts.total - amounts.tax,
      total: amounts.total,
      total_taxes: totalTaxes,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      currency: String(sub.currency ?? plan.currency),
      billing_reason: reason,
      attempt_count: amount === 0 ? 0 : 1,
      attempted: amount !== 0,
      next_payment_attempt: paid ? null : unix() + 3 * 24 * 3600,
      period_end: periodEnd,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
      created: unix(),
      livemode: false,
      metadata: {},
    };
    fake.invoices.set(invoice.id as string, invoice);
    sub.latest_invoice = invoice.id as string;
    return invoice;
  }

  function subscription(id: string): FakeSubscription {
    const sub = fake.subscriptions.get(id);
    if (!sub) throw new Error(`fake-stripe: no subscription ${id}`);
    return sub;
  }

  async function changeSubscription(sub: FakeSubscription, patch: Partial<FakeSubscription>, type = 'customer.subscription.updated'): Promise<WebhookDelivery> {
    const previous: Obj = {};
    for (const [k, v] of Object.entries(patch)) {
      if (JSON.stringify(sub[k]) !== JSON.stringify(v)) previous[k] = sub[k] ?? null;
    }
    Object.assign(sub, patch);
    return (await fake.sendEvent(type, sub, type === 'customer.subscription.updated' ? { previousAttributes: previous } : undefined)).delivery;
  }


  // ---- Connect: Standard accounts, Account Links, Checkout Sessions on a connected account ----
  const connectSecret = options.connectWebhookSecret ?? options.webhookSecret;
  /** Events sent after an answer (a session expired): stop() waits for them. */
  const later: Promise<void>[] = [];
  const ACCOUNT_PARAMS = new Set(['type', 'country', 'email', 'metadata', 'business_type', 'business_profile', 'capabilities', 'controller', 'expand']);
  const CONNECT_CHECKOUT_PARAMS = new Set([
    'mode', 'line_items', 'metadata', 'payment_intent_data', 'success_url', 'cancel_url', 'currency', 'expires_at', 'customer_email', 'client_reference_id',
    'locale', 'submit_type', 'payment_method_types', 'expand',
  ]);

  const deliverConnect = (event: FakeEvent): Promise<WebhookDelivery> =>
    deliverTo(event, fake.connectWebhookUrl, 'connectWebhookUrl', (payload) => fake.signConnect(payload));

  const connectEvent = async (type: string, object: Obj, account: string): Promise<WebhookDelivery> => (await fake.sendConnectEvent(type, object, account)).delivery;

  function connectedAccount(id: string | undefined): FakeAccount {
    const a = id ? fake.accounts.get(id) : undefined;
    if (!a) {
      throw new StripeApiError(403, {
        type: 'invalid_request_error',
        code: 'account_invalid',
        message: `The provided key does not have access to account '${id ?? ''}' (or that account does not exist). Application access may have been revoked.`,
      });
    }
    return a;
  }

  function createAccount(params: Record<string, unknown>): FakeAccount {
    for (const k of Object.keys(params)) if (!ACCOUNT_PARAMS.has(k)) throw invalid(`Received unknown parameter: ${k}`, { code: 'parameter_unknown', param: k });
    const type = str(params.type);
    if (type && !['standard', 'express', 'custom'].includes(type)) throw invalid('Invalid type: must be one of custom, express, or standard', { param: 'type' });
    const account: FakeAccount = {
      id: `acct_${randomBytes(8).toString('hex')}`,
      object: 'account',
      type: (type ?? 'standard') as FakeAccount['type'],
      country: str(params.country) ?? 'US',
      email: str(params.email),
      default_currency: str(params.country) === 'NZ' ? 'nzd' : 'usd',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      metadata: strRecord(params.metadata),
      created: unix(),
      livemode: false,
    };
    fake.accounts.set(account.id, account);
    return account;
  }

  function createAccountLink(params: Record<string, unknown>): Obj {
    const account = str(params.account);
    if (!account) throw missingParam('account');
    if (!fake.accounts.has(account)) throw noSuch('account', account, 'account');
    const type = str(params.type);
    if (!type) throw missingParam('type');
    if (type !== 'account_onboarding' && type !== 'account_update') throw invalid('Invalid type: must be one of account_onboarding or account_update', { param: 'type' });
    const refreshUrl = str(params.refresh_url);
    const returnUrl = str(params.return_url);
    if (!refreshUrl) throw missingParam('refresh_url');
    if (!returnUrl) throw missingParam('return_url');
    const linkId = randomBytes(12).toString('hex');
    fake.accountLinks.set(linkId, { account, refresh_url: refreshUrl, return_url: returnUrl, used: false });
    const created = unix();
    return { object: 'account_link', created, expires_at: created + 300, url: `${fake.url}/connect/onboarding/${linkId}` };
  }

  function createConnectSession(params: Record<string, unknown>, account: FakeAccount): FakeConnectSession {
    for (const k of Object.keys(params)) if (!CONNECT_CHECKOUT_PARAMS.has(k)) throw invalid(`Received unknown parameter: ${k}`, { code: 'parameter_unknown', param: k });
    if (!account.charges_enabled) throw invalid('Your account cannot currently make live charges.', { code: 'account_invalid' });
    const mode = str(params.mode);
    if (!mode) throw missingParam('mode');
    if (mode !== 'payment') throw invalid('This fake takes payment mode only on connected accounts', { param: 'mode' });
    const items = Array.isArray(params.line_items) ? (params.line_items as Record<string, unknown>[]) : [];
    if (items.length === 0) throw missingParam('line_items');
    let total = 0;
    let currency: string | null = str(params.currency);
    for (const [n, i] of items.entries()) {
      const pd = i.price_data as Record<string, unknown> | undefined;
      if (!pd) throw missingParam(`line_items[${n}][price_data]`);
      const cur = str(pd.currency);
      if (!cur) throw missingParam(`line_items[${n}][price_data][currency]`);
      if (currency && cur !== currency) throw invalid('All line items must use the same currency', { param: `line_items[${n}][price_data][currency]` });
      currency = cur;
      if (!/^\d+$/.test(String(pd.unit_amount))) throw invalid('Invalid integer: unit_amount', { param: `line_items[${n}][price_data][unit_amount]` });
      if (!str((pd.product_data as Record<string, unknown> | undefined)?.name)) throw missingParam(`line_items[${n}][price_data][product_data][name]`);
      const quantity = i.quantity === undefined ? 1 : Number(i.quantity);
      if (!Number.isInteger(quantity) || quantity < 1) throw invalid('Invalid integer: quantity', { param: `line_items[${n}][quantity]` });
      total += Number(pd.unit_amount) * quantity;
    }
    const created = unix();
    let expiresAt = created + 24 * 3600;
    if (params.expires_at !== undefined) {
      expiresAt = Number(params.expires_at);
      if (!Number.isInteger(expiresAt) || expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
        throw invalid('The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', { param: 'expires_at' });
      }
    }
    const session: FakeConnectSession = {
      ...openSession(params, 'connect/checkout', mode, created, expiresAt),
      payment_intent: null,
      currency,
      amount_subtotal: total,
      amount_total: total,
      account: account.id,
    };
    fake.connectSessions.set(session.id, session);
    sessionParams.set(session.id, params);
    return session;
  }

  /** What Stripe answers for a session: without our `account` bookkeeping. */
  const sessionJson = (s: FakeConnectSession): Obj => {
    const { account: _a, ...rest } = s;
    return rest;
  };

  async function connectRoute(method: string, path: string, params: Record<string, unknown>, stripeAccount: string | undefined): Promise<Obj | null> {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const [, a, b, c, d] = parts;
    if (method === 'POST' && a === 'accounts' && parts.length === 2) return createAccount(params);
    if (method === 'GET' && a === 'accounts' && b && parts.length === 3) return fake.accounts.get(b) ?? throwIt(noSuch('account', b));
    if (method === 'POST' && a === 'account_links' && parts.length === 2) return createAccountLink(params);
    if (stripeAccount === undefined || a !== 'checkout' || b !== 'sessions') return null;
    const account = connectedAccount(stripeAccount);
    if (method === 'POST' && parts.length === 3) return sessionJson(createConnectSession(params, account));
    const session = c ? fake.connectSessions.get(c) : undefined;
    if (!c || !session || session.account !== account.id) throw noSuch('checkout.session', c ?? '');
    if (method === 'GET' && parts.length === 4) return sessionJson(session);
    if (method === 'POST' && d === 'expire' && parts.length === 5) {
      if (session.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`);
      session.status = 'expired';
      session.url = null;
      // Sent after the answer, as Stripe does: the caller may still be inside the transaction that asked.
      const expired = sessionJson(session);
      later.push(new Promise<void>((resolve) => setImmediate(resolve)).then(() => connectEvent('checkout.session.expired', expired, account.id)).then(() => undefined, () => undefined));
      return sessionJson(session);
    }
    return null;
  }

  async function completeOnboarding(accountId: string): Promise<WebhookDelivery> {
    const account = fake.accounts.get(accountId);
    if (!account) throw new Error(`fake-stripe: no account ${accountId}`);
    const previous = { charges_enabled: account.charges_enabled, details_submitted: account.details_submitted, payouts_enabled: account.payouts_enabled };
    Object.assign(account, { charges_enabled: true, details_submitted: true, payouts_enabled: true });
    const event = makeEvent('account.updated', account, previous);
    event.account = account.id;
    return deliverConnect(event);
  }

  async function completeConnectCheckout(sessionId: string, opts: { events?: ('checkout.session.completed' | 'payment_intent.succeeded')[] } = {}): Promise<WebhookDelivery[]> {
    const session = fake.connectSessions.get(sessionId);
    if (!session) throw new Error(`fake-stripe: no connected-account checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`fake-stripe: checkout session ${sessionId} is ${session.status}`);
    const t = unix();
    const amount = Number(session.amount_total);
    const piMetadata = strRecord((sessionParams.get(sessionId)?.payment_intent_data as Record<string, unknown> | undefined)?.metadata);
    const pi = { id: newId('pi'), object: 'payment_intent', amount, amount_received: amount, currency: session.currency, status: 'succeeded', metadata: piMetadata, created: t, latest_charge: '', livemode: false, account: session.account };
    const charge = { id: newId('ch'), object: 'charge', amount, amount_captured: amount, amount_refunded: 0, refunded: false, captured: true, paid: true, status: 'succeeded', currency: session.currency, payment_intent: pi.id, metadata: {}, created: t, livemode: false, account: session.account };
    pi.latest_charge = charge.id;
    fake.paymentIntents.set(pi.id, pi);
    fake.charges.set(charge.id, charge);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: pi.id });
    const out: WebhookDelivery[] = [];
    for (const type of opts.events ?? ['checkout.session.completed', 'payment_intent.succeeded']) {
      const { account: _a, ...piJson } = pi;
      out.push(await connectEvent(type, type === 'checkout.session.completed' ? sessionJson(session) : piJson, session.account));
    }
    return out;
  }

  function chargeOf(id: string): Obj & { id: string; account: string; payment_intent: string; amount: number; amount_refunded: number } {
    const ch = fake.charges.get(id) ?? [...fake.charges.values()].find((c) => c.payment_intent === id);
    if (!ch) throw new Error(`fake-stripe: no charge ${id}`);
    return ch;
  }

  async function refundCharge(id: string, amount?: number): Promise<WebhookDelivery> {
    const ch = chargeOf(id);
    const left = ch.amount - ch.amount_refunded;
    const refund = { id: newId('re'), object: 'refund', amount: amount ?? left, charge: ch.id, payment_intent: ch.payment_intent, status: 'succeeded', currency: ch.currency, created: unix() };
    if (refund.amount <= 0 || refund.amount > left) throw new Error(`fake-stripe: cannot refund ${refund.amount} of ${left} left on ${ch.id}`);
    ch.amount_refunded += refund.amount;
    ch.refunded = ch.amount_refunded === ch.amount;
    const refunds = [...(((ch.refunds as Obj | undefined)?.data as Obj[] | undefined) ?? []), refund];
    ch.refunds = { object: 'list', data: refunds, has_more: false, url: `/v1/charges/${ch.id}/refunds` };
    const { account, ...json } = ch;
    return connectEvent('charge.refunded', json, account);
  }

  async function disputeCharge(id: string): Promise<WebhookDelivery> {
    const ch = chargeOf(id);
    const dispute = { id: newId('dp'), object: 'dispute', amount: ch.amount, charge: ch.id, payment_intent: ch.payment_intent, currency: ch.currency, reason: 'fraudulent', status: 'needs_response', created: unix(), livemode: false };
    return connectEvent('charge.dispute.created', dispute, ch.account);
  }

  /** The hosted pages of Connect: onboarding (Complete) and a connected account's checkout (Pay), and test controls. */
  async function connectPage(req: IncomingMessage, res: ServerResponse, parts: string[], html: (status: number, title: string, inner: string) => void, redirect: (to: string) => void): Promise<boolean> {
    if (parts[0] === '__test' && req.method === 'POST' && parts[2] === 'charges' && parts[3] && parts[4] === 'refund') {
      const delivery = await refundCharge(parts[3]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ delivery }));
      return true;
    }
    if (parts[1] === 'onboarding' && parts[2]) {
      const link = fake.accountLinks.get(parts[2]);
      if (!link) return html(404, 'Not found', '<p>No such onboarding link.</p>'), true;
      if (req.method === 'POST' && parts[3] === 'complete') {
        link.used = true;
        await completeOnboarding(link.account);
        return redirect(link.return_url), true;
      }
      if (req.method === 'GET' && parts.length === 3) {
        // An Account Link works once: opened again, Stripe sends the person to refresh_url for a new one.
        if (link.used) return redirect(link.refresh_url), true;
        const account = fake.accounts.get(link.account);
        html(200, 'Fake Stripe Connect onboarding', `<h1>Fake Stripe Connect onboarding</h1>
<p>Account <span class="account">${escapeHtml(link.account)}</span>${account?.email ? ` for <span class="email">${escapeHtml(account.email)}</span>` : ''}</p>
<p class="note">This is a test page. No details are needed.</p>
<form method="post" action="/connect/onboarding/${encodeURIComponent(parts[2])}/complete"><button type="submit">Complete</button></form>
<p><a href="${escapeHtml(link.refresh_url)}">Start again</a></p>`);
        return true;
      }
    }
    if (parts[1] === 'checkout' && parts[2]) {
      const session = fake.connectSessions.get(parts[2]);
      if (!session) return html(404, 'Not found', '<p>No such checkout session.</p>'), true;
      if (req.method === 'POST' && parts[3] === 'pay') {
        if (session.status === 'open') await completeConnectCheckout(session.id);
        if (session.status === 'complete' && session.success_url) return redirect(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id)), true;
        return html(410, 'Fake Stripe Checkout', '<p>This checkout session has expired.</p>'), true;
      }
      if (req.method === 'GET' && parts.length === 3) {
        if (session.status === 'expired') return html(410, 'Fake Stripe Checkout', '<h1>Fake Stripe Checkout</h1><p>This checkout session has expired.</p>'), true;
        if (session.status === 'complete' && session.success_url) return redirect(session.success_url), true;
        const items = ((sessionParams.get(session.id)?.line_items ?? []) as Record<string, Record<string, unknown>>[]).map((i) => {
          const pd = i.price_data as Record<string, unknown>;
          return `<li><span class="item">${escapeHtml(String((pd.product_data as Record<string, unknown>).name))}</span>: NZ$${formatCents(Number(pd.unit_amount) * Number(i.quantity ?? 1))}</li>`;
        });
        html(200, 'Fake Stripe Checkout', `<h1>Fake Stripe Checkout</h1>
<p>Paying <span class="account">${escapeHtml(session.account)}</span></p>
<ul>${items.join('')}</ul>
<p class="total">Total: NZ$${formatCents(Number(session.amount_total))}</p>
<p class="note">This is a test page. No card is needed and no money moves.</p>
<form method="post" action="/connect/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay</button></form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}`);
        return true;
      }
    }
    return false;
  }

  const fake: FakeStripe = {
    host: '127.0.0.1',
    port: 0,
    protocol: 'http',
    url: '',
    webhookUrl: options.webhookUrl,
    portalConfigured: true,
    checkoutSessions: new Map(),
    portalSessions: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
    taxRates: new Map(),
    portalConfigurations: new Map(),
    invoices: new Map(),
    requests: [],
    events: [],
    deliveries: [],

    sign: (payload, timestamp = unix()) => signStripePayload(payload, options.webhookSecret, timestamp),
    connectWebhookUrl: options.connectWebhookUrl,
    accounts: new Map(),
    accountLinks: new Map(),
    connectSessions: new Map(),
    paymentIntents: new Map(),
    charges: new Map(),
    signConnect: (payload, timestamp = unix()) => signStripePayload(payload, connectSecret, timestamp),
    completeOnboarding: (accountId) => completeOnboarding(accountId),
    completeConnectCheckout: (sessionId, opts) => completeConnectCheckout(sessionId, opts),
    refundCharge: (id, amount) => refundCharge(id, amount),
    disputeCharge: (id) => disputeCharge(id),
    async sendConnectEvent(type, object, account) {
      const event = makeEvent(type, object);
      event.account = account;
      return { event, delivery: await deliverConnect(event) };
    },

    async sendEvent(type, object, opts) {
      const event = makeEvent(type, object, opts?.previousAttributes);
      return { event, delivery: await deliver(event) };
    },

    async completeCheckout(sessionId) {
      const session = fake.checkoutSessions.get(sessionId);
      if (!session) throw new Error(`fake-stripe: no checkout session ${sessionId}`);
      if (session.status !== 'open') {
        const sub = session.subscription ? fake.subscriptions.get(session.subscription) : undefined;
        const cus = session.customer ? fake.customers.get(session.customer) : undefined;
        if (!sub || !cus) throw new Error(`fake-stripe: checkout session ${sessionId} is ${session.status}`);
        return { session, customer: cus, subscription: sub, deliveries: [] };
      }
      const params = sessionParams.get(sessionId) ?? {};
      const subData = (params.subscription_data ?? {}) as Record<string, unknown>;
      const t = unix();
      const customer = session.customer ? fake.customers.get(session.customer)! : createCustomer({ email: session.customer_email ?? undefined });
      const trialEnd = subData.trial_end !== undefined ? Number(subData.trial_end) : subData.trial_period_days !== undefined ? t + Number(subData.trial_period_days) * 86_400 : null;
      const lineItems = lineItemsOf(sessionId);
      const interval = lineItems[0]?.price.recurring.interval ?? 'month';
      const periodEnd = trialEnd ?? addInterval(t, interval);
      const sub: FakeSubscription = {
        id: newId('sub'),
        object: 'subscription',
        customer: customer.id,
        status: trialEnd ? 'trialing' : 'active',
        created: t,
        start_date: t,
        trial_start: trialEnd ? t : null,
        trial_end: trialEnd,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        currency: lineItems[0]?.price.currency ?? plan.currency,
        metadata: strRecord(subData.metadata),
        items: {
          object: 'list',
          data: lineItems.map((li) => ({
            id: newId('si'),
            object: 'subscription_item',
            price: li.price,
            quantity: li.quantity,
            // Checkout copies the line item's tax rates onto the subscription item: every renewal adds them too.
            tax_rates: li.taxRates,
            current_period_start: t,
            current_period_end: periodEnd,
          })),
        },
        latest_invoice: null,
        livemode: false,
      };
      fake.subscriptions.set(sub.id, sub);
      const invoice = newInvoice(sub, trialEnd ? 0 : null, true, 'subscription_create');
      Object.assign(session, {
        status: 'complete',
        payment_status: trialEnd ? 'no_payment_required' : 'paid',
        customer: customer.id,
        customer_email: session.customer_email ?? customer.email,
        subscription: sub.id,
      });
      const deliveries: WebhookDelivery[] = [];
      deliveries.push((await fake.sendEvent('checkout.session.completed', session)).delivery);
      deliveries.push((await fake.sendEvent('customer.subscription.created', sub)).delivery);
      deliveries.push((await fake.sendEvent('invoice.paid', invoice)).delivery);
      return { session, customer, subscription: sub, deliveries };
    },

    updateSubscription: (id, patch) => changeSubscription(subscription(id), patch),

    cancelSubscription: (id) => changeSubscription(subscription(id), { status: 'canceled', canceled_at: unix(), ended_at: unix(), cancel_at_period_end: false }, 'customer.subscription.deleted'),

    async failRenewal(id) {
      const sub = subscription(id);
      const invoice = newInvoice(sub, null, false, 'subscription_cycle');
      return [(await fake.sendEvent('invoice.payment_failed', invoice)).delivery, await changeSubscription(sub, { status: 'past_due' })];
    },

    async renew(id) {
      const sub = subscription(id);
      const start = unix();
      const end = addInterval(start, String((sub.items.data[0]?.price as FakePrice | undefined)?.recurring.interval ?? 'month'));
      const items = { object: 'list' as const, data: sub.items.data.map((i) => ({ ...i, current_period_start: start, current_period_end: end })) };
      const invoice = newInvoice(sub, null, true, 'subscription_cycle');
      const updated = await changeSubscription(sub, { status: 'active', items });
      return [updated, (await fake.sendEvent('invoice.paid', invoice)).delivery];
    },

    async stop() {
      await Promise.all(later);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const requestId = `req_${randomBytes(7).toString('hex')}`;
    res.setHeader('Request-Id', requestId);
    res.setHeader('Stripe-Version', FAKE_STRIPE_API_VERSION);
    const method = req.method ?? 'GET';
    const params = (method === 'GET' || method === 'DELETE' ? qs.parse(url.search.slice(1), { depth: 10, arrayLimit: 100 }) : qs.parse(body, { depth: 10, arrayLimit: 100 })) as Record<string, unknown>;
    const idempotencyKey = header(req, 'idempotency-key');
    fake.requests.push({ method, path: url.pathname, params, idempotencyKey, stripeVersion: header(req, 'stripe-version') });
    const reply = (status: number, payload: Obj): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    try {
      checkKey(req);
      const fingerprint = JSON.stringify([method, url.pathname, params]);
      if (method === 'POST' && idempotencyKey) {
        const seen = idempotency.get(idempotencyKey);
        if (seen && seen.fingerprint !== fingerprint) {
          throw new StripeApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        if (seen) {
          res.setHeader('Idempotent-Replayed', 'true');
          return reply(seen.status, seen.body);
        }
      }
      const result = await cancelRoute(method, url.pathname) ?? (await connectRoute(method, url.pathname, params, header(req, 'stripe-account'))) ?? route(method, url.pathname, params);
      if (method === 'POST' && idempotencyKey) idempotency.set(idempotencyKey, { fingerprint, status: 200, body: result });
      reply(200, result);
    } catch (e) {
      if (e instanceof StripeApiError) {
        if (method === 'POST' && idempotencyKey && e.status !== 401 && e.body.error && (e.body.error as Obj).type !== 'idempotency_error') {
          idempotency.set(idempotencyKey, { fingerprint: JSON.stringify([method, url.pathname, params]), status: e.status, body: e.body });
        }
        return reply(e.status, e.body);
      }
      reply(500, { error: { type: 'api_error', message: e instanceof Error ? e.message : String(e) } });
    }
  }

  /** DELETE /v1/subscriptions/{id}: cancelled now, `customer.subscription.deleted` sent; null for any other request. */
  async function cancelRoute(method: string, path: string): Promise<Obj | null> {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (method !== 'DELETE' || parts[1] !== 'subscriptions' || !parts[2] || parts.length !== 3) return null;
    const sub = fake.subscriptions.get(parts[2]) ?? throwIt(noSuch('subscription', parts[2]));
    if (sub.status === 'canceled') throw invalid(`A canceled subscription can only update its cancellation_details and metadata.`, {}, 400);
    await fake.cancelSubscription(sub.id);
    return sub;
  }

  /** GET /v1/checkout/sessions/{id}/line_items; each item's `taxes` with `expand[]=data.taxes`, as Stripe does. */
  function sessionLineItems(sessionId: string, params: Record<string, unknown>): Obj {
    if (!fake.checkoutSessions.has(sessionId)) throw noSuch('checkout.session', sessionId);
    const expand = Array.isArray(params.expand) ? (params.expand as unknown[]) : [];
    const data = lineItemsOf(sessionId).map((li, n) => {
      const amount = li.price.unit_amount * li.quantity;
      const t = taxOn(amount, li.taxRates);
      return {
        id: `li_${sessionId.slice(-16)}${n}`,
        object: 'item',
        description: 'Full Access',
        price: li.price,
        quantity: li.quantity,
        currency: li.price.currency,
        amount_subtotal: amount,
        amount_tax: t.exclusive + t.inclusive,
        amount_discount: 0,
        amount_total: amount + t.exclusive,
        ...(expand.includes('data.taxes')
          ? { taxes: li.taxRates.map((rate) => { const r = taxOn(amount, [rate]); return { amount: r.exclusive + r.inclusive, rate, taxability_reason: 'standard_rated', taxable_amount: amount }; }) }
          : {}),
      };
    });
    return { object: 'list', url: `/v1/checkout/sessions/${sessionId}/line_items`, has_more: false, data };
  }

  function route(method: string, path: string, params: Record<string, unknown>): Obj {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent); // ['v1', ...]
    const [, a, b, c] = parts;
    if (method === 'POST' && a === 'checkout' && b === 'sessions' && parts.length === 3) return createCheckoutSession(params);
    if (method === 'GET' && a === 'checkout' && b === 'sessions' && c && parts.length === 4) return fake.checkoutSessions.get(c) ?? throwIt(noSuch('checkout.session', c));
    if (method === 'POST' && a === 'billing_portal' && b === 'sessions' && parts.length === 3) return createPortalSession(params);
    if (method === 'POST' && a === 'customers' && parts.length === 2) return createCustomer(params);
    if (method === 'GET' && a === 'customers' && b && parts.length === 3) return fake.customers.get(b) ?? throwIt(noSuch('customer', b));
    if (method === 'GET' && a === 'subscriptions' && b && parts.length === 3) return fake.subscriptions.get(b) ?? throwIt(noSuch('subscription', b));
    if (method === 'GET' && a === 'invoices' && b && parts.length === 3) return fake.invoices.get(b) ?? throwIt(noSuch('invoice', b));
    if (method === 'GET' && a === 'checkout' && b === 'sessions' && c && parts[4] === 'line_items' && parts.length === 5) return sessionLineItems(c, params);
    if (method === 'GET' && a === 'prices' && b && parts.length === 3) return priceOf(b);
    if (method === 'POST' && a === 'tax_rates' && parts.length === 2) return createTaxRate(params);
    if (method === 'POST' && a === 'billing_portal' && b === 'configurations' && parts.length === 3) return createPortalConfiguration(params);
    if (method === 'GET' && a === 'billing_portal' && b === 'configurations' && c && parts.length === 4) return fake.portalConfigurations.get(c) ?? throwIt(noSuch('billing_portal.configuration', c));
    if (method === 'GET' && a === 'tax_rates' && b && parts.length === 3) return fake.taxRates.get(b) ?? throwIt(noSuch('tax rate', b));
    if (method === 'GET' && a === 'tax_rates' && parts.length === 2) {
      const active = params.active === undefined ? null : formBoolean(params.active, 'active');
      const data = [...fake.taxRates.values()].filter((r) => active === null || r.active === active).reverse();
      return { object: 'list', url: '/v1/tax_rates', has_more: false, data };
    }
    throw invalid(`Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`, {}, 404);
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const html = (status: number, title: string, inner: string): void => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(title, inner));
    };
    const redirect = (to: string): void => {
      res.writeHead(303, { location: to });
      res.end();
    };
    if (parts[0] === 'checkout' && parts[1]) {
      const session = fake.checkoutSessions.get(parts[1]);
      if (!session) return html(404, 'Not found', '<p>No such checkout session.</p>'), true;
      const done = (): void => {
        const to = session.success_url?.replace('{CHECKOUT_SESSION_ID}', session.id);
        if (to) redirect(to);
        else html(200, 'Fake Stripe Checkout', '<h1>Fake Stripe Checkout</h1><p>Payment complete.</p>');
      };
      if (req.method === 'POST' && parts[2] === 'pay') {
        await fake.completeCheckout(session.id);
        return done(), true;
      }
      if (req.method === 'GET' && parts.length === 2) {
        if (session.status !== 'open') return done(), true;
        const subData = (sessionParams.get(session.id)?.subscription_data ?? {}) as Record<string, unknown>;
        const trial = subData.trial_period_days
          ? `${escapeHtml(String(subData.trial_period_days))} days free, then `
          : subData.trial_end
            ? `Free until ${escapeHtml(new Date(Number(subData.trial_end) * 1000).toISOString().slice(0, 10))}, then `
            : '';
        const email = session.customer_email ?? (session.customer ? fake.customers.get(session.customer)?.email : null) ?? '';
        /** The plan's price per interval, then each tax rate's amount and the total, as Stripe's page lists them. */
        const priceLines = (s: FakeCheckoutSession): string => {
          const items = lineItemsOf(s.id);
          const first = items[0];
          if (!first) return '';
          const amount = first.price.unit_amount * first.quantity;
          const money = (cents: number) => `${first.price.currency === 'nzd' ? 'NZ$' : `${escapeHtml(first.price.currency.toUpperCase())} `}${formatCents(cents)}`;
          const per = escapeHtml(first.price.recurring.interval);
          const taxes = first.taxRates.map((r) => {
            const t = taxOn(amount, [r]);
            return `<p class="tax">${escapeHtml(r.display_name)} (${escapeHtml(String(r.percentage))}%${r.inclusive ? ', included' : ''}): ${money(t.exclusive + t.inclusive)}</p>`;
          });
          const total = amount + taxOn(amount, first.taxRates).exclusive;
          return `<p class="price">${trial}${money(amount)} per ${per}</p>${taxes.join('')}${taxes.length ? `<p class="total">Total per ${per}: ${money(total)}</p>` : ''}`;
        };
        html(
          200,
          'Fake Stripe Checkout',
          `<h1>Fake Stripe Checkout</h1>
<p class="plan">Full Access</p>
${priceLines(session)}
${email ? `<p>Email: <span class="email">${escapeHtml(email)}</span></p>` : ''}
<p class="note">This is a test page. No card is needed and no money moves.</p>
<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay</button></form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>` : ''}`,
        );
        return true;
      }
    }
    if (parts[0] === 'portal' && parts[1]) {
      const session = fake.portalSessions.get(parts[1]);
      if (!session) return html(404, 'Not found', '<p>No such portal session.</p>'), true;
      const subs = [...fake.subscriptions.values()].filter((s) => s.customer === session.customer);
      if (req.method === 'POST' && parts[2] === 'cancel') {
        for (const s of subs) if (s.status !== 'canceled') await fake.cancelSubscription(s.id);
        if (session.return_url) redirect(session.return_url);
        else html(200, 'Fake Stripe Billing Portal', '<p>Subscription cancelled.</p>');
        return true;
      }
      const intervalOf = (sub: FakeSubscription): string => String((sub.items.data[0]?.price as FakePrice | undefined)?.recurring.interval ?? '');
      if (req.method === 'POST' && parts[2] === 'switch' && parts[3]) {
        // Allowed only to a price the session's configuration lists: the price changes on the same item (its tax rates stay).
        if (!switchablePrices(session).includes(parts[3])) return html(400, 'Not allowed', '<p>This portal does not offer that plan.</p>'), true;
        const price = priceOf(parts[3]);
        for (const s of subs) {
          if (s.status === 'canceled') continue;
          const items = { object: 'list' as const, data: s.items.data.map((i) => ({ ...i, price })) };
          await changeSubscription(s, { items });
        }
        if (session.return_url) redirect(session.return_url);
        else html(200, 'Fake Stripe Billing Portal', '<p>Plan changed.</p>');
        return true;
      }
      if (req.method === 'GET' && parts.length === 2) {
        const rows = subs.map((s) => `<li>Full Access — <span class="status">${escapeHtml(s.status)}</span> — <span class="interval">billed per ${escapeHtml(intervalOf(s))}</span></li>`).join('');
        const live = subs.filter((s) => s.status !== 'canceled');
        const switches = switchablePrices(session)
          .filter((id) => live.some((s) => (s.items.data[0]?.price as FakePrice | undefined)?.id !== id))
          .map((id) => `<form method="post" action="/portal/${encodeURIComponent(session.id)}/switch/${encodeURIComponent(id)}"><button type="submit">Switch to ${escapeHtml(priceOf(id).recurring.interval === 'year' ? 'annual' : 'monthly')} billing</button></form>`)
          .join('');
        html(
          200,
          'Fake Stripe Billing Portal',
          `<h1>Fake Stripe Billing Portal</h1><ul>${rows || '<li>No subscriptions</li>'}</ul>
${live.length ? switches : ''}
<form method="post" action="/portal/${encodeURIComponent(session.id)}/cancel"><button type="submit">Cancel subscription</button></form>
${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return</a></p>` : ''}`,
        );
        return true;
      }
    }
    if (parts[0] === 'connect' || (parts[0] === '__test' && parts[1] === 'connect')) return connectPage(req, res, parts, html, redirect);
    if (req.method === 'POST' && parts[0] === '__test' && parts[1] === 'checkout' && parts[2] && parts[3] === 'complete') {
      const done = await fake.completeCheckout(parts[2]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ session: done.session, deliveries: done.deliveries }));
      return true;
    }
    return false;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const work = url.pathname.startsWith('/v1/')
        ? handleApi(req, res, url, body)
        : handlePage(req, res, url).then((handled) => {
            if (!handled) {
              res.writeHead(404, { 'content-type': 'text/plain' });
              res.end('Not found');
            }
          });
      work.catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(e instanceof Error ? e.message : String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function throwIt(e: Error): never {
  throw e;
}

function page(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}
h1{font-size:1.4rem}.price{font-size:1.2rem;font-weight:600}.note{color:#697386;font-size:.9rem}
button{width:100%;padding:.9rem;font-size:1.1rem;border:0;border-radius:6px;background:#635bff;color:#fff;cursor:pointer}
</style></head><body>${inner}</body></html>`;
}
