// Adjustments to carry against the independent oracle: random invoice histories, some issued well
// after the date written on them (backdated), and random GST exports made at random moments; the
// domain's replay of the GST report on the invoice basis equals the oracle's, carried invoices included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRange, gstReport, reportRowsFromEvents, type GstReport } from '@tradie/domain';
import { addDays, oracleInvoicesArb } from '../src/oracle/arbitraries.ts';
import { oracleGstReport, type OracleExport, type OracleInvoice } from '../src/oracle/oracle.ts';
import { oracleInvoiceEvents } from '../src/oracle/toEvents.ts';

/** The domain's report as the oracle models it: no range or basis, carried invoices by their dates and amounts. */
const figures = ({ basis: _b, start_date: _s, end_date: _e, adjustments_to_carry: a, ...rest }: GstReport) => ({
  ...rest,
  adjustments_to_carry: { ...a, invoices: sorted(a.invoices.map((i) => ({ supply_date: i.supply_date, carried_to: i.carried_to, sales: i.sales, gst: i.gst }))) },
});
const sorted = <T extends { carried_to: string; supply_date: string; sales: number }>(xs: T[]): T[] =>
  [...xs].sort((a, b) => a.carried_to.localeCompare(b.carried_to) || a.supply_date.localeCompare(b.supply_date) || a.sales - b.sales);
const oracle = (invoices: OracleInvoice[], start: string, end: string, exports: OracleExport[]) => {
  const o = oracleGstReport(invoices, start, end, 'invoice', exports);
  return { ...o, adjustments_to_carry: { ...o.adjustments_to_carry, invoices: sorted(o.adjustments_to_carry.invoices) } };
};

/** The histories with some issued invoices handed over 1–150 days after their date (backdated). */
const backdatedArb = fc.tuple(oracleInvoicesArb({ maxInvoices: 14 }), fc.array(fc.option(fc.integer({ min: 1, max: 150 }), { nil: null, freq: 2 }), { minLength: 14, maxLength: 14 }))
  .map(([invoices, late]) => invoices.map((inv, i): OracleInvoice => (inv.issued && inv.issuedOn === inv.issueDate && late[i] != null ? { ...inv, issuedOn: addDays(inv.issueDate, late[i]!) } : inv)));

/** Two-monthly GST periods (Feb–Mar, Apr–May, …) and other ranges, exported at any hour of a day in 2026–2028. */
const exportArb: fc.Arbitrary<OracleExport> = fc
  .record({ period: fc.integer({ min: 0, max: 14 }), odd: fc.option(fc.tuple(fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 70 })), { nil: null, freq: 3 }), day: fc.integer({ min: 0, max: 900 }), hour: fc.integer({ min: 0, max: 23 }) })
  .map(({ period, odd, day, hour }) => {
    const at = `${addDays('2026-01-01', day)}T${String(hour).padStart(2, '0')}:00:00.000Z`;
    if (odd) return { start: addDays('2026-01-01', odd[0]), end: addDays('2026-01-01', odd[0] + odd[1]), at };
    const first = new Date(Date.UTC(2026, 1 + 2 * period, 1));
    const last = new Date(Date.UTC(2026, 3 + 2 * period, 0));
    return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10), at };
  });

const ranges = fc.tuple(fc.integer({ min: -40, max: 900 }), fc.integer({ min: 0, max: 400 })).map(([from, length]) => {
  const start = addDays('2026-01-01', from);
  return { start, end: addDays(start, length) };
});

describe('adjustments to carry: the domain\'s replay equals the oracle', () => {
  it('GST report on the invoice basis with backdated invoices and exports made before and after they were issued', () => {
    fc.assert(
      fc.property(backdatedArb, fc.array(exportArb, { minLength: 1, maxLength: 4 }), fc.array(ranges, { minLength: 1, maxLength: 3 }), (invoices, exports, rs) => {
        const rows = reportRowsFromEvents(invoices.flatMap((inv, i) => oracleInvoiceEvents(inv, 'acct-oracle', i + 1)));
        for (const { start, end } of [...rs, ...exports]) {
          expect(figures(gstReport(rows, checkRange(start, end), 'invoice', exports)), `${start}–${end}`).toEqual(oracle(invoices, start, end, exports));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a hand-worked case: dated 10 Feb 2027, issued 20 Apr 2027 after Feb–Mar was exported on 15 Apr: carried to 20 Apr, Feb–Mar unchanged', () => {
    // 1 × $1,000.00 + GST = $1,150.00, GST $150.00.
    const inv: OracleInvoice = {
      id: 'late', issueDate: '2027-02-10', issuedOn: '2027-04-20', client: 'Hine Walker', lines: [{ qty: '1', unitPrice: '1000', inclusive: false, rate: '0.15' }],
      rounding: 'total', issued: true, steps: [], voidDate: null,
    };
    const exported: OracleExport = { start: '2027-02-01', end: '2027-03-31', at: '2027-04-14T21:00:00.000Z' };
    const rows = reportRowsFromEvents(oracleInvoiceEvents(inv, 'acct', 1));
    const febMar = gstReport(rows, checkRange('2027-02-01', '2027-03-31'), 'invoice', [exported]);
    expect(febMar.total_sales).toBe(0);
    const aprMay = gstReport(rows, checkRange('2027-04-01', '2027-05-31'), 'invoice', [exported]);
    expect(aprMay.adjustments_to_carry).toMatchObject({ count: 1, sales: 1150, gst: 150, invoices: [{ carried_to: '2027-04-20', exported_period: 'Feb–Mar 2027' }] });
    expect(figures(aprMay)).toEqual(oracle([inv], '2027-04-01', '2027-05-31', [exported]));
  });
});
