import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './dates.ts';
import { addWorkingDays, easterSunday, isCcaWorkingDay, isNzBusinessDay, MATARIKI, nextNzBusinessDay, nzPublicHoliday, nzPublicHolidays, weekday } from './nzHolidays.ts';

const dates = (year: number) => nzPublicHolidays(year).map((h) => `${h.date} ${h.name}`);

describe('New Zealand public holidays', () => {
  it('2026, as published: ANZAC Day (a Saturday) on Monday 27 April, Boxing Day (a Saturday) on Monday 28 December', () => {
    expect(dates(2026)).toEqual([
      "2026-01-01 New Year's Day", '2026-01-02 Day after New Year’s Day', '2026-02-06 Waitangi Day', '2026-04-03 Good Friday', '2026-04-06 Easter Monday',
      '2026-04-27 ANZAC Day', "2026-06-01 King's Birthday", '2026-07-10 Matariki', '2026-10-26 Labour Day', '2026-12-25 Christmas Day', '2026-12-28 Boxing Day',
    ]);
  });

  it('2027: 2 January and Waitangi Day on Mondays, Christmas and Boxing Day on Monday and Tuesday', () => {
    expect(dates(2027)).toEqual([
      "2027-01-01 New Year's Day", '2027-01-04 Day after New Year’s Day', '2027-02-08 Waitangi Day', '2027-03-26 Good Friday', '2027-03-29 Easter Monday',
      '2027-04-26 ANZAC Day', "2027-06-07 King's Birthday", '2027-06-25 Matariki', '2027-10-25 Labour Day', '2027-12-27 Christmas Day', '2027-12-28 Boxing Day',
    ]);
  });

  it('a Sunday New Year (2023): the 2nd keeps Monday and New Year moves to Tuesday 3 January', () => {
    expect(nzPublicHoliday('2023-01-03')?.name).toBe("New Year's Day");
    expect(nzPublicHoliday('2023-01-02')?.name).toBe('Day after New Year’s Day');
    expect(nzPublicHoliday('2022-12-27')?.name).toBe('Christmas Day'); // Sunday 25th, Monday 26th Boxing Day
  });

  it('before 2014 Waitangi and ANZAC Day were not moved off a weekend', () => {
    expect(nzPublicHoliday('2010-02-06')?.name).toBe('Waitangi Day'); // a Saturday
    expect(nzPublicHoliday('2010-02-08')).toBeNull();
    expect(nzPublicHoliday('2015-04-27')?.name).toBe('ANZAC Day'); // 25th a Saturday
  });

  it('Easter Sunday, against dates everyone knows', () => {
    expect([2024, 2025, 2026, 2027, 2038, 2285].map(easterSunday)).toEqual(['2024-03-31', '2025-04-20', '2026-04-05', '2027-03-28', '2038-04-25', '2285-03-22']);
  });

  it('every year 2014–2100: each observed holiday is a weekday; eleven a year while Matariki is legislated (ten otherwise), none twice', () => {
    for (let year = 2014; year <= 2100; year += 1) {
      const list = nzPublicHolidays(year);
      expect(list.every((h) => weekday(h.date) >= 1 && weekday(h.date) <= 5 && h.date.startsWith(String(year)))).toBe(true);
      // Distinct days, but ANZAC Day shares its observed Monday with Easter Monday when it is Easter
      // Sunday (2038: Mondayised onto Easter Monday) or Easter Monday itself (2095).
      const anzacOnEaster = [`${year}-04-25`, `${year}-04-24`].includes(easterSunday(year));
      expect(new Set(list.map((h) => h.date)).size).toBe(list.length - (anzacOnEaster ? 1 : 0));
      expect(list).toHaveLength(MATARIKI[year] ? 11 : 10);
    }
  });

  it('2038: ANZAC Day falls on Easter Sunday, and both are observed on Easter Monday', () => {
    expect(nzPublicHolidays(2038).filter((h) => h.date === '2038-04-26').map((h) => h.name)).toEqual(['Easter Monday', 'ANZAC Day']);
  });

  it('2095: ANZAC Day is Easter Monday, one day off (no second Monday)', () => {
    expect(nzPublicHolidays(2095).filter((h) => h.date === '2095-04-25').map((h) => h.name)).toEqual(['Easter Monday', 'ANZAC Day']);
    expect(nzPublicHoliday('2095-04-26')).toBeNull();
  });

  it('every Matariki in the schedule is a Friday in late June or July', () => {
    for (const d of Object.values(MATARIKI)) {
      expect(weekday(d)).toBe(5);
      expect(d.slice(5) >= '06-20' && d.slice(5) <= '07-21').toBe(true);
    }
  });
});

describe('business and working days', () => {
  it('reminders skip the weekend and Waitangi Day', () => {
    expect(isNzBusinessDay('2026-02-06')).toBe(false); // Waitangi Day, a Friday
    expect(nextNzBusinessDay('2026-02-06')).toBe('2026-02-09');
    expect(nextNzBusinessDay('2026-02-05')).toBe('2026-02-05');
  });

  it('CCA: 20 working days after service skip weekends, holidays and 24 December – 5 January', () => {
    // Served Friday 11 December 2026: 14–18, 21–23 December are 8 days; 24 Dec – 5 Jan none;
    // 6–8 January 3 more (11); 11–15 (16); 18–21 January (20).
    expect(addWorkingDays('2026-12-11', 20)).toBe('2027-01-21');
    expect(isCcaWorkingDay('2027-01-05')).toBe(false);
    expect(isCcaWorkingDay('2027-01-06')).toBe(true);
    // Served Wednesday 1 April 2026: the 2nd is 1; Good Friday (3rd) and Easter Monday (6th) skipped;
    // 7–10 (5), 13–17 (10), 20–24 (15); ANZAC Monday (27th) skipped; 28–30 (18), 1 May (19), 4 May (20).
    expect(addWorkingDays('2026-04-01', 20)).toBe('2026-05-04');
  });

  it('property: n working days later is a working day, and one more working day is always later', () => {
    const day = fc.integer({ min: 0, max: 3650 }).map((n) => addDays('2024-01-01', n));
    fc.assert(fc.property(day, fc.integer({ min: 1, max: 60 }), (from, n) => {
      const due = addWorkingDays(from, n);
      expect(isCcaWorkingDay(due)).toBe(true);
      expect(addWorkingDays(from, n + 1) > due).toBe(true);
      // Counting the working days in between gives n back.
      let count = 0;
      for (let d = addDays(from, 1); d <= due; d = addDays(d, 1)) if (isCcaWorkingDay(d)) count += 1;
      expect(count).toBe(n);
    }));
  });
});
