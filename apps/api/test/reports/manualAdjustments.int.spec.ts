// Boxes 9 and 13 typed by hand from the return's calculation sheet: the report, its CSV and the
// CSV's download link carry them; Box 10 = Box 8 + Box 9, Box 14 = Box 12 + Box 13, Box 15 = 10 − 14,
// as the purchases oracle works them. Anything but dollars and cents of 0 or more is refused with words.
//
// Worked by hand: a $230.00 sale (Box 5 230.00, Box 8 30.00) and a $115.00 receipt (Box 11 115.00,
// Box 12 15.00), with $12.34 of debit adjustments and $1.50 of credit adjustments: Box 9 12.34,
// Box 10 42.34, Box 13 1.50, Box 14 16.50, Box 15 25.84.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { oraclePurchaseBoxes } from '@tradie/testkit/oracle/purchases';
import { signUp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();
const RANGE = 'start_date=2026-05-01&end_date=2026-06-30';

describe('GST report: adjustments typed from the calculation sheet', () => {
  it('Boxes 9 and 13 count in Boxes 10, 14 and 15 on screen, in the CSV and through its link', async () => {
    const u = await signUp(t);
    const sale = await t.post('/invoices', { type: 'invoice', issue_date: '2026-05-10', line_items: [{ description: 'Labour', qty: 1, unit_price: 230, tax_included: true, tax_rate: 0.15 }] }, u.token);
    expect((await t.post(`/invoices/${sale.json.id}/mark-paid`, { date: '2026-05-12', method: 'cash' }, u.token)).status).toBeLessThan(300);
    const receipt = { kind: 'receipt', supplier: 'Plumbing World', date: '2026-05-05', paid_date: '2026-05-05', amount: '115.00', gst: 'standard', category: 'materials' };
    expect((await t.post('/costs', receipt, u.token)).status).toBe(201);

    const plain = (await t.get(`/reports/gst?${RANGE}&basis=invoice`, u.token)).json.gst_return;
    expect(plain).toMatchObject({ box8: 30, box9: 0, box10: 30, box11: 115, box12: 15, box13: 0, box14: 15, box15: 15 });

    for (const basis of ['invoice', 'payments'] as const) {
      const r = await t.get(`/reports/gst?${RANGE}&basis=${basis}&debit_adjustments=12.34&credit_adjustments=1.50`, u.token);
      expect(r.status, r.text).toBe(200);
      expect(r.json.gst_return).toEqual({ box5: 230, box6: 0, box7: 230, box8: 30, box9: 12.34, box10: 42.34, box11: 115, box12: 15, box13: 1.5, box14: 16.5, box15: 25.84 });
      const oracle = oraclePurchaseBoxes([{ amount: '115.00', gst: 'standard', held: false, credit: false, date: '2026-05-05', paidDate: '2026-05-05', category: 'materials' }], '2026-05-01', '2026-06-30', basis, true, 4234n, 150n);
      expect(oracle).toEqual({ box11: 11500n, box12: 1500n, box13: 150n, box14: 1650n, box15: 2584n });
    }

    // The CSV through its download link, as the screen downloads it.
    const link = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-05-01', end_date: '2026-06-30', basis: 'invoice', debit_adjustments: '12.34', credit_adjustments: '1.50' }, u.token);
    expect(link.status, link.text).toBe(200);
    expect(link.json.url).toContain('debit_adjustments=12.34');
    const csv = await t.call('GET', link.json.url.replace(/^\/api\/v1/, ''), {});
    expect(csv.status, csv.text).toBe(200);
    const rows = parse(csv.text, { bom: true, relax_column_count: true }) as string[][];
    const box = (n: number) => rows.find((r) => r[0] === `Box ${n}`)!;
    expect([box(9)[5], box(10)[5], box(13)[5], box(14)[5], box(15)[5]]).toEqual(['12.34', '42.34', '1.50', '16.50', '25.84']);
    // A link made without them still opens, and its CSV has none.
    const bare = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-05-01', end_date: '2026-06-30', basis: 'invoice' }, u.token);
    expect(bare.json.url).not.toContain('adjustments');
    const bareCsv = parse((await t.call('GET', bare.json.url.replace(/^\/api\/v1/, ''), {})).text, { bom: true, relax_column_count: true }) as string[][];
    expect(bareCsv.find((r) => r[0] === 'Box 9')![5]).toBe('0.00');
    // The typed Boxes are signed into the link: changed, dropped or added, the link is refused and
    // shows nothing (a Box 15 the business never typed cannot be downloaded in its name).
    const changed = (url: string, edit: (q: URLSearchParams) => void): string => {
      const u = new URL(url, 'http://x');
      edit(u.searchParams);
      return `${u.pathname.replace(/^\/api\/v1/, '')}?${u.searchParams.toString()}`;
    };
    const tampered = [
      changed(link.json.url, (q) => q.set('debit_adjustments', '0')),
      changed(link.json.url, (q) => q.set('credit_adjustments', '999.00')),
      changed(link.json.url, (q) => q.delete('debit_adjustments')),
      changed(bare.json.url, (q) => q.set('credit_adjustments', '1000.00')),
    ];
    for (const u of tampered) {
      const r = await t.call('GET', u, {});
      expect(r.status, u).toBe(403);
      expect(r.text).not.toContain('Box 15');
    }
  });

  for (const [query, detail] of [
    ['debit_adjustments=abc', 'Debit adjustments (Box 9) must be an amount in dollars and cents, 0 or more'],
    ['debit_adjustments=-5', 'Debit adjustments (Box 9) must be an amount in dollars and cents, 0 or more'],
    ['credit_adjustments=1.005', 'Credit adjustments (Box 13) must be an amount in dollars and cents, 0 or more'],
    ['credit_adjustments=200000000', 'Credit adjustments (Box 13) must be at most $100,000,000.00'],
  ] as const) {
    it(`refuses ${query} with a detail`, async () => {
      const u = await signUp(t);
      const r = await t.get(`/reports/gst?${RANGE}&basis=invoice&${query}`, u.token);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(detail);
    });
  }
});
