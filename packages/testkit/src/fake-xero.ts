// A fake Xero on loopback: the login (authorise) page, the identity server (token, revocation),
// the connections endpoint and the parts of the Accounting API the app uses, speaking Xero's
// wire contract as far as it is known. One node:http server on
// 127.0.0.1, port 0; the three Xero hosts are three path prefixes on it, so a request sent to
// the wrong host fails instead of passing by accident.
//
// Behaviour worth knowing when reading a test:
// - authorise consents at once (302 to redirect_uri with code and state); denyNextConsent()
//   answers error=access_denied instead.
// - the token endpoint checks Basic client auth, single-use codes, the PKCE verifier when the
//   authorise request carried a challenge, and single-use refresh tokens (reuse → invalid_grant;
//   a grace period for lost answers is an option, off by default).
// - every API call needs a live Bearer token (401 problem JSON otherwise), a connected
//   xero-tenant-id (403 AuthenticationUnsuccessful) and Accept: application/json.
// - PUT/POST writes honour Idempotency-Key for six minutes: the same key and body replay the
//   first answer and create nothing.
// - POST /Payments/{id} {"Status":"DELETED"} deletes a payment (the invoice owes again); a
//   deleted payment stays in `state.payments` with Status DELETED.
// - PUT /CreditNotes creates a sales credit note (Type ACCRECCREDIT) from line items as an
//   invoice is made; PUT /CreditNotes/{id}/Allocations applies some of its credit to an invoice of
//   the same contact (at most the credit left and the invoice's amount due): the invoice's
//   AmountCredited goes up and it is PAID once nothing is due; a fully allocated credit note is PAID.
// - PUT /Payments with a CreditNote instead of an Invoice is a cash refund of the credit left on a
//   sales credit note (PaymentType ARCREDITPAYMENT): never more than that credit; the credit note is
//   PAID once none is left, and deleting the refund gives the credit back.
// - failNext / dropNextResponse / hold inject faults; `state` shows what was created.
// - money follows Xero's own description (fakeXeroMoney.ts, written apart from the app's money
//   code): line amounts and per-line tax rounded half away from zero, a line's TaxAmount wins.
//   computeOwnTax(true) makes it ignore the TaxAmount sent, as a Xero that recomputes would.
// Amounts in requests are read from the JSON's own digits, never through a float.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { centsJson as centsToNumber, decimalPlaces, lineAmountCents, lineTaxCents, toCentsExact } from './fakeXeroMoney.ts';

export interface FakeXeroOptions {
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs (exact match). Omitted: any http(s) URI is accepted. */
  redirectUris?: string[];
  tenants?: Array<{ tenantId?: string; tenantName: string }>;
  now?: () => Date;
  /** Seconds an access token lives. Xero: 1800. */
  accessTokenSeconds?: number;
  /** Seconds a spent refresh token may be replayed after a lost answer. Xero: 1800; default 0 (strict). */
  refreshGraceSeconds?: number;
  /** Calls per tenant per minute before 429 (minute problem). Default: unlimited. */
  minuteLimit?: number;
}

export interface FakeLineItem {
  LineItemID: string;
  Description: string;
  Quantity: string;
  UnitAmount: string;
  TaxType: string;
  AccountCode: string;
  lineAmountCents: bigint;
  taxCents: bigint;
}

/** What an invoice and a credit note both hold, as Xero names it (amounts kept in cents). */
export interface FakeSalesDocument {
  tenantId: string;
  Reference: string;
  Status: 'DRAFT' | 'SUBMITTED' | 'AUTHORISED' | 'PAID' | 'VOIDED' | 'DELETED';
  LineAmountTypes: 'Exclusive' | 'Inclusive' | 'NoTax';
  ContactID: string;
  Date: string;
  LineItems: FakeLineItem[];
  subTotalCents: bigint;
  totalTaxCents: bigint;
  totalCents: bigint;
  /** The client id of the app that created it; null for one made in Xero itself. */
  createdByApp: string | null;
  /** The raw JSON the element arrived in. */
  requestBody: string;
}

export interface FakeInvoice extends FakeSalesDocument {
  InvoiceID: string;
  InvoiceNumber: string;
  Type: 'ACCREC' | 'ACCPAY';
  DueDate: string | null;
  SentToContact: boolean;
  CurrencyCode: string;
  paidCents: bigint;
  /** When it last changed (ms): its UpdatedDateUTC, and what If-Modified-Since compares. */
  updatedMs?: number;
}

export interface FakeContact {
  tenantId: string;
  ContactID: string;
  Name: string;
  EmailAddress: string;
  ContactStatus: 'ACTIVE' | 'ARCHIVED';
  Phones: Array<{ PhoneType: string; PhoneNumber: string }>;
}

export interface FakePayment {
  tenantId: string;
  PaymentID: string;
  /** The invoice paid, or '' for a refund of a credit note. */
  InvoiceID: string;
  /** A cash refund of a credit note's credit (ARCREDITPAYMENT). */
  CreditNoteID?: string;
  AccountCode: string;
  Date: string;
  amountCents: bigint;
  Reference: string;
  /** DELETED after POST /Payments/{id} {"Status":"DELETED"}: no longer counts as paid. */
  Status: 'AUTHORISED' | 'DELETED';
}

/** A credit note's credit applied to an invoice (PUT /CreditNotes/{id}/Allocations). */
export interface FakeAllocation {
  AllocationID: string;
  InvoiceID: string;
  amountCents: bigint;
  Date: string;
}

export interface FakeCreditNote extends FakeSalesDocument {
  CreditNoteID: string;
  CreditNoteNumber: string;
  Type: 'ACCRECCREDIT' | 'ACCPAYCREDIT';
  allocations: FakeAllocation[];
}

export interface TokenIssue {
  grantType: 'authorization_code' | 'refresh_token';
  accessToken: string;
  refreshToken: string | null;
  at: Date;
}

export interface RefreshTokenUse {
  refreshToken: string;
  outcome: 'rotated' | 'grace-replay' | 'reused' | 'unknown' | 'expired' | 'revoked';
  at: Date;
}

export interface RecordedRequest {
  method: string;
  /** The path on the fake, query included. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** What was answered; null when the response was dropped or is held. */
  status: number | null;
}

export interface FakeAttachment {
  tenantId: string;
  /** The invoice's or credit note's id. */
  invoiceId: string;
  AttachmentID: string;
  FileName: string;
  MimeType: string;
  bytes: Buffer;
}

/** Xero's limits on attachments: 25 MB a file, 10 files a document. */
export const FAKE_XERO_ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
export const FAKE_XERO_ATTACHMENTS_PER_DOCUMENT = 10;
const ATTACHMENT_ROUTE = /^\/api\.xro\/2\.0\/(Invoices|CreditNotes)\/([^/]+)\/Attachments(?:\/([^/]+))?\/?$/i;

export interface FakeXeroState {
  invoices: FakeInvoice[];
  creditNotes: FakeCreditNote[];
  contacts: FakeContact[];
  payments: FakePayment[];
  /** Files attached to invoices and bills (PUT/POST /Invoices/{id}/Attachments/{FileName}). */
  attachments: FakeAttachment[];
  tokensIssued: TokenIssue[];
  refreshTokenUses: RefreshTokenUse[];
  /** Refresh tokens revoked through /connect/revocation. */
  revoked: string[];
  requests: RecordedRequest[];
}

export interface FakeXero {
  /** http://127.0.0.1:port */
  url: string;
  /** The authorise address (config `loginUrl`). */
  loginUrl: string;
  /** Base of /connect/token and /connect/revocation (config `identityUrl`). */
  identityUrl: string;
  /** Base of /connections and /api.xro/2.0 (config `apiUrl`). */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  tenants: Array<{ tenantId: string; tenantName: string }>;
  state: FakeXeroState;
  /**
   * The next request whose path (after its host's prefix: '/connect/token', '/connections',
   * '/Invoices', …; optionally 'PUT /Invoices'; a trailing '*' matches a prefix) answers
   * `status` with `headers`, without being processed.
   */
  failNext(path: string, status: number, headers?: Record<string, string>, body?: unknown): void;
  /** The next matching request is processed, then its socket destroyed before any answer. */
  dropNextResponse(path: string): void;
  /** Matching requests wait until the returned function is called. */
  hold(path: string): () => void;
  /** The next authorise request redirects with this error (default access_denied). */
  denyNextConsent(error?: string): void;
  /** On: the TaxAmount sent on a line is ignored and each line's tax is worked out per line, as a Xero that recomputes tax would. */
  computeOwnTax(on: boolean): void;
  /** Every access token issued so far stops working (401). */
  expireAccessTokens(): void;
  addContact(tenantId: string, contact: { name: string; email?: string; status?: 'ACTIVE' | 'ARCHIVED' }): FakeContact;
  /** An invoice someone made in Xero itself (not by this app); no lines, zero total. */
  addInvoice(tenantId: string, invoice: { reference: string; invoiceNumber?: string; status?: FakeInvoice['Status'] }): FakeInvoice;
  /** A payment entered in Xero itself (a bank transfer reconciled there), by the organisation's bookkeeper, not this app: Xero's own rules apply. */
  payInXero(invoiceId: string, payment: { amount: string; date: string; reference?: string }): FakePayment;
  /** A payment deleted in Xero itself. */
  deletePaymentInXero(paymentId: string): void;
  /** The invoice voided in Xero itself (Xero refuses it while payments or credit notes are applied). */
  voidInXero(invoiceId: string): void;
  /** The invoice's lines edited in Xero itself (someone changed a price there): Xero's own rules apply. */
  editLinesInXero(invoiceId: string, lines: Array<{ description: string; quantity: string; unitAmount: string }>): void;
  /** A sales credit note raised in Xero itself for `amount` (GST inclusive, at 15%) and allocated in full to the invoice. */
  creditInXero(invoiceId: string, credit: { amount: string; date: string }): FakeCreditNote;
  /** Calls the Accounting API answered for each tenant, by minute (epoch minute), for checking the rate limit was kept. */
  callsByMinute(tenantId: string): Map<number, number>;
  stop(): Promise<void>;
}

// ---- webhooks ---------------------------------------------------------------------------------

/** One event as Xero posts it: what changed, never the new figures. */
export interface FakeWebhookEvent {
  tenantId: string;
  resourceId: string;
  eventCategory?: 'INVOICE' | 'CONTACT' | 'CREDITNOTE';
  eventType?: 'CREATE' | 'UPDATE';
}

/**
 * A webhook delivery as Xero sends it: the JSON body (events, sequence numbers, entropy) and its
 * x-xero-signature, the base64 HMAC-SHA256 of the body's exact bytes with the app's webhook key.
 * No events: the Intent to Receive check. A wrong key makes the forged delivery Xero also sends
 * during that check.
 */
export function xeroWebhookDelivery(webhookKey: string, events: FakeWebhookEvent[], at = new Date()): { body: string; signature: string } {
  const body = JSON.stringify({
    events: events.map((e) => ({
      resourceUrl: `https://api.xero.com/api.xro/2.0/${e.eventCategory === 'CONTACT' ? 'Contacts' : e.eventCategory === 'CREDITNOTE' ? 'CreditNotes' : 'Invoices'}/${e.resourceId}`,
      resourceId: e.resourceId,
      eventDateUtc: at.toISOString(),
      eventType: e.eventType ?? 'UPDATE',
      eventCategory: e.eventCategory ?? 'INVOICE',
      tenantId: e.tenantId,
      tenantType: 'ORGANISATION',
    })),
    firstEventSequence: events.length === 0 ? 0 : 1,
    lastEventSequence: events.length,
    entropy: randomBytes(10).toString('hex').toUpperCase(),
  });
  return { body, signature: createHmac('sha256', webhookKey).update(body, 'utf8').digest('base64') };
}

// ---- helpers --------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const token = (bytes = 32): string => randomBytes(bytes).toString('base64url');
const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const dotnetDate = (ms: number): string => `/Date(${ms}+0000)/`;
const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateMs = (d: string): number => Date.parse(`${d}T00:00:00Z`);

/**
 * A number received from a client, as exact decimal text. Request bodies are parsed keeping the
 * digits of the money and quantity fields (AMOUNT_FIELDS) as they were written.
 */
function decimalText(v: unknown): string | null {
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return v.trim();
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return null;
}
const AMOUNT_FIELDS = new Set(['Quantity', 'UnitAmount', 'LineAmount', 'TaxAmount', 'Amount']);
type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const keepDigits: Reviver = (key, value, context) => (typeof value === 'number' && AMOUNT_FIELDS.has(key) && typeof context?.source === 'string' ? context.source : value);

/** Rates in percent, as Xero's TaxRates list them (EffectiveRate). */
const TAX_RATES: Record<string, { rate: string; name: string; sales: boolean }> = {
  OUTPUT2: { rate: '15', name: '15% GST on Income', sales: true },
  INPUT2: { rate: '15', name: '15% GST on Expenses', sales: false },
  NONE: { rate: '0', name: 'No GST', sales: true },
  ZERORATED: { rate: '0', name: 'Zero Rated', sales: true },
  GSTONIMPORTS: { rate: '0', name: 'GST on Imports', sales: false },
};

const ACCOUNTS = [
  { AccountID: randomUUID(), Code: '090', Name: 'Business Bank Account', Type: 'BANK', TaxType: 'NONE', EnablePaymentsToAccount: false },
  { AccountID: randomUUID(), Code: '200', Name: 'Sales', Type: 'REVENUE', TaxType: 'OUTPUT2', EnablePaymentsToAccount: false },
  { AccountID: randomUUID(), Code: '260', Name: 'Other Revenue', Type: 'REVENUE', TaxType: 'OUTPUT2', EnablePaymentsToAccount: false },
  // The expense side of Xero's standard New Zealand chart of accounts.
  ...(
    [
      ['300', 'Purchases', 'DIRECTCOSTS'], ['310', 'Cost of Goods Sold', 'DIRECTCOSTS'], ['400', 'Advertising', 'EXPENSE'], ['404', 'Bank Fees', 'EXPENSE'],
      ['408', 'Cleaning', 'EXPENSE'], ['412', 'Consulting & Accounting', 'EXPENSE'], ['420', 'Entertainment', 'EXPENSE'], ['425', 'Freight & Courier', 'EXPENSE'],
      ['429', 'General Expenses', 'EXPENSE'], ['433', 'Insurance', 'EXPENSE'], ['441', 'Legal expenses', 'EXPENSE'], ['445', 'Light, Power, Heating', 'EXPENSE'],
      ['449', 'Motor Vehicle Expenses', 'EXPENSE'], ['453', 'Office Expenses', 'EXPENSE'], ['461', 'Printing & Stationery', 'EXPENSE'], ['469', 'Rent', 'EXPENSE'],
      ['473', 'Repairs and Maintenance', 'EXPENSE'], ['485', 'Subscriptions', 'EXPENSE'], ['489', 'Telephone & Internet', 'EXPENSE'], ['493', 'Travel - National', 'EXPENSE'],
    ] as const
  ).map(([Code, Name, Type]) => ({ AccountID: randomUUID(), Code, Name, Type, TaxType: 'INPUT2', EnablePaymentsToAccount: false })),
];

class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(`HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

const oauthError = (error: string, status = 400) => new HttpError(status, { error });
const validationException = (elements: unknown[], message = 'A validation exception occurred') =>
  new HttpError(400, { ErrorNumber: 10, Type: 'ValidationException', Message: message, Elements: elements });
const notFound = () => new HttpError(404, { Title: 'Not Found', Status: 404, Detail: 'The resource you have specified cannot be found' });

/** `where` as the app uses it: `A=="x"`, joined by && or AND. Values compared as text. */
function whereFilter(where: string): (row: Json) => boolean {
  const clauses = where
    .split(/\s*&&\s*|\s+AND\s+/i)
    .filter((c) => c.trim() !== '')
    .map((c) => {
      const m = /^\s*([A-Za-z.]+)\s*==\s*(?:"((?:[^"\\]|\\.)*)"|Guid\("([^"]*)"\)|([\w.-]+))\s*$/.exec(c);
      if (!m || !m[1]) throw validationException([], `fake-xero does not understand the where clause '${c}'`);
      const path = m[1].split('.');
      const value = (m[2] ?? m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1');
      return { path, value };
    });
  return (row) =>
    clauses.every(({ path, value }) => {
      let v: unknown = row;
      for (const p of path) v = isObject(v) ? v[p] : undefined;
      return String(v ?? '').toLowerCase() === value.toLowerCase();
    });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// ---- the server -----------------------------------------------------------------------------

interface Grant {
  id: string;
  clientId: string;
  authEventId: string;
  scope: string;
  connections: Array<{ id: string; tenantId: string; tenantName: string; createdDateUtc: string }>;
  revoked: boolean;
}

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scope: string;
  challenge: string | null;
  expiresAt: number;
  used: boolean;
}

interface RefreshRecord {
  grantId: string;
  issuedAt: number;
  usedAt: number | null;
  replacement: Json | null;
}

interface Rule {
  method: string | null;
  path: string;
  prefix: boolean;
}

function parseRule(spec: string): Rule {
  const m = /^(GET|PUT|POST|DELETE)\s+(.*)$/i.exec(spec.trim());
  const method = m?.[1]?.toUpperCase() ?? null;
  let path = (m?.[2] ?? spec).trim();
  const prefix = path.endsWith('*');
  if (prefix) path = path.slice(0, -1);
  return { method, path: path.toLowerCase(), prefix };
}

const ruleMatches = (r: Rule, method: string, route: string): boolean =>
  (r.method === null || r.method === method) && (r.prefix ? route.toLowerCase().startsWith(r.path) : route.toLowerCase() === r.path);

export async function startFakeXero(options: FakeXeroOptions = {}): Promise<FakeXero> {
  const clientId = options.clientId ?? 'fake-xero-client-id';
  const clientSecret = options.clientSecret ?? 'fake-xero-client-secret';
  const now = () => (options.now ? options.now() : new Date()).getTime();
  const accessSeconds = options.accessTokenSeconds ?? 1800;
  const graceMs = (options.refreshGraceSeconds ?? 0) * 1000;
  const tenants = (options.tenants ?? [{ tenantName: 'Demo Company (NZ)' }]).map((t) => ({ tenantId: t.tenantId ?? randomUUID(), tenantName: t.tenantName }));

  const state: FakeXeroState = { invoices: [], creditNotes: [], contacts: [], payments: [], attachments: [], tokensIssued: [], refreshTokenUses: [], revoked: [], requests: [] };
  const grants = new Map<string, Grant>();
  const codes = new Map<string, CodeRecord>();
  const accessTokens = new Map<string, { grantId: string; expiresAt: number }>();
  const refreshTokens = new Map<string, RefreshRecord>();
  const idempotency = new Map<string, { fingerprint: string; at: number; status: number; body: unknown }>();
  const minuteCounts = new Map<string, number>();
  const failures: Array<Rule & { status: number; headers: Record<string, string>; body: unknown }> = [];
  const drops: Rule[] = [];
  const holds: Array<Rule & { released: Promise<void>; release: () => void }> = [];
  let deny: string | null = null;
  /** computeOwnTax(true): TaxAmount sent on a line is ignored and Xero's own per-line tax is used. */
  let ownTax = false;

  // ---- OAuth -------------------------------------------------------------------------------

  function issueTokens(grant: Grant, grantType: TokenIssue['grantType']): Json {
    const t = now();
    const jwt = [
      b64url({ alg: 'RS256', kid: 'fake', typ: 'JWT' }),
      b64url({
        nbf: Math.floor(t / 1000),
        exp: Math.floor(t / 1000) + accessSeconds,
        iss: 'https://identity.xero.com',
        aud: 'https://identity.xero.com/resources',
        client_id: grant.clientId,
        sub: 'fake-user',
        authentication_event_id: grant.authEventId,
        jti: randomUUID(),
        scope: grant.scope.split(' '),
      }),
      token(32),
    ].join('.');
    accessTokens.set(jwt, { grantId: grant.id, expiresAt: t + accessSeconds * 1000 });
    const offline = grant.scope.split(' ').includes('offline_access');
    const refreshToken = offline ? token(32) : null;
    if (refreshToken) refreshTokens.set(refreshToken, { grantId: grant.id, issuedAt: t, usedAt: null, replacement: null });
    state.tokensIssued.push({ grantType, accessToken: jwt, refreshToken, at: new Date(t) });
    const body: Json = { access_token: jwt, expires_in: accessSeconds, token_type: 'Bearer', scope: grant.scope };
    if (refreshToken) body['refresh_token'] = refreshToken;
    return body;
  }

  function redirectAllowed(uri: string): boolean {
    if (options.redirectUris) return options.redirectUris.includes(uri);
    return /^https?:\/\//.test(uri);
  }

  function authorize(query: URLSearchParams, res: ServerResponse): number {
    const page = (status: number, text: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Xero</title><p>${text}</p>`);
      return status;
    };
    const redirectUri = query.get('redirect_uri') ?? '';
    // Xero shows its own error page, not a redirect, when it cannot trust the redirect URI.
    if (query.get('client_id') !== clientId) return page(400, 'unauthorized_client: Invalid client_id');
    if (!redirectAllowed(redirectUri)) return page(400, 'invalid_request: Invalid redirect_uri');
    const back = new URL(redirectUri);
    const state = query.get('state');
    const redirect = (params: Record<string, string>) => {
      for (const [k, v] of Object.entries(params)) back.searchParams.set(k, v);
      if (state !== null) back.searchParams.set('state', state);
      res.writeHead(302, { Location: back.toString() }).end();
      return 302;
    };
    if (query.get('response_type') !== 'code') return redirect({ error: 'unsupported_response_type' });
    const scope = (query.get('scope') ?? '').trim();
    if (scope === '') return redirect({ error: 'invalid_scope' });
    const challenge = query.get('code_challenge');
    if (challenge !== null && query.get('code_challenge_method') !== 'S256') return redirect({ error: 'invalid_request' });
    if (deny !== null) {
      const error = deny;
      deny = null;
      return redirect({ error });
    }
    const code = token(24);
    codes.set(code, { clientId, redirectUri, scope, challenge, expiresAt: now() + 5 * 60_000, used: false });
    return redirect({ code, scope });
  }

  function clientAuth(req: IncomingMessage, form: URLSearchParams): 'confidential' | 'public' {
    const header = req.headers.authorization ?? '';
    if (header.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      if (id !== clientId || secret !== clientSecret) throw oauthError('invalid_client', 401);
      return 'confidential';
    }
    // A PKCE app sends client_id in the body and no secret.
    if (form.get('client_id') === clientId) return 'public';
    throw oauthError('invalid_client', 401);
  }

  function tokenEndpoint(req: IncomingMessage, body: string): Json {
    const form = new URLSearchParams(body);
    const kind = clientAuth(req, form);
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.used || code.expiresAt < now() || code.redirectUri !== form.get('redirect_uri')) throw oauthError('invalid_grant');
      const verifier = form.get('code_verifier');
      if (code.challenge !== null) {
        if (!verifier || createHash('sha256').update(verifier, 'ascii').digest('base64url') !== code.challenge) throw oauthError('invalid_grant');
      } else if (kind === 'public') throw oauthError('invalid_grant');
      code.used = true;
      const grant: Grant = {
        id: randomUUID(),
        clientId,
        authEventId: randomUUID(),
        scope: code.scope,
        connections: tenants.map((t) => ({ id: randomUUID(), tenantId: t.tenantId, tenantName: t.tenantName, createdDateUtc: new Date(now()).toISOString() })),
        revoked: false,
      };
      grants.set(grant.id, grant);
      return issueTokens(grant, 'authorization_code');
    }
    if (grantType === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const record = refreshTokens.get(presented);
      const use = (outcome: RefreshTokenUse['outcome']) => state.refreshTokenUses.push({ refreshToken: presented, outcome, at: new Date(now()) });
      const grant = record ? grants.get(record.grantId) : undefined;
      if (!record || !grant) {
        use('unknown');
        throw oauthError('invalid_grant');
      }
      if (grant.revoked) {
        use('revoked');
        throw oauthError('invalid_grant');
      }
      if (record.usedAt !== null) {
        if (record.replacement && now() - record.usedAt < graceMs) {
          use('grace-replay');
          return record.replacement;
        }
        use('reused');
        throw oauthError('invalid_grant');
      }
      if (now() - record.issuedAt > 60 * 24 * 3600_000) {
        use('expired');
        throw oauthError('invalid_grant');
      }
      record.usedAt = now();
      record.replacement = issueTokens(grant, 'refresh_token');
      use('rotated');
      return record.replacement;
    }
    throw oauthError('unsupported_grant_type');
  }

  function revoke(req: IncomingMessage, body: string): void {
    const form = new URLSearchParams(body);
    clientAuth(req, form);
    const presented = form.get('token') ?? '';
    const record = refreshTokens.get(presented);
    const grant = record ? grants.get(record.grantId) : undefined;
    if (grant) {
      grant.revoked = true;
      grant.connections = [];
      state.revoked.push(presented);
    }
  }

  function bearer(req: IncomingMessage): Grant {
    const header = req.headers.authorization ?? '';
    const unauthorized = (detail: string) =>
      new HttpError(401, { Type: null, Title: 'Unauthorized', Status: 401, Detail: detail, Instance: randomUUID(), Extensions: {} }, { 'WWW-Authenticate': `Bearer error="invalid_token"` });
    if (!header.startsWith('Bearer ')) throw unauthorized('AuthenticationUnsuccessful');
    const record = accessTokens.get(header.slice(7));
    const grant = record ? grants.get(record.grantId) : undefined;
    if (!record || !grant || grant.revoked) throw unauthorized('AuthenticationUnsuccessful');
    if (record.expiresAt <= now()) throw unauthorized('TokenExpired');
    return grant;
  }

  // ---- Accounting API -------------------------------------------------------------------------

  const forbidden = () => new HttpError(403, { Type: null, Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful', Instance: randomUUID(), Extensions: {} });

  function contactJson(c: FakeContact): Json {
    return { ContactID: c.ContactID, ContactStatus: c.ContactStatus, Name: c.Name, EmailAddress: c.EmailAddress, Phones: c.Phones, UpdatedDateUTC: dotnetDate(now()) };
  }

  /** What credit notes' allocations credited to an invoice. */
  const creditedCents = (inv: FakeInvoice): bigint =>
    state.creditNotes.reduce((a, n) => a + n.allocations.filter((x) => x.InvoiceID === inv.InvoiceID).reduce((b, x) => b + x.amountCents, 0n), 0n);
  /** AmountDue: the total less what was paid and credited. */
  const dueOf = (inv: FakeInvoice): bigint => (inv.Status === 'VOIDED' || inv.Status === 'DELETED' ? 0n : inv.totalCents - inv.paidCents - creditedCents(inv));

  function invoiceJson(inv: FakeInvoice): Json {
    const contact = state.contacts.find((c) => c.ContactID === inv.ContactID);
    const dueCents = dueOf(inv);
    return {
      Type: inv.Type,
      InvoiceID: inv.InvoiceID,
      InvoiceNumber: inv.InvoiceNumber,
      Reference: inv.Reference,
      Status: inv.Status,
      LineAmountTypes: inv.LineAmountTypes,
      Contact: { ContactID: inv.ContactID, Name: contact?.Name ?? '', EmailAddress: contact?.EmailAddress ?? '' },
      DateString: `${inv.Date}T00:00:00`,
      Date: dotnetDate(dateMs(inv.Date)),
      ...(inv.DueDate ? { DueDateString: `${inv.DueDate}T00:00:00`, DueDate: dotnetDate(dateMs(inv.DueDate)) } : {}),
      LineItems: inv.LineItems.map((l) => ({
        LineItemID: l.LineItemID,
        Description: l.Description,
        Quantity: Number(l.Quantity),
        UnitAmount: Number(l.UnitAmount),
        TaxType: l.TaxType,
        TaxAmount: centsToNumber(l.taxCents),
        LineAmount: centsToNumber(l.lineAmountCents),
        AccountCode: l.AccountCode,
        ValidationErrors: [],
      })),
      SubTotal: centsToNumber(inv.subTotalCents),
      TotalTax: centsToNumber(inv.totalTaxCents),
      Total: centsToNumber(inv.totalCents),
      AmountDue: centsToNumber(dueCents),
      AmountPaid: centsToNumber(inv.paidCents),
      AmountCredited: centsToNumber(creditedCents(inv)),
      CurrencyCode: inv.CurrencyCode,
      SentToContact: inv.SentToContact,
      Payments: state.payments.filter((p) => p.InvoiceID === inv.InvoiceID && p.Status !== 'DELETED').map((p) => ({ PaymentID: p.PaymentID, Date: dotnetDate(dateMs(p.Date)), Amount: centsToNumber(p.amountCents), Reference: p.Reference })),
      // Xero's Invoice.CreditNotes: each credit note applied to the invoice, with the AppliedAmount of it here.
      CreditNotes: state.creditNotes.flatMap((n) =>
        n.allocations.filter((a) => a.InvoiceID === inv.InvoiceID).map((a) => ({ CreditNoteID: n.CreditNoteID, CreditNoteNumber: n.CreditNoteNumber, ID: a.AllocationID, AppliedAmount: centsToNumber(a.amountCents), Date: dotnetDate(dateMs(a.Date)), DateString: `${a.Date}T00:00:00`, Total: centsToNumber(n.totalCents) })),
      ),
      UpdatedDateUTC: dotnetDate(inv.updatedMs ?? now()),
      HasErrors: false,
    };
  }

  const envelope = (key: string, items: unknown[]): Json => ({ Id: randomUUID(), Status: 'OK', ProviderName: 'Fake Xero', DateTimeUTC: dotnetDate(now()), [key]: items });

  function findOrCreateContactByName(tenantId: string, name: string, email: string): FakeContact {
    const existing = state.contacts.find((c) => c.tenantId === tenantId && c.ContactStatus === 'ACTIVE' && c.Name.toLowerCase() === name.toLowerCase());
    if (existing) return existing;
    const c: FakeContact = { tenantId, ContactID: randomUUID(), Name: name, EmailAddress: email, ContactStatus: 'ACTIVE', Phones: [] };
    state.contacts.push(c);
    return c;
  }

  function nextInvoiceNumber(tenantId: string): string {
    const taken = new Set(state.invoices.filter((i) => i.tenantId === tenantId && i.Type === 'ACCREC').map((i) => i.InvoiceNumber));
    for (let n = 1; ; n++) {
      const candidate = `INV-${String(n).padStart(4, '0')}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  /** The line items of an invoice element (Xero's per-line checks, messages into `errors`), their tax worked out as Xero would. */
  function parseLineItems(el: Json, type: 'ACCREC' | 'ACCPAY', lat: FakeInvoice['LineAmountTypes'], unitdp: number, errors: string[]): FakeLineItem[] {
    const lineEls = Array.isArray(el['LineItems']) ? el['LineItems'] : [];
    if (lineEls.length === 0) errors.push('At least one line item is required');
    const lines: FakeLineItem[] = [];
    for (const raw of lineEls) {
      const l = isObject(raw) ? raw : {};
      const description = str(l['Description']);
      if (description.trim() === '') errors.push('Description must be specified.');
      const qty = decimalText(l['Quantity'] ?? 1);
      const unit = decimalText(l['UnitAmount'] ?? 0);
      if (qty === null) errors.push('Quantity must be a number');
      if (unit === null) errors.push('UnitAmount must be a number');
      if (qty !== null && decimalPlaces(qty) > 4) errors.push('Quantity can have at most 4 decimal places');
      // Xero rounds a unit price past 2 dp unless asked for unitdp=4; the fake refuses instead, so a missing unitdp shows.
      if (unit !== null && decimalPlaces(unit) > unitdp) errors.push(`fake-xero: UnitAmount ${unit} has more than ${unitdp} decimal places (send unitdp=4)`);
      const taxType = str(l['TaxType']) || 'OUTPUT2';
      const rate = TAX_RATES[taxType];
      if (!rate || (type === 'ACCREC' && !rate.sales)) errors.push(`The TaxType code '${taxType}' does not exist or cannot be used for this type of transaction.`);
      const accountCode = str(l['AccountCode']);
      const account = ACCOUNTS.find((a) => a.Code === accountCode);
      if (!account || (type === 'ACCREC' && account.Type !== 'REVENUE')) errors.push(`Account code '${accountCode}' is not a valid code for this document.`);
      if (qty === null || unit === null || !rate) continue;
      const computed = lineAmountCents(qty, unit);
      // A LineAmount sent with Quantity and UnitAmount must be their product (the fake is strict
      // about it, so a mapping that sends something else shows).
      const givenAmount = l['LineAmount'] === undefined ? null : decimalText(l['LineAmount']);
      if (l['LineAmount'] !== undefined && (givenAmount === null || toCentsExact(givenAmount) !== computed)) {
        errors.push(`fake-xero: LineAmount ${String(givenAmount ?? l['LineAmount'])} is not Quantity × UnitAmount (${centsToNumber(computed)})`);
        continue;
      }
      const rateText = lat === 'NoTax' ? '0' : rate.rate;
      const givenTax = l['TaxAmount'] === undefined ? null : decimalText(l['TaxAmount']);
      if (l['TaxAmount'] !== undefined && (givenTax === null || toCentsExact(givenTax) === null)) {
        errors.push('TaxAmount must be a number with at most 2 decimal places');
        continue;
      }
      const taxCents = lat === 'NoTax' ? 0n : givenTax !== null && !ownTax ? toCentsExact(givenTax)! : lineTaxCents(computed, rateText, lat === 'Inclusive');
      lines.push({ LineItemID: randomUUID(), Description: description, Quantity: qty, UnitAmount: unit, TaxType: taxType, AccountCode: accountCode, lineAmountCents: computed, taxCents });
    }
    return lines;
  }

  /** Validates one element and builds the invoice; errors are Xero's per-element messages. */
  function buildInvoice(tenantId: string, el: Json, unitdp: number, app: string): { invoice: FakeInvoice | null; errors: string[] } {
    const errors: string[] = [];
    const type = el['Type'];
    if (type !== 'ACCREC' && type !== 'ACCPAY') errors.push('Invoice Type must be specified');
    const contactEl = el['Contact'];
    let contactId = '';
    let contactByName: { name: string; email: string } | null = null;
    if (isObject(contactEl) && str(contactEl['ContactID'])) {
      const c = state.contacts.find((x) => x.tenantId === tenantId && x.ContactID === contactEl['ContactID']);
      if (!c) errors.push('The contact with the specified contact_id does not exist.');
      else contactId = c.ContactID;
    } else if (isObject(contactEl) && str(contactEl['Name']).trim()) {
      contactByName = { name: str(contactEl['Name']).trim(), email: str(contactEl['EmailAddress']) };
    } else errors.push('A Contact must be specified for this type of transaction');
    const lat = el['LineAmountTypes'] ?? 'Exclusive';
    if (lat !== 'Exclusive' && lat !== 'Inclusive' && lat !== 'NoTax') errors.push(`'${String(lat)}' is not a valid LineAmountTypes value`);
    const date = str(el['Date']) || new Date(now()).toISOString().slice(0, 10);
    if (!LOCAL_DATE.test(date)) errors.push('Date is not a valid date');
    const due = el['DueDate'] === undefined ? null : str(el['DueDate']);
    if (due !== null && !LOCAL_DATE.test(due)) errors.push('DueDate is not a valid date');
    const status = el['Status'] ?? 'DRAFT';
    if (status !== 'DRAFT' && status !== 'SUBMITTED' && status !== 'AUTHORISED') errors.push(`Invoices cannot be created with a status of ${String(status)}`);
    const currency = str(el['CurrencyCode']) || 'NZD';
    if (currency !== 'NZD') errors.push(`The currency ${currency} is not enabled for this organisation`);
    let number = str(el['InvoiceNumber']).trim();
    if (type === 'ACCREC') {
      if (number && state.invoices.some((i) => i.tenantId === tenantId && i.Type === 'ACCREC' && i.Status !== 'DELETED' && i.InvoiceNumber.toLowerCase() === number.toLowerCase())) errors.push('Invoice # must be unique.');
      if (!number) number = nextInvoiceNumber(tenantId);
    }
    const lines = parseLineItems(el, type === 'ACCPAY' ? 'ACCPAY' : 'ACCREC', lat === 'Inclusive' ? 'Inclusive' : lat === 'NoTax' ? 'NoTax' : 'Exclusive', unitdp, errors);
    if (errors.length > 0) return { invoice: null, errors };
    // Contact by name: Xero links the active contact of that name, or creates one.
    if (contactByName) contactId = findOrCreateContactByName(tenantId, contactByName.name, contactByName.email).ContactID;
    const totalTaxCents = lines.reduce((a, l) => a + l.taxCents, 0n);
    const amounts = lines.reduce((a, l) => a + l.lineAmountCents, 0n);
    const subTotalCents = lat === 'Inclusive' ? amounts - totalTaxCents : amounts;
    const invoice: FakeInvoice = {
      tenantId,
      InvoiceID: randomUUID(),
      InvoiceNumber: number,
      Reference: type === 'ACCREC' ? str(el['Reference']) : '',
      Type: type === 'ACCPAY' ? 'ACCPAY' : 'ACCREC',
      Status: status === 'AUTHORISED' ? 'AUTHORISED' : status === 'SUBMITTED' ? 'SUBMITTED' : 'DRAFT',
      LineAmountTypes: lat === 'Inclusive' ? 'Inclusive' : lat === 'NoTax' ? 'NoTax' : 'Exclusive',
      ContactID: contactId,
      Date: date,
      DueDate: due,
      SentToContact: status === 'AUTHORISED' && el['SentToContact'] === true,
      CurrencyCode: currency,
      LineItems: lines,
      subTotalCents,
      totalTaxCents,
      totalCents: subTotalCents + totalTaxCents,
      paidCents: 0n,
      updatedMs: now(),
      createdByApp: app,
      requestBody: JSON.stringify(el),
    };
    return { invoice, errors: [] };
  }

  /** New lines on an invoice, its totals worked out from them as Xero does. */
  function setLines(inv: FakeInvoice, lines: FakeLineItem[], lat: FakeInvoice['LineAmountTypes']): void {
    const totalTaxCents = lines.reduce((a, l) => a + l.taxCents, 0n);
    const amounts = lines.reduce((a, l) => a + l.lineAmountCents, 0n);
    inv.LineItems = lines;
    inv.LineAmountTypes = lat;
    inv.subTotalCents = lat === 'Inclusive' ? amounts - totalTaxCents : amounts;
    inv.totalTaxCents = totalTaxCents;
    inv.totalCents = inv.subTotalCents + totalTaxCents;
    inv.updatedMs = now();
  }

  const TRANSITIONS: Record<FakeInvoice['Status'], Array<FakeInvoice['Status']>> = {
    DRAFT: ['DRAFT', 'SUBMITTED', 'AUTHORISED', 'DELETED'],
    SUBMITTED: ['SUBMITTED', 'AUTHORISED', 'DRAFT', 'DELETED'],
    AUTHORISED: ['AUTHORISED', 'VOIDED'],
    PAID: [],
    VOIDED: [],
    DELETED: [],
  };

  function updateInvoice(inv: FakeInvoice, el: Json, unitdp = 2): string[] {
    const target = (el['Status'] ?? inv.Status) as FakeInvoice['Status'];
    if (!TRANSITIONS[inv.Status].includes(target)) return [`This document cannot be edited as it has a status of ${inv.Status}.`];
    if (target === 'VOIDED' && (inv.paidCents > 0n || creditedCents(inv) > 0n)) return ['Invoice not of valid status for modification. This document has payments applied to it.'];
    if (el['LineItems'] !== undefined) {
      // Xero lets an approved invoice's lines change only while no money is applied to it.
      if (inv.paidCents > 0n || creditedCents(inv) > 0n) return ['Invoice not of valid status for modification. This document has payments applied to it.'];
      const lat = el['LineAmountTypes'] ?? inv.LineAmountTypes;
      if (lat !== 'Exclusive' && lat !== 'Inclusive' && lat !== 'NoTax') return [`'${String(lat)}' is not a valid LineAmountTypes value`];
      const errors: string[] = [];
      const lines = parseLineItems(el, inv.Type, lat, unitdp, errors);
      if (errors.length > 0) return errors;
      setLines(inv, lines, lat);
    }
    // The other fields of an approved document may change with its lines (no money applied).
    for (const key of ['Date', 'DueDate', 'Reference'] as const) {
      const v = el[key];
      if (typeof v === 'string' && v !== '') {
        if (inv.paidCents > 0n || creditedCents(inv) > 0n) return ['Invoice not of valid status for modification. This document has payments applied to it.'];
        inv[key] = v;
      }
    }
    const contactId = isObject(el['Contact']) ? str(el['Contact']['ContactID']) : '';
    if (contactId !== '' && contactId !== inv.ContactID) {
      if (!state.contacts.some((c) => c.tenantId === inv.tenantId && c.ContactID === contactId)) return ['The contact could not be found.'];
      inv.ContactID = contactId;
    }
    if (inv.Status !== target) inv.updatedMs = now();
    inv.Status = target;
    if (el['SentToContact'] !== undefined) {
      if (inv.Status !== 'AUTHORISED' && el['SentToContact'] === true) return ['SentToContact can only be set on an approved invoice.'];
      inv.SentToContact = el['SentToContact'] === true;
    }
    return [];
  }

  function invoicesWrite(tenantId: string, method: string, id: string | null, query: URLSearchParams, body: unknown, app: string): { status: number; body: unknown } {
    const elements = isObject(body) && Array.isArray(body['Invoices']) ? body['Invoices'] : isObject(body) && id ? [body] : [];
    if (elements.length === 0) throw validationException([], 'fake-xero: expected {"Invoices": [...]}');
    const summarize = query.get('summarizeErrors') !== 'false';
    const unitdp = query.get('unitdp') === '4' ? 4 : 2;
    const results: Array<{ invoice: FakeInvoice | null; errors: string[]; element: Json }> = [];
    for (const raw of elements) {
      const el = isObject(raw) ? raw : {};
      const targetId = id ?? (str(el['InvoiceID']) || null);
      if (targetId !== null) {
        if (method === 'PUT') {
          results.push({ invoice: null, errors: ['PUT creates invoices; use POST to update one.'], element: el });
          continue;
        }
        const inv = state.invoices.find((i) => i.tenantId === tenantId && (i.InvoiceID === targetId || i.InvoiceNumber === targetId));
        if (!inv) throw notFound();
        results.push({ invoice: inv, errors: [], element: el });
        continue;
      }
      const built = buildInvoice(tenantId, el, unitdp, app);
      results.push({ ...built, element: el });
    }
    const failed = results.some((r) => r.errors.length > 0);
    if (failed && summarize) throw validationException(results.filter((r) => r.errors.length > 0).map((r) => ({ ...r.element, ValidationErrors: r.errors.map((Message) => ({ Message })) })));
    const out: unknown[] = [];
    for (const r of results) {
      if (r.errors.length > 0) {
        out.push({ ...r.element, HasErrors: true, StatusAttributeString: 'ERROR', ValidationErrors: r.errors.map((Message) => ({ Message })) });
        continue;
      }
      if (!r.invoice) continue;
      if (state.invoices.includes(r.invoice)) {
        const errors = updateInvoice(r.invoice, r.element, unitdp);
        if (errors.length > 0) {
          if (summarize) throw validationException([{ ...r.element, ValidationErrors: errors.map((Message) => ({ Message })) }]);
          out.push({ ...r.element, HasErrors: true, StatusAttributeString: 'ERROR', ValidationErrors: errors.map((Message) => ({ Message })) });
          continue;
        }
      } else state.invoices.push(r.invoice);
      out.push({ ...invoiceJson(r.invoice), StatusAttributeString: 'OK' });
    }
    return { status: 200, body: envelope('Invoices', out) };
  }

  function invoicesRead(tenantId: string, app: string, id: string | null, query: URLSearchParams, modifiedSince: string | null = null): unknown {
    let mine = state.invoices.filter((i) => i.tenantId === tenantId);
    if (modifiedSince !== null && id === null) {
      // Xero's If-Modified-Since: a UTC date and time without a zone; only what changed after it, oldest change first.
      const since = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(modifiedSince) ? modifiedSince : `${modifiedSince}Z`);
      if (Number.isNaN(since)) throw new HttpError(400, { Title: 'Bad Request', Detail: 'If-Modified-Since is not a date' });
      mine = mine.filter((i) => (i.updatedMs ?? now()) > since).sort((a, b) => (a.updatedMs ?? 0) - (b.updatedMs ?? 0));
    }
    if (id !== null) {
      const inv = mine.find((i) => i.InvoiceID === id || i.InvoiceNumber === id);
      if (!inv) throw notFound();
      return envelope('Invoices', [invoiceJson(inv)]);
    }
    let rows = mine.map((i) => ({ inv: i, json: invoiceJson(i) }));
    const list = (name: string) => (query.get(name) ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (list('IDs').length) rows = rows.filter((r) => list('IDs').includes(r.inv.InvoiceID));
    if (list('InvoiceNumbers').length) rows = rows.filter((r) => list('InvoiceNumbers').includes(r.inv.InvoiceNumber));
    if (list('ContactIDs').length) rows = rows.filter((r) => list('ContactIDs').includes(r.inv.ContactID));
    if (list('Statuses').length) rows = rows.filter((r) => list('Statuses').includes(r.inv.Status));
    if (query.get('createdByMyApp') === 'true') rows = rows.filter((r) => r.inv.createdByApp === app);
    const where = query.get('where');
    if (where) {
      const keep = whereFilter(where);
      rows = rows.filter((r) => keep(r.json));
    }
    const term = (query.get('searchTerm') ?? '').toLowerCase();
    if (term) rows = rows.filter((r) => r.inv.InvoiceNumber.toLowerCase().includes(term) || r.inv.Reference.toLowerCase().includes(term));
    const page = Number(query.get('page') ?? '0');
    if (page >= 1) {
      const size = Math.min(Number(query.get('pageSize') ?? '100') || 100, 1000);
      const itemCount = rows.length;
      rows = rows.slice((page - 1) * size, page * size);
      return { ...envelope('Invoices', rows.map((r) => r.json)), pagination: { page, pageSize: size, pageCount: Math.ceil(itemCount / size), itemCount } };
    }
    return envelope('Invoices', rows.map((r) => r.json));
  }

  function contactsRead(tenantId: string, id: string | null, query: URLSearchParams): unknown {
    let rows = state.contacts.filter((c) => c.tenantId === tenantId);
    if (id !== null) {
      const c = rows.find((x) => x.ContactID === id);
      if (!c) throw notFound();
      return envelope('Contacts', [contactJson(c)]);
    }
    if (query.get('includeArchived') !== 'true') rows = rows.filter((c) => c.ContactStatus === 'ACTIVE');
    const ids = (query.get('IDs') ?? '').split(',').filter((s) => s !== '');
    if (ids.length) rows = rows.filter((c) => ids.includes(c.ContactID));
    const where = query.get('where');
    if (where) {
      const keep = whereFilter(where);
      rows = rows.filter((c) => keep(contactJson(c)));
    }
    const term = (query.get('searchTerm') ?? '').toLowerCase();
    if (term) rows = rows.filter((c) => c.Name.toLowerCase().includes(term) || c.EmailAddress.toLowerCase().includes(term));
    return envelope('Contacts', rows.map(contactJson));
  }

  function contactsWrite(tenantId: string, method: string, id: string | null, body: unknown): unknown {
    const elements = isObject(body) && Array.isArray(body['Contacts']) ? body['Contacts'] : [];
    if (elements.length === 0) throw validationException([], 'fake-xero: expected {"Contacts": [...]}');
    const out: FakeContact[] = [];
    const failed: unknown[] = [];
    for (const raw of elements) {
      const el = isObject(raw) ? raw : {};
      const targetId = id ?? (str(el['ContactID']) || null);
      const name = str(el['Name']).trim();
      const existing = targetId === null ? undefined : state.contacts.find((c) => c.tenantId === tenantId && c.ContactID === targetId);
      if (targetId !== null && (method === 'PUT' || !existing)) throw notFound();
      const clash = name !== '' && state.contacts.some((c) => c.tenantId === tenantId && c.ContactStatus === 'ACTIVE' && c !== existing && c.Name.toLowerCase() === name.toLowerCase());
      const errors = [
        ...(existing === undefined && name === '' ? ['The contact name must be specified.'] : []),
        ...(clash ? [`The contact name ${name} is already assigned to another contact. The contact name must be unique across all active contacts.`] : []),
      ];
      if (errors.length > 0) {
        failed.push({ ...el, ValidationErrors: errors.map((Message) => ({ Message })) });
        continue;
      }
      const phones = Array.isArray(el['Phones']) ? el['Phones'].filter(isObject).map((p) => ({ PhoneType: str(p['PhoneType']) || 'DEFAULT', PhoneNumber: str(p['PhoneNumber']) })) : [];
      if (existing) {
        if (name) existing.Name = name;
        if (el['EmailAddress'] !== undefined) existing.EmailAddress = str(el['EmailAddress']);
        if (phones.length) existing.Phones = phones;
        out.push(existing);
      } else {
        const c: FakeContact = { tenantId, ContactID: randomUUID(), Name: name, EmailAddress: str(el['EmailAddress']), ContactStatus: 'ACTIVE', Phones: phones };
        state.contacts.push(c);
        out.push(c);
      }
    }
    if (failed.length > 0) throw validationException(failed);
    return envelope('Contacts', out.map(contactJson));
  }

  function paymentsWrite(tenantId: string, body: unknown): unknown {
    const elements = isObject(body) && Array.isArray(body['Payments']) ? body['Payments'] : isObject(body) ? [body] : [];
    const out: unknown[] = [];
    for (const raw of elements) {
      const el = isObject(raw) ? raw : {};
      if (isObject(el['CreditNote'])) {
        out.push(creditNoteRefund(tenantId, el, el['CreditNote']));
        continue;
      }
      const invEl = isObject(el['Invoice']) ? el['Invoice'] : {};
      const invId = str(invEl['InvoiceID']);
      const invNumber = str(invEl['InvoiceNumber']) || str(el['InvoiceNumber']);
      const inv = state.invoices.find((i) => i.tenantId === tenantId && ((invId && i.InvoiceID === invId) || (invNumber && i.InvoiceNumber === invNumber)));
      const accEl = isObject(el['Account']) ? el['Account'] : {};
      const account = ACCOUNTS.find((a) => (str(accEl['Code']) && a.Code === accEl['Code']) || (str(accEl['AccountID']) && a.AccountID === accEl['AccountID']));
      const amount = decimalText(el['Amount']);
      const date = str(el['Date']);
      const errors: string[] = [];
      if (!inv) errors.push('Invoice could not be found');
      else if (inv.Status !== 'AUTHORISED') errors.push('Payment cannot be applied to an invoice that is not approved (AUTHORISED).');
      if (!account) errors.push('Account code or AccountID must be specified and must be a valid account');
      else if (account.Type !== 'BANK' && !account.EnablePaymentsToAccount) errors.push('Account type is invalid for making a payment to/from');
      if (!LOCAL_DATE.test(date)) errors.push('Date is not a valid date');
      let cents = 0n;
      const exact = amount === null ? null : toCentsExact(amount);
      if (exact === null) errors.push('Amount must be a number with at most 2 decimal places');
      else cents = exact;
      if (amount !== null && cents <= 0n) errors.push('Payment amount must be greater than zero');
      if (inv && cents > dueOf(inv)) errors.push('Payment amount exceeds the amount outstanding on this document');
      if (errors.length > 0 || !inv || !account) throw validationException([{ ...el, ValidationErrors: errors.map((Message) => ({ Message })) }]);
      const p: FakePayment = { tenantId, PaymentID: randomUUID(), InvoiceID: inv.InvoiceID, AccountCode: account.Code, Date: date, amountCents: cents, Reference: str(el['Reference']), Status: 'AUTHORISED' };
      state.payments.push(p);
      inv.paidCents += cents;
      inv.updatedMs = now();
      if (dueOf(inv) === 0n) inv.Status = 'PAID';
      out.push(paymentJson(p));
    }
    return envelope('Payments', out);
  }

  /** A cash refund of a sales credit note's credit: {"CreditNote": {"CreditNoteID"}, "Account", "Date", "Amount", "Reference"}. */
  function creditNoteRefund(tenantId: string, el: Record<string, unknown>, noteEl: Record<string, unknown>): Json {
    const id = str(noteEl['CreditNoteID']);
    const number = str(noteEl['CreditNoteNumber']);
    const n = state.creditNotes.find((x) => x.tenantId === tenantId && ((id && x.CreditNoteID === id) || (number && x.CreditNoteNumber === number)));
    const accEl = isObject(el['Account']) ? el['Account'] : {};
    const account = ACCOUNTS.find((a) => (str(accEl['Code']) && a.Code === accEl['Code']) || (str(accEl['AccountID']) && a.AccountID === accEl['AccountID']));
    const amount = decimalText(el['Amount']);
    const cents = amount === null ? null : toCentsExact(amount);
    const date = str(el['Date']);
    const errors: string[] = [];
    if (!n) errors.push('Credit Note could not be found');
    else if (n.Type !== 'ACCRECCREDIT') errors.push('Only a sales credit note (ACCRECCREDIT) can be refunded to a customer.');
    else if (n.Status !== 'AUTHORISED') errors.push('Payment cannot be applied to a credit note that is not approved (AUTHORISED).');
    if (!account) errors.push('Account code or AccountID must be specified and must be a valid account');
    else if (account.Type !== 'BANK' && !account.EnablePaymentsToAccount) errors.push('Account type is invalid for making a payment to/from');
    if (!LOCAL_DATE.test(date)) errors.push('Date is not a valid date');
    if (cents === null) errors.push('Amount must be a number with at most 2 decimal places');
    else if (cents <= 0n) errors.push('Payment amount must be greater than zero');
    else if (n && cents > remainingCredit(n)) errors.push('Payment amount exceeds the amount outstanding on this document');
    if (errors.length > 0 || !n || !account || cents === null) throw validationException([{ ...el, ValidationErrors: errors.map((Message) => ({ Message })) }]);
    const p: FakePayment = { tenantId, PaymentID: randomUUID(), InvoiceID: '', CreditNoteID: n.CreditNoteID, AccountCode: account.Code, Date: date, amountCents: cents, Reference: str(el['Reference']), Status: 'AUTHORISED' };
    state.payments.push(p);
    if (remainingCredit(n) === 0n) n.Status = 'PAID';
    return paymentJson(p);
  }

  function paymentJson(p: FakePayment): Json {
    const inv = state.invoices.find((i) => i.InvoiceID === p.InvoiceID);
    const note = p.CreditNoteID === undefined ? undefined : state.creditNotes.find((n) => n.CreditNoteID === p.CreditNoteID);
    const account = ACCOUNTS.find((a) => a.Code === p.AccountCode);
    return {
      PaymentID: p.PaymentID,
      Date: dotnetDate(dateMs(p.Date)),
      Amount: centsToNumber(p.amountCents),
      Reference: p.Reference,
      Status: p.Status,
      PaymentType: note ? 'ARCREDITPAYMENT' : 'ACCRECPAYMENT',
      Account: { AccountID: account?.AccountID ?? '', Code: p.AccountCode },
      ...(note ? { CreditNote: { CreditNoteID: note.CreditNoteID, CreditNoteNumber: note.CreditNoteNumber, Status: note.Status, RemainingCredit: centsToNumber(remainingCredit(note)) } } : { Invoice: inv ? invoiceJson(inv) : {} }),
      HasValidationErrors: false,
    };
  }

  function paymentById(tenantId: string, id: string): FakePayment {
    const p = state.payments.find((x) => x.tenantId === tenantId && x.PaymentID === id);
    if (!p) throw notFound();
    return p;
  }

  /** POST /Payments/{id} {"Status":"DELETED"}: the payment stops counting; a PAID invoice is AUTHORISED again. */
  function paymentDelete(tenantId: string, id: string, body: unknown): unknown {
    const p = paymentById(tenantId, id);
    const el = isObject(body) && Array.isArray(body['Payments']) ? body['Payments'][0] : body;
    if (!isObject(el) || el['Status'] !== 'DELETED') throw validationException([], 'fake-xero: a payment can only be changed to {"Status":"DELETED"}');
    if (p.Status === 'DELETED') throw validationException([{ PaymentID: id, ValidationErrors: [{ Message: 'This payment has already been deleted.' }] }]);
    const inv = state.invoices.find((i) => i.InvoiceID === p.InvoiceID);
    if (inv?.Status === 'VOIDED') throw validationException([{ PaymentID: id, ValidationErrors: [{ Message: 'Payments on a voided invoice cannot be deleted.' }] }]);
    p.Status = 'DELETED';
    const note = p.CreditNoteID === undefined ? undefined : state.creditNotes.find((n) => n.CreditNoteID === p.CreditNoteID);
    if (note?.Status === 'PAID' && remainingCredit(note) > 0n) note.Status = 'AUTHORISED';
    if (inv) {
      inv.paidCents -= p.amountCents;
      inv.updatedMs = now();
      if (inv.Status === 'PAID') inv.Status = 'AUTHORISED';
    }
    return envelope('Payments', [paymentJson(p)]);
  }

  // ---- credit notes -------------------------------------------------------------------------

  /** The credit left: the total less what was allocated to invoices and refunded in cash. */
  const remainingCredit = (n: FakeCreditNote): bigint =>
    n.Status === 'VOIDED' || n.Status === 'DELETED'
      ? 0n
      : n.totalCents -
        n.allocations.reduce((a, x) => a + x.amountCents, 0n) -
        state.payments.filter((p) => p.CreditNoteID === n.CreditNoteID && p.Status !== 'DELETED').reduce((a, p) => a + p.amountCents, 0n);

  function creditNoteJson(n: FakeCreditNote): Json {
    const contact = state.contacts.find((c) => c.ContactID === n.ContactID);
    return {
      Type: n.Type,
      CreditNoteID: n.CreditNoteID,
      CreditNoteNumber: n.CreditNoteNumber,
      Reference: n.Reference,
      Status: n.Status,
      LineAmountTypes: n.LineAmountTypes,
      Contact: { ContactID: n.ContactID, Name: contact?.Name ?? '' },
      DateString: `${n.Date}T00:00:00`,
      Date: dotnetDate(dateMs(n.Date)),
      LineItems: n.LineItems.map((l) => ({
        LineItemID: l.LineItemID, Description: l.Description, Quantity: Number(l.Quantity), UnitAmount: Number(l.UnitAmount), TaxType: l.TaxType,
        TaxAmount: centsToNumber(l.taxCents), LineAmount: centsToNumber(l.lineAmountCents), AccountCode: l.AccountCode,
      })),
      SubTotal: centsToNumber(n.subTotalCents),
      TotalTax: centsToNumber(n.totalTaxCents),
      Total: centsToNumber(n.totalCents),
      RemainingCredit: centsToNumber(remainingCredit(n)),
      Allocations: n.allocations.map((x) => ({ AllocationID: x.AllocationID, Amount: centsToNumber(x.amountCents), Date: dotnetDate(dateMs(x.Date)), Invoice: { InvoiceID: x.InvoiceID } })),
      Payments: state.payments.filter((p) => p.CreditNoteID === n.CreditNoteID && p.Status !== 'DELETED').map((p) => ({ PaymentID: p.PaymentID, Date: dotnetDate(dateMs(p.Date)), Amount: centsToNumber(p.amountCents), Reference: p.Reference })),
      CurrencyCode: 'NZD',
      UpdatedDateUTC: dotnetDate(now()),
      HasErrors: false,
    };
  }

  function creditNoteById(tenantId: string, id: string): FakeCreditNote {
    const n = state.creditNotes.find((x) => x.tenantId === tenantId && (x.CreditNoteID === id || x.CreditNoteNumber === id));
    if (!n) throw notFound();
    return n;
  }

  function nextCreditNoteNumber(tenantId: string): string {
    const taken = new Set(state.creditNotes.filter((n) => n.tenantId === tenantId).map((n) => n.CreditNoteNumber));
    for (let i = 1; ; i++) {
      const candidate = `CN-${String(i).padStart(4, '0')}`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  /** PUT /CreditNotes: line items as on an invoice (the same checks), Type ACCRECCREDIT or ACCPAYCREDIT. */
  function creditNotesWrite(tenantId: string, query: URLSearchParams, body: unknown, app: string): unknown {
    const elements = isObject(body) && Array.isArray(body['CreditNotes']) ? body['CreditNotes'] : [];
    if (elements.length === 0) throw validationException([], 'fake-xero: expected {"CreditNotes": [...]}');
    const unitdp = query.get('unitdp') === '4' ? 4 : 2;
    const out: unknown[] = [];
    for (const raw of elements) {
      const el = isObject(raw) ? raw : {};
      const type = el['Type'];
      const errors: string[] = [];
      if (type !== 'ACCRECCREDIT' && type !== 'ACCPAYCREDIT') errors.push('CreditNote Type must be specified');
      let number = str(el['CreditNoteNumber']).trim();
      if (number && state.creditNotes.some((n) => n.tenantId === tenantId && n.Status !== 'DELETED' && n.CreditNoteNumber.toLowerCase() === number.toLowerCase())) errors.push('Credit Note # must be unique.');
      if (!number) number = nextCreditNoteNumber(tenantId);
      // The lines, contact, dates and status are checked as an invoice's are.
      const { InvoiceNumber: _n, ...rest } = el;
      const built = buildInvoice(tenantId, { ...rest, Type: type === 'ACCPAYCREDIT' ? 'ACCPAY' : 'ACCREC' }, unitdp, app);
      errors.push(...built.errors.map((m) => m.replace('Invoices cannot', 'Credit notes cannot')));
      if (errors.length > 0 || !built.invoice) throw validationException([{ ...el, ValidationErrors: errors.map((Message) => ({ Message })) }]);
      const inv = built.invoice;
      const n: FakeCreditNote = {
        tenantId, CreditNoteID: randomUUID(), CreditNoteNumber: number, Reference: str(el['Reference']), Type: type === 'ACCPAYCREDIT' ? 'ACCPAYCREDIT' : 'ACCRECCREDIT',
        Status: inv.Status === 'PAID' || inv.Status === 'VOIDED' || inv.Status === 'DELETED' ? 'DRAFT' : inv.Status, LineAmountTypes: inv.LineAmountTypes, ContactID: inv.ContactID, Date: inv.Date,
        LineItems: inv.LineItems, subTotalCents: inv.subTotalCents, totalTaxCents: inv.totalTaxCents, totalCents: inv.totalCents, allocations: [], createdByApp: app, requestBody: JSON.stringify(el),
      };
      state.creditNotes.push(n);
      out.push({ ...creditNoteJson(n), StatusAttributeString: 'OK' });
    }
    return envelope('CreditNotes', out);
  }

  /** GET /CreditNotes: `where` (as for invoices) and createdByMyApp. */
  function creditNotesRead(tenantId: string, app: string, query: URLSearchParams): unknown {
    let rows = state.creditNotes.filter((n) => n.tenantId === tenantId).map((n) => ({ n, json: creditNoteJson(n) }));
    if (query.get('createdByMyApp') === 'true') rows = rows.filter((r) => r.n.createdByApp === app);
    const where = query.get('where');
    if (where) {
      const keep = whereFilter(where);
      rows = rows.filter((r) => keep(r.json));
    }
    return envelope('CreditNotes', rows.map((r) => r.json));
  }

  /**
   * POST /CreditNotes/{id}: its Status (AUTHORISED → VOIDED), and its lines, date and contact while
   * approved with nothing allocated or refunded, as Xero allows.
   */
  function creditNoteUpdate(tenantId: string, id: string, body: unknown): unknown {
    const n = creditNoteById(tenantId, id);
    const el = isObject(body) && Array.isArray(body['CreditNotes']) && isObject(body['CreditNotes'][0]) ? body['CreditNotes'][0] : isObject(body) ? body : {};
    const used = n.allocations.length > 0 || state.payments.some((p) => p.CreditNoteID === n.CreditNoteID && p.Status !== 'DELETED');
    const refuse = (message: string) => validationException([{ ...el, ValidationErrors: [{ Message: message }] }]);
    if (n.Status === 'VOIDED' || n.Status === 'DELETED') throw refuse(`This document cannot be edited as it has a status of ${n.Status}.`);
    if (el['LineItems'] !== undefined || el['Date'] !== undefined || el['Contact'] !== undefined) {
      if (used) throw refuse('This credit note has been allocated or refunded, so it cannot be changed.');
      const built = buildInvoice(tenantId, { Type: n.Type === 'ACCPAYCREDIT' ? 'ACCPAY' : 'ACCREC', Contact: el['Contact'] ?? { ContactID: n.ContactID }, Date: el['Date'] ?? n.Date, LineAmountTypes: el['LineAmountTypes'] ?? n.LineAmountTypes, LineItems: el['LineItems'] ?? [], Status: 'AUTHORISED' }, 2, n.createdByApp ?? '');
      if (built.errors.length > 0 || !built.invoice) throw validationException([{ ...el, ValidationErrors: built.errors.map((Message) => ({ Message })) }]);
      Object.assign(n, { LineItems: built.invoice.LineItems, LineAmountTypes: built.invoice.LineAmountTypes, ContactID: built.invoice.ContactID, Date: built.invoice.Date, subTotalCents: built.invoice.subTotalCents, totalTaxCents: built.invoice.totalTaxCents, totalCents: built.invoice.totalCents });
    }
    if (el['Status'] === 'VOIDED') {
      if (used) throw refuse('This credit note has been allocated or refunded, so it cannot be voided.');
      n.Status = 'VOIDED';
    }
    return envelope('CreditNotes', [creditNoteJson(n)]);
  }

  /** PUT /CreditNotes/{id}/Allocations: {"Allocations": [{"Amount", "Invoice": {"InvoiceID"}, "Date"}]}. */
  function allocationsWrite(tenantId: string, id: string, body: unknown): unknown {
    const n = creditNoteById(tenantId, id);
    const elements = isObject(body) && Array.isArray(body['Allocations']) ? body['Allocations'] : [];
    if (elements.length === 0) throw validationException([], 'fake-xero: expected {"Allocations": [...]}');
    const out: unknown[] = [];
    for (const raw of elements) {
      const el = isObject(raw) ? raw : {};
      const invEl = isObject(el['Invoice']) ? el['Invoice'] : {};
      const inv = state.invoices.find((i) => i.tenantId === tenantId && i.InvoiceID === str(invEl['InvoiceID']));
      const amount = decimalText(el['Amount']);
      const cents = amount === null ? null : toCentsExact(amount);
      const date = str(el['Date']) || n.Date;
      const errors: string[] = [];
      if (n.Status !== 'AUTHORISED') errors.push('Credit Note must be AUTHORISED to be allocated.');
      if (!inv) errors.push('Invoice could not be found');
      else {
        if (inv.Status !== 'AUTHORISED') errors.push('Invoice must be AUTHORISED to allocate a credit note to it.');
        if (inv.ContactID !== n.ContactID) errors.push('The credit note and the invoice must be for the same contact.');
        if ((inv.Type === 'ACCREC') !== (n.Type === 'ACCRECCREDIT')) errors.push('The credit note type does not match the invoice type.');
      }
      if (cents === null || cents <= 0n) errors.push('Amount must be a positive number with at most 2 decimal places');
      else {
        if (cents > remainingCredit(n)) errors.push('The amount being allocated is more than the remaining credit on this credit note.');
        if (inv && cents > dueOf(inv)) errors.push('The amount being allocated is more than the amount due on the invoice.');
      }
      if (!LOCAL_DATE.test(date)) errors.push('Date is not a valid date');
      if (errors.length > 0 || !inv || cents === null) throw validationException([{ ...el, ValidationErrors: errors.map((Message) => ({ Message })) }]);
      const allocation: FakeAllocation = { AllocationID: randomUUID(), InvoiceID: inv.InvoiceID, amountCents: cents, Date: date };
      n.allocations.push(allocation);
      inv.updatedMs = now();
      if (dueOf(inv) === 0n) inv.Status = 'PAID';
      if (remainingCredit(n) === 0n) n.Status = 'PAID';
      out.push({ AllocationID: allocation.AllocationID, Amount: centsToNumber(cents), Date: dotnetDate(dateMs(date)), Invoice: invoiceJson(inv), CreditNote: { CreditNoteID: n.CreditNoteID, CreditNoteNumber: n.CreditNoteNumber } });
    }
    return envelope('Allocations', out);
  }

  /** The minute limit is counted before anything else, as Xero does (a replay counts too). Answers the rate headers. */
  function countCall(tenantId: string): Record<string, string> {
    const minute = `${tenantId}:${Math.floor(now() / 60_000)}`;
    const count = (minuteCounts.get(minute) ?? 0) + 1;
    minuteCounts.set(minute, count);
    const limit = options.minuteLimit ?? Infinity;
    const rateHeaders = { 'X-MinLimit-Remaining': String(Math.max(0, Math.min(60, limit) - count)), 'X-DayLimit-Remaining': '4999', 'X-AppMinLimit-Remaining': '9999' };
    if (count > limit) throw new HttpError(429, '', { 'Retry-After': String(60 - Math.floor((now() % 60_000) / 1000)), 'X-Rate-Limit-Problem': 'minute' });
    return rateHeaders;
  }

  /**
   * PUT or POST /Invoices/{InvoiceID}/Attachments/{FileName}: the raw bytes as the body, their type
   * as Content-Type; a second upload of the same name replaces the first. GET lists them. Needs the
   * accounting.attachments scope (granular scopes), as Xero does; 25 MB a file, 10 a document.
   */
  function attachments(req: IncomingMessage, route: string, bytes: Buffer, grant: Grant): { status: number; body: unknown } {
    const tenantId = str(req.headers['xero-tenant-id']);
    if (!grant.connections.some((c) => c.tenantId === tenantId)) throw forbidden();
    if (!grant.scope.split(' ').includes('accounting.attachments')) throw forbidden();
    countCall(tenantId);
    const m = ATTACHMENT_ROUTE.exec(route)!;
    const kind = m[1]!.toLowerCase() === 'creditnotes' ? 'CreditNotes' : 'Invoices';
    const invoiceId = decodeURIComponent(m[2]!);
    const exists = kind === 'Invoices' ? state.invoices.some((i) => i.tenantId === tenantId && i.InvoiceID === invoiceId) : state.creditNotes.some((n) => n.tenantId === tenantId && n.CreditNoteID === invoiceId);
    if (!exists) throw notFound();
    const json = (a: FakeAttachment) => ({ AttachmentID: a.AttachmentID, FileName: a.FileName, Url: `https://api.xero.com/api.xro/2.0/${kind}/${invoiceId}/Attachments/${encodeURIComponent(a.FileName)}`, MimeType: a.MimeType, ContentLength: a.bytes.length });
    const method = req.method ?? 'GET';
    if (method === 'GET' && m[3] === undefined) return { status: 200, body: envelope('Attachments', state.attachments.filter((a) => a.tenantId === tenantId && a.invoiceId === invoiceId).map(json)) };
    if ((method !== 'PUT' && method !== 'POST') || m[3] === undefined) throw notFound();
    const fileName = decodeURIComponent(m[3]);
    const mimeType = str(req.headers['content-type']).split(';')[0]!.trim();
    const refuse = (message: string) => validationException([{ ValidationErrors: [{ Message: message }] }]);
    if (bytes.length === 0) throw refuse('The attachment is empty.');
    if (bytes.length > FAKE_XERO_ATTACHMENT_MAX_BYTES) throw new HttpError(413, { Title: 'Request Entity Too Large', Status: 413, Detail: 'The attachment is larger than 25 MB' });
    if (mimeType === '' || mimeType === 'application/json') throw refuse('The attachment must be sent with its content type.');
    const same = state.attachments.find((a) => a.tenantId === tenantId && a.invoiceId === invoiceId && a.FileName.toLowerCase() === fileName.toLowerCase());
    if (same) {
      same.bytes = Buffer.from(bytes);
      same.MimeType = mimeType;
      return { status: 200, body: envelope('Attachments', [json(same)]) };
    }
    if (state.attachments.filter((a) => a.tenantId === tenantId && a.invoiceId === invoiceId).length >= FAKE_XERO_ATTACHMENTS_PER_DOCUMENT) throw refuse('A document can have at most 10 attachments.');
    const made: FakeAttachment = { tenantId, invoiceId, AttachmentID: randomUUID(), FileName: fileName, MimeType: mimeType, bytes: Buffer.from(bytes) };
    state.attachments.push(made);
    return { status: 200, body: envelope('Attachments', [json(made)]) };
  }

  function accounting(req: IncomingMessage, route: string, query: URLSearchParams, raw: string, grant: Grant): { status: number; body: unknown; headers?: Record<string, string> } {
    const tenantId = str(req.headers['xero-tenant-id']);
    if (!grant.connections.some((c) => c.tenantId === tenantId)) throw forbidden();
    const accept = str(req.headers.accept);
    if (!accept.includes('application/json')) throw new HttpError(406, { Title: 'Not Acceptable', Detail: 'fake-xero answers JSON only: send Accept: application/json (real Xero answers XML)' });
    const rateHeaders = countCall(tenantId);
    const m = /^\/api\.xro\/2\.0\/([A-Za-z]+)(?:\/([^/]+))?(?:\/([A-Za-z]+))?\/?$/.exec(route);
    if (!m || !m[1]) throw notFound();
    const resource = m[1].toLowerCase();
    const id = m[2] ? decodeURIComponent(m[2]) : null;
    const sub = m[3] ? m[3].toLowerCase() : null;
    if (sub !== null && !(resource === 'creditnotes' && sub === 'allocations')) throw notFound();
    const method = req.method ?? 'GET';
    let body: unknown = null;
    if (method === 'PUT' || method === 'POST') {
      try {
        body = raw.trim() === '' ? null : (JSON.parse(raw, keepDigits as Parameters<typeof JSON.parse>[1]) as unknown);
      } catch {
        throw new HttpError(400, { Title: 'Bad Request', Detail: 'The request body is not valid JSON' });
      }
    }
    const run = (): { status: number; body: unknown } => {
      if (resource === 'creditnotes' && sub === 'allocations' && id !== null && method === 'PUT') return { status: 200, body: allocationsWrite(tenantId, id, body) };
      if (resource === 'creditnotes' && sub === null && method === 'GET' && id !== null) return { status: 200, body: envelope('CreditNotes', [creditNoteJson(creditNoteById(tenantId, id))]) };
      if (resource === 'creditnotes' && sub === null && method === 'GET' && id === null) return { status: 200, body: creditNotesRead(tenantId, grant.clientId, query) };
      if (resource === 'creditnotes' && sub === null && method === 'POST' && id !== null) return { status: 200, body: creditNoteUpdate(tenantId, id, body) };
      if (resource === 'creditnotes' && sub === null && method === 'PUT' && id === null) return { status: 200, body: creditNotesWrite(tenantId, query, body, grant.clientId) };
      if (resource === 'invoices') return method === 'GET' ? { status: 200, body: invoicesRead(tenantId, grant.clientId, id, query, str(req.headers['if-modified-since']) || null) } : invoicesWrite(tenantId, method, id, query, body, grant.clientId);
      if (resource === 'contacts') return { status: 200, body: method === 'GET' ? contactsRead(tenantId, id, query) : contactsWrite(tenantId, method, id, body) };
      if (resource === 'payments' && method === 'POST' && id !== null) return { status: 200, body: paymentDelete(tenantId, id, body) };
      if (resource === 'payments' && method === 'GET' && id !== null) return { status: 200, body: envelope('Payments', [paymentJson(paymentById(tenantId, id))]) };
      if (resource === 'payments' && (method === 'PUT' || method === 'POST')) return { status: 200, body: paymentsWrite(tenantId, body) };
      if (resource === 'accounts' && method === 'GET') return { status: 200, body: envelope('Accounts', ACCOUNTS.map((a) => ({ ...a, Status: 'ACTIVE' }))) };
      if (resource === 'taxrates' && method === 'GET')
        return { status: 200, body: envelope('TaxRates', Object.entries(TAX_RATES).map(([TaxType, r]) => ({ Name: r.name, TaxType, Status: 'ACTIVE', EffectiveRate: Number(r.rate) * 100, DisplayTaxRate: Number(r.rate) * 100 }))) };
      if (resource === 'organisation' && method === 'GET') {
        const t = tenants.find((x) => x.tenantId === tenantId);
        return { status: 200, body: envelope('Organisations', [{ OrganisationID: tenantId, Name: t?.tenantName ?? '', BaseCurrency: 'NZD', CountryCode: 'NZ', OrganisationType: 'COMPANY' }]) };
      }
      throw notFound();
    };
    const key = req.headers['idempotency-key'];
    if ((method === 'PUT' || method === 'POST') && typeof key === 'string') {
      if (key.length > 128) throw new HttpError(400, { Title: 'Bad Request', Detail: 'Idempotency-Key must be at most 128 characters' });
      const fingerprint = `${method} ${route}?${query.toString()}\n${raw}`;
      const slot = `${tenantId}:${key}`;
      const seen = idempotency.get(slot);
      if (seen && now() - seen.at < 6 * 60_000) {
        if (seen.fingerprint !== fingerprint) throw new HttpError(400, { Title: 'Bad Request', Detail: 'The Idempotency-Key has already been used with a different request' });
        return { status: seen.status, body: seen.body, headers: rateHeaders };
      }
      try {
        const result = run();
        idempotency.set(slot, { fingerprint, at: now(), ...result });
        return { ...result, headers: rateHeaders };
      } catch (e) {
        if (e instanceof HttpError && e.status < 500) idempotency.set(slot, { fingerprint, at: now(), status: e.status, body: e.body });
        throw e;
      }
    }
    return { ...run(), headers: rateHeaders };
  }

  // ---- routing ----------------------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const record: RecordedRequest = { method, url: req.url ?? '/', headers: { ...req.headers }, body: raw, status: null };
    state.requests.push(record);
    const path = url.pathname;
    const [host, route] = path.startsWith('/login/') ? ['login', path.slice(6)] : path.startsWith('/identity/') ? ['identity', path.slice(9)] : path.startsWith('/api/') ? ['api', path.slice(4)] : ['none', path];

    // What failNext/dropNextResponse/hold match: the path after its host's prefix, and for the
    // Accounting API after /api.xro/2.0 too ('/Invoices', '/connect/token', '/connections').
    const short = host === 'api' && route.startsWith('/api.xro/2.0/') ? route.slice('/api.xro/2.0'.length) : route;
    const hold = holds.find((h) => ruleMatches(h, method, short));
    if (hold) await hold.released;

    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { ...(typeof body === 'string' ? { 'Content-Type': 'text/plain' } : { 'Content-Type': 'application/json; charset=utf-8' }), ...headers }).end(text);
    };

    const failIndex = failures.findIndex((f) => ruleMatches(f, method, short));
    if (failIndex >= 0) {
      const [f] = failures.splice(failIndex, 1);
      if (f) {
        const defaults: Record<string, string> = f.status === 429 ? { 'X-Rate-Limit-Problem': 'minute' } : f.status === 401 ? { 'WWW-Authenticate': 'Bearer error="invalid_token"' } : {};
        const body = f.body !== undefined ? f.body : f.status === 401 ? { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' } : f.status === 429 ? '' : { Title: 'Fake failure', Status: f.status };
        send(f.status, body, { ...defaults, ...f.headers });
        return;
      }
    }

    let result: { status: number; body: unknown; headers?: Record<string, string> };
    try {
      if (host === 'login' && method === 'GET' && route === '/identity/connect/authorize') {
        record.status = authorize(url.searchParams, res);
        return;
      }
      if (host === 'identity' && method === 'POST' && route === '/connect/token') result = { status: 200, body: tokenEndpoint(req, raw), headers: { 'Cache-Control': 'no-store' } };
      else if (host === 'identity' && method === 'POST' && route === '/connect/revocation') {
        revoke(req, raw);
        result = { status: 200, body: '' };
      } else if (host === 'api' && route === '/connections' && method === 'GET') {
        const grant = bearer(req);
        const authEventId = url.searchParams.get('authEventId');
        const list = authEventId && authEventId !== grant.authEventId ? [] : grant.connections;
        result = {
          status: 200,
          body: list.map((c) => ({ id: c.id, authEventId: grant.authEventId, tenantId: c.tenantId, tenantType: 'ORGANISATION', tenantName: c.tenantName, createdDateUtc: c.createdDateUtc, updatedDateUtc: c.createdDateUtc })),
        };
      } else if (host === 'api' && method === 'DELETE' && route.startsWith('/connections/')) {
        const grant = bearer(req);
        const id = route.slice('/connections/'.length);
        if (!grant.connections.some((c) => c.id === id)) throw notFound();
        grant.connections = grant.connections.filter((c) => c.id !== id);
        result = { status: 204, body: '' };
      } else if (host === 'api' && ATTACHMENT_ROUTE.test(route)) result = attachments(req, route, bytes, bearer(req));
      else if (host === 'api' && route.startsWith('/api.xro/2.0/')) result = accounting(req, route, url.searchParams, raw, bearer(req));
      else throw new HttpError(404, { Title: 'Not Found', Detail: `fake-xero has no ${method} ${path}` });
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      result = { status: e.status, body: e.body, headers: e.headers };
    }

    const drop = drops.findIndex((d) => ruleMatches(d, method, short));
    if (drop >= 0) {
      drops.splice(drop, 1);
      // Processed, but the answer is lost on the way back.
      req.socket.destroy();
      return;
    }
    if (result.status === 204) {
      record.status = 204;
      res.writeHead(204).end();
      return;
    }
    send(result.status, result.body, result.headers);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Title: 'fake-xero crashed', Detail: String(e) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    loginUrl: `${url}/login/identity/connect/authorize`,
    identityUrl: `${url}/identity`,
    apiUrl: `${url}/api`,
    clientId,
    clientSecret,
    tenants,
    state,
    failNext(path, status, headers = {}, body) {
      failures.push({ ...parseRule(path), status, headers, body });
    },
    dropNextResponse(path) {
      drops.push(parseRule(path));
    },
    hold(path) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const h = { ...parseRule(path), released, release: () => {} };
      h.release = () => {
        const i = holds.indexOf(h);
        if (i >= 0) holds.splice(i, 1);
        release();
      };
      holds.push(h);
      return h.release;
    },
    computeOwnTax(on: boolean) {
      ownTax = on;
    },
    denyNextConsent(error = 'access_denied') {
      deny = error;
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = Math.min(t.expiresAt, now());
    },
    addContact(tenantId, c) {
      const contact: FakeContact = { tenantId, ContactID: randomUUID(), Name: c.name, EmailAddress: c.email ?? '', ContactStatus: c.status ?? 'ACTIVE', Phones: [] };
      state.contacts.push(contact);
      return contact;
    },
    addInvoice(tenantId, i) {
      const contact = findOrCreateContactByName(tenantId, 'Walk-in customer', '');
      const invoice: FakeInvoice = {
        tenantId,
        InvoiceID: randomUUID(),
        InvoiceNumber: i.invoiceNumber ?? nextInvoiceNumber(tenantId),
        Reference: i.reference,
        Type: 'ACCREC',
        Status: i.status ?? 'AUTHORISED',
        LineAmountTypes: 'Exclusive',
        ContactID: contact.ContactID,
        Date: new Date(now()).toISOString().slice(0, 10),
        DueDate: null,
        SentToContact: false,
        CurrencyCode: 'NZD',
        LineItems: [],
        subTotalCents: 0n,
        totalTaxCents: 0n,
        totalCents: 0n,
        paidCents: 0n,
        updatedMs: now(),
        createdByApp: null,
        requestBody: '',
      };
      state.invoices.push(invoice);
      return invoice;
    },
    payInXero(invoiceId, p) {
      const inv = state.invoices.find((i) => i.InvoiceID === invoiceId);
      if (!inv) throw new Error(`fake-xero: no invoice ${invoiceId}`);
      paymentsWrite(inv.tenantId, { Payments: [{ Invoice: { InvoiceID: invoiceId }, Account: { Code: '090' }, Date: p.date, Amount: p.amount, Reference: p.reference ?? '' }] });
      return state.payments[state.payments.length - 1]!;
    },
    voidInXero(invoiceId) {
      const inv = state.invoices.find((i) => i.InvoiceID === invoiceId);
      if (!inv) throw new Error(`fake-xero: no invoice ${invoiceId}`);
      const errors = updateInvoice(inv, { Status: 'VOIDED' });
      if (errors.length > 0) throw new Error(`fake-xero: ${errors.join(' ')}`);
    },
    editLinesInXero(invoiceId, lines) {
      const inv = state.invoices.find((i) => i.InvoiceID === invoiceId);
      if (!inv) throw new Error(`fake-xero: no invoice ${invoiceId}`);
      const accountCode = inv.LineItems[0]?.AccountCode ?? '200';
      const taxType = inv.LineItems[0]?.TaxType ?? 'OUTPUT2';
      const element = { LineItems: lines.map((l) => ({ Description: l.description, Quantity: l.quantity, UnitAmount: l.unitAmount, TaxType: taxType, AccountCode: accountCode })) };
      const errors = updateInvoice(inv, element, 4);
      if (errors.length > 0) throw new Error(`fake-xero: ${errors.join(' ')}`);
    },
    creditInXero(invoiceId, c) {
      const inv = state.invoices.find((i) => i.InvoiceID === invoiceId);
      if (!inv) throw new Error(`fake-xero: no invoice ${invoiceId}`);
      const element = {
        Type: 'ACCRECCREDIT', Contact: { ContactID: inv.ContactID }, Date: c.date, Status: 'AUTHORISED', LineAmountTypes: 'Inclusive',
        LineItems: [{ Description: 'Credit', Quantity: '1', UnitAmount: c.amount, TaxType: 'OUTPUT2', AccountCode: '200' }],
      };
      creditNotesWrite(inv.tenantId, new URLSearchParams(), { CreditNotes: [element] }, 'xero-itself');
      const note = state.creditNotes[state.creditNotes.length - 1]!;
      note.createdByApp = null;
      allocationsWrite(inv.tenantId, note.CreditNoteID, { Allocations: [{ Amount: c.amount, Invoice: { InvoiceID: invoiceId }, Date: c.date }] });
      return note;
    },
    callsByMinute(tenantId) {
      const out = new Map<number, number>();
      for (const [key, count] of minuteCounts) {
        const [t, m] = key.split(':');
        if (t === tenantId) out.set(Number(m), count);
      }
      return out;
    },
    deletePaymentInXero(paymentId) {
      const p = state.payments.find((x) => x.PaymentID === paymentId);
      if (!p) throw new Error(`fake-xero: no payment ${paymentId}`);
      paymentDelete(p.tenantId, paymentId, { Status: 'DELETED' });
    },
    async stop() {
      for (const h of [...holds]) h.release();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
