// The clients API on a real PostgreSQL server (postgres.js): the driver-sensitive parts —
// bigint sums read as text, search and order over non-ASCII names, and real concurrency.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_WRITE_DETAIL } from '../../src/http/problem.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { clientCalls } from './calls.ts';
import { apply, draft, line, snapshotOf } from './documents.ts';

describe('clients API on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await freshDatabaseUrl('clients') });
  });
  afterAll(() => t.close());

  const { add, names } = clientCalls(() => t);

  it("creates with defaults and '' for blanks, warns on a bad GST number, and reads back the same record", async () => {
    const u = await signUp(t);
    const r = await t.post('/clients', { name: ' Aroha ', gst_number: '49-091-851', is_business: true }, u.token);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: expect.any(String), name: 'Aroha', email: '', phone: '', address: '', is_business: 'true', business_name: '', company_number: '',
      gst_number: '49-091-851', notes: '', default_payment_terms: '7 days', version: 1,
      warnings: [{ field: 'gst_number', message: "This GST number doesn't look valid — please check it" }],
    });
    expect((await t.get(`/clients/${r.json.id}`, u.token)).json).toEqual(r.json);
  });

  it('sorts case- and accent-insensitively and searches non-ASCII text like PGlite does', async () => {
    const u = await signUp(t);
    for (const name of ['Pita', 'Ōtaki Plumbing', 'nikau', 'Ātea Builders', 'bravo']) await add(u.token, { name });
    await add(u.token, { name: 'Zed', business_name: 'ĀTAWHAI Homes' });
    expect(await names(u.token)).toEqual(['Ātea Builders', 'bravo', 'nikau', 'Ōtaki Plumbing', 'Pita', 'Zed']);
    expect(await names(u.token, `?q=${encodeURIComponent('ōTAKI')}`)).toEqual(['Ōtaki Plumbing']);
    expect(await names(u.token, `?q=${encodeURIComponent('ātawhai')}`)).toEqual(['Zed']);
    expect(await names(u.token, '?q=a&limit=2')).toEqual(['Ātea Builders', 'bravo']);
  });

  it("another account's client is 404 on every verb", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const c = await add(owner.token, { name: 'Mine' });
    for (const r of [
      await t.get(`/clients/${c.id}`, other.token),
      await t.put(`/clients/${c.id}`, { name: 'Theirs' }, other.token),
      await t.del(`/clients/${c.id}`, other.token),
      await t.get(`/clients/${c.id}/documents`, other.token),
    ]) expect(r.status).toBe(404);
    expect((await t.get(`/clients/${c.id}`, owner.token)).json).toEqual(c);
  });

  it('concurrent POSTs with the same Idempotency-Key create exactly one client and all answer it', async () => {
    const u = await signUp(t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.post('/clients', { name: 'Weak Signal' }, u.token, { 'Idempotency-Key': 'tap-tap-tap' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    for (const a of answers) expect(a.json).toEqual(answers[0]!.json);
    expect(await names(u.token)).toEqual(['Weak Signal']);
    const [row] = await t.deps.store.db.query<{ n: string }>("SELECT count(*)::text AS n FROM events WHERE account_id = $1 AND event_type = 'ClientAdded'", [u.userId]);
    expect(row?.n).toBe('1');
  });

  it('concurrent POSTs without a key each create a client', async () => {
    const u = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => t.post('/clients', { name: `Client ${i}` }, u.token)));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(8);
    expect(await names(u.token)).toHaveLength(8);
  });

  it('two edits made at the same version: exactly one saves, the other is told to reload (409)', async () => {
    const u = await signUp(t);
    const c = await add(u.token, { name: 'Contested' });
    const answers = await Promise.all(['Edit A', 'Edit B', 'Edit C'].map((name) => t.put(`/clients/${c.id}`, { name, version: 1 }, u.token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.json.detail).toBe(STALE_WRITE_DETAIL);
    const winner = answers.find((a) => a.status === 200)!.json;
    expect((await t.get(`/clients/${c.id}`, u.token)).json).toEqual(winner);
    expect(winner.version).toBe(2);
  });

  it("deleting a client keeps its invoices and their client name; the history sums whole cents read as text", async () => {
    const u = await signUp(t);
    const c = await add(u.token, { name: 'Tui Harris', email: 'tui@harris.nz' });
    const snap = snapshotOf(c);
    // 3 × $33.33 = $99.99 + GST $15.00 = $114.99; $0.01 paid
    const a = await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('3', '33.33')], issueDate: '2026-04-01' });
    await apply(t, u.userId, a, { type: 'RecordPayment', data: { paymentId: 'p1', amount: '0.01', date: '2026-04-02', method: 'card', reference: '' } });
    // a large invoice: $12,345,678.90 + GST $1,851,851.83 (1,851,851.835: s 19O rounds the half cent down) = $14,197,530.73, due in 30 days
    await draft(t, u.userId, { type: 'invoice', client: snap, lines: [line('1', '12345678.90')], issueDate: '2026-05-01', paymentTerms: '30 days' });
    await draft(t, u.userId, { type: 'quote', client: snap, lines: [line('1', '10')], issueDate: '2026-05-01' });
    const h = await t.get(`/clients/${c.id}/documents`, u.token);
    expect(h.status).toBe(200);
    expect(h.json.summary).toEqual({
      invoiced_total: 14197645.72, paid_total: 0.01, outstanding_balance: 14197645.71, overdue_balance: 114.98, quote_count: 1, invoice_count: 2,
    });
    expect((await t.del(`/clients/${c.id}`, u.token)).status).toBe(204);
    expect((await t.get(`/clients/${c.id}/documents`, u.token)).status).toBe(404);
    const rows = await t.deps.store.db.query<{ client_name: string }>('SELECT client_name FROM documents_list WHERE account_id = $1 AND client_id = $2', [u.userId, c.id]);
    expect(rows.map((r) => r.client_name)).toEqual(['Tui Harris', 'Tui Harris', 'Tui Harris']);
  });
});
