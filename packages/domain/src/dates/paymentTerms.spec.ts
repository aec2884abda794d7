import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oracleDueDate } from '@tradie/testkit/oracle/dueDates';
import { DUE_ON_RECEIPT, MAX_TERM_DAYS, PAYMENT_TERMS, TWENTIETH_OF_NEXT_MONTH, daysTerms, dueDateFor, isPaymentTerms, parsePaymentTerms, paymentTermsText, type PaymentTerms } from './paymentTerms.ts';
import { paymentTermsSchema } from './paymentTermsSchema.ts';
import { compareDates, daysBetween, isLocalDate } from './dates.ts';

/** Any calendar day from 1900 to 2998, month ends and 29 February included. */
const dayArb = fc
  .record({ y: fc.integer({ min: 1900, max: 2998 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)
  .filter(isLocalDate);
const termsArb: fc.Arbitrary<PaymentTerms> = fc.oneof(
  fc.constantFrom<PaymentTerms>(...PAYMENT_TERMS),
  fc.integer({ min: 1, max: MAX_TERM_DAYS }).map(daysTerms),
);

describe('payment terms', () => {
  it('the terms a tradie picks from, and any number of days from 1 to 365, are terms; nothing else is', () => {
    for (const t of [...PAYMENT_TERMS, '1 day', '21 days', '365 days']) expect(isPaymentTerms(t)).toBe(true);
    for (const t of ['0 days', '1 days', '2 day', '366 days', '07 days', '7 Days', '7', '20th', '', null, 7]) expect(isPaymentTerms(t)).toBe(false);
    expect(parsePaymentTerms('21 days')).toEqual({ kind: 'days', days: 21 });
    expect(paymentTermsSchema.safeParse('9 days').success).toBe(true);
    expect(paymentTermsSchema.safeParse('0 days').error?.issues[0]?.message).toMatch(/number of days from 1 to 365/);
  });

  it('worked examples: month ends, December → January, leap years', () => {
    expect(dueDateFor('2026-05-04', DUE_ON_RECEIPT)).toBe('2026-05-04');
    expect(dueDateFor('2026-05-04', '7 days')).toBe('2026-05-11');
    expect(dueDateFor('2026-01-31', '30 days')).toBe('2026-03-02');
    expect(dueDateFor('2028-01-31', '30 days')).toBe('2028-03-01'); // 2028 is a leap year
    expect(dueDateFor('2026-12-25', '14 days')).toBe('2027-01-08');
    expect(dueDateFor('2026-01-01', TWENTIETH_OF_NEXT_MONTH)).toBe('2026-02-20');
    expect(dueDateFor('2026-01-31', TWENTIETH_OF_NEXT_MONTH)).toBe('2026-02-20');
    expect(dueDateFor('2026-12-01', TWENTIETH_OF_NEXT_MONTH)).toBe('2027-01-20');
    expect(dueDateFor('2026-12-31', TWENTIETH_OF_NEXT_MONTH)).toBe('2027-01-20');
    expect(dueDateFor('2028-02-29', TWENTIETH_OF_NEXT_MONTH)).toBe('2028-03-20');
    expect(dueDateFor('2028-02-29', '1 day')).toBe('2028-03-01');
    expect(() => dueDateFor('2026-02-30', '7 days')).toThrow(RangeError);
    expect(() => dueDateFor('2026-02-01', '0 days' as PaymentTerms)).toThrow(RangeError);
  });

  it('says the terms and the due date the same way everywhere', () => {
    expect(paymentTermsText(DUE_ON_RECEIPT, '2026-05-04')).toBe('Due on receipt');
    expect(paymentTermsText('14 days', '2026-05-18')).toBe('14 days — due 18/05/2026');
    expect(paymentTermsText(TWENTIETH_OF_NEXT_MONTH, '2027-01-20')).toBe('20th of the month following — due 20/01/2027');
  });

  it('property: the due date is the one worked out apart from the domain (the oracle), a calendar day, never before the issue date', () => {
    fc.assert(fc.property(dayArb, termsArb, (issue, terms) => {
      const due = dueDateFor(issue, terms);
      expect(due).toBe(oracleDueDate(issue, terms));
      expect(isLocalDate(due)).toBe(true);
      expect(compareDates(due, issue)).toBeGreaterThanOrEqual(0);
    }), { numRuns: 2000 });
  });

  it('property: N days is exactly N days later; the 20th of the month following is the 20th of the next month, 20 to 51 days on', () => {
    fc.assert(fc.property(dayArb, fc.integer({ min: 1, max: MAX_TERM_DAYS }), (issue, n) => {
      expect(daysBetween(issue, dueDateFor(issue, daysTerms(n)))).toBe(n);
    }));
    fc.assert(fc.property(dayArb, (issue) => {
      const due = dueDateFor(issue, TWENTIETH_OF_NEXT_MONTH);
      const [y, m] = issue.split('-').map(Number) as [number, number];
      expect(due).toBe(m === 12 ? `${y + 1}-01-20` : `${y}-${String(m + 1).padStart(2, '0')}-20`);
      const gap = daysBetween(issue, due);
      expect(gap).toBeGreaterThanOrEqual(20);
      expect(gap).toBeLessThanOrEqual(51);
    }));
  });
});
