// The Xero adapter of the AccountingProvider port: OAuth 2.0 (code flow with PKCE and state) and
// the Accounting API over fetch. xero-node is not used because it hard-codes the identity and
// connections hosts; here every base URL is configuration, so tests
// point all three at a fake Xero on loopback.
//
// Retries are bounded and never sleep on their own: the injected `sleep` waits. 429 waits the
// server's Retry-After; 5xx and network failures are retried only for calls that are safe to
// repeat (reads, status changes, and writes that carry the same Idempotency-Key every time).
import { centsToString, toCents } from '@tradie/domain';
import { decodeJwt } from 'jose';
import { toXeroBill, toXeroSupplierCredit } from './billMapping.ts';
import { DEFAULT_PAYMENTS_ACCOUNT_CODE, DEFAULT_SALES_ACCOUNT_CODE, toXeroCreditNote, toXeroInvoice } from './mapping.ts';
import {
  AccountingError,
  type AttachmentInput,
  type BillInput,
  type AccountingProvider,
  type ContactInput,
  type ContactRef,
  type InvoiceInput,
  type CreditThere,
  type InvoiceChanged,
  type InvoiceNow,
  type InvoiceRef,
  type InvoiceStatus,
  type PaymentInput,
  type PaymentRef,
  type PaymentThere,
  type ProviderConnection,
  type ProviderTokens,
  type Tenant,
  INVOICE_PAGE_SIZE,
} from './port.ts';
import { wireDecimal } from './wireDecimal.ts';
import type { CallBudget } from './callBudget.ts';

export const XERO_DEFAULTS = {
  loginUrl: 'https://login.xero.com/identity/connect/authorize',
  identityUrl: 'https://identity.xero.com',
  apiUrl: 'https://api.xero.com',
  // Granular scopes: apps created since 2 March 2026 get nothing else.
  scopes: 'offline_access accounting.invoices accounting.contacts accounting.payments accounting.settings.read accounting.attachments',
  maxRetries: 3,
  maxRetryAfterSeconds: 60,
  backoffMs: 500,
  timeoutMs: 30_000,
} as const;

export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

export interface XeroConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The browser's authorisation address (full URL). */
  loginUrl?: string;
  /** Base of /connect/token and /connect/revocation. */
  identityUrl?: string;
  /** Base of /connections and /api.xro/2.0. */
  apiUrl?: string;
  scopes?: string;
  salesAccountCode?: string;
  /** The bank (or payments-enabled) account receipts are recorded against. */
  paymentsAccountCode?: string;
  fetch: typeof fetch;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  /** Retries after the first attempt, for 429, 5xx and network failures. */
  maxRetries?: number;
  /** A longer Retry-After (a daily limit) is not waited for: the caller gets 'rate_limited'. */
  maxRetryAfterSeconds?: number;
  /** First backoff after a 5xx or network failure; doubles each time. */
  backoffMs?: number;
  timeoutMs?: number;
  /**
   * Each organisation's call budget (callBudget.ts), shared by every process: one call is taken
   * before every Accounting API request, retries included, and a 429 blocks the organisation for
   * its Retry-After. With a budget a 429 is not waited out here: the caller gets 'rate_limited'
   * with the seconds to wait (the outbox puts the work off until then).
   */
  budget?: CallBudget;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Safe to send again after a 5xx or a lost response. */
  repeatable: boolean;
  /** The identity server answers errors as OAuth `{error}` bodies. */
  oauth?: boolean;
  /** The organisation an Accounting API call spends the budget of. */
  tenantId?: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Xero spells problem keys both `Detail` and `detail`. */
function field(obj: unknown, name: string): unknown {
  if (!isObject(obj)) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function validationMessages(body: unknown): string[] {
  const out: string[] = [];
  const elements = field(body, 'Elements');
  if (Array.isArray(elements)) {
    for (const el of elements) {
      const errs = field(el, 'ValidationErrors');
      if (Array.isArray(errs)) for (const e of errs) if (str(field(e, 'Message'))) out.push(str(field(e, 'Message')));
    }
  }
  if (out.length === 0) {
    const m = str(field(body, 'Message')) || str(field(body, 'Detail'));
    if (m) out.push(m);
  }
  return out;
}

/** Retry-After is delta-seconds (Xero) or an HTTP date. */
function retryAfterSeconds(header: string | null, now: Date): number | null {
  if (header === null || header.trim() === '') return null;
  const t = header.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const at = Date.parse(t);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * An invoice's money figures are kept as the digits Xero sent (the JSON number's own text), never
 * as a float: they are compared with ours to the cent.
 */
const EXACT_FIELDS = new Set(['SubTotal', 'TotalTax', 'Total', 'Amount', 'AppliedAmount']);
class ExactNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const keepExact: Reviver = (key, value, context) =>
  typeof value === 'number' && EXACT_FIELDS.has(key) && typeof context?.source === 'string' ? new ExactNumber(context.source) : value;

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text, keepExact as Parameters<typeof JSON.parse>[1]) as unknown;
  } catch {
    return text;
  }
}

const INVOICE_STATUSES: readonly InvoiceStatus[] = ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED'];
const invoiceStatus = (v: unknown): InvoiceStatus | null => (INVOICE_STATUSES.includes(v as InvoiceStatus) ? (v as InvoiceStatus) : null);

/** A money figure as dollars and cents ("3.83"), or null when Xero sent none or something finer than a cent. */
function centsText(v: unknown): string | null {
  const text = v instanceof ExactNumber ? v.text : typeof v === 'string' ? v : null;
  const m = text === null ? null : /^(-?\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > 2) return null;
  return `${m[1]}.${frac.padEnd(2, '0')}`;
}

function totalsOf(inv: unknown): InvoiceRef['totals'] {
  const subtotal = centsText(field(inv, 'SubTotal'));
  const gst = centsText(field(inv, 'TotalTax'));
  const total = centsText(field(inv, 'Total'));
  return subtotal !== null && gst !== null && total !== null ? { subtotal, gst, total } : null;
}

function invoiceRef(inv: unknown): InvoiceRef {
  const invoiceId = str(field(inv, 'InvoiceID'));
  const status = invoiceStatus(field(inv, 'Status'));
  if (!invoiceId || status === null) throw new AccountingError('unavailable', 'Xero answered with an invoice we could not read.');
  return { invoiceId, invoiceNumber: str(field(inv, 'InvoiceNumber')), reference: str(field(inv, 'Reference')), status, totals: totalsOf(inv) };
}

/** A credit note as an InvoiceRef (its id and number in the invoice's places), for the supplier credits sent as bills are. */
function creditRef(note: unknown): InvoiceRef {
  const creditNoteId = str(field(note, 'CreditNoteID'));
  const status = invoiceStatus(field(note, 'Status'));
  if (!creditNoteId || status === null) throw new AccountingError('unavailable', 'Xero answered with a credit note we could not read.');
  return { invoiceId: creditNoteId, invoiceNumber: str(field(note, 'CreditNoteNumber')), reference: str(field(note, 'Reference')), status, totals: totalsOf(note) };
}

/** At most this many payments are read off one invoice: more is not an invoice Xero would hold. */
export const MAX_PAYMENTS_READ = 200;

/** Xero's date ("/Date(1778112000000+0000)/", midnight UTC of the day) or an ISO date, as the day; null otherwise. */
function xeroDay(v: unknown): string | null {
  const text = str(v);
  const ms = /^\/Date\((-?\d{1,15})(?:[+-]\d{4})?\)\/$/.exec(text);
  const day = ms ? new Date(Number(ms[1])).toISOString().slice(0, 10) : /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0] ?? null;
  return day !== null && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : null;
}

/** A payment listed on an invoice: read whole or refused (Xero's answer is checked like any input). */
function paymentThere(p: unknown): PaymentThere {
  const paymentId = str(field(p, 'PaymentID'));
  const amount = centsText(field(p, 'Amount'));
  const date = xeroDay(field(p, 'Date'));
  if (!paymentId || paymentId.length > 64 || amount === null || date === null) throw new AccountingError('unavailable', 'Xero answered with a payment we could not read.');
  return { paymentId, amount, date, reference: str(field(p, 'Reference')).slice(0, 200) };
}

/**
 * A credit note listed on an invoice (Xero's Invoice.CreditNotes: each with the AppliedAmount of
 * its credit on this invoice): read whole or refused. One entry per credit note, its applications summed.
 */
function creditsThere(list: unknown[]): CreditThere[] {
  const out: CreditThere[] = [];
  for (const c of list) {
    const creditNoteId = str(field(c, 'CreditNoteID'));
    const amount = centsText(field(c, 'AppliedAmount'));
    const date = xeroDay(field(c, 'Date'));
    if (!creditNoteId || creditNoteId.length > 64 || amount === null || date === null) throw new AccountingError('unavailable', 'Xero answered with a credit note we could not read.');
    const same = out.find((x) => x.creditNoteId === creditNoteId);
    if (same) same.amount = centsToString(toCents(same.amount) + toCents(amount));
    else out.push({ creditNoteId, creditNoteNumber: str(field(c, 'CreditNoteNumber')).slice(0, 50), amount, date });
  }
  return out;
}

function invoiceNow(inv: unknown): InvoiceNow {
  const list = field(inv, 'Payments');
  const payments = Array.isArray(list) ? list : [];
  const notes = field(inv, 'CreditNotes');
  const credits = Array.isArray(notes) ? notes : [];
  if (payments.length > MAX_PAYMENTS_READ || credits.length > MAX_PAYMENTS_READ) throw new AccountingError('unavailable', 'Xero answered with more payments on one invoice than we can read.');
  return { ...invoiceRef(inv), payments: payments.map(paymentThere), credits: creditsThere(credits) };
}

const firstOf = (body: unknown, key: string): unknown => {
  const list = field(body, key);
  return Array.isArray(list) ? list[0] : undefined;
};

/** A value for a `where` clause: our references and names are plain, anything else is refused. */
function whereString(value: string): string {
  if (/["\\]/.test(value)) throw new AccountingError('mapping', `'${value}' can't be looked up in Xero.`);
  return `"${value}"`;
}

/** Xero's access token is a JWT naming the consent it came from; read, not verified (it is Xero's to check). */
function authEventIdOf(accessToken: string): string | null {
  try {
    const claim = decodeJwt(accessToken)['authentication_event_id'];
    return typeof claim === 'string' ? claim : null;
  } catch {
    return null;
  }
}

function checkIdempotencyKey(key: string): void {
  if (key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw new RangeError(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
}

export function createXeroAdapter(config: XeroConfig): AccountingProvider {
  const loginUrl = config.loginUrl ?? XERO_DEFAULTS.loginUrl;
  const identityUrl = (config.identityUrl ?? XERO_DEFAULTS.identityUrl).replace(/\/+$/, '');
  const apiUrl = (config.apiUrl ?? XERO_DEFAULTS.apiUrl).replace(/\/+$/, '');
  const accountingUrl = `${apiUrl}/api.xro/2.0`;
  const scopes = config.scopes ?? XERO_DEFAULTS.scopes;
  const salesAccountCode = config.salesAccountCode ?? DEFAULT_SALES_ACCOUNT_CODE;
  const paymentsAccountCode = config.paymentsAccountCode ?? DEFAULT_PAYMENTS_ACCOUNT_CODE;
  const maxRetries = config.maxRetries ?? XERO_DEFAULTS.maxRetries;
  const maxRetryAfterSeconds = config.maxRetryAfterSeconds ?? XERO_DEFAULTS.maxRetryAfterSeconds;
  const backoffMs = config.backoffMs ?? XERO_DEFAULTS.backoffMs;
  const timeoutMs = config.timeoutMs ?? XERO_DEFAULTS.timeoutMs;
  const basic = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;

  async function send(call: Call): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < maxRetries;
      if (config.budget && call.tenantId !== undefined) await config.budget.take(call.tenantId);
      let res: Response;
      try {
        res = await config.fetch(call.url, {
          method: call.method,
          headers: { Accept: 'application/json', ...call.headers },
          body: call.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        // Lost before an answer: the request may or may not have been processed.
        if (call.repeatable && retriesLeft) {
          await config.sleep(backoffMs * 2 ** attempt);
          continue;
        }
        throw new AccountingError('unavailable', 'Xero could not be reached. Please try again.', { cause });
      }
      if (res.ok) return readJson(res);
      const body = await readJson(res);
      const status = res.status;
      if (status === 429) {
        // Rate limits are checked before anything is processed, so even a write can go again.
        const wait = retryAfterSeconds(res.headers.get('retry-after'), config.now()) ?? 60;
        if (config.budget && call.tenantId !== undefined) await config.budget.blocked(call.tenantId, wait);
        else if (retriesLeft && wait <= maxRetryAfterSeconds) {
          await config.sleep(wait * 1000);
          continue;
        }
        const problem = res.headers.get('x-rate-limit-problem');
        throw new AccountingError('rate_limited', `Xero's ${problem ? `${problem} ` : ''}rate limit was reached. Please try again in ${wait} seconds.`, { status, retryAfterSeconds: wait });
      }
      if (status >= 500) {
        if (call.repeatable && retriesLeft) {
          const wait = retryAfterSeconds(res.headers.get('retry-after'), config.now());
          await config.sleep(wait !== null && wait <= maxRetryAfterSeconds ? wait * 1000 : backoffMs * 2 ** attempt);
          continue;
        }
        throw new AccountingError('unavailable', 'Xero is not available right now. Please try again.', { status });
      }
      const oauthError = call.oauth ? str(isObject(body) ? body['error'] : undefined) : '';
      if (oauthError === 'invalid_grant') throw new AccountingError('invalid_grant', 'Xero no longer accepts this sign-in. Please connect Xero again.', { status });
      if (oauthError) throw new AccountingError('oauth', `Xero refused the sign-in (${oauthError}).`, { status });
      if (status === 401) throw new AccountingError('unauthorized', 'Xero did not accept the access token.', { status });
      if (status === 403) throw new AccountingError('forbidden', 'Xero refused access to this organisation. Please connect Xero again.', { status });
      if (status === 404) throw new AccountingError('not_found', 'Xero could not find that record.', { status });
      const messages = validationMessages(body);
      throw new AccountingError('validation', messages.length > 0 ? `Xero said: ${messages.join(' ')}` : `Xero refused the request (${status}).`, { status, messages });
    }
  }

  const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

  function identityCall(path: string, fields: Record<string, string>): Call {
    return {
      method: 'POST',
      url: `${identityUrl}${path}`,
      headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form(fields),
      // A lost refresh answer may be retried: Xero accepts the old refresh token for a grace period.
      repeatable: true,
      oauth: true,
    };
  }

  function tokensFrom(body: unknown): ProviderTokens {
    const accessToken = str(field(body, 'access_token'));
    const refreshToken = str(field(body, 'refresh_token'));
    const expiresIn = field(body, 'expires_in');
    if (!accessToken || !refreshToken || typeof expiresIn !== 'number') {
      throw new AccountingError('oauth', 'Xero did not return a refresh token. Please connect again and allow offline access.');
    }
    return { accessToken, refreshToken, expiresAt: new Date(config.now().getTime() + expiresIn * 1000), scope: str(field(body, 'scope')), authEventId: authEventIdOf(accessToken) };
  }

  function api(conn: ProviderConnection, method: Call['method'], path: string, opts: { body?: unknown; idempotencyKey?: string; repeatable?: boolean; headers?: Record<string, string> } = {}): Promise<unknown> {
    const headers: Record<string, string> = { ...opts.headers, Authorization: `Bearer ${conn.accessToken}`, 'xero-tenant-id': conn.tenantId };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.idempotencyKey !== undefined) {
      checkIdempotencyKey(opts.idempotencyKey);
      headers['Idempotency-Key'] = opts.idempotencyKey;
    }
    return send({
      method,
      url: `${accountingUrl}${path}`,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      tenantId: conn.tenantId,
      repeatable: opts.repeatable ?? (method === 'GET' || opts.idempotencyKey !== undefined),
    });
  }

  /**
   * PUT /Payments of one payment: to an invoice (money received) or to a credit note (its credit
   * paid back in cash). Answers the payment as Xero holds it, with its id.
   */
  async function putPayment(
    conn: ProviderConnection,
    to: { Invoice: { InvoiceID: string } } | { CreditNote: { CreditNoteID: string } },
    p: Omit<PaymentInput, 'invoiceId'>,
    idempotencyKey: string,
  ): Promise<{ created: unknown; paymentId: string }> {
    const element = { ...to, Account: { Code: p.accountCode ?? paymentsAccountCode }, Date: p.date, Amount: wireDecimal(p.amount), Reference: p.reference };
    const created = firstOf(await api(conn, 'PUT', '/Payments', { body: { Payments: [element] }, idempotencyKey }), 'Payments');
    const paymentId = str(field(created, 'PaymentID'));
    if (!paymentId) throw new AccountingError('unavailable', 'Xero answered with a payment we could not read.');
    return { created, paymentId };
  }

  async function searchContacts(conn: ProviderConnection, term: string): Promise<unknown[]> {
    const body = await api(conn, 'GET', `/Contacts?${new URLSearchParams({ searchTerm: term })}`);
    const list = field(body, 'Contacts');
    return Array.isArray(list) ? list : [];
  }

  async function findContact(conn: ProviderConnection, contact: ContactInput): Promise<ContactRef | null> {
    const same = (a: unknown, b: string) => str(a).trim().toLowerCase() === b.trim().toLowerCase();
    const active = (c: unknown) => str(field(c, 'ContactStatus')) !== 'ARCHIVED';
    // searchTerm matches loosely across several fields; the exact match is ours to pick.
    if (contact.email !== '') {
      const byEmail = (await searchContacts(conn, contact.email)).find((c) => active(c) && same(field(c, 'EmailAddress'), contact.email));
      if (byEmail) return { contactId: str(field(byEmail, 'ContactID')), name: str(field(byEmail, 'Name')), created: false };
    }
    const byName = (await searchContacts(conn, contact.name)).find((c) => active(c) && same(field(c, 'Name'), contact.name));
    return byName ? { contactId: str(field(byName, 'ContactID')), name: str(field(byName, 'Name')), created: false } : null;
  }

  const provider: AccountingProvider = {
    name: 'xero',

    authorizationUrl(state, codeChallenge) {
      const params: Record<string, string> = {
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: config.redirectUri,
        scope: scopes,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      };
      const query = Object.entries(params)
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&');
      return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}${query}`;
    },

    async exchangeCode(code, codeVerifier) {
      // A confidential web app: the client secret (Basic) and the PKCE verifier both go along.
      return tokensFrom(await send({ ...identityCall('/connect/token', { grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, code_verifier: codeVerifier }), repeatable: false }));
    },

    async refresh(refreshToken) {
      return tokensFrom(await send(identityCall('/connect/token', { grant_type: 'refresh_token', refresh_token: refreshToken })));
    },

    async connections(accessToken) {
      const body = await send({ method: 'GET', url: `${apiUrl}/connections`, headers: { Authorization: `Bearer ${accessToken}` }, repeatable: true });
      if (!Array.isArray(body)) throw new AccountingError('unavailable', 'Xero answered the connections request with something we could not read.');
      return body.map(
        (c): Tenant => ({
          connectionId: str(field(c, 'id')),
          tenantId: str(field(c, 'tenantId')),
          tenantName: str(field(c, 'tenantName')),
          tenantType: str(field(c, 'tenantType')),
          authEventId: str(field(c, 'authEventId')) || null,
        }),
      );
    },

    async revoke(refreshToken) {
      await send(identityCall('/connect/revocation', { token: refreshToken, token_type_hint: 'refresh_token' }));
    },

    async findOrCreateContact(conn, contact) {
      const found = await findContact(conn, contact);
      if (found) return found;
      const element: Record<string, unknown> = { Name: contact.name };
      if (contact.email !== '') element['EmailAddress'] = contact.email;
      if (contact.phone) element['Phones'] = [{ PhoneType: 'DEFAULT', PhoneNumber: contact.phone }];
      try {
        // Names are unique among active contacts, so a repeat after a lost answer fails on the
        // name instead of creating a twin; that case is caught below.
        const created = firstOf(await api(conn, 'PUT', '/Contacts', { body: { Contacts: [element] }, repeatable: true }), 'Contacts');
        return { contactId: str(field(created, 'ContactID')), name: str(field(created, 'Name')), created: true };
      } catch (e) {
        if (e instanceof AccountingError && e.kind === 'validation' && e.messages.some((m) => /already assigned to another contact/i.test(m))) {
          const again = await findContact(conn, { ...contact, email: '' });
          if (again) return again;
        }
        throw e;
      }
    },

    async createInvoice(conn, input: InvoiceInput, idempotencyKey) {
      const invoice = toXeroInvoice(input.document, input.contactId, { gstRegistered: input.gstRegistered, salesAccountCode });
      // unitdp=4: our unit prices may carry four decimal places.
      const body = await api(conn, 'PUT', '/Invoices?unitdp=4', { body: { Invoices: [invoice] }, idempotencyKey });
      return invoiceRef(firstOf(body, 'Invoices'));
    },

    async createBill(conn, input: BillInput, idempotencyKey) {
      if (input.cost.credit) {
        const credit = toXeroSupplierCredit(input.cost, input.contactId, { gstRegistered: input.gstRegistered, accountCode: input.accountCode });
        return creditRef(firstOf(await api(conn, 'PUT', '/CreditNotes', { body: { CreditNotes: [credit] }, idempotencyKey }), 'CreditNotes'));
      }
      const bill = toXeroBill(input.cost, input.contactId, { gstRegistered: input.gstRegistered, accountCode: input.accountCode });
      return invoiceRef(firstOf(await api(conn, 'PUT', '/Invoices', { body: { Invoices: [bill] }, idempotencyKey }), 'Invoices'));
    },

    async findBillByReference(conn, reference, credit = false) {
      const [resource, where] = credit ? ['CreditNotes', `Type=="ACCPAYCREDIT"&&CreditNoteNumber==${whereString(reference)}`] : ['Invoices', `Type=="ACCPAY"&&InvoiceNumber==${whereString(reference)}`];
      const query = new URLSearchParams({ where, createdByMyApp: 'true', page: '1' });
      const list = field(await api(conn, 'GET', `/${resource}?${query}`), resource);
      const refs = (Array.isArray(list) ? list : []).map(credit ? creditRef : invoiceRef).filter((r) => r.status !== 'DELETED');
      return refs.find((r) => r.status !== 'VOIDED') ?? refs[0] ?? null;
    },

    async updateBill(conn, invoiceId, input: BillInput) {
      if (input.cost.credit) {
        const { Type: _type, Status: _status, CreditNoteNumber: _number, ...credit } = toXeroSupplierCredit(input.cost, input.contactId, { gstRegistered: input.gstRegistered, accountCode: input.accountCode });
        const path = `/CreditNotes/${encodeURIComponent(invoiceId)}`;
        return creditRef(firstOf(await api(conn, 'POST', path, { body: { CreditNotes: [{ CreditNoteID: invoiceId, ...credit }] }, repeatable: true }), 'CreditNotes'));
      }
      const { Type: _type, Status: _status, ...bill } = toXeroBill(input.cost, input.contactId, { gstRegistered: input.gstRegistered, accountCode: input.accountCode });
      const path = `/Invoices/${encodeURIComponent(invoiceId)}`;
      // The whole bill as it is now: the same request however often it is sent.
      return invoiceRef(firstOf(await api(conn, 'POST', path, { body: { Invoices: [{ InvoiceID: invoiceId, ...bill }] }, repeatable: true }), 'Invoices'));
    },

    async listExpenseAccounts(conn) {
      const list = field(await api(conn, 'GET', `/Accounts?${new URLSearchParams({ where: 'Status=="ACTIVE"' })}`), 'Accounts');
      const costSide = new Set(['EXPENSE', 'DIRECTCOSTS', 'OVERHEADS']);
      return (Array.isArray(list) ? list : [])
        .filter((a): a is { Code: string; Name?: unknown; Type?: unknown; Status?: unknown } => typeof a === 'object' && a !== null && typeof (a as { Code?: unknown }).Code === 'string')
        .filter((a) => a.Code.trim() !== '' && costSide.has(String(a.Type)) && (a.Status === undefined || a.Status === 'ACTIVE'))
        .map((a) => ({ code: a.Code, name: typeof a.Name === 'string' ? a.Name : a.Code }))
        .sort((x, y) => x.code.localeCompare(y.code));
    },

    async voidBill(conn, invoiceId, credit) {
      if (!credit) return provider.updateInvoiceStatus(conn, invoiceId, 'VOIDED');
      const path = `/CreditNotes/${encodeURIComponent(invoiceId)}`;
      try {
        return creditRef(firstOf(await api(conn, 'POST', path, { body: { CreditNotes: [{ CreditNoteID: invoiceId, Status: 'VOIDED' }] }, repeatable: true }), 'CreditNotes'));
      } catch (e) {
        // A retry after a lost answer finds it already voided.
        if (e instanceof AccountingError && e.kind === 'validation') {
          const current = creditRef(firstOf(await api(conn, 'GET', path), 'CreditNotes'));
          if (current.status === 'VOIDED') return current;
        }
        throw e;
      }
    },

    async attachFile(conn, invoiceId, file: AttachmentInput, on = 'Invoices') {
      const path = `/${on}/${encodeURIComponent(invoiceId)}/Attachments/${encodeURIComponent(file.fileName)}`;
      // POST replaces a file of the same name, so a repeat after a lost answer changes nothing.
      await send({
        method: 'POST',
        url: `${accountingUrl}${path}`,
        headers: { Authorization: `Bearer ${conn.accessToken}`, 'xero-tenant-id': conn.tenantId, 'Content-Type': file.contentType },
        body: new Uint8Array(file.bytes),
        tenantId: conn.tenantId,
        repeatable: true,
      });
    },

    async findInvoiceByReference(conn, reference) {
      const query = new URLSearchParams({ where: `Type=="ACCREC"&&Reference==${whereString(reference)}`, createdByMyApp: 'true', page: '1' });
      const body = await api(conn, 'GET', `/Invoices?${query}`);
      const list = field(body, 'Invoices');
      const refs = (Array.isArray(list) ? list : []).map(invoiceRef).filter((r) => r.status !== 'DELETED');
      // A live invoice first; a voided one still owns its number in Xero, so it is returned too.
      return refs.find((r) => r.status !== 'VOIDED') ?? refs[0] ?? null;
    },

    async updateInvoiceStatus(conn, invoiceId, status, sentToContact) {
      const element: Record<string, unknown> = { InvoiceID: invoiceId, Status: status };
      if (sentToContact !== undefined) element['SentToContact'] = sentToContact;
      const path = `/Invoices/${encodeURIComponent(invoiceId)}`;
      try {
        // Setting a status is the same request however often it is sent.
        return invoiceRef(firstOf(await api(conn, 'POST', path, { body: { Invoices: [element] }, repeatable: true }), 'Invoices'));
      } catch (e) {
        // A retry after a lost answer finds the change already made.
        if (e instanceof AccountingError && e.kind === 'validation') {
          const current = invoiceRef(firstOf(await api(conn, 'GET', path), 'Invoices'));
          if (current.status === status) return current;
        }
        throw e;
      }
    },

    async replaceInvoiceLines(conn, invoiceId, input: InvoiceInput) {
      const invoice = toXeroInvoice(input.document, input.contactId, { gstRegistered: input.gstRegistered, salesAccountCode });
      const element = { InvoiceID: invoiceId, LineItems: invoice.LineItems, LineAmountTypes: invoice.LineAmountTypes };
      // The same lines sent twice leave the same invoice: safe to repeat after a lost answer.
      return invoiceRef(firstOf(await api(conn, 'POST', `/Invoices/${encodeURIComponent(invoiceId)}?unitdp=4`, { body: { Invoices: [element] }, repeatable: true }), 'Invoices'));
    },

    async invoicesChangedSince(conn, since, page): Promise<InvoiceChanged[]> {
      // Xero reads If-Modified-Since as a UTC date and time without a zone; pages hold 100 invoices.
      const query = new URLSearchParams({ where: 'Type=="ACCREC"', order: 'UpdatedDateUTC ASC', page: String(page) });
      const body = await api(conn, 'GET', `/Invoices?${query}`, { headers: { 'If-Modified-Since': since.toISOString().slice(0, 19) } });
      const list = field(body, 'Invoices');
      return (Array.isArray(list) ? list : []).slice(0, INVOICE_PAGE_SIZE).flatMap((inv) => {
        const invoiceId = str(field(inv, 'InvoiceID'));
        return invoiceId && invoiceId.length <= 64 ? [{ invoiceId, updatedAt: str(field(inv, 'UpdatedDateUTC')).slice(0, 50) }] : [];
      });
    },

    async getInvoice(conn, invoiceId) {
      return invoiceNow(firstOf(await api(conn, 'GET', `/Invoices/${encodeURIComponent(invoiceId)}`), 'Invoices'));
    },

    async createPayment(conn, payment: PaymentInput, idempotencyKey): Promise<PaymentRef> {
      const { created, paymentId } = await putPayment(conn, { Invoice: { InvoiceID: payment.invoiceId } }, payment, idempotencyKey);
      return { paymentId, invoiceStatus: invoiceStatus(field(field(created, 'Invoice'), 'Status')) };
    },

    async createCreditNote(conn, input, idempotencyKey) {
      const element = toXeroCreditNote(input.creditNote, input.contactId, { gstRegistered: input.gstRegistered, salesAccountCode });
      const created = firstOf(await api(conn, 'PUT', '/CreditNotes', { body: { CreditNotes: [element] }, idempotencyKey }), 'CreditNotes');
      const creditNoteId = str(field(created, 'CreditNoteID'));
      if (!creditNoteId) throw new AccountingError('unavailable', 'Xero answered with a credit note we could not read.');
      return { creditNoteId, creditNoteNumber: str(field(created, 'CreditNoteNumber')) };
    },

    async allocateCreditNote(conn, allocation, idempotencyKey) {
      const element = { Amount: wireDecimal(allocation.amount), Invoice: { InvoiceID: allocation.invoiceId }, Date: allocation.date };
      await api(conn, 'PUT', `/CreditNotes/${encodeURIComponent(allocation.creditNoteId)}/Allocations`, { body: { Allocations: [element] }, idempotencyKey });
    },

    async refundCreditNote(conn, refund, idempotencyKey) {
      // A payment against a credit note is Xero's cash refund of its credit (ARCREDITPAYMENT).
      const { paymentId } = await putPayment(conn, { CreditNote: { CreditNoteID: refund.creditNoteId } }, refund, idempotencyKey);
      return { paymentId };
    },

    async deletePayment(conn, paymentId): Promise<PaymentRef> {
      const path = `/Payments/${encodeURIComponent(paymentId)}`;
      const refOf = (p: unknown): PaymentRef => ({ paymentId: str(field(p, 'PaymentID')) || paymentId, invoiceStatus: invoiceStatus(field(field(p, 'Invoice'), 'Status')) });
      try {
        // Setting a status is the same request however often it is sent.
        return refOf(firstOf(await api(conn, 'POST', path, { body: { Status: 'DELETED' }, repeatable: true }), 'Payments'));
      } catch (e) {
        // A retry after a lost answer finds the payment already deleted.
        if (e instanceof AccountingError && e.kind === 'validation') {
          const current = firstOf(await api(conn, 'GET', path), 'Payments');
          if (str(field(current, 'Status')) === 'DELETED') return refOf(current);
        }
        throw e;
      }
    },
  };
  return provider;
}
