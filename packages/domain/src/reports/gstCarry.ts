// Adjustments to carry: an invoice that counts for GST in a period the business has already exported
// for its accountant (a backdated invoice, dated before the day it was issued, or one whose deposit
// was paid then) was not in what was exported, and what was exported is what the tax office sees.
// So the invoice is left out of that period's figures, which stay exactly as exported, and is listed
// as an adjustment to carry in the first period not yet exported, on or after the day it was issued
// (docs/decisions/0024-backdated-invoices-in-an-exported-period.md).
//
// Whether an invoice is carried depends only on the exports made before it was issued, and those
// never change afterwards: an export made later already shows the invoice where it is carried to.
// Only an export made after its range had ended closes the range: a report downloaded while its
// period is still running (to see how the month is going) is not what the accountant files, so an
// invoice issued afterwards into that period is simply in it.
import { addDays, formatMonth, lastOfMonth, monthOf, nzDateOf, formatNzDateLong, type LocalDate } from '../dates/dates.ts';

/** A GST report on the invoice basis exported for the accountant (the GST CSV or the accountant's ZIP): its range, and when it was made. */
export interface GstExportRecord {
  start: LocalDate;
  end: LocalDate;
  /** The instant the file was made (ISO 8601). */
  at: string;
}

/** Where an invoice's GST goes when its own period was exported before it was issued. */
export interface GstCarry {
  /** The export (the earliest made) that holds the invoice's time of supply. */
  exported: { start: LocalDate; end: LocalDate };
  /** The day it is reported on instead: the first day on or after the day it was issued that no earlier export holds. */
  carryDate: LocalDate;
}

const holds = (e: { start: LocalDate; end: LocalDate }, d: LocalDate): boolean => d >= e.start && d <= e.end;

/** An export closes its range when it was made after the range's last day (New Zealand time). */
const closes = (e: GstExportRecord): boolean => nzDateOf(e.at) > e.end;

/**
 * The carry of an invoice with time of supply `supplyDate`, first issued at the instant `issuedAt`
 * (null: not issued, or issued before the app recorded the instant — never carried), or null when
 * no export made before it was issued holds its time of supply. An export made at the very instant
 * it was issued is taken to hold it (the two cannot be told apart; the invoice stays where it is).
 */
export function gstCarryOf(row: { supplyDate: LocalDate; issuedAt: string | null }, exports: readonly GstExportRecord[]): GstCarry | null {
  if (row.issuedAt === null) return null;
  const issued = Date.parse(row.issuedAt);
  const before = exports.filter((e) => Date.parse(e.at) < issued && closes(e)).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const exported = before.find((e) => holds(e, row.supplyDate));
  if (!exported) return null;
  let day = nzDateOf(row.issuedAt);
  if (day < row.supplyDate) day = row.supplyDate;
  // Each step moves past the end of an export, so this ends after at most one step per export.
  for (let covering = before.find((e) => holds(e, day)); covering; covering = before.find((e) => holds(e, day))) day = addDays(covering.end, 1);
  return { exported: { start: exported.start, end: exported.end }, carryDate: day };
}

/** The rows that are carried, each with its carry (the same rows in the same order otherwise). */
export function carriedRows<R extends { supplyDate: LocalDate; issuedAt: string | null }>(rows: Iterable<R>, exports: readonly GstExportRecord[]): (R & GstCarry)[] {
  const out: (R & GstCarry)[] = [];
  if (exports.length === 0) return out;
  for (const r of rows) {
    const carry = gstCarryOf(r, exports);
    if (carry) out.push({ ...r, ...carry });
  }
  return out;
}

const shortMonth = (month: string): string => formatMonth(month).slice(0, 3);

/**
 * A range as a tradie names it: whole months 'Jan–Feb 2027', 'Dec 2026–Jan 2027' or 'Mar 2027';
 * anything else '5 January 2027 – 20 February 2027'.
 */
export function periodLabel(range: { start: LocalDate; end: LocalDate }): string {
  const wholeMonths = range.start.endsWith('-01') && range.end === lastOfMonth(monthOf(range.end));
  if (!wholeMonths) return `${formatNzDateLong(range.start)} – ${formatNzDateLong(range.end)}`;
  const [from, to] = [monthOf(range.start), monthOf(range.end)];
  if (from === to) return formatMonth(from);
  if (from.slice(0, 4) === to.slice(0, 4)) return `${shortMonth(from)}–${formatMonth(to)}`;
  return `${formatMonth(from)}–${formatMonth(to)}`;
}

/** What issuing a carried invoice says, on the answer and on the invoice's screen. */
export const gstCarryNotice = (carry: GstCarry): string =>
  `This invoice counts for GST in ${periodLabel(carry.exported)}, a GST period you have already exported for your accountant. ` +
  `It will be listed as an adjustment to carry in the GST report that includes ${formatNzDateLong(carry.carryDate)}; the figures you exported stay as they were.`;
