// The GST report (spec §3 GST report) and the GST return boxes (nz-rules.md §3.1), on the
// invoice basis (by issue date) or the payments basis (by payment date, amounts received).
import { type LocalDate, compareDates, isLocalDate, monthsBetween } from '../dates/dates.ts';
import { invalid } from '../errors.ts';
import { centsToNumber } from '../money/money.ts';
import { roundReturnGst } from '../money/rounding.ts';
import type { ReportInvoiceRow, ReportPaymentRow } from './rows.ts';

export type GstBasis = 'invoice' | 'payments';
export const GST_BASES: readonly GstBasis[] = ['invoice', 'payments'];

export interface DateRange {
  start: LocalDate;
  end: LocalDate;
}

export const MISSING_DATES = 'Please select both start and end dates';

/** Both dates present, real calendar days, start ≤ end. */
export function checkRange(start: unknown, end: unknown): DateRange {
  if (start === undefined || end === undefined || start === null || end === null || start === '' || end === '') throw invalid(MISSING_DATES);
  if (!isLocalDate(start) || !isLocalDate(end)) throw invalid('Dates must be real calendar days written as YYYY-MM-DD');
  if (compareDates(start, end) > 0) throw invalid('The start date must be on or before the end date');
  if (monthsBetween(start, end).length > 240) throw invalid('A report can cover at most twenty years');
  return { start, end };
}

export const inRange = (d: LocalDate, r: DateRange): boolean => d >= r.start && d <= r.end;

/** Whole-cent sums for one month of a GST report. */
export interface GstMonthSums {
  month: string;
  salesCents: bigint;
  gstCents: bigint;
  zeroRatedCents: bigint;
  count: number;
}

/** What the report adds up: monthly sums plus the counts over the whole range. */
export interface GstSums {
  months: GstMonthSums[];
  invoiceCount: number;
  paidCount: number;
}

export interface GstReturnBoxes {
  /** Total sales and income, GST-inclusive, zero-rated included. */
  box5: number;
  /** Zero-rated supplies included in Box 5. */
  box6: number;
  /** Box 5 − Box 6. */
  box7: number;
  /** Box 7 × 3/23. */
  box8: number;
  /** Debit adjustments: none are recorded in the app. */
  box9: number;
  /** Total GST collected on sales and income: Box 8 + Box 9. */
  box10: number;
}

export interface GstReport {
  basis: GstBasis;
  start_date: LocalDate;
  end_date: LocalDate;
  total_sales: number;
  total_gst_collected: number;
  invoice_count: number;
  paid_invoices_count: number;
  unpaid_invoices_count: number;
  breakdown_by_month: { month: string; sales: number; gst: number; count: number }[];
  gst_return: GstReturnBoxes;
}

/**
 * Invoice basis: each invoice in the range by its time of supply — the issue date, or an earlier
 * payment (a deposit) — at its full value (nz-rules.md §3.2).
 */
export function sumInvoiceBasis(rows: Iterable<ReportInvoiceRow>, range: DateRange): GstSums {
  const months = new Map<string, GstMonthSums>();
  let invoiceCount = 0;
  let paidCount = 0;
  for (const r of rows) {
    if (!inRange(r.supplyDate, range)) continue;
    const m = months.get(r.supplyMonth) ?? { month: r.supplyMonth, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0 };
    m.salesCents += r.totalCents;
    m.gstCents += r.gstCents;
    m.zeroRatedCents += r.zeroRatedCents;
    m.count += 1;
    months.set(r.supplyMonth, m);
    invoiceCount += 1;
    if (r.paid) paidCount += 1;
  }
  return { months: [...months.values()], invoiceCount, paidCount };
}

/** Payments basis: each payment received in the range, with its share of GST. Counts are distinct invoices. */
export function sumPaymentsBasis(rows: Iterable<ReportPaymentRow>, range: DateRange): GstSums {
  const months = new Map<string, GstMonthSums & { docs: Set<string> }>();
  const docs = new Map<string, boolean>();
  for (const r of rows) {
    if (!inRange(r.date, range)) continue;
    const m = months.get(r.month) ?? { month: r.month, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0, docs: new Set<string>() };
    m.salesCents += r.amountCents;
    m.gstCents += r.gstCents;
    m.zeroRatedCents += r.zeroRatedCents;
    m.docs.add(r.documentId);
    m.count = m.docs.size;
    months.set(r.month, m);
    docs.set(r.documentId, r.invoicePaid);
  }
  return {
    months: [...months.values()].map(({ docs: _d, ...m }) => m),
    invoiceCount: docs.size,
    paidCount: [...docs.values()].filter(Boolean).length,
  };
}

export function gstReturnBoxes(salesCents: bigint, zeroRatedCents: bigint): GstReturnBoxes {
  const box7 = salesCents - zeroRatedCents;
  const box8 = roundReturnGst(box7);
  return {
    box5: centsToNumber(salesCents),
    box6: centsToNumber(zeroRatedCents),
    box7: centsToNumber(box7),
    box8: centsToNumber(box8),
    box9: 0,
    box10: centsToNumber(box8),
  };
}

/** The report from its sums. Every month the range touches is listed, in order, zeros included. */
export function assembleGstReport(sums: GstSums, range: DateRange, basis: GstBasis): GstReport {
  const byMonth = new Map(sums.months.map((m) => [m.month, m]));
  let sales = 0n;
  let gst = 0n;
  let zero = 0n;
  const breakdown = monthsBetween(range.start, range.end).map((month) => {
    const m = byMonth.get(month);
    sales += m?.salesCents ?? 0n;
    gst += m?.gstCents ?? 0n;
    zero += m?.zeroRatedCents ?? 0n;
    return { month, sales: centsToNumber(m?.salesCents ?? 0n), gst: centsToNumber(m?.gstCents ?? 0n), count: m?.count ?? 0 };
  });
  return {
    basis,
    start_date: range.start,
    end_date: range.end,
    total_sales: centsToNumber(sales),
    total_gst_collected: centsToNumber(gst),
    invoice_count: sums.invoiceCount,
    paid_invoices_count: sums.paidCount,
    unpaid_invoices_count: sums.invoiceCount - sums.paidCount,
    breakdown_by_month: breakdown,
    gst_return: gstReturnBoxes(sales, zero),
  };
}

/** The whole report from rows in memory (replay, tests). The API gets the same sums from SQL. */
export function gstReport(rows: { invoices: Iterable<ReportInvoiceRow>; payments: Iterable<ReportPaymentRow> }, range: DateRange, basis: GstBasis = 'invoice'): GstReport {
  const sums = basis === 'invoice' ? sumInvoiceBasis(rows.invoices, range) : sumPaymentsBasis(rows.payments, range);
  return assembleGstReport(sums, range, basis);
}
