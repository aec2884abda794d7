import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addDays, daysInMonth, isLocalDate } from '@tradie/domain';
import {
  QUARTERS,
  currentYear,
  gstPeriodContaining,
  gstPeriodGroups,
  nzTaxYearRange,
  periodFromValue,
  periodLabel,
  periodValue,
  quarterRange,
  rangeText,
  recentGstPeriods,
  sameRange,
  shortDate,
  taxYearOptionLabel,
  taxYearOptions,
} from './periods.ts';

const day = fc
  .record({ y: fc.integer({ min: 2000, max: 2100 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .filter(({ y, m, d }) => d <= daysInMonth(y, m))
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

describe('quarters of the current year', () => {
  it('are the calendar quarters, worded as on the buttons', () => {
    expect(QUARTERS.map((q) => q.label)).toEqual(['Q1 (Jan-Mar)', 'Q2 (Apr-Jun)', 'Q3 (Jul-Sep)', 'Q4 (Oct-Dec)']);
    expect(quarterRange(2026, 1)).toEqual({ start: '2026-01-01', end: '2026-03-31' });
    expect(quarterRange(2026, 2)).toEqual({ start: '2026-04-01', end: '2026-06-30' });
    expect(quarterRange(2026, 3)).toEqual({ start: '2026-07-01', end: '2026-09-30' });
    expect(quarterRange(2026, 4)).toEqual({ start: '2026-10-01', end: '2026-12-31' });
  });

  it('take the year from the NZ calendar day', () => {
    expect(currentYear('2026-01-01')).toBe(2026);
    expect(currentYear('2025-12-31')).toBe(2025);
  });

  it('cover the year with no gap and no overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2999 }), (year) => {
        const qs = ([1, 2, 3, 4] as const).map((q) => quarterRange(year, q));
        expect(qs[0]?.start).toBe(`${year}-01-01`);
        expect(qs[3]?.end).toBe(`${year}-12-31`);
        for (let i = 1; i < 4; i++) expect(qs[i]?.start).toBe(addDays(qs[i - 1]?.end ?? '', 1));
      }),
    );
  });
});

describe('NZ Tax Year button (April rule)', () => {
  it('before April runs last year to this year; from 1 April, this year to next year', () => {
    expect(nzTaxYearRange('2026-03-31')).toEqual({ start: '2025-04-01', end: '2026-03-31' });
    expect(nzTaxYearRange('2026-04-01')).toEqual({ start: '2026-04-01', end: '2027-03-31' });
    expect(nzTaxYearRange('2026-01-01')).toEqual({ start: '2025-04-01', end: '2026-03-31' });
    expect(nzTaxYearRange('2026-12-31')).toEqual({ start: '2026-04-01', end: '2027-03-31' });
  });

  it('always contains today and runs 1 April to 31 March', () => {
    fc.assert(
      fc.property(day, (today) => {
        const r = nzTaxYearRange(today);
        expect(r.start <= today && today <= r.end).toBe(true);
        expect(r.start.slice(5)).toBe('04-01');
        expect(r.end.slice(5)).toBe('03-31');
        expect(Number(r.end.slice(0, 4))).toBe(Number(r.start.slice(0, 4)) + 1);
      }),
    );
  });
});

describe('two-monthly GST periods (31 March balance date: periods end in odd months)', () => {
  it.each([
    ['2026-02-15', '2026-02-01', '2026-03-31'],
    ['2025-10-10', '2025-10-01', '2025-11-30'],
    ['2026-01-05', '2025-12-01', '2026-01-31'],
    ['2025-08-20', '2025-08-01', '2025-09-30'],
    ['2025-04-01', '2025-04-01', '2025-05-31'],
    ['2025-07-31', '2025-06-01', '2025-07-31'],
    ['2025-12-01', '2025-12-01', '2026-01-31'],
    ['2024-02-29', '2024-02-01', '2024-03-31'],
  ])('%s is in %s – %s', (d, start, end) => {
    expect(gstPeriodContaining(d, 2)).toEqual({ start, end });
  });

  it('every period starts on the 1st of an even month, ends on the last day of the next (odd) month, and contains the day', () => {
    fc.assert(
      fc.property(day, (d) => {
        const p = gstPeriodContaining(d, 2);
        expect(p.start <= d && d <= p.end).toBe(true);
        expect(Number(p.start.slice(5, 7)) % 2).toBe(0);
        expect(p.start.slice(8)).toBe('01');
        expect(Number(p.end.slice(5, 7)) % 2).toBe(1);
        expect(isLocalDate(p.end)).toBe(true);
        expect(addDays(p.end, 1).slice(8)).toBe('01');
      }),
    );
  });
});

describe('six-monthly GST periods', () => {
  it.each([
    ['2025-09-30', '2025-04-01', '2025-09-30'],
    ['2025-10-01', '2025-10-01', '2026-03-31'],
    ['2026-03-31', '2025-10-01', '2026-03-31'],
    ['2026-04-01', '2026-04-01', '2026-09-30'],
    ['2026-01-15', '2025-10-01', '2026-03-31'],
  ])('%s is in %s – %s', (d, start, end) => {
    expect(gstPeriodContaining(d, 6)).toEqual({ start, end });
  });

  it('are 1 Apr – 30 Sep or 1 Oct – 31 Mar and contain the day', () => {
    fc.assert(
      fc.property(day, (d) => {
        const p = gstPeriodContaining(d, 6);
        expect(p.start <= d && d <= p.end).toBe(true);
        expect([['04-01', '09-30'], ['10-01', '03-31']]).toContainEqual([p.start.slice(5), p.end.slice(5)]);
      }),
    );
  });
});

describe('recent GST periods (the More periods select)', () => {
  it('lists the running period first, then the ones before it, back to back', () => {
    expect(recentGstPeriods('2026-11-23', 2, 6)).toEqual([
      { start: '2026-10-01', end: '2026-11-30' },
      { start: '2026-08-01', end: '2026-09-30' },
      { start: '2026-06-01', end: '2026-07-31' },
      { start: '2026-04-01', end: '2026-05-31' },
      { start: '2026-02-01', end: '2026-03-31' },
      { start: '2025-12-01', end: '2026-01-31' },
    ]);
    expect(recentGstPeriods('2026-11-23', 6, 3)).toEqual([
      { start: '2026-10-01', end: '2027-03-31' },
      { start: '2026-04-01', end: '2026-09-30' },
      { start: '2025-10-01', end: '2026-03-31' },
    ]);
  });

  it('never leave a gap between periods', () => {
    fc.assert(
      fc.property(day, fc.constantFrom<2 | 6>(2, 6), fc.integer({ min: 1, max: 12 }), (today, freq, count) => {
        const ps = recentGstPeriods(today, freq, count);
        expect(ps).toHaveLength(count);
        for (let i = 1; i < ps.length; i++) expect(addDays(ps[i]?.end ?? '', 1)).toBe(ps[i - 1]?.start);
      }),
    );
  });

  it('are grouped and labelled for the select, the running one marked current', () => {
    const groups = gstPeriodGroups('2026-01-10');
    expect(groups.map((g) => g.label)).toEqual(['Two-monthly GST periods', 'Six-monthly GST periods']);
    expect(groups[0]?.options.map((o) => o.label)).toEqual([
      'Dec 2025–Jan 2026 (current)',
      'Oct–Nov 2025',
      'Aug–Sep 2025',
      'Jun–Jul 2025',
      'Apr–May 2025',
      'Feb–Mar 2025',
    ]);
    expect(groups[1]?.options.map((o) => o.label)).toEqual(['Oct 2025–Mar 2026 (current)', 'Apr–Sep 2025', 'Oct 2024–Mar 2025']);
    const first = groups[0]?.options[0];
    expect(first?.value).toBe('2025-12-01/2026-01-31');
    expect(periodFromValue(first?.value ?? '')).toEqual(first?.range);
  });
});

describe('labels', () => {
  it('period and date texts', () => {
    expect(periodLabel({ start: '2026-10-01', end: '2026-11-30' })).toBe('Oct–Nov 2026');
    expect(periodLabel({ start: '2026-11-01', end: '2026-11-30' })).toBe('Nov 2026');
    expect(shortDate('2026-04-01')).toBe('1 Apr 2026');
    expect(shortDate('2027-03-31')).toBe('31 Mar 2027');
    expect(rangeText({ start: '2026-01-01', end: '2026-03-31' })).toBe('1 Jan 2026 – 31 Mar 2026');
    expect(periodValue({ start: '2026-01-01', end: '2026-03-31' })).toBe('2026-01-01/2026-03-31');
    expect(periodFromValue('')).toBeNull();
  });

  it('sameRange compares both ends and treats a missing range as different', () => {
    expect(sameRange({ start: 'a', end: 'b' }, { start: 'a', end: 'b' })).toBe(true);
    expect(sameRange({ start: 'a', end: 'b' }, { start: 'a', end: 'c' })).toBe(false);
    expect(sameRange(null, { start: 'a', end: 'b' })).toBe(false);
  });
});

describe('tax years offered by the annual summary', () => {
  it('are the current tax year and the three before it, computed from today (April rule)', () => {
    expect(taxYearOptions('2026-11-23')).toEqual([
      { year: 2027, label: '2026–27 (1 Apr 2026 – 31 Mar 2027)' },
      { year: 2026, label: '2025–26 (1 Apr 2025 – 31 Mar 2026)' },
      { year: 2025, label: '2024–25 (1 Apr 2024 – 31 Mar 2025)' },
      { year: 2024, label: '2023–24 (1 Apr 2023 – 31 Mar 2024)' },
    ]);
    expect(taxYearOptions('2026-03-31').map((o) => o.year)).toEqual([2026, 2025, 2024, 2023]);
    expect(taxYearOptions('2026-04-01').map((o) => o.year)).toEqual([2027, 2026, 2025, 2024]);
  });

  it('the first (default) always contains today', () => {
    fc.assert(
      fc.property(day, (today) => {
        const [first] = taxYearOptions(today);
        const y = first?.year ?? 0;
        expect(`${y - 1}-04-01` <= today && today <= `${y}-03-31`).toBe(true);
      }),
    );
  });

  it('label names the years and the days', () => {
    expect(taxYearOptionLabel(2026)).toBe('2025–26 (1 Apr 2025 – 31 Mar 2026)');
  });
});
