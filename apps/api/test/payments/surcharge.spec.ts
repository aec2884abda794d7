// The card surcharge: a percentage of the balance, rounded down to the cent (never more than the
// percentage shown), 0–SURCHARGE_MAX_PERCENT with at most 2 decimal places.
import { SURCHARGE_MAX_PERCENT } from '@tradie/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offerOf } from '../../src/payments/offer.ts';
import { surchargeCents, validSurchargePercent } from '../../src/payments/surcharge.ts';

/** A percentage as the settings keep it: hundredths of a percent, 0–5 %. */
const hundredths = fc.integer({ min: 0, max: SURCHARGE_MAX_PERCENT * 100 });
const percentText = (h: number): string => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;
const balance = fc.bigInt({ min: 0n, max: 100_000_000_00n });

describe('surchargeCents', () => {
  it.each([
    // balance (cents), percent, surcharge (cents), worked by hand
    [11500n, '2.5', 287n], // 115.00 × 2.5 % = 2.875 → 2.87
    [11500n, '0', 0n],
    [10000n, '5', 500n],
    [1n, '5', 0n], // 0.05 cents → 0
    [19n, '5.00', 0n], // 0.95 cents → 0
    [20n, '5', 1n],
    [123456n, '2.9', 3580n], // 1234.56 × 2.9 % = 35.80224 → 35.80
    [999999n, '1.75', 17499n], // 9999.99 × 1.75 % = 174.999825 → 174.99
  ])('%s cents at %s %% is %s cents', (cents, percent, expected) => {
    expect(surchargeCents(cents, percent)).toBe(expected);
  });

  it('is exact to the cent: never above the percentage, and less than a cent below it', () => {
    fc.assert(
      fc.property(balance, hundredths, (b, h) => {
        const s = surchargeCents(b, percentText(h));
        // s ≤ b × h / 10000 < s + 1, in exact integers.
        expect(s * 10000n <= b * BigInt(h)).toBe(true);
        expect(b * BigInt(h) < (s + 1n) * 10000n).toBe(true);
      }),
    );
  });

  it('is never more than SURCHARGE_MAX_PERCENT of the balance, and grows with the balance', () => {
    fc.assert(
      fc.property(balance, balance, hundredths, (a, b, h) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const p = percentText(h);
        expect(surchargeCents(hi, p) * 100n <= hi * BigInt(SURCHARGE_MAX_PERCENT)).toBe(true);
        expect(surchargeCents(lo, p) <= surchargeCents(hi, p)).toBe(true);
      }),
    );
  });

  it('refuses a percentage above the maximum, below zero, or finer than hundredths', () => {
    for (const p of ['5.01', '6', '-0.01', '2.555', 'abc', 'NaN', 'Infinity']) {
      expect(validSurchargePercent(p)).toBeNull();
      expect(() => surchargeCents(100n, p)).toThrow(RangeError);
    }
    expect(() => surchargeCents(-1n, '1')).toThrow(RangeError);
    expect(validSurchargePercent(2.5)?.toFixed(2)).toBe('2.50');
  });
});

describe('offerOf', () => {
  const account = { accountId: 'a', stripeAccountId: 'acct_1', chargesEnabled: true, detailsSubmitted: true, disconnectedAt: null, surchargeEnabled: false, surchargePercent: '2.50' };

  it('is null when card payments are off on the server, the account cannot take charges, or nothing is owed', () => {
    expect(offerOf(account, 11500n, false)).toBeNull();
    expect(offerOf(null, 11500n, true)).toBeNull();
    expect(offerOf({ ...account, chargesEnabled: false }, 11500n, true)).toBeNull();
    expect(offerOf({ ...account, disconnectedAt: new Date() }, 11500n, true)).toBeNull();
    expect(offerOf(account, 0n, true)).toBeNull();
  });

  it('shows no surcharge when the business absorbs the fee, and the surcharge and total when it passes it on', () => {
    expect(offerOf(account, 11500n, true)).toEqual({ surcharge: null });
    expect(offerOf({ ...account, surchargeEnabled: true }, 11500n, true)).toEqual({
      surcharge: { percent: 2.5, amount: 2.87, formatted: '$2.87', total_formatted: '$117.87' },
    });
  });
});
