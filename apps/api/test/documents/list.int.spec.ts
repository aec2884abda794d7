// GET /invoices and GET /invoices/counts: the record's exact fields, newest first, keyset pages
// with X-Next-Cursor and X-Total-Count, every filter, status derived for today, and counts.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { listCalls, ok } from './listSupport.ts';
import { addClient, line, signInAgain } from './support.ts';

const t = useTestApp();
const { make } = listCalls(t);

const ids = (records: { id: string }[]): string[] => records.map((r) => r.id);

describe('GET /invoices', () => {
  it('answers an array of records with exactly the list fields, newest first', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Mere', email: 'mere@example.nz' });
    const first = await make(u, { type: 'quote', client_id: clientId });
    const second = await make(u, { client_id: clientId, line_items: [line('Hot water cylinder', 1, 1999.99)] });
    const r = await t.get('/invoices', u.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('X-Total-Count')).toBe('2');
    expect(r.headers.get('X-Next-Cursor')).toBeNull();
    expect(ids(r.json)).toEqual([second.id, first.id]);
    expect(Object.keys(r.json[0]).sort()).toEqual(
      ['balance', 'client_name', 'due_date', 'extra_data', 'id', 'issue_date', 'job_title', 'paid_date', 'payment_status', 'reference', 'site_address', 'status', 'total', 'type'].sort(),
    );
    expect(r.json[0]).toEqual({
      id: second.id, type: 'invoice', reference: 'INV-0001', status: 'draft', client_name: 'Mere', total: 2299.99, payment_status: 'unpaid',
      paid_date: null, extra_data: {}, issue_date: '2026-05-05', due_date: '2026-05-12', balance: 2299.99, job_title: '', site_address: '',
    });
    expect(r.json[1]).toMatchObject({ type: 'quote', reference: 'QTE-0001', total: 115 });
  });

  it('pages with a cursor: every document once, in order, and a new document does not shift the pages', async () => {
    const u = await signUp(t);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await make(u, { line_items: [line(`Job ${i}`, 1, i + 1)] })).id);
    const newestFirst = [...made].reverse();

    const p1 = await t.get('/invoices?limit=3', u.token);
    expect(ids(p1.json)).toEqual(newestFirst.slice(0, 3));
    expect(p1.headers.get('X-Total-Count')).toBe('7');
    const c1 = p1.headers.get('X-Next-Cursor');
    expect(c1).toMatch(/^[A-Za-z0-9_-]+$/);

    await make(u, {}); // lands before page 1, never inside the next pages
    const p2 = await t.get(`/invoices?limit=3&cursor=${c1}`, u.token);
    expect(ids(p2.json)).toEqual(newestFirst.slice(3, 6));
    expect(p2.headers.get('X-Total-Count')).toBe('8');
    const p3 = await t.get(`/invoices?limit=3&cursor=${p2.headers.get('X-Next-Cursor')}`, u.token);
    expect(ids(p3.json)).toEqual(newestFirst.slice(6));
    expect(p3.headers.get('X-Next-Cursor')).toBeNull();
  });

  it('gives 50 records by default, up to 200 when asked, and refuses other limits and broken cursors', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 52; i++) await make(u, {});
    const r = await t.get('/invoices', u.token);
    expect(r.json).toHaveLength(50);
    expect(r.headers.get('X-Total-Count')).toBe('52');
    const rest = await t.get(`/invoices?cursor=${r.headers.get('X-Next-Cursor')}`, u.token);
    expect(rest.json).toHaveLength(2);
    expect((await t.get('/invoices?limit=200', u.token)).json).toHaveLength(52);
    for (const bad of ['0', '201', 'abc', '-1', '1.5']) {
      const b = await t.get(`/invoices?limit=${bad}`, u.token);
      expect(b.status).toBe(422);
      expect(b.json.detail).toBe('limit must be a whole number from 1 to 200');
    }
    for (const bad of ['nonsense', 'czEyMw==', Buffer.from('s1; DROP TABLE events').toString('base64url'), '%00']) {
      const b = await t.get(`/invoices?cursor=${bad}`, u.token);
      expect(b.status).toBe(422);
    }
    expect((await t.get('/invoices?type=receipt', u.token)).status).toBe(422);
    expect((await t.get('/invoices?status=paid,bogus', u.token)).json.detail).toMatch(/^status must be one of/);
    expect((await t.get('/invoices?from=yesterday', u.token)).json.detail).toBe('Dates are written YYYY-MM-DD');
  });

  it('filters by type, client, search text and issue-date range', async () => {
    const u = await signUp(t);
    const kiri = await addClient(t, u.userId, { name: 'Kiri Tane', email: 'kiri@tane.nz' });
    const bob = await addClient(t, u.userId, { name: 'Bob', is_business: 'true', business_name: 'Whangārei Plumbing' });
    const q1 = await make(u, { type: 'quote', client_id: kiri, issue_date: '2026-04-01' });
    const i1 = await make(u, { client_id: kiri, issue_date: '2026-04-15' });
    const i2 = await make(u, { client_id: bob, issue_date: '2026-05-01' });
    const i3 = await make(u, { issue_date: '2026-05-05' });

    const get = async (q: string) => {
      const r = await t.get(`/invoices?${q}`, u.token);
      expect(r.status).toBe(200);
      expect(r.headers.get('X-Total-Count')).toBe(String(r.json.length));
      return ids(r.json);
    };
    expect(await get('type=quote')).toEqual([q1.id]);
    expect(await get('type=invoice')).toEqual([i3.id, i2.id, i1.id]);
    expect(await get(`client_id=${kiri}`)).toEqual([i1.id, q1.id]);
    expect(await get(`client_id=${kiri}&type=invoice`)).toEqual([i1.id]);
    expect(await get('q=KIRI')).toEqual([i1.id, q1.id]);
    expect(await get('q=tane.nz')).toEqual([i1.id, q1.id]);
    expect(await get('q=whangārei')).toEqual([i2.id]);
    expect(await get('q=inv-0002')).toEqual([i2.id]);
    expect(await get('q=%25')).toEqual([]); // a % is text, not a wildcard
    expect(await get('from=2026-04-15')).toEqual([i3.id, i2.id, i1.id]);
    expect(await get('to=2026-04-15')).toEqual([i1.id, q1.id]);
    expect(await get('from=2026-04-02&to=2026-05-01')).toEqual([i2.id, i1.id]);
  });

  it('derives status for today, and the status filter agrees with the detail for every status', async () => {
    const u = await signUp(t);
    const withEmail = await addClient(t, u.userId, { name: 'Aroha', email: 'aroha@example.nz' });
    const made: Record<string, string> = {};
    made.draft = (await make(u, {})).id;
    made.sent = (await make(u, { client_id: withEmail })).id;
    await ok(t.post(`/invoices/${made.sent}/send`, undefined, u.token));
    made.partial = (await make(u, {})).id;
    await ok(t.post(`/invoices/${made.partial}/payments`, { amount: 10 }, u.token), 201);
    made.paid = (await make(u, {})).id;
    await ok(t.post(`/invoices/${made.paid}/mark-paid`, undefined, u.token));
    made.overdue = (await make(u, { issue_date: '2026-03-01', due_date: '2026-03-08' })).id;
    await ok(t.post(`/invoices/${made.overdue}/issue`, undefined, u.token));
    made.issued = (await make(u, {})).id;
    await ok(t.post(`/invoices/${made.issued}/issue`, undefined, u.token));
    made.oldDraft = (await make(u, { issue_date: '2026-03-01', due_date: '2026-03-08' })).id; // never issued: never overdue
    made.void = (await make(u, {})).id;
    await ok(t.post(`/invoices/${made.void}/void`, undefined, u.token));
    made.quoteDraft = (await make(u, { type: 'quote' })).id;
    made.expired = (await make(u, { type: 'quote', issue_date: '2026-03-01' })).id;
    made.accepted = (await make(u, { type: 'quote' })).id;
    await ok(t.post(`/invoices/${made.accepted}/accept`, undefined, u.token));
    made.declined = (await make(u, { type: 'quote' })).id;
    await ok(t.post(`/invoices/${made.declined}/decline`, undefined, u.token));
    made.converted = (await make(u, { type: 'quote' })).id;
    await ok(t.post(`/invoices/${made.converted}/convert`, undefined, u.token), 201);

    const list = (await t.get('/invoices?limit=200', u.token)).json as { id: string; status: string }[];
    const statusOf = new Map(list.map((r) => [r.id, r.status]));
    expect(Object.fromEntries(Object.entries(made).map(([k, id]) => [k, statusOf.get(id)]))).toEqual({
      draft: 'draft', sent: 'sent', partial: 'partial', paid: 'paid', overdue: 'overdue', issued: 'issued', oldDraft: 'draft', void: 'void',
      quoteDraft: 'draft', expired: 'expired', accepted: 'accepted', declined: 'declined', converted: 'converted',
    });
    for (const r of list) expect((await t.get(`/invoices/${r.id}`, u.token)).json.status).toBe(r.status);
    for (const status of ['draft', 'issued', 'sent', 'accepted', 'declined', 'converted', 'expired', 'partial', 'paid', 'overdue', 'void']) {
      const filtered = (await t.get(`/invoices?status=${status}&limit=200`, u.token)).json as { id: string }[];
      expect(ids(filtered).sort()).toEqual(list.filter((r) => r.status === status).map((r) => r.id).sort());
    }
    const several = await t.get('/invoices?status=paid,partial&type=invoice', u.token);
    expect(ids(several.json).sort()).toEqual([made.paid, made.partial].sort());
    expect(several.headers.get('X-Total-Count')).toBe('2');
  });

  it('an unpaid invoice turns overdue when its due date passes, without any event', async () => {
    const u = await signUp(t);
    const inv = await make(u, {}); // due 12 May
    await ok(t.post(`/invoices/${inv.id}/issue`, undefined, u.token)); // handed over on site
    const before = t.clock.now().toISOString();
    try {
      expect((await t.get('/invoices', u.token)).json[0].status).toBe('issued');
      t.clock.set('2026-05-12T11:59:00Z'); // 11:59 pm on 12 May in NZ: still due today
      const token = await signInAgain(t, u);
      expect((await t.get('/invoices', token)).json[0].status).toBe('issued');
      expect((await t.get('/invoices?status=overdue', token)).json).toEqual([]);
      t.clock.set('2026-05-12T12:00:00Z'); // midnight: 13 May in NZ
      expect((await t.get('/invoices', token)).json[0].status).toBe('overdue');
      expect((await t.get(`/invoices/${inv.id}`, token)).json.status).toBe('overdue');
      expect(ids((await t.get('/invoices?status=overdue', token)).json)).toEqual([inv.id]);
      const events = await t.deps.store.readStream(`document-${inv.id}`);
      expect(events.version).toBe(2); // drafted and issued: nothing was appended when the day passed
    } finally {
      t.clock.set(before);
    }
  });

  it("never shows another account's documents, whatever the filter", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const theirClient = await addClient(t, other.userId, { name: 'Theirs' });
    await make(other, { client_id: theirClient });
    await make(other, { type: 'quote' });
    const mine = await make(u, {});
    expect(ids((await t.get('/invoices', u.token)).json)).toEqual([mine.id]);
    expect((await t.get(`/invoices?client_id=${theirClient}`, u.token)).json).toEqual([]);
    expect((await t.get('/invoices?q=theirs', u.token)).json).toEqual([]);
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 0, invoices: 1 });
    expect((await t.get('/invoices')).status).toBe(401);
  });
});

describe('GET /invoices/counts', () => {
  it('counts quotes and invoices for the tabs, equal to the list totals', async () => {
    const u = await signUp(t);
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 0, invoices: 0 });
    for (let i = 0; i < 3; i++) await make(u, { type: 'quote' });
    for (let i = 0; i < 2; i++) await make(u, {});
    const draft = await make(u, {});
    expect((await t.del(`/invoices/${draft.id}`, u.token)).status).toBe(200); // a deleted draft is gone from both
    const counts = (await t.get('/invoices/counts', u.token)).json;
    expect(counts).toEqual({ quotes: 3, invoices: 2 });
    expect((await t.get('/invoices?type=quote', u.token)).headers.get('X-Total-Count')).toBe('3');
    expect((await t.get('/invoices?type=invoice', u.token)).headers.get('X-Total-Count')).toBe('2');
  });
});
