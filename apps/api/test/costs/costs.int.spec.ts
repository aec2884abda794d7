// /api/v1/costs and /api/v1/hours through the HTTP app on PGlite: record, list by job and dates,
// change with version, delete; refusals (4xx with a detail) write nothing; another account's
// entries are 404; the GST claimed on each cost follows the domain's claim rule.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp, type TestApp } from '../support/testApp.ts';
import { eventCount } from '../reliability/support.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const RECEIPT = { kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-06', amount: '86.25', gst: 'standard', category: 'Materials', note: 'Fittings' };

async function acceptedQuote(t: TestApp, u: User): Promise<string> {
  const q = await t.post('/invoices', { type: 'quote', line_items: [{ description: 'Copper pipe', qty: 10, unit_price: 20, tax_included: false, tax_rate: 0.15, cost: 12, category: 'materials' }] }, u.token);
  expect(q.status).toBe(201);
  expect((await t.post(`/invoices/${q.json.id}/accept`, undefined, u.token)).status).toBe(200);
  return q.json.id as string;
}

describe('costs API', () => {
  const t = useTestApp();

  it('needs a signed-in user on every route', async () => {
    for (const [method, path] of [['GET', '/costs'], ['POST', '/costs'], ['GET', '/costs/x'], ['PUT', '/costs/x'], ['DELETE', '/costs/x'], ['GET', '/hours'], ['POST', '/hours']] as const) {
      const r = await t.call(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: RECEIPT });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });

  it('records a receipt: GST claimed is 3/23 of it; reads it back; replays an Idempotency-Key', async () => {
    const u = await signUp(t);
    const r = await t.call('POST', '/costs', { json: RECEIPT, token: u.token, headers: { 'Idempotency-Key': 'cost-1' } });
    expect(r.status).toBe(201);
    // 86.25 × 3/23 = 11.25.
    expect(r.json).toEqual({
      id: expect.any(String), kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-06', amount: '86.25', gst: 'standard',
      gst_claimed: '11.25', not_claimed_reason: null, supply_information_held: false, credit: false, category: 'materials', job_id: null, note: 'Fittings', version: 1, gst_notice: null, receipt: null, xero_bill: null,
    });
    expect((await t.get(`/costs/${r.json.id}`, u.token)).json).toEqual(r.json);
    const again = await t.call('POST', '/costs', { json: RECEIPT, token: u.token, headers: { 'Idempotency-Key': 'cost-1' } });
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(r.json.id);
    expect((await t.get('/costs', u.token)).json.costs).toHaveLength(1);
  });

  it('over $200 without the supplier’s tax invoice the GST is not claimed, and says why; with it, it is', async () => {
    const u = await signUp(t);
    const big = await t.post('/costs', { ...RECEIPT, amount: '230.00' }, u.token);
    expect(big.json).toMatchObject({ gst_claimed: '0.00', not_claimed_reason: expect.stringContaining('Over $200') });
    const held = await t.put(`/costs/${big.json.id}`, { ...RECEIPT, amount: '230.00', supply_information_held: true, version: 1 }, u.token);
    expect(held.status).toBe(200);
    expect(held.json).toMatchObject({ gst_claimed: '30.00', not_claimed_reason: null, version: 2 });
    expect((await t.put(`/costs/${big.json.id}`, { ...RECEIPT, version: 1 }, u.token)).status).toBe(409);
  });

  it.each([
    [{ ...RECEIPT, amount: '-5' }, 'The amount must be more than $0.00'],
    [{ ...RECEIPT, amount: '0' }, 'The amount must be more than $0.00'],
    [{ ...RECEIPT, amount: '1.005' }, 'The amount must be in dollars and cents (at most 2 decimal places)'],
    [{ ...RECEIPT, date: '2026-02-30' }, 'The date must be a real calendar day written as YYYY-MM-DD'],
    [{ ...RECEIPT, paid_date: 'yesterday' }, 'The date paid must be a real calendar day written as YYYY-MM-DD'],
    [{ ...RECEIPT, supplier: '  ' }, 'Supplier is required'],
    [{ ...RECEIPT, job_id: '00000000-0000-4000-8000-000000000000' }, 'That job was not found: choose one of your accepted quotes.'],
    [{ ...RECEIPT, gst: 'half' }, "gst must be 'standard' (15 % included) or 'none'"],
  ])('refuses %j with a detail, writing nothing', async (body, detail) => {
    const u = await signUp(t);
    const before = await eventCount(t, u.userId);
    const r = await t.post('/costs', body, u.token);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.stringify(r.json)).toContain(detail);
    expect(await eventCount(t, u.userId)).toBe(before);
  });

  it('refuses GST on a cost of a business not registered for GST; no GST is fine', async () => {
    const u = await signUp(t);
    await t.deps.store.db.query('UPDATE business_settings SET gst_registered = false WHERE account_id = $1', [u.userId]);
    const r = await t.post('/costs', RECEIPT, u.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toContain('not registered for GST');
    const none = await t.post('/costs', { ...RECEIPT, gst: 'none' }, u.token);
    expect(none.status).toBe(201);
    expect(none.json).toMatchObject({ gst_claimed: '0.00', not_claimed_reason: 'Your business is not registered for GST, so GST on costs is not claimed.' });
  });

  it('costs and hours against a job: only an accepted quote of the account; lists filter by job and dates', async () => {
    const u = await signUp(t);
    const job = await acceptedQuote(t, u);
    const draft = await t.post('/invoices', { type: 'quote', line_items: [{ description: 'Labour', qty: 1, unit_price: 85, tax_included: false, tax_rate: 0.15 }] }, u.token);
    expect(draft.status).toBe(201);
    expect((await t.post('/costs', { ...RECEIPT, job_id: draft.json.id }, u.token)).status).toBe(422);
    const onJob = await t.post('/costs', { ...RECEIPT, job_id: job }, u.token);
    expect(onJob.status).toBe(201);
    await t.post('/costs', { ...RECEIPT, kind: 'expense', supplier: 'Z Energy', category: 'fuel', date: '2026-06-01', paid_date: null }, u.token);
    const hours = await t.post('/hours', { who: 'Tama', date: '2026-05-05', hours: '3', rate: '45.50', job_id: job, note: 'Rough-in' }, u.token);
    expect(hours.status).toBe(201);
    // 3 × 45.50 = 136.50.
    expect(hours.json).toMatchObject({ who: 'Tama', hours: '3', rate: '45.50', cost: '136.50', job_id: job, version: 1 });
    expect((await t.post('/hours', { date: '2026-05-05', hours: '25' }, u.token)).json.detail).toBe('Hours must be at most 24 in a day');
    expect((await t.post('/hours', { date: '2026-05-05', hours: '2', job_id: 'nope' }, u.token)).status).toBe(422);

    expect((await t.get(`/costs?job_id=${job}`, u.token)).json.costs.map((c: { id: string }) => c.id)).toEqual([onJob.json.id]);
    expect((await t.get('/costs?job_id=none', u.token)).json.costs.map((c: { supplier: string }) => c.supplier)).toEqual(['Z Energy']);
    expect((await t.get('/costs?from=2026-06-01&to=2026-06-30', u.token)).json.costs).toHaveLength(1);
    expect((await t.get('/costs?kind=expense', u.token)).json.costs).toHaveLength(1);
    expect((await t.get('/costs?from=2026-13-01', u.token)).status).toBe(422);
    expect((await t.get(`/hours?job_id=${job}`, u.token)).json.hours).toHaveLength(1);
    const changed = await t.put(`/hours/${hours.json.id}`, { date: '2026-05-05', hours: '1.25', rate: '45.50', job_id: job, version: 1 }, u.token);
    // 1.25 × 45.50 = 56.875 → 56.88 (half away from zero).
    expect(changed.json).toMatchObject({ cost: '56.88', version: 2 });
    expect((await t.del(`/hours/${hours.json.id}`, u.token)).status).toBe(204);
    expect((await t.get(`/hours/${hours.json.id}`, u.token)).status).toBe(404);
    expect((await t.del(`/costs/${onJob.json.id}`, u.token)).status).toBe(204);
    expect((await t.get(`/costs/${onJob.json.id}`, u.token)).status).toBe(404);
    expect((await t.del(`/costs/${onJob.json.id}`, u.token)).status).toBe(404);
  });

  it("another account's costs and hours are 404 on every route, and its jobs cannot be used", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const job = await acceptedQuote(t, a);
    const cost = await t.post('/costs', RECEIPT, a.token);
    const hours = await t.post('/hours', { date: '2026-05-05', hours: '2' }, a.token);
    expect((await t.get(`/costs/${cost.json.id}`, b.token)).status).toBe(404);
    expect((await t.put(`/costs/${cost.json.id}`, { ...RECEIPT, version: 1 }, b.token)).status).toBe(404);
    expect((await t.del(`/costs/${cost.json.id}`, b.token)).status).toBe(404);
    expect((await t.get(`/hours/${hours.json.id}`, b.token)).status).toBe(404);
    expect((await t.put(`/hours/${hours.json.id}`, { date: '2026-05-05', hours: '2', version: 1 }, b.token)).status).toBe(404);
    expect((await t.del(`/hours/${hours.json.id}`, b.token)).status).toBe(404);
    expect((await t.get('/costs', b.token)).json.costs).toEqual([]);
    expect((await t.get('/hours', b.token)).json.hours).toEqual([]);
    expect((await t.post('/costs', { ...RECEIPT, job_id: job }, b.token)).status).toBe(422);
    expect((await t.get(`/costs/${cost.json.id}`, a.token)).status).toBe(200);
  });
});
