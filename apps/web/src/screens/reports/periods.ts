// The date ranges the Tax Reports screen offers:
// calendar quarters of the current year, the NZ tax year by the April rule, the two-monthly and
// six-monthly GST periods of a 31 March balance date, and the tax years the annual summary offers.
// Pure: "today" is an argument (the screen passes the NZ calendar day, nzDateOf(new Date())).
import { addMonths, firstOfMonth, formatMonth, lastOfMonth, monthOf, taxYearLabel, taxYearOf, taxYearRange, type LocalDate } from '@tradie/domain';

export interface DateRange {
  start: LocalDate;
  end: LocalDate;
}

const month = (year: number, m: number): string => `${year}-${String(m).padStart(2, '0')}`;
const yearOf = (d: LocalDate): number => Number(d.slice(0, 4));

export const sameRange = (a: DateRange | null | undefined, b: DateRange | null | undefined): boolean =>
  a != null && b != null && a.start === b.start && a.end === b.end;

// ---- quarters and the tax year ------------------------------------------------------------------

export type Quarter = 1 | 2 | 3 | 4;

/** The quick buttons and their labels. */
export const QUARTERS: readonly { quarter: Quarter; label: string }[] = [
  { quarter: 1, label: 'Q1 (Jan-Mar)' },
  { quarter: 2, label: 'Q2 (Apr-Jun)' },
  { quarter: 3, label: 'Q3 (Jul-Sep)' },
  { quarter: 4, label: 'Q4 (Oct-Dec)' },
];

/** A calendar quarter of a year: Q1 is 1 January – 31 March. */
export function quarterRange(year: number, quarter: Quarter): DateRange {
  const first = (quarter - 1) * 3 + 1;
  return { start: firstOfMonth(month(year, first)), end: lastOfMonth(month(year, first + 2)) };
}

/** The year the quarter buttons are for: the current calendar year in New Zealand. */
export const currentYear = (today: LocalDate): number => yearOf(today);

/**
 * The NZ tax year containing today: from April onward it runs 1 April this year to
 * 31 March next year; before April, 1 April last year to 31 March this year.
 */
export const nzTaxYearRange = (today: LocalDate): DateRange => taxYearRange(taxYearOf(today));

// ---- GST periods (31 March balance date) -------------------------------------------------------

/** How many months a GST return covers: two-monthly (IRD's default) or six-monthly. */
export type GstFrequency = 2 | 6;

/**
 * The GST period of a frequency that contains a day. With a 31 March balance date the periods line
 * up with the tax year, which starts in April: two-monthly periods end in odd months (Feb–Mar,
 * Apr–May, Jun–Jul, Aug–Sep, Oct–Nov, Dec–Jan); six-monthly ones are 1 Apr–30 Sep and 1 Oct–31 Mar.
 */
export function gstPeriodContaining(day: LocalDate, frequency: GstFrequency): DateRange {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1);
  const april = 3; // months are counted from January = 0
  const offset = (((index - april) % frequency) + frequency) % frequency;
  const start = firstOfMonth(monthOf(addMonths(`${month(y, m)}-01`, -offset)));
  const end = lastOfMonth(monthOf(addMonths(start, frequency - 1)));
  return { start, end };
}

/** The period containing today and the `count − 1` before it, newest first. */
export function recentGstPeriods(today: LocalDate, frequency: GstFrequency, count: number): DateRange[] {
  const out: DateRange[] = [];
  let period = gstPeriodContaining(today, frequency);
  for (let i = 0; i < count; i++) {
    out.push(period);
    period = gstPeriodContaining(addMonths(period.start, -1), frequency);
  }
  return out;
}

const monthName = (m: string): string => formatMonth(m).split(' ')[0] ?? m;

/** 'Oct–Nov 2026', 'Dec 2025–Jan 2026', 'Apr–Sep 2026', 'Oct 2026–Mar 2027'; one month: 'Nov 2026'. */
export function periodLabel(range: DateRange): string {
  const from = monthOf(range.start);
  const to = monthOf(range.end);
  if (from === to) return formatMonth(from);
  if (yearOf(range.start) === yearOf(range.end)) return `${monthName(from)}–${formatMonth(to)}`;
  return `${formatMonth(from)}–${formatMonth(to)}`;
}

/** '1 Apr 2026'. */
export function shortDate(d: LocalDate): string {
  return `${Number(d.slice(8, 10))} ${formatMonth(monthOf(d))}`;
}

/** '1 Jan 2026 – 31 Mar 2026'. */
export const rangeText = (range: DateRange): string => `${shortDate(range.start)} – ${shortDate(range.end)}`;

export interface PeriodOption {
  /** `start/end`, the select's option value. */
  value: string;
  label: string;
  range: DateRange;
}

export const periodValue = (range: DateRange): string => `${range.start}/${range.end}`;

export function periodFromValue(value: string): DateRange | null {
  const [start, end] = value.split('/');
  return start && end ? { start, end } : null;
}

export interface PeriodGroup {
  label: string;
  options: PeriodOption[];
}

/**
 * The 'More periods' choices: a year of two-monthly periods and eighteen months of six-monthly
 * ones, newest first, the one still running marked '(current)'.
 */
export function gstPeriodGroups(today: LocalDate): PeriodGroup[] {
  const group = (label: string, frequency: GstFrequency, count: number): PeriodGroup => ({
    label,
    options: recentGstPeriods(today, frequency, count).map((range, i) => ({
      value: periodValue(range),
      label: `${periodLabel(range)}${i === 0 ? ' (current)' : ''}`,
      range,
    })),
  });
  return [group('Two-monthly GST periods', 2, 6), group('Six-monthly GST periods', 6, 3)];
}

// ---- tax years for the annual summary -----------------------------------------------------------

export interface TaxYearOption {
  /** The year the tax year ends in (the API's `year`): 2027 is 1 April 2026 – 31 March 2027. */
  year: number;
  label: string;
}

/** '2026–27 (1 Apr 2026 – 31 Mar 2027)'. */
export function taxYearOptionLabel(year: number): string {
  const r = taxYearRange(year);
  return `${taxYearLabel(year)} (${rangeText(r)})`;
}

/** The current tax year and the `count − 1` before it, newest first (the first is the default). */
export function taxYearOptions(today: LocalDate, count = 4): TaxYearOption[] {
  const current = taxYearOf(today);
  return Array.from({ length: count }, (_, i) => ({ year: current - i, label: taxYearOptionLabel(current - i) }));
}
