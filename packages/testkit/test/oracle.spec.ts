// The domain against the independent oracle: document totals over random documents, and the GST
// report (both bases) and annual summary over random invoice histories — payments, removals, voids
// in later periods, drafts. The oracle shares no code with the domain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annualSummary, checkRange, documentTotals, gstReport, reportRowsFromEvents, type GstReport } from '@tradie/domain';
import { addDays, oracleDocumentArb, oracleInvoicesArb, withCreditsArb } from '../src/oracle/arbitraries.ts';
import { S19O_THREE_LINE_VECTORS, S19O_VECTORS } from '../src/oracle/gstVectors.ts';
import { oracleAnnualSummary, oracleGstReport, oracleTotals, type OracleLine } from '../src/oracle/oracle.ts';
import { oracleInvoiceEvents, toDomainLine } from '../src/oracle/toEvents.ts';

const cents = (dollars: string): bigint => {
  const [w, f = ''] = dollars.split('.');
  return BigInt(w!) * 100n + BigInt(f.padEnd(2, '0'));
};

describe('the oracle itself, on the s 19O vectors', () => {
  it.each(S19O_VECTORS)('%s: %s %s → GST %s', (_id, kind, amount, gst) => {
    const line: OracleLine = { qty: '1', unitPrice: amount, inclusive: kind === 'incl', rate: '0.15' };
    for (const rounding of ['total', 'line'] as const) expect(oracleTotals([line], rounding).gst).toBe(cents(gst));
  });

  it.each(S19O_THREE_LINE_VECTORS)('%s: three lines of %s %s → %s per line, %s on the total', (_id, kind, amount, perLine, onTotal) => {
    const lines = [1, 2, 3].map((): OracleLine => ({ qty: '1', unitPrice: amount, inclusive: kind === 'incl', rate: '0.15' }));
    expect(oracleTotals(lines, 'line').gst).toBe(cents(perLine));
    expect(oracleTotals(lines, 'total').gst).toBe(cents(onTotal));
  });
});

describe('document totals: the domain equals the oracle', () => {
  it('random documents: GST on and off, 0.0001 price steps, 3-decimal quantities, up to 100 lines, both rounding settings', () => {
    fc.assert(
      fc.property(oracleDocumentArb(100), ({ lines, rounding }) => {
        const o = oracleTotals(lines, rounding);
        const d = documentTotals(lines.map(toDomainLine), rounding);
        expect({ subtotal: d.subtotalCents, gst: d.gstCents, total: d.totalCents, zero: d.zeroRatedCents, lines: d.lines.map((l) => l.amountCents) })
          .toEqual({ subtotal: o.subtotal, gst: o.gst, total: o.total, zero: o.zeroRated, lines: o.lineAmounts });
      }),
      { numRuns: 400 },
    );
  });

  it.each(S19O_THREE_LINE_VECTORS)('%s through documentTotals: %s %s × 3 → %s per line, %s on the total', (_id, kind, amount, perLine, onTotal) => {
    const lines = [1, 2, 3].map((i) => ({ description: `L${i}`, qty: '1', unit_price: amount, tax_included: kind === 'incl', tax_rate: '0.15' }));
    expect(documentTotals(lines, 'line').gstCents).toBe(cents(perLine));
    expect(documentTotals(lines, 'total').gstCents).toBe(cents(onTotal));
  });
});

/** A domain report without the fields the oracle does not model (the range and basis it was asked for). */
const figures = ({ basis: _b, start_date: _s, end_date: _e, ...rest }: GstReport) => rest;

describe('reports: the domain\'s replay equals the oracle', () => {
  const ranges = fc.tuple(fc.integer({ min: -40, max: 900 }), fc.integer({ min: 0, max: 400 })).map(([from, length]) => {
    const start = addDays('2026-01-01', from);
    return { start, end: addDays(start, length) };
  });

  it('GST report, invoice and payments basis, over random histories and ranges', () => {
    fc.assert(
      fc.property(oracleInvoicesArb(), fc.array(ranges, { minLength: 1, maxLength: 4 }), (invoices, rs) => {
        const rows = reportRowsFromEvents(invoices.flatMap((inv, i) => oracleInvoiceEvents(inv, 'acct-oracle', i + 1)));
        for (const { start, end } of rs) {
          for (const basis of ['invoice', 'payments'] as const) {
            expect(figures(gstReport(rows, checkRange(start, end), basis)), `${basis} ${start}–${end}`).toEqual(oracleGstReport(invoices, start, end, basis));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('annual summary over random histories, tax years 2026 to 2029', () => {
    fc.assert(
      fc.property(oracleInvoicesArb(), (invoices) => {
        const rows = reportRowsFromEvents(invoices.flatMap((inv, i) => oracleInvoiceEvents(inv, 'acct-oracle', i + 1)));
        for (const year of [2026, 2027, 2028, 2029]) {
          const { year: _y, label: _l, start_date: _s, end_date: _e, ...domain } = annualSummary(rows, year);
          expect(domain, `tax year ${year}`).toEqual(oracleAnnualSummary(invoices, year));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('with credit notes and money paid back: the GST report on both bases, and the annual summary with paid, unpaid, credited and refunded named apart', () => {
    fc.assert(
      fc.property(withCreditsArb(oracleInvoicesArb({ maxInvoices: 12 })), fc.array(ranges, { minLength: 1, maxLength: 3 }), (invoices, rs) => {
        const rows = reportRowsFromEvents(invoices.flatMap((inv, i) => oracleInvoiceEvents(inv, 'acct-oracle', i + 1)));
        for (const { start, end } of rs) {
          for (const basis of ['invoice', 'payments'] as const) {
            expect(figures(gstReport(rows, checkRange(start, end), basis)), `${basis} ${start}–${end}`).toEqual(oracleGstReport(invoices, start, end, basis));
          }
        }
        for (const year of [2026, 2027, 2028, 2029]) {
          const { year: _y, label: _l, start_date: _s, end_date: _e, ...domain } = annualSummary(rows, year);
          expect(domain, `tax year ${year}`).toEqual(oracleAnnualSummary(invoices, year));
          expect(Math.round((domain.paid_revenue + domain.unpaid_revenue) * 100)).toBe(Math.round(domain.total_revenue * 100));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the credited histories cover credits on paid and unpaid invoices and money paid back', () => {
    const sample = fc.sample(withCreditsArb(oracleInvoicesArb({ maxInvoices: 12 })), { seed: 32, numRuns: 30 }).flat();
    const credited = sample.filter((inv) => (inv.credits ?? []).length > 0);
    expect(credited.some((inv) => inv.steps.some((s) => s.kind === 'pay'))).toBe(true);
    expect(credited.some((inv) => inv.steps.length === 0)).toBe(true);
    expect(credited.some((inv) => inv.credits!.some((c) => c.refunds.length > 0))).toBe(true);
  });

  it('once every invoice is paid in full and nothing is voided, both bases carry the same GST over all time', () => {
    fc.assert(
      fc.property(oracleInvoicesArb({ maxInvoices: 10 }), (invoices) => {
        const settled = invoices.map((inv) => {
          const total = oracleTotals(inv.lines, inv.rounding).total;
          return { ...inv, voidDate: null, issued: true, steps: total > 0n ? [{ kind: 'pay' as const, id: `${inv.id}-all`, cents: total, date: inv.issueDate }] : [] };
        });
        const rows = reportRowsFromEvents(settled.flatMap((inv, i) => oracleInvoiceEvents(inv, 'acct-oracle', i + 1)));
        const range = checkRange('2025-01-01', '2029-12-31');
        expect(gstReport(rows, range, 'payments').total_gst_collected).toBe(gstReport(rows, range, 'invoice').total_gst_collected);
      }),
      { numRuns: 100 },
    );
  });
});
