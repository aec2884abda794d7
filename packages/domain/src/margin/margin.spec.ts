import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MARGIN_WORDS, appliedMarginNotice, applyMargin, chargeFactor, formatTenths, isLowMargin, marginFigures, otherPercentText, parseMarginInput,
} from './margin.ts';
import { documentTotals } from '../gst/gst.ts';
import { toCents } from '../money/money.ts';
import { roundLineAmount } from '../money/rounding.ts';
import { decimalString } from '../../test/arbitraries.ts';

const line = (qty: string, unit_price: string) => ({ qty, unit_price, tax_included: false, tax_rate: '0.15' });

/**
 * The target a line's amount must come within half a cent of, worked out with plain integer
 * arithmetic of its own: amount (cents) × factor numerator / factor denominator, as a fraction.
 */
function target(qty: string, price: string, m: number, basis: 'markup' | 'margin'): { num: bigint; den: bigint } {
  const cents = roundLineAmount(qty, price);
  return basis === 'markup' ? { num: cents * BigInt(100 + m), den: 100n } : { num: cents * 100n, den: BigInt(100 - m) };
}
/** |amount − target| ≤ ½ cent, exactly: |2·amount·den − 2·num| ≤ den. */
const withinHalfCent = (amount: bigint, t: { num: bigint; den: bigint }): boolean => {
  const d = 2n * amount * t.den - 2n * t.num;
  return (d < 0n ? -d : d) <= t.den;
};

describe('profit margin figures', () => {
  it('markup: Profit = Costs × m, Charge Client = Costs + Profit', () => {
    const f = marginFigures([line('1', '400')], 25);
    expect([f.costsCents, f.profitCents, f.chargeClientCents]).toEqual([toCents('400'), toCents('100'), toCents('500')]);
  });

  it('shows the truth beside it: 25% markup is a 20.0% margin on the price; a 25% margin is a 33.3% markup', () => {
    expect(otherPercentText(marginFigures([line('1', '400')], 25), 'markup')).toBe('That is a 20.0% margin on the price');
    const byMargin = marginFigures([line('1', '300')], 25, 'margin');
    expect([byMargin.costsCents, byMargin.chargeClientCents, byMargin.profitCents]).toEqual([30000n, 40000n, 10000n]);
    expect(otherPercentText(byMargin, 'margin')).toBe('That is a 33.3% markup on cost');
    expect(otherPercentText(marginFigures([line('1', '0')], 25), 'markup')).toBeNull();
    expect(otherPercentText(marginFigures([line('3', '33.33')], 30), 'markup')).toBe('That is a 23.1% margin on the price'); // 3000/12999 … 23.08
  });

  it('low margin is above 0 and below 15', () => {
    expect([0, 1, 14, 15, 25, 100].map(isLowMargin)).toEqual([false, true, true, false, false, false]);
  });

  it('margin input: whole numbers, 0–100 as markup and 0–95 as a margin on price; empty or invalid becomes 0', () => {
    expect(['', 'abc', '25', '25.6', '-5', '150', null, 30].map((v) => parseMarginInput(v))).toEqual([0, 0, 25, 26, 0, 100, 0, 30]);
    expect(parseMarginInput('100', 'margin')).toBe(95);
    expect(chargeFactor(95, 'margin')).toEqual({ n: 20n, d: 1n });
  });

  it('the notice after applying names the number the tradie chose: a markup on cost, or a margin on the price', () => {
    expect(appliedMarginNotice(25)).toBe('Applied 25% markup on cost to all line items! The client will see the final prices without any "profit" or "markup" labels.');
    expect(appliedMarginNotice(25, 'margin')).toBe('Applied 25% margin on price to all line items! The client will see the final prices without any "profit" or "markup" labels.');
  });

  it('each way of working names its own number in every label, never "margin" for a markup', () => {
    expect(MARGIN_WORDS.markup).toEqual({
      field: 'Markup on cost %', short: 'markup', apply: 'Apply markup', lowWarning: 'Your markup is quite low. Most tradies aim for 20-30% to cover all business costs.',
    });
    expect(Object.values(MARGIN_WORDS.markup).join(' ')).not.toMatch(/margin/i);
    expect(MARGIN_WORDS.margin.field).toBe('Margin on price %');
    expect(Object.values(MARGIN_WORDS.margin).join(' ')).not.toMatch(/markup/i);
  });
});

describe("'Apply margin' keeps the money", () => {
  it('1000 × $0.0044 at 25% is $5.50, not $10.00; 200 × $1.2345 at 0% stays $246.90, not $246.00', () => {
    const a = applyMargin([line('1000', '0.0044')], 25);
    expect(a[0]!.unit_price).toBe('0.0055');
    expect(documentTotals(a).subtotalCents).toBe(550n);
    const b = applyMargin([line('200', '1.2345')], 0);
    expect(b[0]!.unit_price).toBe('1.2345');
    expect(documentTotals(b).subtotalCents).toBe(24690n);
  });

  it('1000 × $0.0043 at 25% ($5.375): no 4-decimal price gives it; the nearest ($0.0054, $5.40) is taken and the line is named', () => {
    const lines = [line('2', '10'), line('1000', '0.0043')];
    expect(applyMargin(lines, 25).map((l) => l.unit_price)).toEqual(['12.5', '0.0054']);
    const f = marginFigures(lines, 25);
    expect(f.inexactLines).toEqual([1]);
    expect(f.chargeClientCents).toBe(2500n + 540n);
  });

  it('a whole-cent price when one gives the line its amount: 1 × $185.50 at 25% is $231.88 (not $231.875), 4 decimals only where needed', () => {
    expect(applyMargin([line('1', '185.5')], 25)[0]!.unit_price).toBe('231.88');
    expect(applyMargin([line('3', '33.33')], 30)[0]!.unit_price).toBe('43.33'); // 3 × 43.33 = $129.99 = round($99.99 × 1.3)
    // 7 × $13.33 = $93.31; × 1.25 = $116.6375 → $116.64: no whole-cent price gives 7 × p = $116.64.
    expect(applyMargin([line('7', '13.33')], 25)[0]!.unit_price).toBe('16.6625');
  });

  it('the figures shown before equal the document after: Charge Client is the subtotal after applying', () => {
    const lines = [line('1000', '0.0044'), line('200', '1.2345'), line('2.5', '90'), line('3', '33.33')];
    const f = marginFigures(lines, 25);
    expect(documentTotals(applyMargin(lines, 25)).subtotalCents).toBe(f.chargeClientCents);
  });

  describe('properties', () => {
    // Quantities to 100 with 3 decimals, prices on 0.0001 steps to $10,000, up to 40 lines.
    const qtyTo100 = decimalString(100_000, 3);
    const price = decimalString(100_000_000, 4);
    const linesArb = (qty: fc.Arbitrary<string>) => fc.array(fc.record({ qty, unit_price: price }).map((l) => line(l.qty, l.unit_price)), { minLength: 1, maxLength: 40 });
    const basisArb = fc.constantFrom<'markup' | 'margin'>('markup', 'margin');
    const percentArb = (basis: 'markup' | 'margin') => fc.integer({ min: 0, max: basis === 'markup' ? 100 : 95 });
    const caseArb = (qty: fc.Arbitrary<string>) => basisArb.chain((basis) => fc.record({ basis: fc.constant(basis), m: percentArb(basis), lines: linesArb(qty) }));

    it('with quantities up to 100: every line within half a cent of its cost × the factor, and Charge Client = subtotal after', () => {
      fc.assert(fc.property(caseArb(qtyTo100), ({ basis, m, lines }) => {
        const applied = applyMargin(lines, m, basis);
        applied.forEach((l, i) => {
          expect(l.unit_price).toMatch(/^\d+(\.\d{1,4})?$/);
          const amount = roundLineAmount(l.qty, l.unit_price);
          expect(withinHalfCent(amount, target(lines[i]!.qty, lines[i]!.unit_price, m, basis)), `line ${i}: ${l.qty} × ${l.unit_price}`).toBe(true);
        });
        const f = marginFigures(lines, m, basis);
        expect(documentTotals(applied).subtotalCents).toBe(f.chargeClientCents);
        expect(f.inexactLines).toEqual([]);
      }), { numRuns: 300 });
    });

    it('with any quantity: each line is the nearest a 4-decimal price can get, and the figures still equal the document', () => {
      const anyQty = decimalString(1_000_000_000, 3); // to 1,000,000
      fc.assert(fc.property(caseArb(anyQty), ({ basis, m, lines }) => {
        const applied = applyMargin(lines, m, basis);
        applied.forEach((l, i) => {
          const t = target(lines[i]!.qty, lines[i]!.unit_price, m, basis);
          const amount = roundLineAmount(l.qty, l.unit_price);
          if (withinHalfCent(amount, t)) return;
          // Not within half a cent: then neither neighbouring price does better.
          const k = BigInt(Math.round(Number(l.unit_price) * 10_000));
          const dist = (a: bigint) => { const d = a * t.den - t.num; return d < 0n ? -d : d; };
          for (const other of [k - 1n, k + 1n]) {
            if (other < 0n) continue;
            const text = `${other / 10_000n}.${String(other % 10_000n).padStart(4, '0')}`;
            expect(dist(amount) <= dist(roundLineAmount(l.qty, text))).toBe(true);
          }
        });
        expect(documentTotals(applied).subtotalCents).toBe(marginFigures(lines, m, basis).chargeClientCents);
      }), { numRuns: 200 });
    });

    it('a line gets a whole-cent price whenever a whole-cent price gives it the same amount', () => {
      fc.assert(fc.property(caseArb(qtyTo100), ({ basis, m, lines }) => {
        const applied = applyMargin(lines, m, basis);
        applied.forEach((l, i) => {
          // (A quantity of 0 has no amount to keep: its price is simply marked up.)
          if (/^\d+(\.\d{1,2})?$/.test(l.unit_price) || Number(l.qty) === 0) return;
          // A finer price: then no price in whole cents gives the same amount (checked cent by cent around it).
          const amount = roundLineAmount(l.qty, l.unit_price);
          const cents = BigInt(Math.floor(Number(l.unit_price) * 100));
          for (const c of [cents - 1n, cents, cents + 1n, cents + 2n]) {
            if (c < 0n) continue;
            const text = `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
            expect(roundLineAmount(l.qty, text), `line ${i}: ${l.qty} × ${text}`).not.toBe(amount);
          }
        });
      }), { numRuns: 300 });
    });

    it('markup 0 changes no line amount', () => {
      fc.assert(fc.property(linesArb(qtyTo100), (lines) => {
        const applied = applyMargin(lines, 0);
        expect(applied.map((l) => roundLineAmount(l.qty, l.unit_price))).toEqual(lines.map((l) => roundLineAmount(l.qty, l.unit_price)));
      }));
    });
  });
});

describe('formatTenths', () => {
  it('writes tenths as a one-decimal number, the sign kept between 0 and -1 too', () => {
    expect([-15n, -5n, -1n, 0n, 5n, 123n].map(formatTenths)).toEqual(['-1.5', '-0.5', '-0.1', '0.0', '0.5', '12.3']);
    fc.assert(
      fc.property(fc.bigInt({ min: -100_000n, max: 100_000n }), (t) => {
        expect(formatTenths(t)).toBe((Number(t) / 10).toFixed(1).replace(/^-0\.0$/, '0.0'));
      }),
    );
  });
});
