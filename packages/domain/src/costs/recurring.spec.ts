// Repeating expenses: the dates they fall on (months counted from the first date, so the 31st stays
// the month's last day), what is due by a day, and the decider making each cost exactly once —
// worked by hand and as properties against dates worked apart (plain calendar arithmetic).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../dates/dates.ts';
import type { RecurringEvent, StoredRecurringFields } from './events.ts';
import { type RecurringState, checkRecurring, dueOccurrences, nextOccurrence, occurrenceOn, recurringCostFields, recurringDecider } from './recurring.ts';

const PHONE: StoredRecurringFields = {
  supplier: 'One NZ', amount: '65.00', gst: 'standard', supplyInformationHeld: false, category: 'other', note: 'Mobile', frequency: 'monthly',
  start: '2026-01-31', end: null, paidOnDate: true,
};

describe('the dates a repeating expense falls on', () => {
  it('monthly from 31 January: the month’s last day when shorter, back to the 31st when it has one', () => {
    expect([0, 1, 2, 3, 12, 13].map((n) => occurrenceOn('2026-01-31', 'monthly', n))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2027-01-31', '2027-02-28']);
    expect([0, 1, 2].map((n) => occurrenceOn('2027-11-30', 'quarterly', n))).toEqual(['2027-11-30', '2028-02-29', '2028-05-30']);
    expect([0, 1, 2].map((n) => occurrenceOn('2028-02-29', 'yearly', n))).toEqual(['2028-02-29', '2029-02-28', '2030-02-28']);
    expect([0, 1, 2].map((n) => occurrenceOn('2026-12-28', 'fortnightly', n))).toEqual(['2026-12-28', '2027-01-11', '2027-01-25']);
    expect([0, 1].map((n) => occurrenceOn('2026-12-29', 'weekly', n))).toEqual(['2026-12-29', '2027-01-05']);
  });

  it('what is due by a day: every date not yet made up to it, none past the last date, at most the limit', () => {
    expect(dueOccurrences(PHONE, 0, '2026-04-29')).toEqual([{ index: 0, date: '2026-01-31' }, { index: 1, date: '2026-02-28' }, { index: 2, date: '2026-03-31' }]);
    expect(dueOccurrences(PHONE, 3, '2026-04-29')).toEqual([]);
    expect(dueOccurrences(PHONE, 3, '2026-04-30')).toEqual([{ index: 3, date: '2026-04-30' }]);
    expect(dueOccurrences({ ...PHONE, end: '2026-03-30' }, 0, '2026-12-01')).toHaveLength(2);
    expect(nextOccurrence({ ...PHONE, end: '2026-03-30' }, 2)).toBeNull();
    expect(dueOccurrences({ ...PHONE, frequency: 'weekly' }, 0, '2027-01-31', 10)).toHaveLength(10);
  });

  it('property: the n-th monthly date is in the n-th month after the first, on its day or the month’s last', () => {
    const dayArb = fc.integer({ min: 0, max: 3000 }).map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10) as LocalDate);
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 40 }), (start, n) => {
        const [y, m, d] = start.split('-').map(Number) as [number, number, number];
        const month = (m - 1 + n) % 12;
        const year = y + Math.floor((m - 1 + n) / 12);
        const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
        const want = `${year}-${String(month + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
        expect(occurrenceOn(start, 'monthly', n)).toBe(want);
        // Weekly: exactly 7 n days on.
        expect(Date.parse(occurrenceOn(start, 'weekly', n)) - Date.parse(start)).toBe(7 * n * 86_400_000);
      }),
    );
  });
});

describe('the repeating expense decider', () => {
  const setUp: RecurringEvent = { type: 'RecurringCostSetUp', data: { recurringId: 'r1', ...PHONE } };
  const fold = (events: RecurringEvent[]): RecurringState => events.reduce(recurringDecider.evolve, recurringDecider.initialState());

  it('makes each cost once: a second look on the same day makes nothing; stopped, it makes no more', () => {
    const first = recurringDecider.decide({ type: 'MakeDueCosts', data: { today: '2026-03-01', costIds: ['c1', 'c2', 'c3'] } }, fold([setUp]));
    expect(first.map((e) => e.type === 'RecurringCostMade' && [e.data.index, e.data.date, e.data.costId])).toEqual([[0, '2026-01-31', 'c1'], [1, '2026-02-28', 'c2']]);
    const after = fold([setUp, ...first]);
    expect(recurringDecider.decide({ type: 'MakeDueCosts', data: { today: '2026-03-01', costIds: ['c9'] } }, after)).toEqual([]);
    const stopped = fold([setUp, ...first, ...recurringDecider.decide({ type: 'StopRecurringCost', data: { today: '2026-03-02' } }, after)]);
    expect(stopped).toMatchObject({ status: 'stopped', made: 2, stoppedOn: '2026-03-02', lastMadeOn: '2026-02-28' });
    expect(recurringDecider.decide({ type: 'MakeDueCosts', data: { today: '2026-12-01', costIds: ['c9'] } }, stopped)).toEqual([]);
    expect(recurringDecider.decide({ type: 'StopRecurringCost', data: { today: '2026-03-03' } }, stopped)).toEqual([]);
    expect(() => recurringDecider.decide({ type: 'StopRecurringCost', data: { today: '2026-03-03' } }, recurringDecider.initialState())).toThrow('Repeating expense not found');
  });

  it('property: however the looks are spread over the days, each date up to the last look is made exactly once, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 12 }), fc.constantFrom('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly' as const), (offsets, frequency) => {
        const fields = { ...PHONE, frequency, start: '2026-01-31' };
        let events: RecurringEvent[] = [{ type: 'RecurringCostSetUp', data: { recurringId: 'r1', ...fields } }];
        const days = [...offsets].sort((a, b) => a - b).map((o) => new Date(Date.UTC(2026, 0, 31) + o * 86_400_000).toISOString().slice(0, 10) as LocalDate);
        let n = 0;
        for (const today of days) {
          const made = recurringDecider.decide({ type: 'MakeDueCosts', data: { today, costIds: Array.from({ length: 100 }, () => `c${n++}`) } }, fold(events));
          events = [...events, ...made];
        }
        const dates = events.flatMap((e) => (e.type === 'RecurringCostMade' ? [e.data.date] : []));
        const want: string[] = [];
        for (let i = 0; occurrenceOn('2026-01-31', frequency, i) <= days.at(-1)!; i++) want.push(occurrenceOn('2026-01-31', frequency, i));
        expect(dates).toEqual(want);
      }),
    );
  });

  it('checks a first date within a year either side of today and an end not before it; a business not registered records no GST', () => {
    expect(() => checkRecurring({ ...PHONE, start: '2025-01-30' }, '2026-02-01')).toThrow('The first date can be at most a year ago');
    expect(() => checkRecurring({ ...PHONE, start: '2027-02-03' }, '2026-02-01')).toThrow('The first date can be at most a year ahead');
    expect(() => checkRecurring({ ...PHONE, end: '2026-01-30' }, '2026-02-01')).toThrow('The last date must be on or after the first date');
    expect(() => checkRecurring({ ...PHONE, amount: '0.00' }, '2026-02-01')).toThrow();
    expect(recurringCostFields(PHONE, '2026-02-28', false)).toEqual({
      kind: 'expense', supplier: 'One NZ', date: '2026-02-28', paidDate: '2026-02-28', amount: '65.00', gst: 'none', supplyInformationHeld: false, credit: false, category: 'other', jobId: null, note: 'Mobile',
    });
    expect(recurringCostFields({ ...PHONE, paidOnDate: false }, '2026-02-28', true)).toMatchObject({ gst: 'standard', paidDate: null });
  });
});
