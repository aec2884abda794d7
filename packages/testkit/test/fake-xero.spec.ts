// The fake Xero's own contract, spoken to with plain fetch (the adapter has its own tests).
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeXero, type FakeXeroOptions, startFakeXero } from '../src/fake-xero.ts';

const REDIRECT = 'http://localhost:3000/cb';
const SCOPE = 'offline_access accounting.invoices accounting.contacts accounting.payments accounting.settings.read';
const VERIFIER = 'a'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

const fakes: FakeXero[] = [];
let clock = new Date('2026-05-04T09:00:00Z');
async function start(opts: FakeXeroOptions = {}): Promise<FakeXero> {
  clock = new Date('2026-05-04T09:00:00Z');
  const f = await startFakeXero({ redirectUris: [REDIRECT], now: () => clock, ...opts });
  fakes.push(f);
  return f;
}
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});

const basic = (f: FakeXero, secret = f.clientSecret) => `Basic ${Buffer.from(`${f.clientId}:${secret}`).toString('base64')}`;

function authorizeUrl(f: FakeXero, over: Record<string, string | null> = {}): string {
  const q = new URLSearchParams();
  const params: Record<string, string | null> = { response_type: 'code', client_id: f.clientId, redirect_uri: REDIRECT, scope: SCOPE, state: 'st', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...over };
  for (const [k, v] of Object.entries(params)) if (v !== null) q.set(k, v);
  return `${f.loginUrl}?${q}`;
}

async function codeFrom(f: FakeXero, over: Record<string, string | null> = {}): Promise<string> {
  const res = await fetch(authorizeUrl(f, over), { redirect: 'manual' });
  return new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

async function token(f: FakeXero, form: Record<string, string>, auth: string | null = basic(f)) {
  const res = await fetch(`${f.identityUrl}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', ...(auth ? { Authorization: auth } : {}) },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function connect(f: FakeXero) {
  const { body } = await token(f, { grant_type: 'authorization_code', code: await codeFrom(f), redirect_uri: REDIRECT, code_verifier: VERIFIER });
  return { access: String(body['access_token']), refresh: String(body['refresh_token']), tenantId: f.tenants[0]?.tenantId ?? '' };
}

async function api(f: FakeXero, access: string, tenantId: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${f.apiUrl}/api.xro/2.0${path}`, {
    method,
    headers: { Authorization: `Bearer ${access}`, 'xero-tenant-id': tenantId, Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { Invoices?: Array<Record<string, unknown>>; Elements?: unknown[] } };
}

describe('authorise', () => {
  it('an unknown client or an unregistered redirect URI gets Xero’s error page, not a redirect', async () => {
    const f = await start();
    expect((await fetch(authorizeUrl(f, { client_id: 'nope' }), { redirect: 'manual' })).status).toBe(400);
    expect((await fetch(authorizeUrl(f, { redirect_uri: 'http://evil.example/cb' }), { redirect: 'manual' })).status).toBe(400);
  });

  it('a plain PKCE method is refused back at the redirect URI', async () => {
    const f = await start();
    const res = await fetch(authorizeUrl(f, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams)).toEqual({ error: 'invalid_request', state: 'st' });
  });
});

describe('token endpoint', () => {
  it('the access token is a JWT naming the consent, living 30 minutes', async () => {
    const f = await start();
    const { access } = await connect(f);
    const payload = JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(payload['exp']).toBe(Date.parse('2026-05-04T09:30:00Z') / 1000);
    expect(payload['authentication_event_id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('no Basic auth and no client_id: invalid_client; a wrong secret too', async () => {
    const f = await start();
    const code = await codeFrom(f);
    expect(await token(f, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, null)).toEqual({ status: 401, body: { error: 'invalid_client' } });
    expect((await token(f, { grant_type: 'refresh_token', refresh_token: 'x' }, basic(f, 'wrong'))).body).toEqual({ error: 'invalid_client' });
  });

  it('a PKCE app (client_id in the body, no secret) must send the verifier', async () => {
    const f = await start();
    const ok = await token(f, { grant_type: 'authorization_code', client_id: f.clientId, code: await codeFrom(f), redirect_uri: REDIRECT, code_verifier: VERIFIER }, null);
    expect(ok.status).toBe(200);
    const noPkce = await codeFrom(f, { code_challenge: null, code_challenge_method: null });
    expect((await token(f, { grant_type: 'authorization_code', client_id: f.clientId, code: noPkce, redirect_uri: REDIRECT }, null)).body).toEqual({ error: 'invalid_grant' });
  });

  it('a code is bound to its redirect URI', async () => {
    const f = await start({ redirectUris: [REDIRECT, 'http://localhost:3000/other'] });
    expect((await token(f, { grant_type: 'authorization_code', code: await codeFrom(f), redirect_uri: 'http://localhost:3000/other', code_verifier: VERIFIER })).body).toEqual({ error: 'invalid_grant' });
  });

  it('without offline_access there is no refresh token', async () => {
    const f = await start();
    const { body } = await token(f, { grant_type: 'authorization_code', code: await codeFrom(f, { scope: 'accounting.invoices' }), redirect_uri: REDIRECT, code_verifier: VERIFIER });
    expect(body['refresh_token']).toBeUndefined();
    expect(body['access_token']).toBeTypeOf('string');
  });

  it('with a grace period a spent refresh token replays the same answer, until the grace ends', async () => {
    const f = await start({ refreshGraceSeconds: 1800 });
    const { refresh } = await connect(f);
    const first = await token(f, { grant_type: 'refresh_token', refresh_token: refresh });
    clock = new Date('2026-05-04T09:29:00Z');
    expect(await token(f, { grant_type: 'refresh_token', refresh_token: refresh })).toEqual(first);
    clock = new Date('2026-05-04T09:31:00Z');
    expect((await token(f, { grant_type: 'refresh_token', refresh_token: refresh })).body).toEqual({ error: 'invalid_grant' });
    expect(f.state.refreshTokenUses.map((u) => u.outcome)).toEqual(['rotated', 'grace-replay', 'reused']);
  });

  it('an unused refresh token expires after 60 days', async () => {
    const f = await start();
    const { refresh } = await connect(f);
    clock = new Date('2026-07-04T09:00:01Z');
    expect((await token(f, { grant_type: 'refresh_token', refresh_token: refresh })).body).toEqual({ error: 'invalid_grant' });
    expect(f.state.refreshTokenUses.map((u) => u.outcome)).toEqual(['expired']);
  });
});

describe('connections and API access', () => {
  it('authEventId filters the list; DELETE disconnects a tenant, whose calls are then 403', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    const list = async (q = '') => (await (await fetch(`${f.apiUrl}/connections${q}`, { headers: { Authorization: `Bearer ${access}` } })).json()) as Array<Record<string, string>>;
    const [conn] = await list();
    expect(conn).toMatchObject({ tenantId, tenantType: 'ORGANISATION', tenantName: 'Demo Company (NZ)' });
    expect(await list(`?authEventId=${conn?.authEventId}`)).toHaveLength(1);
    expect(await list('?authEventId=00000000-0000-0000-0000-000000000000')).toEqual([]);
    expect((await fetch(`${f.apiUrl}/connections/${conn?.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${access}` } })).status).toBe(204);
    const after = await api(f, access, tenantId, 'GET', '/Invoices');
    expect(after).toMatchObject({ status: 403, body: { Title: 'Forbidden', Status: 403, Detail: 'AuthenticationUnsuccessful' } });
  });

  it('401 problem JSON with WWW-Authenticate for a missing or expired token', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    const none = await api(f, '', tenantId, 'GET', '/Invoices');
    expect(none.status).toBe(401);
    clock = new Date('2026-05-04T09:30:00Z');
    const expired = await api(f, access, tenantId, 'GET', '/Invoices');
    expect(expired).toMatchObject({ status: 401, body: { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' } });
    expect(expired.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('without Accept: application/json the fake refuses (Xero would answer XML)', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    expect((await api(f, access, tenantId, 'GET', '/Invoices', undefined, { Accept: '*/*' })).status).toBe(406);
  });
});

describe('invoices', () => {
  async function withContact(f: FakeXero) {
    const c = await connect(f);
    return { ...c, contactId: f.addContact(c.tenantId, { name: 'Aroha Ngata', email: 'aroha@example.nz' }).ContactID };
  }
  const invoice = (contactId: string, over: Record<string, unknown> = {}) => ({
    Type: 'ACCREC',
    Contact: { ContactID: contactId },
    LineItems: [{ Description: 'Fixed-price job', Quantity: 1, UnitAmount: 230, TaxType: 'OUTPUT2', AccountCode: '200' }],
    Date: '2026-05-04',
    DueDate: '2026-05-11',
    Status: 'AUTHORISED',
    ...over,
  });

  it('Inclusive: GST is 3/23 of the price; Exclusive: 15% on top; NoTax: none; dates in Xero’s /Date()/ form', async () => {
    const f = await start();
    const { access, tenantId, contactId } = await withContact(f);
    const totals = async (lat: string) => {
      const { body } = await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId, { LineAmountTypes: lat })] });
      const i = body.Invoices?.[0] ?? {};
      return [i['SubTotal'], i['TotalTax'], i['Total'], i['AmountDue']];
    };
    expect(await totals('Inclusive')).toEqual([200, 30, 230, 230]);
    expect(await totals('Exclusive')).toEqual([230, 34.5, 264.5, 264.5]);
    expect(await totals('NoTax')).toEqual([230, 0, 230, 230]);
    expect(f.state.invoices.map((i) => i.InvoiceNumber)).toEqual(['INV-0001', 'INV-0002', 'INV-0003']);
    const { body } = await api(f, access, tenantId, 'GET', '/Invoices?InvoiceNumbers=INV-0002');
    expect(body.Invoices?.map((i) => [i['InvoiceNumber'], i['Date'], i['DateString']])).toEqual([['INV-0002', `/Date(${Date.parse('2026-05-04T00:00:00Z')}+0000)/`, '2026-05-04T00:00:00']]);
  });

  it('refuses non-NZ or purchase tax codes, unknown accounts, and 4-dp prices without unitdp=4', async () => {
    const f = await start();
    const { access, tenantId, contactId } = await withContact(f);
    const line = (over: Record<string, unknown>) => invoice(contactId, { LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 10, TaxType: 'OUTPUT2', AccountCode: '200', ...over }] });
    const messages = async (body: unknown, q = '') => {
      const r = await api(f, access, tenantId, 'PUT', `/Invoices${q}`, { Invoices: [body] });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ErrorNumber: 10, Type: 'ValidationException', Message: 'A validation exception occurred' });
      return (r.body.Elements as Array<{ ValidationErrors: Array<{ Message: string }> }>).flatMap((e) => e.ValidationErrors.map((v) => v.Message));
    };
    expect(await messages(line({ TaxType: 'ZERORATEDOUTPUT' }))).toEqual(["The TaxType code 'ZERORATEDOUTPUT' does not exist or cannot be used for this type of transaction."]);
    expect(await messages(line({ TaxType: 'INPUT2' }))).toHaveLength(1);
    expect(await messages(line({ AccountCode: '999' }))).toEqual(["Account code '999' is not a valid code for this document."]);
    expect(await messages(line({ UnitAmount: 0.1235 }))).toEqual([expect.stringContaining('unitdp=4')]);
    expect((await api(f, access, tenantId, 'PUT', '/Invoices?unitdp=4', { Invoices: [line({ UnitAmount: 0.1235 })] })).status).toBe(200);
    expect(f.state.invoices).toHaveLength(1);
  });

  it('summarizeErrors=false: 200 with the bad element marked, the good one created', async () => {
    const f = await start();
    const { access, tenantId, contactId } = await withContact(f);
    const r = await api(f, access, tenantId, 'PUT', '/Invoices?summarizeErrors=false', { Invoices: [invoice(contactId), invoice(contactId, { LineItems: [] })] });
    expect(r.status).toBe(200);
    expect(r.body.Invoices?.map((i) => [i['StatusAttributeString'], i['HasErrors']])).toEqual([
      ['OK', false],
      ['ERROR', true],
    ]);
    expect(f.state.invoices).toHaveLength(1);
  });

  it('Idempotency-Key: a different body is refused; after six minutes the key is new again; over 128 characters is refused', async () => {
    const f = await start();
    const { access, tenantId, contactId } = await withContact(f);
    const key = { 'Idempotency-Key': 'k1' };
    const a = await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId)] }, key);
    expect((await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId, { Reference: 'changed' })] }, key)).status).toBe(400);
    clock = new Date('2026-05-04T09:05:59Z');
    const replay = await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId)] }, key);
    expect(replay.body.Invoices?.[0]?.['InvoiceID']).toBe(a.body.Invoices?.[0]?.['InvoiceID']);
    clock = new Date('2026-05-04T09:06:00Z');
    await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId)] }, key);
    expect(f.state.invoices).toHaveLength(2);
    expect((await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId)] }, { 'Idempotency-Key': 'x'.repeat(129) })).status).toBe(400);
  });

  it('a payment needs an approved invoice and a bank account', async () => {
    const f = await start();
    const { access, tenantId, contactId } = await withContact(f);
    const draft = await api(f, access, tenantId, 'PUT', '/Invoices', { Invoices: [invoice(contactId, { Status: 'DRAFT' })] });
    const id = draft.body.Invoices?.[0]?.['InvoiceID'];
    const pay = (code: string) => api(f, access, tenantId, 'PUT', '/Payments', { Payments: [{ Invoice: { InvoiceID: id }, Account: { Code: code }, Date: '2026-05-05', Amount: 10 }] });
    expect((await pay('090')).status).toBe(400);
    await api(f, access, tenantId, 'POST', `/Invoices/${String(id)}`, { Invoices: [{ InvoiceID: id, Status: 'AUTHORISED' }] });
    expect((await pay('200')).status).toBe(400);
    expect((await pay('090')).status).toBe(200);
    expect(f.state.payments).toHaveLength(1);
  });
});

describe('contacts', () => {
  it('where EmailAddress=="…" finds exactly; a duplicate active name is Xero’s validation error', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    await api(f, access, tenantId, 'PUT', '/Contacts', { Contacts: [{ Name: 'Tui Electrical', EmailAddress: 'tui@example.nz' }] });
    const found = await api(f, access, tenantId, 'GET', `/Contacts?where=${encodeURIComponent('EmailAddress=="tui@example.nz"')}`);
    expect((found.body['Contacts'] as unknown[]).length).toBe(1);
    const dup = await api(f, access, tenantId, 'PUT', '/Contacts', { Contacts: [{ Name: 'tui electrical' }] });
    expect(dup.status).toBe(400);
    expect(JSON.stringify(dup.body)).toContain('is already assigned to another contact. The contact name must be unique across all active contacts.');
  });
});

describe('fault injection', () => {
  it('failNext answers once with the given status and headers (429 gets X-Rate-Limit-Problem); a * matches a prefix', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    f.failNext('GET /Invoices*', 429, { 'Retry-After': '9' });
    const limited = await api(f, access, tenantId, 'GET', '/Invoices/abc');
    expect([limited.status, limited.headers.get('retry-after'), limited.headers.get('x-rate-limit-problem')]).toEqual([429, '9', 'minute']);
    expect((await api(f, access, tenantId, 'GET', '/Invoices')).status).toBe(200);
  });

  it('dropNextResponse processes the request and closes the socket unanswered', async () => {
    const f = await start();
    const { access, tenantId } = await connect(f);
    f.dropNextResponse('PUT /Contacts');
    await expect(api(f, access, tenantId, 'PUT', '/Contacts', { Contacts: [{ Name: 'Lost Answer Ltd' }] })).rejects.toThrow();
    expect(f.state.contacts.map((c) => c.Name)).toEqual(['Lost Answer Ltd']);
  });
});

describe('credit notes and allocations', () => {
  // An invoice of 230.00 incl. GST (Exclusive 200 + 30), and a sales credit note of 57.50 incl. (GST 7.50).
  async function setUp(f: FakeXero) {
    const c = await connect(f);
    const contactId = f.addContact(c.tenantId, { name: 'Aroha Ngata' }).ContactID;
    const inv = await api(f, c.access, c.tenantId, 'PUT', '/Invoices', {
      Invoices: [{ Type: 'ACCREC', Contact: { ContactID: contactId }, LineItems: [{ Description: 'Job', Quantity: 1, UnitAmount: 200, TaxType: 'OUTPUT2', AccountCode: '200' }], Date: '2026-05-04', DueDate: '2026-05-11', Status: 'AUTHORISED' }],
    });
    const invoiceId = String(inv.body.Invoices?.[0]?.['InvoiceID']);
    const cn = await api(f, c.access, c.tenantId, 'PUT', '/CreditNotes', {
      CreditNotes: [{ Type: 'ACCRECCREDIT', Contact: { ContactID: contactId }, CreditNoteNumber: 'CN-0001', Reference: 'INV-0001', Date: '2026-07-15', Status: 'AUTHORISED', LineAmountTypes: 'Inclusive', LineItems: [{ Description: 'Part returned', Quantity: 1, UnitAmount: 57.5, LineAmount: 57.5, TaxAmount: 7.5, TaxType: 'OUTPUT2', AccountCode: '200' }] }],
    });
    return { ...c, contactId, invoiceId, cn };
  }
  const allocate = (f: FakeXero, c: { access: string; tenantId: string }, id: string, invoiceId: string, amount: number) =>
    api(f, c.access, c.tenantId, 'PUT', `/CreditNotes/${id}/Allocations`, { Allocations: [{ Amount: amount, Invoice: { InvoiceID: invoiceId }, Date: '2026-07-15' }] });

  it('PUT /CreditNotes answers the credit note with its totals and remaining credit', async () => {
    const f = await start();
    const { cn } = await setUp(f);
    expect(cn.status).toBe(200);
    expect((cn.body as Record<string, Array<Record<string, unknown>>>)['CreditNotes']?.[0]).toMatchObject({
      Type: 'ACCRECCREDIT', CreditNoteNumber: 'CN-0001', Reference: 'INV-0001', Status: 'AUTHORISED', SubTotal: 50, TotalTax: 7.5, Total: 57.5, RemainingCredit: 57.5, Allocations: [],
    });
    expect(f.state.creditNotes).toHaveLength(1);
  });

  it('an allocation lowers the invoice’s amount due and the credit left; never more than either', async () => {
    const f = await start();
    const s = await setUp(f);
    const id = f.state.creditNotes[0]!.CreditNoteID;
    expect((await allocate(f, s, id, s.invoiceId, 57.51)).status).toBe(400);
    const ok = await allocate(f, s, id, s.invoiceId, 57.5);
    expect(ok.status).toBe(200);
    const inv = await api(f, s.access, s.tenantId, 'GET', `/Invoices/${s.invoiceId}`);
    expect(inv.body.Invoices?.[0]).toMatchObject({ AmountCredited: 57.5, AmountDue: 172.5, Status: 'AUTHORISED' });
    expect(f.state.creditNotes[0]).toMatchObject({ Status: 'PAID' });
    expect((await allocate(f, s, id, s.invoiceId, 1)).status).toBe(400);
    // A second credit note of more than is due is refused beyond the due amount.
    const big = await api(f, s.access, s.tenantId, 'PUT', '/CreditNotes', {
      CreditNotes: [{ Type: 'ACCRECCREDIT', Contact: { ContactID: s.contactId }, Date: '2026-07-16', Status: 'AUTHORISED', LineAmountTypes: 'Inclusive', LineItems: [{ Description: 'All', Quantity: 1, UnitAmount: 230, TaxAmount: 30, TaxType: 'OUTPUT2', AccountCode: '200' }] }],
    });
    const bigId = String((big.body as Record<string, Array<Record<string, unknown>>>)['CreditNotes']?.[0]?.['CreditNoteID']);
    expect((big.body as Record<string, Array<Record<string, unknown>>>)['CreditNotes']?.[0]?.['CreditNoteNumber']).toBe('CN-0002');
    expect((await allocate(f, s, bigId, s.invoiceId, 172.51)).status).toBe(400);
    expect((await allocate(f, s, bigId, s.invoiceId, 172.5)).status).toBe(200);
    const paid = await api(f, s.access, s.tenantId, 'GET', `/Invoices/${s.invoiceId}`);
    expect(paid.body.Invoices?.[0]).toMatchObject({ AmountDue: 0, AmountCredited: 230, Status: 'PAID' });
    expect((await api(f, s.access, s.tenantId, 'GET', `/CreditNotes/${bigId}`)).body).toMatchObject({ CreditNotes: [{ RemainingCredit: 57.5, Status: 'AUTHORISED' }] });
  });

  it('a cash refund (PUT /Payments with a CreditNote) takes the credit left, never more; deleting it gives the credit back', async () => {
    const f = await start();
    const s = await setUp(f);
    const id = f.state.creditNotes[0]!.CreditNoteID;
    expect((await allocate(f, s, id, s.invoiceId, 20)).status).toBe(200);
    const refund = (amount: number, account = '090') =>
      api(f, s.access, s.tenantId, 'PUT', '/Payments', { Payments: [{ CreditNote: { CreditNoteID: id }, Account: { Code: account }, Date: '2026-07-20', Amount: amount, Reference: 'Bank transfer' }] });
    // 57.50 less 20.00 allocated leaves 37.50.
    const tooMuch = await refund(37.51);
    expect(tooMuch.status).toBe(400);
    expect(JSON.stringify(tooMuch.body)).toContain('exceeds the amount outstanding');
    expect((await refund(10, '200')).status).toBe(400);
    const part = await refund(30);
    expect(part.status).toBe(200);
    expect((part.body as Record<string, Array<Record<string, unknown>>>)['Payments']?.[0]).toMatchObject({ PaymentType: 'ARCREDITPAYMENT', Amount: 30, CreditNote: { CreditNoteID: id, RemainingCredit: 7.5, Status: 'AUTHORISED' } });
    const rest = await refund(7.5);
    expect(rest.status).toBe(200);
    const note = await api(f, s.access, s.tenantId, 'GET', `/CreditNotes/${id}`);
    expect(note.body).toMatchObject({ CreditNotes: [{ RemainingCredit: 0, Status: 'PAID', Payments: [{ Amount: 30 }, { Amount: 7.5 }] }] });
    // The invoice's own figures are not touched by a refund of the credit note.
    expect((await api(f, s.access, s.tenantId, 'GET', `/Invoices/${s.invoiceId}`)).body.Invoices?.[0]).toMatchObject({ AmountPaid: 0, AmountCredited: 20, AmountDue: 210 });
    const restId = String((rest.body as Record<string, Array<Record<string, unknown>>>)['Payments']?.[0]?.['PaymentID']);
    expect((await api(f, s.access, s.tenantId, 'POST', `/Payments/${restId}`, { Status: 'DELETED' })).status).toBe(200);
    expect((await api(f, s.access, s.tenantId, 'GET', `/CreditNotes/${id}`)).body).toMatchObject({ CreditNotes: [{ RemainingCredit: 7.5, Status: 'AUTHORISED' }] });
  });

  it('a credit note number is unique', async () => {
    const f = await start();
    const s = await setUp(f);
    const again = await api(f, s.access, s.tenantId, 'PUT', '/CreditNotes', {
      CreditNotes: [{ Type: 'ACCRECCREDIT', Contact: { ContactID: s.contactId }, CreditNoteNumber: 'CN-0001', Date: '2026-07-15', Status: 'AUTHORISED', LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 1, TaxType: 'OUTPUT2', AccountCode: '200' }] }],
    });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('Credit Note # must be unique.');
  });
});

describe('bills and attachments', () => {
  const attach = (f: FakeXero, access: string, tenantId: string, invoiceId: string, name: string, bytes: Uint8Array, type = 'application/pdf', method = 'POST') =>
    fetch(`${f.apiUrl}/api.xro/2.0/Invoices/${invoiceId}/Attachments/${encodeURIComponent(name)}`, {
      method,
      headers: { Authorization: `Bearer ${access}`, 'xero-tenant-id': tenantId, Accept: 'application/json', 'Content-Type': type },
      body: bytes,
    });

  it('an ACCPAY keeps its number as the bill reference (Reference is for sales), is found by it, and takes INPUT2 on an expense account', async () => {
    const f = await start();
    const c = await connect(f);
    const contactId = f.addContact(c.tenantId, { name: 'Plumbing World', email: '' }).ContactID;
    const bill = { Type: 'ACCPAY', Contact: { ContactID: contactId }, InvoiceNumber: 'Cost 1', Reference: 'ignored', LineAmountTypes: 'Inclusive', Date: '2026-05-05', DueDate: '2026-05-05', Status: 'AUTHORISED', LineItems: [{ Description: 'Pipe', Quantity: 1, UnitAmount: 161, LineAmount: 161, TaxAmount: 21, TaxType: 'INPUT2', AccountCode: '300' }] };
    const made = await api(f, c.access, c.tenantId, 'PUT', '/Invoices', { Invoices: [bill] });
    expect(made.status).toBe(200);
    expect(made.body.Invoices?.map((i) => [i['Type'], i['InvoiceNumber'], i['Reference'], i['TotalTax'], i['Total']])).toEqual([['ACCPAY', 'Cost 1', '', 21, 161]]);
    const found = await api(f, c.access, c.tenantId, 'GET', `/Invoices?${new URLSearchParams({ where: 'Type=="ACCPAY"&&InvoiceNumber=="Cost 1"' })}`);
    expect(found.body.Invoices).toHaveLength(1);
  });

  it('attachments: raw bytes with their type, the same name replaces, 25 MB and the attachments scope are required', async () => {
    const f = await start();
    const c = await connect(f);
    const contactId = f.addContact(c.tenantId, { name: 'Plumbing World', email: '' }).ContactID;
    const made = await api(f, c.access, c.tenantId, 'PUT', '/Invoices', { Invoices: [{ Type: 'ACCPAY', Contact: { ContactID: contactId }, InvoiceNumber: 'B1', LineAmountTypes: 'NoTax', Date: '2026-05-05', Status: 'AUTHORISED', LineItems: [{ Description: 'x', Quantity: 1, UnitAmount: 10, TaxType: 'NONE', AccountCode: '429' }] }] });
    const id = String(made.body.Invoices?.[0]?.['InvoiceID']);
    // The connection above was granted without accounting.attachments: refused as Xero does.
    expect((await attach(f, c.access, c.tenantId, id, 'receipt.pdf', new Uint8Array([37, 80, 68, 70]))).status).toBe(403);
    expect(f.state.attachments).toEqual([]);

    const withScope = await token(f, { grant_type: 'authorization_code', code: await codeFrom(f, { scope: `${SCOPE} accounting.attachments` }), redirect_uri: REDIRECT, code_verifier: VERIFIER });
    const access = String(withScope.body['access_token']);
    const first = await attach(f, access, c.tenantId, id, 'receipt.pdf', new Uint8Array([1, 2, 3]));
    expect(first.status).toBe(200);
    expect(((await first.json()) as { Attachments: { FileName: string; ContentLength: number; MimeType: string }[] }).Attachments.map((a) => [a.FileName, a.ContentLength, a.MimeType])).toEqual([['receipt.pdf', 3, 'application/pdf']]);
    expect((await attach(f, access, c.tenantId, id, 'RECEIPT.pdf', new Uint8Array([9, 9, 9, 9]))).status).toBe(200);
    expect(f.state.attachments.map((a) => [a.FileName, [...a.bytes]])).toEqual([['receipt.pdf', [9, 9, 9, 9]]]);
    expect((await attach(f, access, c.tenantId, id, 'empty.pdf', new Uint8Array())).status).toBe(400);
    expect((await attach(f, access, c.tenantId, 'no-such-invoice', 'r.pdf', new Uint8Array([1])).then((r) => r.status))).toBe(404);
    expect((await attach(f, access, c.tenantId, id, 'big.pdf', new Uint8Array(25 * 1024 * 1024 + 1))).status).toBe(413);
    const listed = await api(f, access, c.tenantId, 'GET', `/Invoices/${id}/Attachments`);
    expect((listed.body as { Attachments?: unknown[] }).Attachments).toHaveLength(1);
  });
});

describe("a supplier's credit note", () => {
  it('ACCPAYCREDIT is listed by where, changed while unallocated, voided, and takes attachments', async () => {
    const f = await start();
    const c = await connect(f);
    const contactId = f.addContact(c.tenantId, { name: 'Plumbing World', email: '' }).ContactID;
    const line = (amount: number, tax: number) => ({ Description: 'Returned', Quantity: 1, UnitAmount: amount, LineAmount: amount, TaxAmount: tax, TaxType: 'INPUT2', AccountCode: '300' });
    const made = await api(f, c.access, c.tenantId, 'PUT', '/CreditNotes', { CreditNotes: [{ Type: 'ACCPAYCREDIT', Contact: { ContactID: contactId }, CreditNoteNumber: 'Cost 9', LineAmountTypes: 'Inclusive', Date: '2026-05-05', Status: 'AUTHORISED', LineItems: [line(46, 6)] }] });
    expect(made.status).toBe(200);
    const id = String((made.body as { CreditNotes: Record<string, unknown>[] }).CreditNotes[0]!['CreditNoteID']);
    const listed = await api(f, c.access, c.tenantId, 'GET', `/CreditNotes?${new URLSearchParams({ where: 'Type=="ACCPAYCREDIT"&&CreditNoteNumber=="Cost 9"', createdByMyApp: 'true' })}`);
    expect((listed.body as { CreditNotes: unknown[] }).CreditNotes).toHaveLength(1);
    const changed = await api(f, c.access, c.tenantId, 'POST', `/CreditNotes/${id}`, { CreditNotes: [{ CreditNoteID: id, LineAmountTypes: 'Inclusive', LineItems: [line(92, 12)] }] });
    expect((changed.body as { CreditNotes: Record<string, unknown>[] }).CreditNotes[0]!['Total']).toBe(92);
    const voided = await api(f, c.access, c.tenantId, 'POST', `/CreditNotes/${id}`, { CreditNotes: [{ CreditNoteID: id, Status: 'VOIDED' }] });
    expect((voided.body as { CreditNotes: Record<string, unknown>[] }).CreditNotes[0]!['Status']).toBe('VOIDED');
    expect((await api(f, c.access, c.tenantId, 'POST', `/CreditNotes/${id}`, { CreditNotes: [{ CreditNoteID: id, Status: 'VOIDED' }] })).status).toBe(400);
    const withScope = await token(f, { grant_type: 'authorization_code', code: await codeFrom(f, { scope: `${SCOPE} accounting.attachments` }), redirect_uri: REDIRECT, code_verifier: VERIFIER });
    const res = await fetch(`${f.apiUrl}/api.xro/2.0/CreditNotes/${id}/Attachments/receipt.pdf`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${String(withScope.body['access_token'])}`, 'xero-tenant-id': c.tenantId, Accept: 'application/json', 'Content-Type': 'application/pdf' },
      body: new Uint8Array([1, 2]),
    });
    expect(res.status).toBe(200);
    expect(f.state.attachments.map((a) => [a.invoiceId, a.FileName])).toEqual([[id, 'receipt.pdf']]);
  });
});
