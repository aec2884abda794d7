import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderConnection } from '../../../src/integrations/xero/port.ts';
import { type Harness, startHarness } from './harness.ts';
import { client, invoiceView, send } from './documents.ts';
import { contactFromClient } from '../../../src/integrations/xero/mapping.ts';

const started: Harness[] = [];
async function connected(opts: Parameters<typeof startHarness>[0] = {}): Promise<Harness & { conn: ProviderConnection }> {
  const h = await startHarness(opts);
  started.push(h);
  const { conn } = await h.connect();
  return { ...h, conn };
}
afterEach(async () => {
  for (const h of started.splice(0)) await h.fake.stop();
});

const apiCalls = (h: Harness, method: string, resource: string) =>
  h.fake.state.requests.filter((r) => r.method === method && new URL(r.url, 'http://x').pathname === `/api/api.xro/2.0/${resource}`);

describe('contacts', () => {
  it('creates the contact once, then finds it by email', async () => {
    const h = await connected();
    const first = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    expect(first).toMatchObject({ name: 'Aroha Ngata', created: true });
    const again = await h.xero.findOrCreateContact(h.conn, { name: 'A. Ngata', email: 'AROHA@example.nz' });
    expect(again).toEqual({ contactId: first.contactId, name: 'Aroha Ngata', created: false });
    expect(h.fake.state.contacts).toHaveLength(1);
    expect(h.fake.state.contacts[0]).toMatchObject({ EmailAddress: 'aroha@example.nz', Phones: [{ PhoneType: 'DEFAULT', PhoneNumber: '021 555 0101' }] });
    expect(apiCalls(h, 'GET', 'Contacts').every((r) => r.headers['xero-tenant-id'] === h.conn.tenantId && r.headers.accept === 'application/json')).toBe(true);
  });

  it('links an existing contact by exact name, ignoring archived ones and loose matches', async () => {
    const h = await connected();
    const tenant = h.conn.tenantId;
    h.fake.addContact(tenant, { name: 'Kowhai Builders Ltd (old)', status: 'ARCHIVED' });
    h.fake.addContact(tenant, { name: 'Kowhai Builders Ltd Nelson' });
    const existing = h.fake.addContact(tenant, { name: 'Kowhai Builders Ltd', email: 'office@kowhai.nz' });
    const found = await h.xero.findOrCreateContact(h.conn, { name: 'kowhai builders ltd', email: 'accounts@kowhai.nz' });
    expect(found).toEqual({ contactId: existing.ContactID, name: 'Kowhai Builders Ltd', created: false });
  });

  it('a lost create answer: the repeat fails on the unique name and the contact is linked, not duplicated', async () => {
    const h = await connected();
    h.fake.dropNextResponse('PUT /Contacts');
    const c = await h.xero.findOrCreateContact(h.conn, { name: 'Tui Electrical', email: '' });
    expect(h.fake.state.contacts.map((x) => x.ContactID)).toEqual([c.contactId]);
    expect(apiCalls(h, 'PUT', 'Contacts')).toHaveLength(2);
  });
});

describe('invoices', () => {
  it('pushes our invoice: the fake computes the same totals as the domain', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const ref = await h.xero.createInvoice(h.conn, { document: invoiceView({ then: [send] }), contactId, gstRegistered: true }, 'tenant:doc-1:1');
    expect(ref).toMatchObject({ invoiceNumber: 'INV-0001', reference: 'INV-0001', status: 'AUTHORISED' });
    const [inv] = h.fake.state.invoices;
    expect(inv).toMatchObject({ InvoiceID: ref.invoiceId, Type: 'ACCREC', ContactID: contactId, LineAmountTypes: 'Exclusive', SentToContact: true, Date: '2026-05-04', DueDate: '2026-05-11' });
    expect([inv?.subTotalCents, inv?.totalTaxCents, inv?.totalCents]).toEqual([40500n, 6075n, 46575n]);
    const put = apiCalls(h, 'PUT', 'Invoices')[0];
    expect(put?.url).toContain('unitdp=4');
    expect(put?.headers['idempotency-key']).toBe('tenant:doc-1:1');
    expect(put?.body).toContain('"Quantity":2.5,"UnitAmount":90');
  });

  it('the same Idempotency-Key and body again: the same invoice back, nothing new created', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const input = { document: invoiceView(), contactId, gstRegistered: true };
    const a = await h.xero.createInvoice(h.conn, input, 'k-1');
    const b = await h.xero.createInvoice(h.conn, input, 'k-1');
    expect(b).toEqual(a);
    expect(h.fake.state.invoices).toHaveLength(1);
  });

  it('a lost answer is retried with the same Idempotency-Key: exactly one invoice in Xero', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    h.fake.dropNextResponse('PUT /Invoices');
    const ref = await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'acct:doc-1:r1');
    const puts = apiCalls(h, 'PUT', 'Invoices');
    expect(puts).toHaveLength(2);
    expect(puts.map((p) => p.headers['idempotency-key'])).toEqual(['acct:doc-1:r1', 'acct:doc-1:r1']);
    expect(h.fake.state.invoices.map((i) => i.InvoiceID)).toEqual([ref.invoiceId]);
    expect(h.sleeps).toEqual([500]);
  });

  it('5xx: bounded retries with the same key, then a typed unavailable error', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    for (let i = 0; i < 4; i++) h.fake.failNext('PUT /Invoices', 503);
    await expect(h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k-5xx')).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    expect(apiCalls(h, 'PUT', 'Invoices')).toHaveLength(4);
    expect(h.sleeps).toEqual([500, 1000, 2000]);
    expect(h.fake.state.invoices).toHaveLength(0);
  });

  it('find by reference before create: a lost earlier attempt is found, one made in Xero by hand is not', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    h.fake.addInvoice(h.conn.tenantId, { reference: 'INV-0001', invoiceNumber: 'X-77' });
    expect(await h.xero.findInvoiceByReference(h.conn, 'INV-0001')).toBeNull();
    // An earlier attempt whose answer (and retries) were all lost: the invoice exists in Xero.
    h.fake.dropNextResponse('PUT /Invoices');
    await expect(h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'old-key')).resolves.toBeDefined();
    const found = await h.xero.findInvoiceByReference(h.conn, 'INV-0001');
    expect(found).toMatchObject({ invoiceId: h.fake.state.invoices[1]?.InvoiceID, invoiceNumber: 'INV-0001', status: 'AUTHORISED' });
    const get = apiCalls(h, 'GET', 'Invoices').at(-1);
    expect(new URL(get?.url ?? '', 'http://x').searchParams.get('where')).toBe('Type=="ACCREC"&&Reference=="INV-0001"');
    expect(new URL(get?.url ?? '', 'http://x').searchParams.get('createdByMyApp')).toBe('true');
  });

  it('our number already used in Xero: a validation error with Xero’s message, not a retry', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'first');
    const err = h.xero.createInvoice(h.conn, { document: invoiceView({ over: { documentId: 'doc-2' } }), contactId, gstRegistered: true }, 'second');
    await expect(err).rejects.toMatchObject({ kind: 'validation', status: 400, messages: ['Invoice # must be unique.'] });
    expect(apiCalls(h, 'PUT', 'Invoices')).toHaveLength(2);
  });

  it('a void goes to Xero as VOIDED; sending it again finds it already voided', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const ref = await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k');
    expect(await h.xero.updateInvoiceStatus(h.conn, ref.invoiceId, 'VOIDED')).toMatchObject({ status: 'VOIDED' });
    expect(await h.xero.updateInvoiceStatus(h.conn, ref.invoiceId, 'VOIDED')).toMatchObject({ status: 'VOIDED' });
    expect(h.fake.state.invoices[0]?.Status).toBe('VOIDED');
  });

  it('marks an already-synced invoice as sent', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const ref = await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k');
    expect(h.fake.state.invoices[0]?.SentToContact).toBe(false);
    await h.xero.updateInvoiceStatus(h.conn, ref.invoiceId, 'AUTHORISED', true);
    expect(h.fake.state.invoices[0]?.SentToContact).toBe(true);
    expect(JSON.parse(apiCalls(h, 'POST', `Invoices/${ref.invoiceId}`)[0]?.body ?? '{}')).toEqual({ Invoices: [{ InvoiceID: ref.invoiceId, Status: 'AUTHORISED', SentToContact: true }] });
  });
});

describe('rate limits and expired tokens', () => {
  it('429 waits the Retry-After it was given, then succeeds', async () => {
    const h = await connected();
    h.fake.failNext('GET /Invoices', 429, { 'Retry-After': '7' });
    h.fake.failNext('GET /Invoices', 429, { 'Retry-After': '2' });
    expect(await h.xero.findInvoiceByReference(h.conn, 'INV-0001')).toBeNull();
    expect(h.sleeps).toEqual([7000, 2000]);
  });

  it('429 on a create is retried too (Xero limits before processing) with the same key', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    h.fake.failNext('PUT /Invoices', 429, { 'Retry-After': '3' });
    await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k-429');
    expect(h.sleeps).toEqual([3000]);
    expect(apiCalls(h, 'PUT', 'Invoices').map((r) => r.headers['idempotency-key'])).toEqual(['k-429', 'k-429']);
    expect(h.fake.state.invoices).toHaveLength(1);
  });

  it('429 past the bounded retries: rate_limited with the last Retry-After for the caller to pass on', async () => {
    const h = await connected();
    for (let i = 0; i < 4; i++) h.fake.failNext('GET /Invoices', 429, { 'Retry-After': '5' });
    await expect(h.xero.findInvoiceByReference(h.conn, 'INV-0001')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 5 });
    expect(h.sleeps).toEqual([5000, 5000, 5000]);
  });

  it('a daily limit (Retry-After of hours) is not slept on', async () => {
    const h = await connected();
    h.fake.failNext('GET /Invoices', 429, { 'Retry-After': '43200', 'X-Rate-Limit-Problem': 'day' });
    await expect(h.xero.findInvoiceByReference(h.conn, 'INV-0001')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 43200, detail: expect.stringContaining("Xero's day rate limit") });
    expect(h.sleeps).toEqual([]);
  });

  it('the fake’s own minute limit answers 429 with Retry-After to the end of the minute', async () => {
    const h = await connected({ fake: { minuteLimit: 2 } });
    await h.xero.findInvoiceByReference(h.conn, 'A');
    await h.xero.findInvoiceByReference(h.conn, 'B');
    h.clock.now = new Date('2026-05-04T09:00:45Z');
    await expect(h.xero.findInvoiceByReference(h.conn, 'C')).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(h.sleeps).toEqual([15000, 15000, 15000]);
  });

  it('401 is a typed error (the caller refreshes once); the access token is not retried', async () => {
    const h = await connected();
    h.fake.expireAccessTokens();
    await expect(h.xero.findInvoiceByReference(h.conn, 'INV-0001')).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(apiCalls(h, 'GET', 'Invoices')).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('a tenant this token is not connected to is forbidden', async () => {
    const h = await connected();
    await expect(h.xero.findInvoiceByReference({ ...h.conn, tenantId: 'not-ours' }, 'INV-0001')).rejects.toMatchObject({ kind: 'forbidden', status: 403 });
  });
});

describe('payments', () => {
  it('a payment recorded here is pushed against the synced invoice; paid in full, Xero shows PAID', async () => {
    const h = await connected({ adapter: { paymentsAccountCode: '090' } });
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const inv = await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k');
    const part = await h.xero.createPayment(h.conn, { invoiceId: inv.invoiceId, amount: '100.00', date: '2026-05-06', reference: 'Bank transfer' }, 'pay-1');
    expect(part.invoiceStatus).toBe('AUTHORISED');
    h.fake.dropNextResponse('PUT /Payments');
    const rest = await h.xero.createPayment(h.conn, { invoiceId: inv.invoiceId, amount: '365.75', date: '2026-05-20', reference: '' }, 'pay-2');
    expect(rest.invoiceStatus).toBe('PAID');
    expect(h.fake.state.payments.map((p) => [p.amountCents, p.AccountCode, p.Date])).toEqual([
      [10000n, '090', '2026-05-06'],
      [36575n, '090', '2026-05-20'],
    ]);
    expect(apiCalls(h, 'PUT', 'Payments')[0]?.body).toBe('{"Payments":[{"Invoice":{"InvoiceID":"' + inv.invoiceId + '"},"Account":{"Code":"090"},"Date":"2026-05-06","Amount":100.00,"Reference":"Bank transfer"}]}');
  });

  it('more than is owing is refused with Xero’s message', async () => {
    const h = await connected();
    const { contactId } = await h.xero.findOrCreateContact(h.conn, contactFromClient(client));
    const inv = await h.xero.createInvoice(h.conn, { document: invoiceView(), contactId, gstRegistered: true }, 'k');
    await expect(h.xero.createPayment(h.conn, { invoiceId: inv.invoiceId, amount: '465.76', date: '2026-05-06', reference: '', accountCode: '090' }, 'pay-x')).rejects.toMatchObject({
      kind: 'validation',
      messages: ['Payment amount exceeds the amount outstanding on this document'],
    });
  });
});
