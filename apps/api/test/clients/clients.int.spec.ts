import { PAYMENT_TERMS, PAYMENT_TERMS_MESSAGE } from '@tradie/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STALE_WRITE_DETAIL } from '../../src/http/problem.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { clientCalls } from './calls.ts';
import { apply, draft, line, snapshotOf } from './documents.ts';

const GST_WARNING = "This GST number doesn't look valid — please check it";
const NZBN_WARNING = "This NZBN doesn't look valid — please check it";
// 942904153582 → 9+12+2+27+0+12+1+15+3+15+8+6 = 110, so the GS1 check digit is 0.
const VALID_NZBN = '9429041535820';
const INVALID_NZBN = '9429041535823';

const BLANKS = {
  email: '', phone: '', address: '', is_business: 'false', business_name: '', company_number: '', gst_number: '', notes: '',
  default_payment_terms: '7 days',
};

describe('clients API', () => {
  const t = useTestApp();

  const { add, names } = clientCalls(() => t);

  it('needs a signed-in user on every route', async () => {
    for (const [method, path] of [['GET', '/clients'], ['POST', '/clients'], ['GET', '/clients/x'], ['PUT', '/clients/x'], ['DELETE', '/clients/x'], ['GET', '/clients/x/documents']] as const) {
      const r = await t.call(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: { name: 'A' } });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.json.detail).toBeTruthy();
    }
  });

  describe('create and read', () => {
    it("adds a client with only a name: defaults, '' for blanks, id, version 1, no warnings", async () => {
      const u = await signUp(t);
      const r = await t.post('/clients', { name: 'Aroha Ngata' }, u.token);
      expect(r.status).toBe(201);
      expect(r.json).toEqual({ id: expect.any(String), name: 'Aroha Ngata', ...BLANKS, version: 1, warnings: [] });
      const got = await t.get(`/clients/${r.json.id}`, u.token);
      expect(got.status).toBe(200);
      expect(got.json).toEqual(r.json);
    });

    it('adds a business client with every field, trimmed; is_business also takes a boolean', async () => {
      const u = await signUp(t);
      const body = {
        name: '  Hemi Walker ', email: ' hemi@walker.co.nz', phone: '021 555 0100', address: '12 Queen St\nAuckland 1010', is_business: true,
        business_name: 'Walker Electrical Ltd', company_number: VALID_NZBN, gst_number: '49-091-850', notes: 'Gate code 1234', default_payment_terms: '30 days',
      };
      const r = await t.post('/clients', body, u.token);
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        id: expect.any(String), name: 'Hemi Walker', email: 'hemi@walker.co.nz', phone: '021 555 0100', address: '12 Queen St\nAuckland 1010',
        is_business: 'true', business_name: 'Walker Electrical Ltd', company_number: VALID_NZBN, gst_number: '49-091-850', notes: 'Gate code 1234',
        default_payment_terms: '30 days', version: 1, warnings: [],
      });
      expect((await t.get(`/clients/${r.json.id}`, u.token)).json).toEqual(r.json);
      expect((await add(u.token, { name: 'B', is_business: false })).is_business).toBe('false');
      expect((await add(u.token, { name: 'C', is_business: 'true' })).is_business).toBe('true');
    });

    it("ignores unknown fields (an id or account in the body changes nothing) and reads null as ''", async () => {
      const u = await signUp(t);
      const r = await t.post('/clients', { name: 'Mere', id: 'chosen-id', account_id: 'someone-else', role: 'admin', email: null, notes: null, is_business: null }, u.token);
      expect(r.status).toBe(201);
      expect(r.json.id).not.toBe('chosen-id');
      expect(r.json).toEqual({ id: r.json.id, name: 'Mere', ...BLANKS, version: 1, warnings: [] });
      expect((await t.get('/clients/chosen-id', u.token)).status).toBe(404);
    });

    it.each([
      [{}, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: null }, 'Name is required'],
      [{ name: 123 }, 'Name must be text'],
      [{ name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
      [{ name: 'A', notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters'],
      [{ name: 'A', email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ name: 'A', email: 42 }, 'Email must be text'],
      [{ name: 'A', phone: ['021'] }, 'Phone must be text'],
      [{ name: 'A', is_business: 'yes' }, "is_business must be 'true' or 'false'"],
      [{ name: 'A', is_business: 1 }, "is_business must be 'true' or 'false'"],
      [{ name: 'A', default_payment_terms: '400 days' }, PAYMENT_TERMS_MESSAGE],
      [{ name: 'A\u0000B' }, "name contains a character that can't be saved"],
      [{ name: 'A', notes: 'half a pair \ud83d' }, "notes contains a character that can't be saved"],
    ])('refuses %j with 422 and a clear detail, saving nothing', async (body, detail) => {
      const u = await signUp(t);
      const r = await t.post('/clients', body, u.token);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(detail);
      expect((await t.get('/clients', u.token)).json).toEqual([]);
    });

    it('accepts the longest name (200) and notes (5,000)', async () => {
      const u = await signUp(t);
      const r = await t.post('/clients', { name: 'n'.repeat(200), notes: 'x'.repeat(5000) }, u.token);
      expect(r.status).toBe(201);
      expect(r.json.name).toHaveLength(200);
      expect(r.json.notes).toHaveLength(5000);
    });

    it('answers 400 for malformed or empty JSON, 415 for other content types, 413 for a huge body, 422 for a non-object', async () => {
      const u = await signUp(t);
      const send = (body: string, type = 'application/json') => t.call('POST', '/clients', { token: u.token, body, headers: { 'Content-Type': type } });
      const bad = await send('{"name": "A",');
      expect(bad.status).toBe(400);
      expect(bad.json.detail).toBe('The request body is not valid JSON.');
      expect((await send('')).status).toBe(400);
      const text = await send('name=A', 'text/plain');
      expect(text.status).toBe(415);
      expect(text.json.detail).toMatch(/JSON/);
      expect((await send('name=A', 'application/x-www-form-urlencoded')).status).toBe(415);
      const huge = await send(JSON.stringify({ name: 'A', notes: 'x'.repeat(1_100_000) }));
      expect(huge.status).toBe(413);
      expect(huge.json.detail).toBe('The request is too large.');
      for (const body of ['[]', '"A"', '42', 'null']) {
        const r = await send(body);
        expect(r.status, body).toBe(422);
        expect(r.json.detail).toBe('The request body must be a JSON object.');
      }
      expect((await t.get('/clients', u.token)).json).toEqual([]);
    });

    it('an unknown or malformed id is 404 with a detail', async () => {
      const u = await signUp(t);
      for (const id of ['01234567-89ab-7def-8123-456789abcdef', 'nope', 'a%00b', 'x'.repeat(101)]) {
        const r = await t.get(`/clients/${id}`, u.token);
        expect(r.status, id).toBe(404);
        expect(r.json.detail).toBe('Client not found');
      }
    });
  });

  describe('GST number and NZBN check digits', () => {
    it('saves an invalid GST number and NZBN, and warns on the answer, the read and the list', async () => {
      const u = await signUp(t);
      const r = await t.post('/clients', { name: 'Rangi', is_business: 'true', gst_number: '49-091-851', company_number: INVALID_NZBN }, u.token);
      expect(r.status).toBe(201);
      const warnings = [{ field: 'gst_number', message: GST_WARNING }, { field: 'company_number', message: NZBN_WARNING }];
      expect(r.json).toMatchObject({ gst_number: '49-091-851', company_number: INVALID_NZBN, warnings });
      expect((await t.get(`/clients/${r.json.id}`, u.token)).json.warnings).toEqual(warnings);
      expect((await t.get('/clients', u.token)).json[0].warnings).toEqual(warnings);
      const fixed = await t.put(`/clients/${r.json.id}`, { name: 'Rangi', is_business: 'true', gst_number: '49-091-850', company_number: INVALID_NZBN }, u.token);
      expect(fixed.json.warnings).toEqual([{ field: 'company_number', message: NZBN_WARNING }]);
    });

    it.each([
      ['136410132', VALID_NZBN, []],
      ['NZ 49 091 850', '', []],
      ['12345', '', ['gst_number']],
      ['not a number', '', ['gst_number']],
      ['', '1234567', []], // a Companies Office number has no check digit
      ['', '94290415358', ['company_number']],
    ])('GST %j and NZBN/company number %j → warnings on %j', async (gst, company, fields) => {
      const u = await signUp(t);
      const r = await t.post('/clients', { name: 'A', gst_number: gst, company_number: company }, u.token);
      expect(r.status).toBe(201);
      expect(r.json.warnings.map((w: { field: string }) => w.field)).toEqual(fields);
    });
  });

  describe('list and search', () => {
    it('lists the live clients sorted by name, case-insensitively', async () => {
      const u = await signUp(t);
      for (const name of ['bravo', 'Ōtaki Plumbing', 'Alpha', 'charlie', 'Pita', 'alpha', 'Nikau']) await add(u.token, { name });
      expect(await names(u.token)).toEqual(['Alpha', 'alpha', 'bravo', 'charlie', 'Nikau', 'Ōtaki Plumbing', 'Pita']);
      const list = (await t.get('/clients', u.token)).json;
      expect(Array.isArray(list)).toBe(true);
      expect(list[0]).toEqual({ id: expect.any(String), name: 'Alpha', ...BLANKS, version: 1, warnings: [] });
    });

    it('searches name, email and business name case-insensitively, never across fields', async () => {
      const u = await signUp(t);
      await add(u.token, { name: 'Aroha Ngata', email: 'aroha@ngata.nz' });
      await add(u.token, { name: 'Tom', email: 'TOM@Sparky.co.nz', is_business: 'true', business_name: 'Sparky Electrical' });
      await add(u.token, { name: 'Sue', business_name: 'Ngata Builders', notes: 'sparky friend', phone: '021 999' });
      expect(await names(u.token, '?q=NGATA')).toEqual(['Aroha Ngata', 'Sue']);
      expect(await names(u.token, '?q=sparky')).toEqual(['Tom']);
      expect(await names(u.token, '?q=%40sparky.CO')).toEqual(['Tom']);
      expect(await names(u.token, '?q=%20%20tom%20')).toEqual(['Tom']);
      expect(await names(u.token, '?q=021')).toEqual([]);
      expect(await names(u.token, '?q=ngata%20aroha')).toEqual([]);
      expect(await names(u.token, '?q=zzz')).toEqual([]);
      expect(await names(u.token, '?q=')).toEqual(['Aroha Ngata', 'Sue', 'Tom']);
      expect(await names(u.token, '?q=%25')).toEqual([]);
    });

    it('limits the answer; a bad limit or search is 422', async () => {
      const u = await signUp(t);
      for (const name of ['d', 'c', 'b', 'a']) await add(u.token, { name });
      expect(await names(u.token, '?limit=2')).toEqual(['a', 'b']);
      expect(await names(u.token, '?q=c&limit=1')).toEqual(['c']);
      expect(await names(u.token, '?limit=')).toEqual(['a', 'b', 'c', 'd']);
      expect(await names(u.token, '?limit=1000')).toEqual(['a', 'b', 'c', 'd']);
      for (const q of ['limit=0', 'limit=%201', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=1001', `q=${'x'.repeat(201)}`, 'q=a%00']) {
        const r = await t.get(`/clients?${q}`, u.token);
        expect(r.status, q).toBe(422);
        expect(r.json.detail).toBeTruthy();
      }
    });
  });

  describe('update', () => {
    it('replaces every field, as the form sends them; blanks and defaults come back', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Kiri', email: 'kiri@x.nz', phone: '021', is_business: 'true', business_name: 'K Ltd', default_payment_terms: '14 days' });
      const r = await t.put(`/clients/${c.id}`, { name: 'Kiri Tane', email: 'kiri@tane.nz' }, u.token);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ id: c.id, name: 'Kiri Tane', ...BLANKS, email: 'kiri@tane.nz', version: 2, warnings: [] });
      expect((await t.get(`/clients/${c.id}`, u.token)).json).toEqual(r.json);
    });

    it('answers 409 when the version the form saw is stale, and saves with the current one', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Wiremu' });
      expect((await t.put(`/clients/${c.id}`, { name: 'Wiremu A', version: 1 }, u.token)).status).toBe(200);
      const stale = await t.put(`/clients/${c.id}`, { name: 'Wiremu B', version: 1 }, u.token);
      expect(stale.status).toBe(409);
      expect(stale.json.detail).toBe(STALE_WRITE_DETAIL);
      expect((await t.get(`/clients/${c.id}`, u.token)).json).toMatchObject({ name: 'Wiremu A', version: 2 });
      const ok = await t.put(`/clients/${c.id}`, { name: 'Wiremu C', version: 2 }, u.token);
      expect(ok.json).toMatchObject({ name: 'Wiremu C', version: 3 });
      for (const version of ['2', 0, 1.5]) expect((await t.put(`/clients/${c.id}`, { name: 'X', version }, u.token)).status).toBe(422);
    });

    it('refuses a bad body with 422 and keeps the client; an unknown client is 404', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Ana' });
      const r = await t.put(`/clients/${c.id}`, { name: '', email: 'x' }, u.token);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe('Name is required');
      expect((await t.put(`/clients/${c.id}`, { email: 'a@b.nz' }, u.token)).status).toBe(422);
      expect((await t.get(`/clients/${c.id}`, u.token)).json).toMatchObject({ name: 'Ana', version: 1 });
      expect((await t.put('/clients/01234567-89ab-7def-8123-456789abcdef', { name: 'A' }, u.token)).status).toBe(404);
    });
  });

  describe('delete', () => {
    it('removes the client from the book (204), then it is 404 on every verb', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Gone' });
      await add(u.token, { name: 'Stays' });
      const r = await t.del(`/clients/${c.id}`, u.token);
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(await names(u.token)).toEqual(['Stays']);
      expect((await t.get(`/clients/${c.id}`, u.token)).status).toBe(404);
      expect((await t.get(`/clients/${c.id}/documents`, u.token)).status).toBe(404);
      expect((await t.put(`/clients/${c.id}`, { name: 'Back' }, u.token)).status).toBe(404);
      const again = await t.del(`/clients/${c.id}`, u.token);
      expect(again.status).toBe(404);
      expect(again.json.detail).toBe('Client not found');
    });

    it("leaves the client's quotes and invoices intact, with the client's name as it was", async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Hine Parata', is_business: 'true', business_name: 'Parata Homes', email: 'hine@parata.nz' });
      const quoteId = await draft(t, u.userId, { type: 'quote', client: snapshotOf(c), lines: [line('1', '100')], issueDate: '2026-05-01' });
      const invoiceId = await draft(t, u.userId, { type: 'invoice', client: snapshotOf(c), lines: [line('2', '50')], issueDate: '2026-05-01' });
      expect((await t.del(`/clients/${c.id}`, u.token)).status).toBe(204);
      const rows = await t.deps.store.db.query<{ id: string; client_id: string; client_name: string; client_email: string; total_cents: string }>(
        'SELECT id, client_id, client_name, client_email, total_cents::text AS total_cents FROM documents_list WHERE account_id = $1 ORDER BY reference',
        [u.userId],
      );
      expect(rows).toEqual([
        { id: invoiceId, client_id: c.id, client_name: 'Parata Homes (Hine Parata)', client_email: 'hine@parata.nz', total_cents: '11500' },
        { id: quoteId, client_id: c.id, client_name: 'Parata Homes (Hine Parata)', client_email: 'hine@parata.nz', total_cents: '11500' },
      ]);
      const stream = await t.deps.store.readStream(`document-${invoiceId}`);
      expect(stream.events.map((e) => e.type)).toEqual(['DocumentDrafted']);
      expect((stream.events[0]!.data as { client: { name: string } }).client.name).toBe('Hine Parata');
    });
  });

  describe('with the documents API', () => {
    it("an invoice made with POST /invoices shows in the client's history and keeps the client's name after the client is deleted", async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Awhina Kora', is_business: 'true', business_name: 'Kora Landscaping', default_payment_terms: '14 days' });
      const inv = await t.post('/invoices', { type: 'invoice', client_id: c.id, line_items: [{ description: 'Hedge trim', qty: 2, unit_price: 50 }] }, u.token);
      expect(inv.status).toBe(201);
      const history = await t.get(`/clients/${c.id}/documents`, u.token);
      expect(history.json.documents).toEqual([
        expect.objectContaining({ id: inv.json.id, type: 'invoice', client_name: 'Kora Landscaping (Awhina Kora)', total: 115, balance: 115, due_date: '2026-05-19' }),
      ]);
      expect(history.json.summary).toMatchObject({ invoiced_total: 115, outstanding_balance: 115, invoice_count: 1 });
      expect((await t.del(`/clients/${c.id}`, u.token)).status).toBe(204);
      const list = await t.get('/invoices', u.token);
      expect(list.status).toBe(200);
      expect(list.json).toEqual([expect.objectContaining({ id: inv.json.id, client_name: 'Kora Landscaping (Awhina Kora)', total: 115 })]);
      expect((await t.get(`/invoices/${inv.json.id}`, u.token)).status).toBe(200);
      // a deleted client cannot be put on a new document
      expect((await t.post('/invoices', { type: 'quote', client_id: c.id, line_items: [{ description: 'x', qty: 1, unit_price: 1 }] }, u.token)).status).toBe(404);
    });
  });

  describe('tenant isolation', () => {
    it("another account's client is 404 on every verb and is left untouched", async () => {
      const owner = await signUp(t);
      const other = await signUp(t);
      const c = await add(owner.token, { name: 'Private Client', email: 'p@c.nz' });
      await draft(t, owner.userId, { type: 'invoice', client: snapshotOf(c), lines: [line('1', '10')], issueDate: '2026-05-01' });
      for (const r of [
        await t.get(`/clients/${c.id}`, other.token),
        await t.put(`/clients/${c.id}`, { name: 'Hijacked' }, other.token),
        await t.put(`/clients/${c.id}`, { name: 'Hijacked', version: 1 }, other.token),
        await t.del(`/clients/${c.id}`, other.token),
        await t.get(`/clients/${c.id}/documents`, other.token),
      ]) {
        expect(r.status).toBe(404);
        expect(r.json.detail).toBe('Client not found');
      }
      expect(await names(other.token)).toEqual([]);
      expect(await names(other.token, '?q=private')).toEqual([]);
      expect((await t.get(`/clients/${c.id}`, owner.token)).json).toEqual(c);
      expect((await t.get(`/clients/${c.id}/documents`, owner.token)).json.documents).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry with the same key answers the first client (same status and body) and creates nothing', async () => {
      const u = await signUp(t);
      const key = { 'Idempotency-Key': 'add-client-7f3a' };
      const first = await t.post('/clients', { name: 'Double Tap', gst_number: '12345' }, u.token, key);
      expect(first.status).toBe(201);
      const retry = await t.post('/clients', { name: 'Double Tap', gst_number: '12345' }, u.token, key);
      expect(retry.status).toBe(201);
      expect(retry.json).toEqual(first.json);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await names(u.token)).toEqual(['Double Tap']);
      // the replay is the first answer even after the client changed
      await t.put(`/clients/${first.json.id}`, { name: 'Renamed' }, u.token);
      expect((await t.post('/clients', { name: 'Double Tap', gst_number: '12345' }, u.token, key)).json).toEqual(first.json);
      expect(await names(u.token)).toEqual(['Renamed']);
    });

    it('another key, or no key, creates another client; the same key with another body is 422; keys are per account', async () => {
      const u = await signUp(t);
      const v = await signUp(t);
      await t.post('/clients', { name: 'One' }, u.token, { 'Idempotency-Key': 'k1' });
      await t.post('/clients', { name: 'One' }, u.token, { 'Idempotency-Key': 'k2' });
      await t.post('/clients', { name: 'One' }, u.token);
      const clash = await t.post('/clients', { name: 'Two' }, u.token, { 'Idempotency-Key': 'k1' });
      expect(clash.status).toBe(422);
      expect(clash.json.detail).toBe('This Idempotency-Key was already used for a different request.');
      expect(await names(u.token)).toEqual(['One', 'One', 'One']);
      const theirs = await t.post('/clients', { name: 'Theirs' }, v.token, { 'Idempotency-Key': 'k1' });
      expect(theirs.status).toBe(201);
      expect(await names(v.token)).toEqual(['Theirs']);
      expect((await t.post('/clients', { name: 'A' }, u.token, { 'Idempotency-Key': 'bad key with spaces' })).status).toBe(400);
    });

    it('a refused body does not use up the key', async () => {
      const u = await signUp(t);
      expect((await t.post('/clients', { name: '' }, u.token, { 'Idempotency-Key': 'k-bad' })).status).toBe(422);
      expect((await t.post('/clients', { name: 'Fixed' }, u.token, { 'Idempotency-Key': 'k-bad' })).status).toBe(201);
    });
  });

  describe('invoice history (GET /clients/{id}/documents)', () => {
    it("lists the client's quotes and invoices with status, figures and a whole-cent summary", async () => {
      // The test clock is 2026-05-04T21:30Z: 5 May 2026 in New Zealand.
      const u = await signUp(t);
      const other = await signUp(t);
      const c = await add(u.token, { name: 'Mihi Rewi', email: 'mihi@rewi.nz' });
      const d = await add(u.token, { name: 'Someone Else' });
      const snap = snapshotOf(c);
      // overdue: $230.00, due 8 April, $30 paid → $200 owing, all of it overdue
      const overdue = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('2', '100')], issueDate: '2026-04-01' });
      await apply(t, u.userId, overdue, { type: 'SendDocument', data: { to: ['mihi@rewi.nz'], cc: [], bcc: [], subject: 'Invoice' } });
      await apply(t, u.userId, overdue, { type: 'RecordPayment', data: { paymentId: 'p1', amount: '30', date: '2026-04-20', method: 'cash', reference: '' } });
      // paid: $99.99 + GST $15.00 (14.9985 rounded) = $114.99, marked paid
      const paid = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('1', '99.99')], issueDate: '2026-05-01', paymentTerms: '30 days' });
      await apply(t, u.userId, paid, { type: 'MarkPaid', data: { paymentId: 'p2', date: '2026-05-03', method: 'bank_transfer', reference: 'INV' } });
      // sent, due 7 June: $57.50 owing, not overdue
      const open = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('1', '50')], issueDate: '2026-05-02', paymentTerms: '30 days' });
      await apply(t, u.userId, open, { type: 'SendDocument', data: { to: ['mihi@rewi.nz'], cc: [], bcc: [], subject: 'Invoice' } });
      // void: listed and counted, adds no money
      const voided = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('1', '1000')], issueDate: '2026-03-01' });
      await apply(t, u.userId, voided, { type: 'VoidDocument', data: { reason: 'Wrong client' } });
      // a quote: $115.00, never money owed
      const quote = await draft(t, u.userId, { type: 'quote', client: snap, lines: [line('1', '100')], issueDate: '2026-04-15' });
      // a deleted draft is gone from the history
      const deleted = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('1', '5')], issueDate: '2026-05-04' });
      await apply(t, u.userId, deleted, { type: 'DeleteDraft' });
      // not this client's: another client, no client, and another account naming this client's id
      await draft(t, u.userId, { type: 'invoice', client: snapshotOf(d), lines: [line('1', '777')], issueDate: '2026-05-01' });
      await draft(t, u.userId, { type: 'invoice', client: null, lines: [line('1', '888')], issueDate: '2026-05-01' });
      await draft(t, other.userId, { type: 'invoice', client: snap, lines: [line('1', '999')], issueDate: '2026-05-01' });

      const r = await t.get(`/clients/${c.id}/documents`, u.token);
      expect(r.status).toBe(200);
      expect(r.json.client).toEqual(c);
      expect(r.json.documents.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
        [open, 'sent'], [paid, 'paid'], [quote, 'draft'], [overdue, 'overdue'], [voided, 'void'],
      ]);
      const byId = Object.fromEntries((r.json.documents as { id: string }[]).map((x) => [x.id, x]));
      expect(byId[overdue]).toEqual({
        id: overdue, type: 'invoice', reference: expect.stringMatching(/^INV-\d{4}$/), status: 'overdue', client_name: 'Mihi Rewi', total: 230, paid: 30,
        balance: 200, payment_status: 'partial', paid_date: null, issue_date: '2026-04-01', due_date: '2026-04-08', valid_until: null,
      });
      expect(byId[paid]).toMatchObject({ total: 114.99, paid: 114.99, balance: 0, payment_status: 'paid', paid_date: '2026-05-03', due_date: '2026-05-31' });
      expect(byId[quote]).toMatchObject({ type: 'quote', reference: expect.stringMatching(/^QTE-\d{4}$/), total: 115, payment_status: 'unpaid', valid_until: '2026-05-15' });
      expect(r.json.summary).toEqual({
        invoiced_total: 402.49, // 230.00 + 114.99 + 57.50
        paid_total: 144.99, // 30.00 + 114.99
        outstanding_balance: 257.5, // 200.00 + 57.50
        overdue_balance: 200,
        quote_count: 1,
        invoice_count: 4,
      });
    });

    it('has an empty history and zero sums for a new client; an expired quote shows as expired', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'New' });
      expect((await t.get(`/clients/${c.id}/documents`, u.token)).json).toEqual({
        client: c, documents: [],
        summary: { invoiced_total: 0, paid_total: 0, outstanding_balance: 0, overdue_balance: 0, quote_count: 0, invoice_count: 0 },
      });
      await draft(t, u.userId, { type: 'quote', client: snapshotOf(c), lines: [line('1', '10')], issueDate: '2026-01-05' });
      expect((await t.get(`/clients/${c.id}/documents`, u.token)).json.documents[0].status).toBe('expired');
    });

    it('dates status by the New Zealand day: due yesterday in NZ is overdue while it is still that day in UTC', async () => {
      const u = await signUp(t);
      const c = await add(u.token, { name: 'Timezone' });
      // 5 May NZ (the clock): an invoice issued 28 April on 7 days is due 5 May — not overdue today.
      await draft(t, u.userId, { type: 'invoice', client: snapshotOf(c), lines: [line('1', '10')], issueDate: '2026-04-28' });
      // issued 27 April (handed over on site), due 4 May: overdue in NZ although the UTC date is still 4 May.
      const handedOver = await draft(t, u.userId, { type: 'invoice', client: snapshotOf(c), lines: [line('1', '20')], issueDate: '2026-04-27' });
      await apply(t, u.userId, handedOver, { type: 'MarkIssued' });
      const r = await t.get(`/clients/${c.id}/documents`, u.token);
      expect(r.json.documents.map((x: { due_date: string; status: string }) => [x.due_date, x.status])).toEqual([['2026-05-05', 'draft'], ['2026-05-04', 'overdue']]);
      expect(r.json.summary).toMatchObject({ outstanding_balance: 34.5, overdue_balance: 23 });
    });
  });

  describe('properties', () => {
    const text = (max: number) =>
      fc.string({ unit: 'binary', maxLength: max }).map((s) => s.replaceAll('\u0000', '')).filter((s) => s.length <= max);
    const email = fc.stringMatching(/^[a-zA-Z0-9]{1,10}([._+-][a-zA-Z0-9]{1,8})?@[a-z0-9]{1,10}(-[a-z0-9]{1,5})?\.[a-z]{2,6}$/);
    const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const body = fc.record(
      {
        name: text(200).filter((s) => s.trim() !== ''),
        email: fc.oneof(email, fc.constant(''), email.map((e) => ` ${e} `)),
        phone: text(50),
        address: text(1000),
        is_business: fc.constantFrom('true', 'false', true, false),
        business_name: text(200),
        company_number: text(50),
        gst_number: fc.oneof(text(50), fc.constantFrom('49-091-850', '49-091-851', '136410132')),
        notes: text(5000),
        default_payment_terms: fc.constantFrom(...PAYMENT_TERMS),
        unknown_field: optional(fc.jsonValue()),
      },
      { requiredKeys: ['name'] },
    );
    const normalised = (b: Record<string, unknown>) => ({
      name: String(b.name).trim(),
      email: String(b.email ?? '').trim(),
      phone: String(b.phone ?? '').trim(),
      address: String(b.address ?? '').trim(),
      is_business: b.is_business === true || b.is_business === 'true' ? 'true' : 'false',
      business_name: String(b.business_name ?? '').trim(),
      company_number: String(b.company_number ?? '').trim(),
      gst_number: String(b.gst_number ?? '').trim(),
      notes: String(b.notes ?? '').trim(),
      default_payment_terms: b.default_payment_terms ?? '7 days',
    });

    it('any valid client body round-trips: POST then GET equals the normalised input', async () => {
      const u = await signUp(t);
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const created = await t.post('/clients', b, u.token);
          expect(created.status).toBe(201);
          const { id, version, warnings, ...fields } = created.json;
          expect(fields).toEqual(normalised(b));
          expect(version).toBe(1);
          expect(Array.isArray(warnings)).toBe(true);
          const got = await t.get(`/clients/${id}`, u.token);
          expect(got.json).toEqual(created.json);
        }),
        { numRuns: 60 },
      );
    });
  });
});
