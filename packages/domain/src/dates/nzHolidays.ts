// New Zealand's national public holidays for any year, and the working days that follow from
// them: business days for sending reminders (no weekends, no national holidays) and working days
// under the Construction Contracts Act 2002 (the same, and no day from 24 December to 5 January).
// Regional anniversary days are not national holidays and are not counted.
//
// The rules (Holidays Act 2003; Te Kāhui o Matariki Public Holiday Act 2022):
// - New Year's Day (1 January) and 2 January; Christmas Day and Boxing Day. When one falls on a
//   weekend it is observed on the next weekday not already a holiday ("Mondayised"): a Saturday
//   1 January moves to Monday 3 January and a Sunday 2 January to Tuesday 4 January; a Saturday
//   Christmas to Monday 27 December and a Sunday Boxing Day to Tuesday 28 December.
// - Waitangi Day (6 February) and ANZAC Day (25 April): on a Saturday or Sunday, observed on the
//   Monday after (since 2014; before then they were not moved).
// - Good Friday and Easter Monday (Western Easter).
// - The Sovereign's Birthday: the first Monday in June.
// - Matariki: a Friday set in the Act's schedule for 2022–2052 (below). Years outside the table
//   have no Matariki date yet: the law sets each one, and a guess would be worse than none.
// - Labour Day: the fourth Monday in October.
import { type LocalDate, addDays, compareDates, isLocalDate } from './dates.ts';

export interface NzHoliday {
  date: LocalDate;
  name: string;
}

/** Matariki, from the schedule of Te Kāhui o Matariki Public Holiday Act 2022. */
export const MATARIKI: Readonly<Record<number, LocalDate>> = {
  2022: '2022-06-24', 2023: '2023-07-14', 2024: '2024-06-28', 2025: '2025-06-20', 2026: '2026-07-10',
  2027: '2027-06-25', 2028: '2028-07-14', 2029: '2029-07-06', 2030: '2030-06-21', 2031: '2031-07-11',
  2032: '2032-07-02', 2033: '2033-06-24', 2034: '2034-07-07', 2035: '2035-06-29', 2036: '2036-07-18',
  2037: '2037-07-10', 2038: '2038-06-25', 2039: '2039-07-15', 2040: '2040-07-06', 2041: '2041-07-19',
  2042: '2042-07-11', 2043: '2043-07-03', 2044: '2044-06-24', 2045: '2045-07-07', 2046: '2046-06-29',
  2047: '2047-07-19', 2048: '2048-07-03', 2049: '2049-06-25', 2050: '2050-07-15', 2051: '2051-06-30',
  2052: '2052-06-21',
};

const pad = (n: number): string => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number): LocalDate => `${y}-${pad(m)}-${pad(d)}`;

/** 0 = Sunday … 6 = Saturday, for a calendar day. */
export function weekday(d: LocalDate): number {
  return new Date(`${d}T00:00:00Z`).getUTCDay();
}

export const isWeekend = (d: LocalDate): boolean => {
  const w = weekday(d);
  return w === 0 || w === 6;
};

/** Western Easter Sunday (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): LocalDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

/** The n-th (1-based) given weekday of a month. */
function nthWeekday(year: number, month: number, dayOfWeek: number, n: number): LocalDate {
  const first = ymd(year, month, 1);
  const offset = (dayOfWeek - weekday(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
}

/** A pair of days (1–2 January, 25–26 December) moved off the weekend to the next free weekdays. */
function observedPair(a: LocalDate, b: LocalDate): [LocalDate, LocalDate] {
  const taken = new Set<LocalDate>();
  const place = (d: LocalDate): LocalDate => {
    let day = d;
    while (isWeekend(day) || taken.has(day)) day = addDays(day, 1);
    taken.add(day);
    return day;
  };
  // A weekday holiday keeps its own day; only the weekend ones move, after it.
  const first = isWeekend(a) ? null : place(a);
  const second = isWeekend(b) ? null : place(b);
  return [first ?? place(a), second ?? place(b)];
}

/** Waitangi and ANZAC Day: on a weekend, the Monday after (from 2014). */
function mondayised(d: LocalDate, year: number): LocalDate {
  if (year < 2014) return d;
  const w = weekday(d);
  return w === 6 ? addDays(d, 2) : w === 0 ? addDays(d, 1) : d;
}

const cache = new Map<number, readonly NzHoliday[]>();

/** The national public holidays observed in a year, in date order. */
export function nzPublicHolidays(year: number): readonly NzHoliday[] {
  const hit = cache.get(year);
  if (hit) return hit;
  const [newYear, secondJan] = observedPair(ymd(year, 1, 1), ymd(year, 1, 2));
  const [christmas, boxing] = observedPair(ymd(year, 12, 25), ymd(year, 12, 26));
  const easter = easterSunday(year);
  const list: NzHoliday[] = [
    { date: newYear, name: "New Year's Day" },
    { date: secondJan, name: 'Day after New Year\u2019s Day' },
    { date: mondayised(ymd(year, 2, 6), year), name: 'Waitangi Day' },
    { date: addDays(easter, -2), name: 'Good Friday' },
    { date: addDays(easter, 1), name: 'Easter Monday' },
    { date: mondayised(ymd(year, 4, 25), year), name: 'ANZAC Day' },
    { date: nthWeekday(year, 6, 1, 1), name: "King's Birthday" },
    { date: nthWeekday(year, 10, 1, 4), name: 'Labour Day' },
    { date: christmas, name: 'Christmas Day' },
    { date: boxing, name: 'Boxing Day' },
  ];
  const matariki = MATARIKI[year];
  if (matariki) list.push({ date: matariki, name: 'Matariki' });
  list.sort((x, y) => compareDates(x.date, y.date));
  cache.set(year, list);
  return list;
}

/** The holiday on a day, or null. */
export function nzPublicHoliday(d: LocalDate): NzHoliday | null {
  return nzPublicHolidays(Number(d.slice(0, 4))).find((h) => h.date === d) ?? null;
}

/** A weekday that is not a national public holiday: when reminders may go out. */
export const isNzBusinessDay = (d: LocalDate): boolean => !isWeekend(d) && nzPublicHoliday(d) === null;

/** Construction Contracts Act 2002: a business day that is not between 24 December and 5 January. */
export function isCcaWorkingDay(d: LocalDate): boolean {
  const md = d.slice(5);
  if (md >= '12-24' || md <= '01-05') return false;
  return isNzBusinessDay(d);
}

/**
 * The day `n` working days after `from` (not counting `from` itself): what '20 working days after
 * service' means. `isWorking` chooses the calendar (CCA working days by default).
 */
export function addWorkingDays(from: LocalDate, n: number, isWorking: (d: LocalDate) => boolean = isCcaWorkingDay): LocalDate {
  if (!isLocalDate(from)) throw new RangeError(`${String(from)} is not a calendar day`);
  if (!Number.isInteger(n) || n < 0) throw new RangeError('n must be a whole number ≥ 0');
  let d = from;
  for (let left = n; left > 0; ) {
    d = addDays(d, 1);
    if (isWorking(d)) left -= 1;
  }
  return d;
}

/** The first business day on or after `d`. */
export function nextNzBusinessDay(d: LocalDate): LocalDate {
  let day = d;
  while (!isNzBusinessDay(day)) day = addDays(day, 1);
  return day;
}
