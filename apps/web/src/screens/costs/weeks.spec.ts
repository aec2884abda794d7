import type { HoursRecord } from '@tradie/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoursByWeek, mondayOf } from './weeks.ts';

const entry = (date: string, hours: string, cost: string): HoursRecord => ({ id: `${date}-${hours}-${cost}`, who: 'owner', date, hours, rate: '0', cost, job_id: null, note: '', version: 1 });

describe('hours by week', () => {
  it('a week runs Monday to Sunday', () => {
    // 4 May 2026 is a Monday; 10 May a Sunday; 11 May the next Monday.
    expect(['2026-05-04', '2026-05-07', '2026-05-10'].map(mondayOf)).toEqual(['2026-05-04', '2026-05-04', '2026-05-04']);
    expect(mondayOf('2026-05-11')).toBe('2026-05-11');
    // Across a year's end: Thursday 1 January 2026 is in the week of Monday 29 December 2025.
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });

  it('groups by week, newest first, with exact totals', () => {
    const weeks = hoursByWeek([entry('2026-05-05', '3', '136.50'), entry('2026-05-12', '7.5', '318.75'), entry('2026-05-10', '1.25', '56.88'), entry('2026-05-13', '0.75', '31.88')]);
    expect(weeks.map((w) => [w.monday, w.hours, w.cost, w.entries.length])).toEqual([
      ['2026-05-11', '8.25', '350.63', 2],
      ['2026-05-04', '4.25', '193.38', 2],
    ]);
  });

  it('every entry lands in exactly one week, on or after its Monday and within six days; the totals add up to the whole', () => {
    const day = fc.integer({ min: 0, max: 800 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    const hundredths = fc.integer({ min: 0, max: 99_999 });
    const text = (h: number): string => (h / 100).toFixed(2);
    fc.assert(
      fc.property(fc.array(fc.tuple(day, hundredths, hundredths), { maxLength: 40 }), (rows) => {
        const entries = rows.map(([d, h, c], i) => ({ ...entry(d, text(h), text(c)), id: String(i) }));
        const weeks = hoursByWeek(entries);
        expect(weeks.reduce((n, w) => n + w.entries.length, 0)).toBe(entries.length);
        for (const w of weeks) {
          for (const e of w.entries) {
            const gap = (Date.parse(e.date) - Date.parse(w.monday)) / 86_400_000;
            expect(gap >= 0 && gap <= 6).toBe(true);
          }
        }
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(Math.round(sum(weeks.map((w) => Number(w.cost)))* 100)).toBe(sum(rows.map(([, , c]) => c)));
        expect(Math.round(sum(weeks.map((w) => Number(w.hours))) * 100)).toBe(sum(rows.map(([, h]) => h)));
        for (let i = 1; i < weeks.length; i++) expect(weeks[i - 1]!.monday > weeks[i]!.monday).toBe(true);
      }),
    );
  });
});
