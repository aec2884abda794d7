import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, formatNzDate, formatNzDateLong, formatNzDateTime, formatNzTime, isLocalDate, monthsBetween, nzDateOf, taxYearLabel, taxYearOf, taxYearRange } from './dates.ts';
import { dueDateFor, quoteValidUntil } from './paymentTerms.ts';
import { localDateArb } from '../../test/arbitraries.ts';

describe('NZ calendar days', () => {
  it('F4/F5: a UTC instant late on 31 March is already 1 April in New Zealand', () => {
    expect(nzDateOf('2025-03-31T10:59:59Z')).toBe('2025-03-31');
    expect(nzDateOf('2025-03-31T11:00:00Z')).toBe('2025-04-01');
    expect(taxYearOf(nzDateOf('2025-03-31T10:59:59Z'))).toBe(2025);
    expect(taxYearOf(nzDateOf('2025-03-31T11:00:00Z'))).toBe(2026);
  });

  it('the day of an instant, remembered or not, is the day Intl gives in Pacific/Auckland', () => {
    const oracle = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone: 'Pacific/Auckland' });
    // More instants than are remembered at once, each asked twice: the answers from memory and
    // after it is cleared are the same as worked out afresh.
    fc.assert(
      fc.property(fc.array(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T23:59:59Z'), noInvalidDate: true }), { minLength: 1, maxLength: 80 }), (dates) => {
        for (const d of dates) {
          const iso = d.toISOString();
          expect(nzDateOf(iso)).toBe(oracle(iso));
          expect(nzDateOf(iso)).toBe(oracle(iso));
          expect(nzDateOf(d)).toBe(oracle(iso));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a 9 am invoice on 1 April NZ time (20:00 UTC on 31 March) is dated 1 April', () => {
    expect(nzDateOf('2026-03-31T20:00:00Z')).toBe('2026-04-01');
  });

  it('daylight saving: NZDT is UTC+13', () => {
    expect(nzDateOf('2025-12-05T12:00:00Z')).toBe('2025-12-06'); // F3
    expect(nzDateOf('2025-12-05T10:59:59Z')).toBe('2025-12-05');
  });

  it('tax year 2026 is 1 April 2025 – 31 March 2026', () => {
    expect(taxYearRange(2026)).toEqual({ start: '2025-04-01', end: '2026-03-31' });
    expect(taxYearLabel(2026)).toBe('2025–26');
    expect([taxYearOf('2026-03-31'), taxYearOf('2026-04-01')]).toEqual([2026, 2027]);
  });

  it('validates real calendar days only', () => {
    expect(['2026-02-28', '2028-02-29', '2026-12-31'].every(isLocalDate)).toBe(true);
    expect(['2026-02-29', '2026-13-01', '2026-00-10', '26-01-01', '2026-1-1', '', 20260101].some(isLocalDate)).toBe(false);
  });

  it('formats day-first, en-NZ', () => {
    expect(formatNzDate('2025-07-04')).toBe('04/07/2025');
    expect(formatNzDateLong('2025-12-06')).toBe('6 December 2025');
  });

  it('formats an instant as New Zealand sees it, either side of daylight saving (hand-worked: NZST UTC+12, NZDT UTC+13)', () => {
    expect(formatNzDateTime('2026-05-13T21:41:00.000Z')).toBe('Thu, 14 May, 9:41 am');
    expect(formatNzDateTime('2026-01-13T23:05:00.000Z')).toBe('Wed, 14 Jan, 12:05 pm');
    expect(formatNzTime('2026-05-11T20:00:00.000Z')).toBe('8:00 am');
  });

  it('payment terms give the due date; quotes hold 30 days', () => {
    expect(dueDateFor('2026-04-28', '7 days')).toBe('2026-05-05');
    expect(dueDateFor('2026-04-28', 'Due on receipt')).toBe('2026-04-28');
    expect(dueDateFor('2026-12-20', '30 days')).toBe('2027-01-19');
    expect(quoteValidUntil('2026-02-10')).toBe('2026-03-12');
  });

  it('months between two days, inclusive', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
  });

  it('adding days: every result is a real date, and going back undoes it', () => {
    fc.assert(fc.property(localDateArb, fc.integer({ min: -800, max: 800 }), (d, n) => {
      const e = addDays(d, n);
      expect(isLocalDate(e)).toBe(true);
      expect(addDays(e, -n)).toBe(d);
    }));
  });

  it('every day of a tax year maps back to that tax year', () => {
    fc.assert(fc.property(localDateArb, (d) => {
      const { start, end } = taxYearRange(taxYearOf(d));
      expect(d >= start && d <= end).toBe(true);
    }));
  });
});
