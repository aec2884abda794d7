// The purchases side of the GST return from stored costs: costs recorded through the API show in
// Boxes 11–15 of the GST report and of its CSV, on the invoice basis (by the supplier's invoice
// date) and the payments basis (by the date paid), equal to the independent oracle.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type OracleCost, oraclePurchaseBoxes } from '@tradie/testkit/oracle/purchases';
import { signUp, useTestApp } from '../support/testApp.ts';

const START = '2026-05-01';
const END = '2026-06-30';

const dateArb = fc.constantFrom('2026-04-30', '2026-05-01', '2026-05-20', '2026-06-30', '2026-07-01');
const costArb: fc.Arbitrary<OracleCost> = fc.record({
  amount: fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.constantFrom(20_000, 20_001)).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`),
  gst: fc.constantFrom('standard' as const, 'none' as const),
  held: fc.boolean(),
  credit: fc.boolean(),
  date: dateArb,
  paidDate: fc.option(dateArb, { nil: null }),
  category: fc.constant('materials'),
});

const cents = (dollars: number): bigint => BigInt(Math.round(dollars * 100));
const csvCents = (cell: string | undefined): bigint => cents(Number(cell ?? ''));

describe('GST report: Boxes 11–15 from stored costs', () => {
  const t = useTestApp();

  it('the report and its CSV equal the oracle, both bases, registered or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(costArb, { maxLength: 8 }), fc.boolean(), async (costs, registered) => {
        const u = await signUp(t);
        // A sale in the period so Box 10 is not 0: $230 incl. GST.
        const sale = await t.post('/invoices', { type: 'invoice', line_items: [{ description: 'Labour', qty: 1, unit_price: 230, tax_included: true, tax_rate: 0.15 }], issue_date: '2026-05-10' }, u.token);
        expect(sale.status).toBe(201);
        expect((await t.post(`/invoices/${sale.json.id}/mark-paid`, { date: '2026-05-12', method: 'cash' }, u.token)).status).toBeLessThan(300);
        for (const c of costs) {
          const r = await t.post('/costs', { supplier: 'Supplier', date: c.date, paid_date: c.paidDate, amount: c.amount, gst: c.gst, supply_information_held: c.held, credit: c.credit, category: c.category }, u.token);
          expect(r.status, r.text).toBe(201);
        }
        if (!registered) await t.deps.store.db.query('UPDATE business_settings SET gst_registered = false WHERE account_id = $1', [u.userId]);
        for (const basis of ['invoice', 'payments'] as const) {
          const report = await t.get(`/reports/gst?start_date=${START}&end_date=${END}&basis=${basis}`, u.token);
          expect(report.status).toBe(200);
          const boxes = report.json.gst_return as Record<string, number>;
          const want = oraclePurchaseBoxes(costs, START, END, basis, registered, cents(boxes['box10']!));
          const got = { box11: cents(boxes['box11']!), box12: cents(boxes['box12']!), box13: cents(boxes['box13']!), box14: cents(boxes['box14']!), box15: cents(boxes['box15']!) };
          expect(got, basis).toEqual(want);

          const csv = await t.get(`/reports/export/gst-csv?start_date=${START}&end_date=${END}&basis=${basis}`, u.token);
          const rows = parse(csv.text, { bom: true }) as string[][];
          const box = (n: number): string[] => rows.find((r) => r[0] === `Box ${n}`)!;
          expect(csvCents(box(11)[6])).toBe(want.box11);
          expect(csvCents(box(12)[5])).toBe(want.box12);
          expect(csvCents(box(14)[5])).toBe(want.box14);
          expect(csvCents(box(15)[5])).toBe(want.box15);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('a worked period: a receipt, a bill paid later, a supplier credit and a receipt over $200 without the tax invoice', async () => {
    const u = await signUp(t);
    const post = async (body: Record<string, unknown>) => expect((await t.post('/costs', { supplier: 'Supplier', gst: 'standard', ...body }, u.token)).status).toBe(201);
    await post({ date: '2026-05-05', paid_date: '2026-05-05', amount: '115.00' }); // receipt, claimed
    await post({ kind: 'bill', date: '2026-06-20', paid_date: '2026-07-20', amount: '184.00', supply_information_held: true }); // paid after the period
    await post({ kind: 'bill', date: '2026-06-25', paid_date: '2026-06-25', amount: '23.00', credit: true, supply_information_held: true }); // supplier credit
    await post({ date: '2026-05-07', paid_date: '2026-05-07', amount: '460.00' }); // over $200, no tax invoice: not claimed
    // Invoice basis: 115 + 184 − 23 = 276.00; Box 12 = 276 × 3/23 = 36.00.
    const inv = (await t.get(`/reports/gst?start_date=${START}&end_date=${END}&basis=invoice`, u.token)).json.gst_return;
    expect(inv).toMatchObject({ box11: 276, box12: 36, box13: 0, box14: 36, box15: -36 });
    // Payments basis: the bill paid in July is out: 115 − 23 = 92.00; Box 12 = 12.00.
    const pay = (await t.get(`/reports/gst?start_date=${START}&end_date=${END}&basis=payments`, u.token)).json.gst_return;
    expect(pay).toMatchObject({ box11: 92, box12: 12, box13: 0, box14: 12, box15: -12 });
  });
});
