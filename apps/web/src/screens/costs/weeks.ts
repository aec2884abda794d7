// The Costs screen's week view of hours: entries grouped by the week they fall in (Monday to
// Sunday, as NZ payroll weeks run), newest week first, each with its total hours and cost. Sums are
// exact: hours have at most two decimals and costs are cents, both added as whole hundredths.
import type { HoursRecord } from '@tradie/contracts';
import { addDays, centsToString, toCents, weekday, type LocalDate } from '@tradie/domain';

export interface HoursWeek {
  /** The Monday the week starts on. */
  monday: LocalDate;
  entries: HoursRecord[];
  /** Total hours, as '12.75'. */
  hours: string;
  /** Total cost, as '540.50'. */
  cost: string;
}

/** The Monday of the week `day` falls in. */
export const mondayOf = (day: LocalDate): LocalDate => addDays(day, -((weekday(day) + 6) % 7));

/** Hundredths back to '12.75' (whole hours stay '12'). */
const hoursText = (hundredths: bigint): string => {
  const text = centsToString(hundredths);
  return text.endsWith('.00') ? text.slice(0, -3) : text.replace(/0$/, '');
};

export function hoursByWeek(entries: readonly HoursRecord[]): HoursWeek[] {
  const weeks = new Map<LocalDate, { entries: HoursRecord[]; hours: bigint; cost: bigint }>();
  for (const e of entries) {
    const monday = mondayOf(e.date as LocalDate);
    const week = weeks.get(monday) ?? { entries: [], hours: 0n, cost: 0n };
    week.entries.push(e);
    week.hours += toCents(e.hours);
    week.cost += toCents(e.cost);
    weeks.set(monday, week);
  }
  return [...weeks.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([monday, w]) => ({ monday, entries: w.entries, hours: hoursText(w.hours), cost: centsToString(w.cost) }));
}
