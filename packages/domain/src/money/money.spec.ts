import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToNumber, centsToString, formatNzd, formatNzdList, toCents } from './money.ts';

describe('money at the edges', () => {
  it.each([
    [123450n, '$1,234.50', '1234.50 NZD'],
    [-123450n, '-$1,234.50', '-1234.50 NZD'],
    [5n, '$0.05', '0.05 NZD'],
    [0n, '$0.00', '0.00 NZD'],
    [100000000n, '$1,000,000.00', '1000000.00 NZD'],
  ])('%s cents → %s / %s (nz-rules.md §5.2)', (cents, nzd, list) => {
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
