// One GST rounding method for a whole taxable period. The method (on the invoice total or on each
// line, s 19O) must not change part-way through a GST period, so a change in Settings is kept as the
// method for the next period: documents made before the next period starts keep the method in use
// now, and those made from its first day take the new one (docs/decisions/0025-one-rounding-per-period.md).
import { addMonths, firstOfMonth, formatNzDateLong, monthOf, type LocalDate } from '../dates/dates.ts';
import type { GstRounding } from './gst.ts';

/** How many months a GST period lasts (monthly, two-monthly, six-monthly). */
export type GstFilingMonths = 1 | 2 | 6;
export const GST_FILING_MONTHS: readonly GstFilingMonths[] = [1, 2, 6];
export const DEFAULT_GST_FILING_MONTHS: GstFilingMonths = 2;

/**
 * The first day of the GST period holding `day`, for a business with a 31 March balance date:
 * two-monthly periods are Apr–May, Jun–Jul, …, Dec–Jan; six-monthly ones Apr–Sep and Oct–Mar.
 */
export function gstPeriodStart(day: LocalDate, months: GstFilingMonths): LocalDate {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const offset = (((y * 12 + (m - 1) - 3) % months) + months) % months; // April = month 3 from January
  return firstOfMonth(monthOf(addMonths(firstOfMonth(monthOf(day)), -offset)));
}

/** The first day of the GST period after the one holding `day`. */
export const nextGstPeriodStart = (day: LocalDate, months: GstFilingMonths): LocalDate => addMonths(gstPeriodStart(day, months), months);

/** The rounding the settings hold: the method in use, and a change waiting for the next period. */
export interface RoundingSetting {
  rounding: GstRounding;
  next: { rounding: GstRounding; from: LocalDate } | null;
}

/** The method a document made on `day` takes. */
export const roundingOn = (s: RoundingSetting, day: LocalDate): GstRounding => (s.next !== null && day >= s.next.from ? s.next.rounding : s.rounding);

/**
 * The setting after the business asks for `wanted` on `today`: a change already due is applied
 * first; asking for the method in use cancels a waiting change; any other method waits for the
 * start of the next GST period.
 */
export function requestRounding(s: RoundingSetting, wanted: GstRounding, today: LocalDate, months: GstFilingMonths): RoundingSetting {
  const inUse = roundingOn(s, today);
  if (wanted === inUse) return { rounding: inUse, next: null };
  return { rounding: inUse, next: { rounding: wanted, from: nextGstPeriodStart(today, months) } };
}

/** What the settings screen says of a waiting change. */
export const roundingAppliesFrom = (from: LocalDate): string => `Applies from ${formatNzDateLong(from)}, the start of your next GST period`;
