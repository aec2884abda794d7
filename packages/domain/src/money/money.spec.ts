import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToNumber, centsToString, formatNzd, formatNzdList, formatNzdPrice, toCents } from './money.ts';
import { Decimal } from './decimal.ts';

describe('money at the edges', () => {
  it.each([
    [123450n, '$1,234.50', '1234.50 NZD'],
    [-123450n, '-$1,234.50', '-1234.50 NZD'],
    [5n, '$0.05', '0.05 NZD'],
    [0n, '$0.00', '0.00 NZD'],
    [100000000n, '$1,000,000.00', '1000000.00 NZD'],
  ])('%s cents → %s / %s', (cents, nzd, list) => {
    expect(formatNzd(cents)).toBe(nzd);
    expect(formatNzdList(cents)).toBe(list);
  });

  it('cents round-trip through strings and JSON numbers', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }), (cents) => {
      expect(toCents(centsToString(cents))).toBe(cents);
      expect(toCents(centsToNumber(cents))).toBe(cents);
    }));
  });

  it('refuses a fraction of a cent and non-finite amounts', () => {
    expect(() => toCents('0.001')).toThrow(/fraction of a cent/);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => toCents(Number.NaN)).toThrow();
  });
});

describe('formatNzdPrice', () => {
  it('shows a unit price with its own decimals, at least two, grouped in thousands', () => {
    expect(formatNzdPrice('0.0055')).toBe('$0.0055');
    expect(formatNzdPrice('1.2345')).toBe('$1.2345');
    expect(formatNzdPrice('1234.5')).toBe('$1,234.50');
    expect(formatNzdPrice(85)).toBe('$85.00');
    expect(formatNzdPrice('1000000.1')).toBe('$1,000,000.10');
  });
  it('property: the text read back is the same number', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 4 }), (units, dp) => {
      const price = new Decimal(units).div(10 ** dp);
      expect(new Decimal(formatNzdPrice(price.toFixed()).replace(/[$,]/g, '')).equals(price)).toBe(true);
    }));
  });
});
