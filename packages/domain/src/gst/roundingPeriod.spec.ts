import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths, type LocalDate } from '../dates/dates.ts';
import { GST_FILING_MONTHS, gstPeriodStart, nextGstPeriodStart, requestRounding, roundingAppliesFrom, roundingOn, type RoundingSetting } from './roundingPeriod.ts';

const day = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10) as LocalDate);
const months = fc.constantFrom(...GST_FILING_MONTHS);
const rounding = fc.constantFrom('total' as const, 'line' as const);
const plain = (r: 'total' | 'line'): RoundingSetting => ({ rounding: r, next: null });

describe('GST periods (31 March balance date)', () => {
  it('starts periods on the months the return periods start', () => {
    expect(gstPeriodStart('2026-11-28', 1)).toBe('2026-11-01');
    expect(gstPeriodStart('2026-11-28', 2)).toBe('2026-10-01'); // Oct–Nov
    expect(gstPeriodStart('2027-01-15', 2)).toBe('2026-12-01'); // Dec–Jan
    expect(gstPeriodStart('2026-11-28', 6)).toBe('2026-10-01'); // Oct–Mar
    expect(gstPeriodStart('2026-04-01', 6)).toBe('2026-04-01');
    expect(nextGstPeriodStart('2026-11-28', 2)).toBe('2026-12-01');
    expect(nextGstPeriodStart('2026-11-28', 6)).toBe('2027-04-01');
    expect(nextGstPeriodStart('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('the next period starts after the day, within one period of it, on the first of a month', () => {
    fc.assert(
      fc.property(day, months, (d, m) => {
        const start = gstPeriodStart(d, m);
        const next = nextGstPeriodStart(d, m);
        expect(start <= d && d < next).toBe(true);
        expect(next).toBe(addMonths(start, m));
        expect(next.endsWith('-01')).toBe(true);
        expect(gstPeriodStart(next, m)).toBe(next);
      }),
    );
  });
});

describe('one rounding method per GST period', () => {
  it('a change asked for mid-period waits for the next period; documents until then keep the old method', () => {
    const s = requestRounding(plain('total'), 'line', '2026-11-28', 2);
    expect(s).toEqual({ rounding: 'total', next: { rounding: 'line', from: '2026-12-01' } });
    expect(roundingOn(s, '2026-11-28')).toBe('total');
    expect(roundingOn(s, '2026-11-30')).toBe('total');
    expect(roundingOn(s, '2026-12-01')).toBe('line');
    expect(roundingAppliesFrom(s.next!.from)).toBe('Applies from 1 December 2026, the start of your next GST period');
  });

  it('asking again for the method in use cancels the waiting change; a change already due is applied first', () => {
    const waiting = requestRounding(plain('total'), 'line', '2026-11-28', 2);
    expect(requestRounding(waiting, 'total', '2026-11-29', 2)).toEqual(plain('total'));
    expect(requestRounding(waiting, 'line', '2026-12-05', 2)).toEqual(plain('line'));
    expect(requestRounding(waiting, 'total', '2026-12-05', 2)).toEqual({ rounding: 'line', next: { rounding: 'total', from: '2027-02-01' } });
  });

  it('never changes the method within a period: every day of the period of the request rounds as the day asked', () => {
    fc.assert(
      fc.property(rounding, rounding, day, months, fc.integer({ min: 0, max: 200 }), (from, wanted, today, m, later) => {
        const s = requestRounding(plain(from), wanted, today, m);
        const d = addDays(today, later);
        const inSamePeriod = d < nextGstPeriodStart(today, m);
        expect(roundingOn(s, d)).toBe(inSamePeriod ? from : wanted);
      }),
    );
  });
});

function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10) as LocalDate;
}
