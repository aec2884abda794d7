// Lines as shown: in the subtotal's basis, adding up to it. Cases worked by hand, and properties
// over random documents and stage invoices checked against the independent money oracle.
import { oracleDocumentArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleShownLinesProblem, oracleTotals, type OracleLine } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentTotals, type GstRounding } from '../gst/gst.ts';
import { toCents } from '../money/money.ts';
import type { Line } from './lineValues.ts';
import { shownLines } from './shownLines.ts';
import { type StageRecord, allocateStage, stageInvoiceLines, stageLinesOf } from './stages.ts';

const line = (qty: string, unit_price: string, tax_included = false, description = 'Work'): Line => ({ description, qty, unit_price, tax_included, tax_rate: '0.15' });
const asOracle = (l: Line): OracleLine => ({ qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate === '0' ? '0' : '0.15' });
const shown = (lines: Line[], rounding: GstRounding = 'total') => shownLines(lines, documentTotals(lines, rounding));

/** The quote of the deposit invoice a client was shown: lines totalling $2,531.88 + GST = $2,911.66. */
const QUOTE: Line[] = [
  line('1', '1812.50', false, 'Rinnai Infinity 26 continuous-flow water heater, supplied and fitted'),
  line('8', '85', false, 'Labour'),
  line('1', '39.38', false, 'Fittings and sundries'),
];

describe('lines shown in the subtotal’s basis, worked by hand', () => {
  it('a 30 % deposit of a $2,911.66 quote: $543.75 for the Rinnai (30 % of $1,812.50), and the lines add up to the $759.57 subtotal', () => {
    // The quote's total: 2531.88 × 1.15 = 2911.662 → $2,911.66 (GST on the total 379.78).
    expect(documentTotals(QUOTE).totalCents).toBe(291166n);
    const deposit = stageInvoiceLines(QUOTE, { kind: 'deposit', lines: stageLinesOf(allocateStage(QUOTE, 'total', [], { kind: 'deposit', percent: '30' })) });
    // Priced GST-inclusive: $625.31 + $234.60 + $13.59 = $873.50; GST 873.50 × 3/23 = 113.93; subtotal $759.57.
    expect(deposit.map((l) => l.unit_price)).toEqual(['625.31', '234.60', '13.59']);
    const t = documentTotals(deposit);
    expect([t.totalCents, t.gstCents, t.subtotalCents]).toEqual([87350n, 11393n, 75957n]);
    // Without GST: 625.31 × 20/23 = 543.7478…, 234.60 × 20/23 = 204.0000, 13.59 × 20/23 = 11.8173…
    // Floors 543 + 204 + 11 = 758.00 … in cents 54374 + 20400 + 1181 = 75955; 2 cents to the largest
    // fractions (.78 and .73): 54375, 20400, 1182 = 75957.
    const s = shownLines(deposit, t);
    expect(s.map((l) => l.amountCents)).toEqual([54375n, 20400n, 1182n]);
    expect(s.map((l) => [l.unitPrice, l.unitPriceInclGst])).toEqual([['543.75', false], ['204', false], ['11.82', false]]);
    expect(s.reduce((a, l) => a + l.amountCents, 0n)).toBe(t.subtotalCents);
  });

  it('exclusive lines show their price and amount as stored', () => {
    expect(shown([line('2.5', '90'), line('1000', '0.0055')])).toEqual([
      { amountCents: 22500n, unitPrice: '90', unitPriceInclGst: false },
      { amountCents: 550n, unitPrice: '0.0055', unitPriceInclGst: false },
    ]);
  });

  it('per-line rounding: an inclusive line less its own rounded GST', () => {
    // 1 × $100 incl: GST 100 × 3/23 = 13.043 → 13.04; shown $86.96. 3 × $10 incl = $30: GST 3.913 → 3.91; $26.09.
    const s = shown([line('1', '100', true), line('3', '10', true)], 'line');
    expect(s.map((l) => l.amountCents)).toEqual([8696n, 2609n]);
    // $26.09 ÷ 3 is no 4-decimal price: the price is shown as charged, marked incl. GST.
    expect(s.map((l) => [l.unitPrice, l.unitPriceInclGst])).toEqual([['86.96', false], ['10', true]]);
  });

  it('a credit note’s lines add up to the subtotal it carries, even a cent away from its lines’ own', () => {
    const lines = [line('1', '1.11'), line('1', '1.11'), line('1', '1.11', true)];
    const t = documentTotals(lines);
    const s = shownLines(lines, t, t.subtotalCents - 1n);
    expect(s.reduce((a, l) => a + l.amountCents, 0n)).toBe(t.subtotalCents - 1n);
  });
});

describe('properties, against the oracle', () => {
  it('any document: the amounts shown add up to the subtotal, each within a cent of its value without GST; quantity × price shown is the amount', () => {
    fc.assert(fc.property(oracleDocumentArb(30), ({ lines: oracleLines, rounding }) => {
      const lines = oracleLines.map(toDomainLine);
      const s = shownLines(lines, documentTotals(lines, rounding));
      expect(oracleShownLinesProblem(oracleLines, rounding, s.map((l) => l.amountCents))).toBeNull();
      s.forEach((l, i) => {
        if (l.unitPriceInclGst) return;
        // qty × the price shown, to the cent, is the amount shown (the oracle's own line amount).
        const q = oracleTotals([{ ...oracleLines[i]!, unitPrice: l.unitPrice }], rounding).lineAmounts[0]!;
        expect(q, `line ${i + 1}: ${lines[i]!.qty} × ${l.unitPrice}`).toBe(l.amountCents);
      });
    }), { numRuns: 300 });
  });

  it('stage invoices of random quotes: each stage’s lines shown add up to its subtotal', () => {
    const arb = fc.record({ doc: oracleDocumentArb(8), percents: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 3 }) });
    fc.assert(fc.property(arb, ({ doc, percents }) => {
      const quote = doc.lines.map(toDomainLine);
      if (documentTotals(quote, doc.rounding).totalCents === 0n) return;
      const stages: StageRecord[] = [];
      for (const [i, p] of percents.entries()) {
        let allocation;
        try {
          allocation = allocateStage(quote, doc.rounding, stages, { kind: 'progress', percent: String(p) });
        } catch {
          break; // past 100 % or a stage of $0.00: refused, as the product does
        }
        stages.push({ invoiceId: `i${i}`, reference: `INV-${i}`, kind: 'progress', lines: stageLinesOf(allocation) });
        const invoiceLines = stageInvoiceLines(quote, stages.at(-1)!);
        const s = shownLines(invoiceLines, documentTotals(invoiceLines, doc.rounding));
        expect(oracleShownLinesProblem(invoiceLines.map(asOracle), doc.rounding, s.map((l) => l.amountCents))).toBeNull();
        // A stage line is one unit: its price shown is its amount without GST.
        for (const l of s) expect([l.unitPriceInclGst, toCents(l.unitPrice)]).toEqual([false, l.amountCents]);
      }
    }), { numRuns: 150 });
  });
});
