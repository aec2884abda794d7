// The fake Xero's money, checked against figures worked by hand from Xero's description.
import { describe, expect, it } from 'vitest';
import { centsJson, decimalPlaces, divHalfAway, lineAmountCents, lineTaxCents, toCentsExact } from '../src/fakeXeroMoney.ts';

describe("the fake Xero's money", () => {
  it('halves go away from zero', () => {
    expect([divHalfAway(5n, 2n), divHalfAway(-5n, 2n), divHalfAway(7n, 3n), divHalfAway(-7n, 3n)]).toEqual([3n, -3n, 2n, -2n]);
  });

  it('line amounts: 2.5 × $90 = $225.00; 1000 × $0.0055 = $5.50; 3 × $0.335 = $1.005 → $1.01', () => {
    expect(lineAmountCents('2.5', '90')).toBe(22500n);
    expect(lineAmountCents('1000', '0.0055')).toBe(550n);
    expect(lineAmountCents('3', '0.335')).toBe(101n);
  });

  it('per-line tax, half away from zero: 15% of $1.11 is 16.65c → 17c; inclusive $10.00 holds 130.43c → $1.30; 15% of $0.10 is 1.5c → 2c', () => {
    expect(lineTaxCents(111n, '15', false)).toBe(17n);
    expect(lineTaxCents(1000n, '15', true)).toBe(130n);
    expect(lineTaxCents(10n, '15', false)).toBe(2n);
    expect(lineTaxCents(999n, '0', false)).toBe(0n);
  });

  it('amounts are read exactly and written as the JSON numbers Xero answers with', () => {
    expect([toCentsExact('3.8'), toCentsExact('3.830'), toCentsExact('3.835'), decimalPlaces('1.2300')]).toEqual([380n, 383n, null, 2]);
    expect([centsJson(383n), centsJson(-5n), centsJson(0n)]).toEqual([3.83, -0.05, 0]);
  });
});
