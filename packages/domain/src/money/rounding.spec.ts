import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportionCumulative, documentTotals, parseExactDecimal, rational, roundHalfUp, roundLineAmount, roundReturnGst, roundTaxS19O, toCentsHalfUp, Decimal } from '../index.ts';
import { S19O_VECTORS } from '@tradie/testkit/oracle/gstVectors';
import { toCents } from './money.ts';

const c = (dollars: string): bigint => toCents(dollars);

describe('GST Act s 19O rounding (test vectors)', () => {
  // Through documentTotals, the one function every screen, PDF, list, report and CSV uses: a one-line
  // document of that amount, on either rounding setting (one line: the two must agree).
  it.each(S19O_VECTORS)('%s: %s %s → GST %s', (_id, kind, amount, gst) => {
    for (const rounding of ['total', 'line'] as const) {
      const t = documentTotals([{ qty: '1', unit_price: amount, tax_included: kind === 'incl', tax_rate: '0.15' }], rounding);
      expect(t.gstCents).toBe(c(gst));
      expect(kind === 'incl' ? t.totalCents : t.subtotalCents).toBe(c(amount));
    }
  });

  it('drops an exact half cent (half-down), where half-up would add it', () => {
    expect(roundTaxS19O(rational(15n, 10n))).toBe(1n); // 1.5 c
    expect(roundHalfUp(rational(15n, 10n))).toBe(2n);
    expect(roundTaxS19O(rational(151n, 100n))).toBe(2n); // 1.51 c: more than half
  });

  it('mirrors credits: the same magnitude with the sign restored', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10_000n }), (n, d) => {
      expect(roundTaxS19O(rational(-n, d))).toBe(-roundTaxS19O(rational(n, d)));
    }));
  });

  it('is never more than half a cent away from the exact tax, and never rounds a tie up', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10_000n }), (n, d) => {
      const r = roundTaxS19O(rational(n, d));
      const diffTwice = 2n * (r * d - n); // 2 × (rounded − exact) × d
      // rounded − exact lies in [−½, ½): a tie (exactly −½ after rounding down) is dropped, never raised
      expect(diffTwice >= -d && diffTwice < d).toBe(true);
      if (2n * (n % d) === d) expect(r).toBe(n / d);
    }));
  });

  it('G24: 3/23 of a whole number of cents never lands on an exact half cent', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), (cents) => {
      expect(2n * ((cents * 3n) % 23n)).not.toBe(23n);
    }));
  });
});

describe('other named rounding steps', () => {
  it('line amounts round half away from zero', () => {
    expect(toCentsHalfUp(new Decimal('0.005'))).toBe(1n);
    expect(toCentsHalfUp(new Decimal('0.0049'))).toBe(0n);
    expect(toCentsHalfUp(new Decimal('2.675'))).toBe(268n); // 2.675 in binary floats is 2.67499…
  });

  it('the GST return Box 8 is Box 7 × 3/23 to the nearest cent (R4)', () => {
    expect(roundReturnGst(c('1000.00'))).toBe(c('130.43'));
    expect(roundReturnGst(c('20700.00'))).toBe(c('2700.00'));
  });

  it('cumulative apportionment never loses or invents a cent however a total is paid', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.array(fc.bigInt({ min: 1n, max: 10n ** 6n }), { minLength: 1, maxLength: 12 }), fc.bigInt({ min: 0n, max: 10n ** 8n }), (total, parts, gstRaw) => {
        const gst = gstRaw % (total + 1n);
        // scale the parts so they add up to exactly `total`
        const sumParts = parts.reduce((a, b) => a + b, 0n);
        const scaled = parts.map((p) => (p * total) / sumParts);
        scaled[scaled.length - 1] = (scaled.at(-1) ?? 0n) + total - scaled.reduce((a, b) => a + b, 0n);
        let before = 0n;
        let allocated = 0n;
        for (const p of scaled) {
          const share = apportionCumulative(gst, total, before, p);
          expect(share >= 0n).toBe(true);
          allocated += share;
          before += p;
        }
        expect(allocated).toBe(gst);
      }),
    );
  });
});

describe('roundLineAmount: the exact integer path for decimal strings', () => {
  it('equals decimal.js on every qty × price the API accepts', () => {
    const dec = (maxUnits: number, dp: number) =>
      fc.integer({ min: 0, max: maxUnits }).map((u) => (dp === 0 ? String(u) : `${Math.floor(u / 10 ** dp)}.${String(u % 10 ** dp).padStart(dp, '0')}`));
    fc.assert(
      fc.property(fc.oneof(dec(100_000_000, 2), dec(10_000_000_000, 4), dec(1_000_000, 0)), fc.oneof(dec(1_000_000_000, 4), dec(10_000_000, 2)), (q, p) => {
        expect(roundLineAmount(q, p)).toBe(toCentsHalfUp(new Decimal(q).times(p)));
      }),
      { numRuns: 2000 },
    );
  });

  it('parses only plain decimals exactly', () => {
    expect(parseExactDecimal('2.75')).toEqual({ m: 275n, scale: 2 });
    expect(parseExactDecimal('-0.5')).toEqual({ m: -5n, scale: 1 });
    expect(parseExactDecimal('1e3')).toBeNull();
    expect(parseExactDecimal(' 1')).toBeNull();
  });
});
