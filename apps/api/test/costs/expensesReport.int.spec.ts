// GET /reports/expenses: a tax year's expenses (costs by the supplier's invoice date, each without
// the GST claimed back) beside the Annual Summary's own revenue, and the net profit before tax —
// worked out by hand here; another account's costs are not in it; a wrong year is refused.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';

describe('the tax year’s expenses and net profit', () => {
  const t = useTestApp();

  it('hand-worked: revenue from the annual summary, claimed GST off, unclaimed kept, a credit taking away', async () => {
    const u = await signUp(t);
    // A sale in the tax year ending March 2026: $1,000.00 + GST, marked paid.
    const sale = await t.post('/invoices', { type: 'invoice', line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 1000, tax_included: false, tax_rate: 0.15 }], issue_date: '2025-06-10' }, u.token);
    expect(sale.status).toBe(201);
    expect((await t.post(`/invoices/${sale.json.id}/mark-paid`, { date: '2025-06-12', method: 'cash' }, u.token)).status).toBeLessThan(300);
    const costs = [
      { supplier: 'Plumbing World', date: '2025-05-05', amount: '161.00', category: 'materials' }, // 161.00 less 21.00 claimed = 140.00
      { supplier: 'Mitre 10', date: '2025-08-01', amount: '230.00', category: 'equipment' }, // over $200, no tax invoice: 230.00 whole
      { supplier: 'Plumbing World', date: '2025-09-01', amount: '11.50', credit: true, category: 'materials' }, // credit: −10.00
      { supplier: 'Z Energy', date: '2026-01-15', amount: '50.00', gst: 'none', category: 'Fuel' }, // no GST: 50.00
      { supplier: 'Mitre 10', date: '2026-04-01', amount: '999.00', category: 'equipment' }, // the next tax year
    ];
    for (const c of costs) expect((await t.post('/costs', c, u.token)).status).toBe(201);
    const other = await signUp(t);
    expect((await t.post('/costs', { supplier: 'Elsewhere', date: '2025-05-05', amount: '500.00' }, other.token)).status).toBe(201);

    const r = await t.get('/reports/expenses?year=2026', u.token);
    expect(r.status).toBe(200);
    const annual = (await t.get('/reports/annual?year=2026', u.token)).json;
    expect(r.json).toEqual({
      year: 2026,
      label: annual.label,
      start_date: '2025-04-01',
      end_date: '2026-03-31',
      revenue: 1000,
      expenses: 410,
      count: 4,
      by_category: [
        { category: 'equipment', amount: 230 },
        { category: 'materials', amount: 130 },
        { category: 'fuel', amount: 50 },
      ],
      net_profit_before_tax: 590,
    });
    expect(r.json.revenue).toBe(annual.total_revenue);

    // A cost recorded later is in the next answer (no stale memo).
    expect((await t.post('/costs', { supplier: 'Spark', date: '2025-10-01', amount: '115.00', category: 'phone' }, u.token)).status).toBe(201);
    const after = (await t.get('/reports/expenses?year=2026', u.token)).json;
    expect([after.expenses, after.net_profit_before_tax]).toEqual([510, 490]);

    expect((await t.get('/reports/expenses?year=1999', u.token)).status).toBe(422);
  });
});
