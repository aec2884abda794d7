import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isPaymentTerms, PAYMENT_TERMS } from '@tradie/domain';
import { choiceOfTerms, daysOfTerms, dueDateLine, OTHER_DAYS, termsFromDays } from './termsChoice.ts';

describe('payment terms in a form', () => {
  it('shows listed terms as themselves and any other number of days as "another number of days"', () => {
    for (const t of PAYMENT_TERMS) expect(choiceOfTerms(t)).toBe(t);
    expect(choiceOfTerms('21 days')).toBe(OTHER_DAYS);
    expect(choiceOfTerms('1 day')).toBe(OTHER_DAYS);
    expect(daysOfTerms('21 days')).toBe('21');
    expect(daysOfTerms('1 day')).toBe('1');
    expect(daysOfTerms('Due on receipt')).toBe('');
  });

  it('takes 1 to 365 whole days typed, as terms the API accepts; nothing else', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 365 }), (n) => {
      const t = termsFromDays(` ${n} `);
      expect(t).toBe(n === 1 ? '1 day' : `${n} days`);
      expect(isPaymentTerms(t)).toBe(true);
    }));
    for (const bad of ['', '0', '366', '-5', '2.5', 'twenty', '1e2', '0x10']) expect(termsFromDays(bad)).toBeNull();
  });

  it('says the due date of an invoice issued today, as the domain works it out', () => {
    expect(dueDateLine('20th of the month following', '2026-11-28')).toBe('An invoice issued today (28 November 2026) is due 20 December 2026.');
    expect(dueDateLine('21 days', '2026-11-28')).toBe('An invoice issued today (28 November 2026) is due 19 December 2026.');
    expect(dueDateLine('Due on receipt', '2026-11-28')).toBe('An invoice issued today (28 November 2026) is due the same day.');
  });
});
