import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToNumber, centsToString, formatNzd, formatNzdPrice, requirePositiveCents, toCents } from './money.ts';
import { Decimal } from './decimal.ts';

describe('money at the edges', () => {
  it.each([
    [123450n, '$1,234.50'],
    [-123450n, '-$1,234.50'],
    [5n, '$0.05'],
    [0n, '$0.00'],
    [100000000n, '$1,000,000.00'],
  ])('%s cents → %s', (cents, nzd) => {
    expect(formatNzd(cents)).toBe(nzd);
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
  it('shows a unit price as money: two decimals when it is whole cents, all four when finer (never three), grouped in thousands', () => {
    expect(formatNzdPrice('0.0055')).toBe('$0.0055');
    expect(formatNzdPrice('1.2345')).toBe('$1.2345');
    expect(formatNzdPrice('1234.5')).toBe('$1,234.50');
    expect(formatNzdPrice(85)).toBe('$85.00');
    expect(formatNzdPrice('1000000.1')).toBe('$1,000,000.10');
    expect(formatNzdPrice('231.875')).toBe('$231.8750');
    expect(formatNzdPrice(231.875)).toBe('$231.8750');
  });
  it('property: the text read back is the same number, with 2 or 4 decimals', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 4 }), (units, dp) => {
      const price = new Decimal(units).div(10 ** dp);
      const text = formatNzdPrice(price.toFixed());
      expect(new Decimal(text.replace(/[$,]/g, '')).equals(price)).toBe(true);
      expect(text).toMatch(/\.(\d{2}|\d{4})$/);
    }));
  });
});

describe('requirePositiveCents', () => {
  const refusal = (amount: string): string | null => {
    try {
      requirePositiveCents(amount, 'A refund');
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('gives back the cents of any whole-cent amount above nothing, however it is written', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 99_999_999_999n }), fc.integer({ min: 0, max: 3 }), (cents, extraZeros) => {
        const text = `${centsToString(cents)}${'0'.repeat(extraZeros)}`;
        expect(requirePositiveCents(text, 'A refund')).toBe(cents);
      }),
    );
  });

  it('refuses nothing and less than nothing', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -99_999_999n, max: 0n }), (cents) => {
        expect(refusal(centsToString(cents))).toBe('A refund must be more than $0.00');
      }),
    );
  });

  it('refuses a fraction of a cent and what is not a number, naming the subject', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_999_999n }), fc.integer({ min: 1, max: 9 }), (cents, tenth) => {
        expect(refusal(`${centsToString(cents)}${tenth}`)).toBe('A refund must be in dollars and cents (at most 2 decimal places)');
      }),
    );
    for (const text of ['', 'abc', '1e3', '12.3.4', '$5']) expect(refusal(text)).toBe('A refund must be in dollars and cents (at most 2 decimal places)');
  });
});
