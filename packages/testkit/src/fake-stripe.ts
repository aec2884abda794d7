// A small stateful fake of the parts of Stripe the app uses, on loopback, speaking Stripe's wire
// contract: form-encoded bodies with bracket nesting, Bearer
// `sk_` auth, `Request-Id`, idempotency keys, Stripe-shaped error bodies, Checkout Sessions,
// Billing Portal sessions, and webhook events signed exactly as Stripe signs them.
//
// The official SDK talks to it with `new Stripe(key, { host, port, protocol })`. A session's
// `url` opens a 'Fake Stripe Checkout' page on this server whose Pay button completes the
// checkout (the webhooks fire) and redirects to the session's success_url, so a browser test
// can walk the whole subscribe flow.
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
  recurring: { interval: string; interval_count: number };
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
  /** Clock for `created`, trial ends and webhook timestamps. */
  now?: () => Date;
  /** The plan every price id resolves to (unit amount in cents). Default NZD 750 a month. */
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
  /** A paid renewal: the subscription goes `active` for another month, then `invoice.paid`. */
  renew(id: string): Promise<WebhookDelivery[]>;
  /** The `Stripe-Signature` header for a payload, as Stripe computes it. */
  sign(payload: string, timestamp?: number): string;
  stop(): Promise<void>;
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

function addMonth(unix: number): number {
  const d = new Date(unix * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const now = options.now ?? (() => new Date());
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const plan = options.price ?? { unitAmount: 750, currency: 'nzd', interval: 'month' };
  const unix = (): number => Math.floor(now().getTime() / 1000);
  const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
  const idempotency = new Map<string, { fingerprint: string; status: number; body: Obj }>();
  /** The params each session was created with (Stripe does not echo line_items or subscription_data). */
  const sessionParams = new Map<string, Record<string, unknown>>();

  const priceOf = (id: string): FakePrice => ({
    id,
    object: 'price',
    unit_amount: plan.unitAmount,
    currency: plan.currency,
    recurring: { interval: plan.interval, interval_count: 1 },
  });

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
        if (!str(i.price)!.startsWith('price_')) throw noSuch('price', str(i.price)!, `line_items[${n}][price]`);
        if (i.quantity !== undefined && !/^[1-9]\d*$/.test(String(i.quantity))) throw invalid('Invalid integer: quantity', { param: `line_items[${n}][quantity]` });
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
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const created = unix();
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `${fake.url}/checkout/${id}`,
      mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: ref,
      customer,
      customer_email: customerEmail,
      subscription: null,
      success_url: str(params.success_url),
      cancel_url: str(params.cancel_url),
      metadata: strRecord(params.metadata),
      currency: plan.currency,
      amount_total: mode === 'subscription' ? plan.unitAmount : null,
      ui_mode: 'hosted_page',
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
    };
    fake.checkoutSessions.set(id, session);
    sessionParams.set(id, params);
    return session;
  }

  function createPortalSession(params: Record<string, unknown>): FakePortalSession {
    const customer = str(params.customer);
    if (!customer) throw missingParam('customer');
    if (!fake.customers.has(customer)) throw noSuch('customer', customer, 'customer');
    if (!fake.portalConfigured) {
      throw invalid("You can't create a portal session in test mode until you save your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.");
    }
    const id = newId('bps');
    const session: FakePortalSession = {
      id,
      object: 'billing_portal.session',
      customer,
      return_url: str(params.return_url),
      url: `${fake.url}/portal/${id}`,
      configuration: 'bpc_fake',
      created: unix(),
      livemode: false,
      locale: null,
      flow: null,
      on_behalf_of: null,
    };
    fake.portalSessions.set(id, session);
    return session;
  }

  async function deliver(event: FakeEvent): Promise<WebhookDelivery> {
    // Stripe sends pretty-printed JSON: a handler that re-serialises the body breaks the signature.
    const payload = JSON.stringify(event, null, 2);
    const base = { eventId: event.id, type: event.type };
    let delivery: WebhookDelivery;
    if (!fake.webhookUrl) delivery = { ...base, status: 0, responseBody: '', error: 'no webhookUrl set' };
    else {
      try {
        const res = await send(
          new Request(fake.webhookUrl, {
            method: 'POST',
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'stripe-signature': fake.sign(payload),
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

  function newInvoice(sub: FakeSubscription, amount: number, paid: boolean, reason: string): Obj {
    const periodEnd = (sub.items.data[0]?.current_period_end as number | undefined) ?? unix();
    const invoice: Obj = {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      currency: plan.currency,
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
    invoices: new Map(),
    requests: [],
    events: [],
    deliveries: [],

    sign: (payload, timestamp = unix()) => signStripePayload(payload, options.webhookSecret, timestamp),

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
      const items = (params.line_items ?? []) as Record<string, unknown>[];
      const t = unix();
      const customer = session.customer ? fake.customers.get(session.customer)! : createCustomer({ email: session.customer_email ?? undefined });
      const trialEnd = subData.trial_end !== undefined ? Number(subData.trial_end) : subData.trial_period_days !== undefined ? t + Number(subData.trial_period_days) * 86_400 : null;
      const periodEnd = trialEnd ?? addMonth(t);
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
        currency: plan.currency,
        metadata: strRecord(subData.metadata),
        items: {
          object: 'list',
          data: items.map((i) => ({
            id: newId('si'),
            object: 'subscription_item',
            price: priceOf(String(i.price)),
            quantity: Number(i.quantity ?? 1),
            current_period_start: t,
            current_period_end: periodEnd,
          })),
        },
        latest_invoice: null,
        livemode: false,
      };
      fake.subscriptions.set(sub.id, sub);
      const invoice = newInvoice(sub, trialEnd ? 0 : plan.unitAmount, true, 'subscription_create');
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
      const invoice = newInvoice(sub, plan.unitAmount, false, 'subscription_cycle');
      return [(await fake.sendEvent('invoice.payment_failed', invoice)).delivery, await changeSubscription(sub, { status: 'past_due' })];
    },

    async renew(id) {
      const sub = subscription(id);
      const start = unix();
      const end = addMonth(start);
      const items = { object: 'list' as const, data: sub.items.data.map((i) => ({ ...i, current_period_start: start, current_period_end: end })) };
      const invoice = newInvoice(sub, plan.unitAmount, true, 'subscription_cycle');
      const updated = await changeSubscription(sub, { status: 'active', items });
      return [updated, (await fake.sendEvent('invoice.paid', invoice)).delivery];
    },

    async stop() {
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
      const result = route(method, url.pathname, params);
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
        html(
          200,
          'Fake Stripe Checkout',
          `<h1>Fake Stripe Checkout</h1>
<p class="plan">Full Access</p>
<p class="price">${trial}NZ$${formatCents(plan.unitAmount)} per ${escapeHtml(plan.interval)}</p>
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
      if (req.method === 'GET' && parts.length === 2) {
        const rows = subs.map((s) => `<li>Full Access — <span class="status">${escapeHtml(s.status)}</span></li>`).join('');
        html(
          200,
          'Fake Stripe Billing Portal',
          `<h1>Fake Stripe Billing Portal</h1><ul>${rows || '<li>No subscriptions</li>'}</ul>
<form method="post" action="/portal/${encodeURIComponent(session.id)}/cancel"><button type="submit">Cancel subscription</button></form>
${session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">Return</a></p>` : ''}`,
        );
        return true;
      }
    }
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
