// Costs, hours and a job's profit on a real PostgreSQL server (postgres.js): the driver-sensitive
// parts — dates, booleans and bigint cents read back through postgres.js, the GST report's
// purchases on both bases, and another account's entries never seen.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

describe('costs and hours on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await freshDatabaseUrl('costs') });
  });
  afterAll(() => t.close());

  it('records, lists by job and dates, changes and deletes; the GST report and job profit read them; another account sees none', async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const quote = (await t.post('/invoices', { type: 'quote', line_items: [{ description: 'Pipe', qty: 10, unit_price: 20, tax_included: false, tax_rate: 0.15, cost: 12, category: 'materials' }] }, u.token)).json;
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(200);
    const cost = await t.post('/costs', { kind: 'bill', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-06-01', amount: '230.00', supply_information_held: true, job_id: quote.id }, u.token);
    expect(cost.status).toBe(201);
    expect(cost.json).toMatchObject({ date: '2026-05-05', paid_date: '2026-06-01', amount: '230.00', gst_claimed: '30.00', supply_information_held: true, credit: false, version: 1 });
    expect((await t.get(`/costs/${cost.json.id}`, u.token)).json).toEqual(cost.json);
    const hours = await t.post('/hours', { who: 'Tama', date: '2026-05-06', hours: '2.5', rate: '40', job_id: quote.id }, u.token);
    expect(hours.json).toMatchObject({ date: '2026-05-06', hours: '2.5', rate: '40', cost: '100.00' });
    expect((await t.get(`/costs?job_id=${quote.id}&from=2026-05-01&to=2026-05-31`, u.token)).json.costs).toEqual([cost.json]);
    expect((await t.get(`/hours?job_id=${quote.id}`, u.token)).json.hours).toEqual([hours.json]);

    // Invoice basis: May has the bill (Box 11 230.00, Box 12 30.00); payments basis: June has it.
    const may = (await t.get('/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=invoice', u.token)).json.gst_return;
    expect(may).toMatchObject({ box11: 230, box12: 30, box14: 30 });
    expect((await t.get('/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=payments', u.token)).json.gst_return).toMatchObject({ box11: 0 });
    expect((await t.get('/reports/gst?start_date=2026-06-01&end_date=2026-06-30&basis=payments', u.token)).json.gst_return).toMatchObject({ box11: 230, box12: 30 });

    // Actual: 230 − 30 = 200.00 materials, 100.00 labour.
    expect((await t.get(`/jobs/${quote.id}/profit`, u.token)).json).toMatchObject({ quoted_cost: '120.00', actual_cost: '300.00', invoiced_net: '0.00', profit_so_far: '-300.00' });

    expect((await t.get(`/costs/${cost.json.id}`, other.token)).status).toBe(404);
    expect((await t.get(`/jobs/${quote.id}/profit`, other.token)).status).toBe(404);
    expect((await t.get('/costs', other.token)).json.costs).toEqual([]);

    const changed = await t.put(`/costs/${cost.json.id}`, { supplier: 'Plumbing World', date: '2026-05-05', amount: '115.00', version: 1 }, u.token);
    expect(changed.json).toMatchObject({ amount: '115.00', paid_date: null, job_id: null, version: 2 });
    expect((await t.del(`/hours/${hours.json.id}`, u.token)).status).toBe(204);
    expect((await t.get('/hours', u.token)).json.hours).toEqual([]);
    const [row] = await t.deps.store.db.query<{ amount_cents: string; paid_date: unknown; credit: boolean }>('SELECT amount_cents::text AS amount_cents, paid_date, credit FROM costs WHERE id = $1', [cost.json.id]);
    expect(row).toEqual({ amount_cents: '11500', paid_date: null, credit: false });
  });
});
