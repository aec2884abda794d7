// Paid, unpaid, credited and refunded named apart, against the independent oracle.
//
// Worked by hand (tax year 2026–27):
// - INV-0001: 1 × $873.50 incl. GST (subtotal 759.57, GST 113.93), paid $873.50 on 5 May 2026;
//   credited $80.00 on 10 June (GST 80 × 113.93/873.50 = 10.434… → 10.43, subtotal 69.57), and the
//   $80.00 paid back on 12 June.
// - INV-0002: $240.00 + GST = $276.00, issued 5 May, unpaid.
// - INV-0003: $240.00 + GST = $276.00, issued 5 May, voided 10 June.
// Revenue: 759.57 + 240.00 + 240.00 − 240.00 (void) − 69.57 (credit) = 930.00. Paid: INV-0001 is paid
// in full, so it and its credit note are paid revenue: 759.57 − 69.57 = 690.00; unpaid the rest,
// 240.00 (not $759.57 / $170.43, which counted the whole paid invoice as paid and its credit as
// unpaid). Credited −69.57; refunded $80.00. The GST report for June–July names its corrections:
// 1 invoice voided and 1 credit note, −$356.00 (276.00 + 80.00) — not '2 invoices voided'. The
// payments CSV's Total calls the $80.00 paid back a refund, not a removed payment.
import { parse } from 'csv-parse/sync';
import { oracleAnnualSummary, oracleGstReport, type OracleInvoice } from '@tradie/testkit/oracle/oracle';
import { describe, expect, it } from 'vitest';
import { signUp, TestClock, useTestApp } from '../support/testApp.ts';
import { line } from '../documents/support.ts';

const clock = new TestClock('2026-05-04T21:30:00.000Z'); // 5 May 2026 in NZ
const t = useTestApp({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: String(365 * 86_400) } });
const onDay = (date: string): void => clock.set(`${date}T00:00:00.000Z`);

const ORACLE: OracleInvoice[] = [
  {
    id: 'a', issueDate: '2026-05-05', client: '', lines: [{ qty: '1', unitPrice: '873.50', inclusive: true, rate: '0.15' }], rounding: 'total', issued: true,
    steps: [{ kind: 'pay', id: 'p', cents: 87350n, date: '2026-05-05' }], voidDate: null,
    credits: [{ id: 'cn', date: '2026-06-10', cents: 8000n, refunds: [{ date: '2026-06-12', cents: 8000n }] }],
  },
  { id: 'b', issueDate: '2026-05-05', client: '', lines: [{ qty: '1', unitPrice: '240', inclusive: false, rate: '0.15' }], rounding: 'total', issued: true, steps: [], voidDate: null },
  { id: 'c', issueDate: '2026-05-05', client: '', lines: [{ qty: '1', unitPrice: '240', inclusive: false, rate: '0.15' }], rounding: 'total', issued: true, steps: [], voidDate: '2026-06-10' },
];

describe('paid, unpaid, credited and refunded, named apart', () => {
  it('the annual summary, the GST report and the CSVs of a year with a credit note, a refund and a void', async () => {
    onDay('2026-05-05');
    const u = await signUp(t);
    const make = async (unit: string, incl: boolean) => {
      const r = await t.post('/invoices', { type: 'invoice', issue_date: '2026-05-05', line_items: [line('Work', 1, unit, { tax_included: incl })] }, u.token);
      expect(r.status).toBe(201);
      expect((await t.post(`/invoices/${r.json.id}/issue`, {}, u.token)).status).toBe(200);
      return r.json.id as string;
    };
    const a = await make('873.50', true);
    await make('240', false);
    const c = await make('240', false);
    expect((await t.post(`/invoices/${a}/payments`, { amount: '873.50', date: '2026-05-05' }, u.token)).status).toBe(201);
    onDay('2026-06-10');
    const cn = await t.post(`/invoices/${a}/credit-notes`, { amount: '80.00', reason: 'Labour not needed' }, u.token);
    expect(cn.json).toMatchObject({ subtotal: 69.57, gst: 10.43, total: 80 });
    expect((await t.post(`/invoices/${c}/void`, { reason: 'Raised twice' }, u.token)).status).toBe(200);
    onDay('2026-06-12');
    expect((await t.post(`/credit-notes/${cn.json.id}/refunds`, { amount: 80, date: '2026-06-12', method: 'bank_transfer', reference: '' }, u.token)).status).toBe(201);

    const annual = (await t.get('/reports/annual?year=2027', u.token)).json;
    const { year: _y, label: _l, start_date: _s, end_date: _e, ...figures } = annual;
    expect(figures).toEqual(oracleAnnualSummary(ORACLE, 2027));
    expect(annual).toMatchObject({
      total_revenue: 930, paid_revenue: 690, unpaid_revenue: 240,
      credited: { count: 1, revenue: -69.57, gst: -10.43 }, voided: { count: 1, revenue: -240, gst: -36 }, refunded: { count: 1, amount: 80 },
    });

    const gst = (await t.get('/reports/gst?start_date=2026-06-01&end_date=2026-07-31&basis=invoice', u.token)).json;
    const { basis: _b, start_date: _gs, end_date: _ge, ...gstFigures } = gst;
    expect(gstFigures).toEqual(oracleGstReport(ORACLE, '2026-06-01', '2026-07-31', 'invoice'));
    expect(gst.corrections).toEqual({ count: 2, sales: -356, gst: -46.43, invoices_voided: 1, credit_notes: 1, payments_removed: 0, refunds: 0 });
    const byPayments = (await t.get('/reports/gst?start_date=2026-06-01&end_date=2026-07-31&basis=payments', u.token)).json;
    expect(byPayments.corrections).toMatchObject({ count: 1, sales: -80, invoices_voided: 0, credit_notes: 0, payments_removed: 0, refunds: 1 });

    // The payments CSV's Total row calls the money paid back a refund.
    const paymentsCsv = parse((await t.get('/reports/export/gst-csv?start_date=2026-05-01&end_date=2026-07-31&basis=payments', u.token)).text, { bom: true }) as string[][];
    expect(paymentsCsv.find((r) => r[0] === 'Total')![2]).toBe('1 payment (1 refund) on 1 invoice');
    // The annual CSV: Paid and Unpaid as the summary, and Credited and Refunded apart.
    const annualCsv = parse((await t.get('/reports/export/annual-csv?year=2027', u.token)).text, { bom: true }) as string[][];
    const row = (label: string) => annualCsv.find((r) => r[0] === label)!;
    expect([row('Total')[4], row('Paid')[4], row('Unpaid')[4], row('Credited')[4], row('Refunded')[6]]).toEqual(['930.00', '690.00', '240.00', '-69.57', '80.00']);
  });
});
