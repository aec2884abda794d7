// GET /jobs/{quoteId}/profit: a job's real profit from its accepted quote, the invoices made from
// it less their credit notes, and the costs and hours recorded against it; equal to the
// independent oracle's job profit; another account's job is 404.
import { describe, expect, it } from 'vitest';
import { oracleJobProfit } from '@tradie/testkit/oracle/purchases';
import { signUp, useTestApp } from '../support/testApp.ts';

// Quoted: pipe 10 × $20 (cost $12) = sell 200.00, cost 120.00; labour 5 × $85 (cost $40) = 425.00, 200.00.
const LINES = [
  { description: 'Copper pipe', qty: 10, unit_price: 20, tax_included: false, tax_rate: 0.15, cost: 12, category: 'materials' },
  { description: 'Labour', qty: 5, unit_price: 85, tax_included: false, tax_rate: 0.15, cost: 40, category: 'labour' },
];

describe('job profit', () => {
  const t = useTestApp();

  it('quoted, actual by category, invoiced net of credits, profit so far, and the overrun warning — equal to the oracle', async () => {
    const u = await signUp(t);
    const quote = (await t.post('/invoices', { type: 'quote', line_items: LINES }, u.token)).json;
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, u.token)).status).toBe(200);
    const invoice = (await t.post(`/invoices/${quote.id}/convert`, undefined, u.token)).json;
    expect((await t.post(`/invoices/${invoice.id}/issue`, undefined, u.token)).status).toBe(200);
    // A credit of $57.50 incl. GST: $50.00 off the invoiced net.
    expect((await t.post(`/invoices/${invoice.id}/credit-notes`, { amount: '57.50', reason: 'Discount' }, u.token)).status).toBe(201);

    const costs = [
      // Claimed: 161.00 − 21.00 GST = 140.00.
      { amount: '161.00', gst: 'standard' as const, held: false, credit: false, date: '2026-05-05', paidDate: '2026-05-05', category: 'materials' },
      // No GST: 23.00 whole.
      { amount: '23.00', gst: 'none' as const, held: false, credit: false, date: '2026-05-06', paidDate: null, category: 'Materials' },
    ];
    for (const c of costs) {
      expect((await t.post('/costs', { supplier: 'Plumbing World', date: c.date, paid_date: c.paidDate, amount: c.amount, gst: c.gst, category: c.category, job_id: quote.id }, u.token)).status).toBe(201);
    }
    const hours = [{ hours: '3', rate: '45.50' }];
    expect((await t.post('/hours', { who: 'Tama', date: '2026-05-05', hours: '3', rate: '45.50', job_id: quote.id }, u.token)).status).toBe(201);
    // A cost not on the job changes nothing.
    expect((await t.post('/costs', { supplier: 'Z Energy', date: '2026-05-05', amount: '80.00', category: 'fuel' }, u.token)).status).toBe(201);

    const r = await t.get(`/jobs/${quote.id}/profit`, u.token);
    expect(r.status).toBe(200);
    // Materials 140 + 23 = 163.00 against 120.00: 35.83 % → 36 % over. Labour 136.50 against 200.00.
    // Invoiced 625.00 − 50.00 = 575.00; actual 299.50; profit 275.50.
    expect(r.json).toEqual({
      quote_id: quote.id, quote_number: quote.reference, client_name: '', quoted_sell: '625.00', quoted_cost: '320.00',
      quoted_by_category: [{ category: 'materials', cost: '120.00' }, { category: 'labour', cost: '200.00' }],
      actual_by_category: [{ category: 'labour', cost: '136.50' }, { category: 'materials', cost: '163.00' }],
      actual_cost: '299.50', invoiced_net: '575.00', profit_so_far: '275.50',
      warnings: ['Materials are 36 % over the quote'],
    });
    const oracle = oracleJobProfit(57500n, costs, hours, true);
    expect(r.json.actual_cost).toBe((Number(oracle.actual) / 100).toFixed(2));
    expect(r.json.profit_so_far).toBe((Number(oracle.profit) / 100).toFixed(2));
    // A higher threshold: no warning.
    expect((await t.get(`/jobs/${quote.id}/profit?over=40`, u.token)).json.warnings).toEqual([]);
    expect((await t.get(`/jobs/${quote.id}/profit?over=lots`, u.token)).status).toBe(422);
  });

  it("another account's job, a quote not accepted and an invoice are 404", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const quote = (await t.post('/invoices', { type: 'quote', line_items: LINES }, a.token)).json;
    expect((await t.get(`/jobs/${quote.id}/profit`, a.token)).status).toBe(404);
    expect((await t.post(`/invoices/${quote.id}/accept`, undefined, a.token)).status).toBe(200);
    expect((await t.get(`/jobs/${quote.id}/profit`, a.token)).status).toBe(200);
    expect((await t.get(`/jobs/${quote.id}/profit`, b.token)).status).toBe(404);
    const invoice = (await t.post('/invoices', { type: 'invoice', line_items: LINES }, a.token)).json;
    expect((await t.get(`/jobs/${invoice.id}/profit`, a.token)).status).toBe(404);
    expect((await t.get('/jobs/not-an-id/profit', a.token)).status).toBe(404);
  });
});
