import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, monthOf, nzDateOf, type LocalDate } from '../dates/dates.ts';
import { checkRange, gstReport } from './gstReport.ts';
import { gstCarryNotice, gstCarryOf, periodLabel, type GstExportRecord } from './gstCarry.ts';
import type { ReportInvoiceRow } from './rows.ts';

/** An issued invoice's report row: `total` cents GST-inclusive at 15 %, counted on `supplyDate`, first issued at `issuedAt`. */
function row(id: string, supplyDate: LocalDate, issuedAt: string, total: bigint, paid = false): ReportInvoiceRow {
  const gst = (total * 3n) / 23n;
  return {
    documentId: id, reference: `INV-${id}`, issueDate: supplyDate, month: monthOf(supplyDate), supplyDate, supplyMonth: monthOf(supplyDate), issuedAt,
    clientName: 'Hine Walker', clientGstNumber: '', subtotalCents: total - gst, gstCents: gst, totalCents: total, zeroRatedCents: 0n,
    paid, paidDate: null, voidDate: null, voidMonth: null,
  };
}

const report = (invoices: ReportInvoiceRow[], start: LocalDate, end: LocalDate, exports: GstExportRecord[] = []) =>
  gstReport({ invoices, payments: [] }, checkRange(start, end), 'invoice', exports);

describe('a backdated invoice issued after its GST period was exported', () => {
  // Jan–Feb 2027 exported for the accountant at 10:00 on 15 March 2027 (NZDT, +13).
  const janFeb: GstExportRecord = { start: '2027-01-01', end: '2027-02-28', at: '2027-03-14T21:00:00.000Z' };
  // Issued on 20 March, dated 10 February: $1,150.00, GST $150.00.
  const late = row('late', '2027-02-10', '2027-03-19T22:00:00.000Z', 115000n);
  const onTime = row('on-time', '2027-02-03', '2027-02-03T01:00:00.000Z', 23000n, true);

  it('keeps Jan–Feb as exported and lists it as an adjustment to carry in Mar–Apr', () => {
    const exported = report([onTime], '2027-01-01', '2027-02-28');
    const janFebNow = report([onTime, late], '2027-01-01', '2027-02-28', [janFeb]);
    expect(janFebNow).toEqual(exported);
    expect(janFebNow.total_sales).toBe(230);

    const marApr = report([onTime, late], '2027-03-01', '2027-04-30', [janFeb]);
    expect(marApr.total_sales).toBe(1150);
    expect(marApr.total_gst_collected).toBe(150);
    expect(marApr.gst_return.box5).toBe(1150);
    expect(marApr.breakdown_by_month[0]).toEqual({ month: '2027-03', sales: 1150, gst: 150, count: 1 });
    expect(marApr.adjustments_to_carry).toEqual({
      count: 1, sales: 1150, gst: 150,
      invoices: [{ reference: 'INV-late', client_name: 'Hine Walker', issue_date: '2027-02-10', supply_date: '2027-02-10', carried_to: '2027-03-20', exported_period: 'Jan–Feb 2027', sales: 1150, gst: 150 }],
    });
  });

  it('says so when it is issued', () => {
    const carry = gstCarryOf(late, [janFeb]);
    expect(carry).toEqual({ exported: { start: '2027-01-01', end: '2027-02-28' }, carryDate: '2027-03-20' });
    expect(gstCarryNotice(carry!)).toBe(
      'This invoice counts for GST in Jan–Feb 2027, a GST period you have already exported for your accountant. ' +
        'It will be listed as an adjustment to carry in the GST report that includes 20 March 2027; the figures you exported stay as they were.',
    );
  });

  it('is not carried when the export came after it was issued, or holds another period', () => {
    expect(gstCarryOf(late, [{ ...janFeb, at: '2027-03-20T01:00:00.000Z' }])).toBeNull();
    expect(gstCarryOf(late, [{ start: '2026-11-01', end: '2026-12-31', at: janFeb.at }])).toBeNull();
    expect(gstCarryOf({ ...late, issuedAt: null }, [janFeb])).toBeNull();
  });

  it('goes to the first period not yet closed by an export, on or after the day it was issued', () => {
    // Dated 10 February, issued 20 May after Jan–Feb and Mar–Apr were both exported once they ended.
    const marApr: GstExportRecord = { start: '2027-03-01', end: '2027-04-30', at: '2027-05-09T21:00:00.000Z' };
    const later = row('later', '2027-02-10', '2027-05-19T22:00:00.000Z', 115000n);
    expect(gstCarryOf(later, [janFeb, marApr])).toEqual({ exported: { start: '2027-01-01', end: '2027-02-28' }, carryDate: '2027-05-20' });
    // Mar–Apr looked at on 17 March, while it was still running, closes nothing: issued 20 March it stays in March.
    const look: GstExportRecord = { start: '2027-03-01', end: '2027-04-30', at: '2027-03-16T21:00:00.000Z' };
    expect(gstCarryOf(late, [janFeb, look])?.carryDate).toBe('2027-03-20');
  });

  it('is never carried by a report downloaded while its period was still running', () => {
    const running: GstExportRecord = { start: '2027-03-01', end: '2027-04-30', at: '2027-03-16T21:00:00.000Z' };
    expect(gstCarryOf(row('march', '2027-03-10', '2027-03-19T22:00:00.000Z', 115000n), [running])).toBeNull();
    // Downloaded on the period's last day (NZ time) it still closes nothing; the next morning it does.
    expect(gstCarryOf(row('april', '2027-04-10', '2027-05-01T22:00:00.000Z', 115000n), [{ ...running, at: '2027-04-30T11:00:00.000Z' }])).toBeNull();
    expect(gstCarryOf(row('april', '2027-04-10', '2027-05-01T22:00:00.000Z', 115000n), [{ ...running, at: '2027-04-30T12:30:00.000Z' }])).not.toBeNull();
  });

  it('names whole months as a tradie does, and other ranges by their days', () => {
    expect(periodLabel({ start: '2027-03-01', end: '2027-03-31' })).toBe('Mar 2027');
    expect(periodLabel({ start: '2026-12-01', end: '2027-01-31' })).toBe('Dec 2026–Jan 2027');
    expect(periodLabel({ start: '2027-01-05', end: '2027-02-28' })).toBe('5 January 2027 – 28 February 2027');
  });
});

const base = Date.parse('2026-04-01T00:00:00.000Z');
const HOUR = 3_600_000;
const instantArb = fc.integer({ min: 0, max: 24 * 365 }).map((h) => new Date(base + h * HOUR).toISOString());
const exportArb: fc.Arbitrary<GstExportRecord> = fc
  .record({ from: fc.integer({ min: -30, max: 330 }), days: fc.integer({ min: 0, max: 90 }), at: instantArb })
  .map(({ from, days, at }) => ({ start: addDays('2026-04-01', from), end: addDays('2026-04-01', from + days), at }));
/** An invoice issued at some instant, counting for GST on that NZ day or up to 120 days before (backdated). */
const rowArb = (id: number) =>
  fc.record({ at: instantArb, back: fc.integer({ min: 0, max: 120 }), cents: fc.bigInt({ min: 1n, max: 10_000_000n }), paid: fc.boolean() })
    .map(({ at, back, cents, paid }) => row(`r${id}`, addDays(nzDateOf(at), -back), at, cents, paid));
const rowsArb = fc.integer({ min: 0, max: 25 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rowArb(i))));

describe('adjustments to carry, for any invoices and exports', () => {
  it('a carried invoice goes to a day on or after the day it was issued that no earlier export holds', () => {
    fc.assert(
      fc.property(rowsArb, fc.array(exportArb, { maxLength: 4 }), (rows, exports) => {
        for (const r of rows) {
          const carry = gstCarryOf(r, exports);
          // Only exports made before it was issued, after their range had ended (NZ time), count.
          const earlier = exports.filter((e) => Date.parse(e.at) < Date.parse(r.issuedAt!) && nzDateOf(e.at) > e.end);
          expect(carry !== null).toBe(earlier.some((e) => r.supplyDate >= e.start && r.supplyDate <= e.end));
          if (!carry) continue;
          expect(carry.carryDate >= nzDateOf(r.issuedAt!)).toBe(true);
          expect(earlier.some((e) => carry.carryDate >= e.start && carry.carryDate <= e.end)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('what an export showed never changes: invoices issued after it leave its range as it was', () => {
    fc.assert(
      fc.property(rowsArb, exportArb, fc.array(exportArb, { maxLength: 2 }), (rows, exported, others) => {
        // An export made once its range had ended (one made while it ran is a look, not a filing).
        fc.pre(nzDateOf(exported.at) > exported.end);
        const before = rows.filter((r) => Date.parse(r.issuedAt!) <= Date.parse(exported.at));
        // At the export, the range showed the invoices issued until then (with the exports made until then).
        const earlier = others.filter((e) => Date.parse(e.at) <= Date.parse(exported.at));
        const then = report(before, exported.start, exported.end, earlier);
        const now = report(rows, exported.start, exported.end, [exported, ...others]);
        expect(now.total_sales).toBe(then.total_sales);
        expect(now.total_gst_collected).toBe(then.total_gst_collected);
        expect(now.breakdown_by_month).toEqual(then.breakdown_by_month);
        expect(now.gst_return).toEqual(then.gst_return);
      }),
      { numRuns: 300 },
    );
  });

  it('moves GST between periods, never adds or loses any: over a range holding every date the totals are those without exports', () => {
    fc.assert(
      fc.property(rowsArb, fc.array(exportArb, { maxLength: 4 }), (rows, exports) => {
        const all = report(rows, '2025-01-01', '2028-12-31', exports);
        const plain = report(rows, '2025-01-01', '2028-12-31');
        expect(all.total_sales).toBe(plain.total_sales);
        expect(all.total_gst_collected).toBe(plain.total_gst_collected);
        expect(all.invoice_count).toBe(plain.invoice_count);
        expect(all.paid_invoices_count).toBe(plain.paid_invoices_count);
        expect(plain.adjustments_to_carry).toEqual({ count: 0, sales: 0, gst: 0, invoices: [] });
        expect(all.adjustments_to_carry.count).toBe(rows.filter((r) => gstCarryOf(r, exports) !== null).length);
      }),
      { numRuns: 300 },
    );
  });
});
