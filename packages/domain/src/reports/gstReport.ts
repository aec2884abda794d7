// The GST report and the GST return boxes (docs/api/reports.md), on the
// invoice basis (by issue date) or the payments basis (by payment date, amounts received).
import { type LocalDate, compareDates, isLocalDate, monthOf, monthsBetween } from '../dates/dates.ts';
import { invalid } from '../errors.ts';
import { centsToNumber } from '../money/money.ts';
import { roundReturnGst } from '../money/rounding.ts';
import { NO_PURCHASES, type CostEntry, type PurchaseSums, purchaseBoxesCents, sumPurchases } from '../costs/costs.ts';
import { carriedRows, periodLabel, type GstCarry, type GstExportRecord } from './gstCarry.ts';
import { NO_PURCHASE_ADJUSTMENTS, type PurchaseAdjustments } from '../costs/purchaseCarry.ts';
import type { ReportCreditRow, ReportInvoiceRow, ReportPaymentRow } from './rows.ts';

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

/**
 * Corrections made in the range, already netted into the months: invoices voided in it and credit
 * notes issued in it (invoice basis), or payments removed in it and money paid back in it
 * (payments basis), as negative amounts; `count` is all of them, and each kind is counted apart so
 * the report can name them (a credit note is not a voided invoice, a refund not a removed payment).
 */
export interface CorrectionSums {
  count: number;
  salesCents: bigint;
  gstCents: bigint;
  voids: number;
  creditNotes: number;
  removals: number;
  refunds: number;
}

export const NO_CORRECTIONS: CorrectionSums = { count: 0, salesCents: 0n, gstCents: 0n, voids: 0, creditNotes: 0, removals: 0, refunds: 0 };

/** Which kind of correction a row is (CorrectionSums counts each apart). */
export type CorrectionKind = 'voids' | 'creditNotes' | 'removals' | 'refunds';

/** An invoice carried into the range from a period exported before it was issued (gstCarry.ts). */
export type CarriedInvoiceRow = ReportInvoiceRow & GstCarry;

/** What the report adds up: monthly sums plus the counts over the whole range. */
export interface GstSums {
  months: GstMonthSums[];
  invoiceCount: number;
  /** Of those invoices, how many are paid in full now. */
  paidCount: number;
  /** Of those invoices, how many were voided since (their reversal is a correction in the period of the void). */
  voidedCount: number;
  corrections: CorrectionSums;
  /** Draft invoices dated in the range: not issued, so not counted; the screen says so. */
  draftsLeftOut: number;
  /** Invoices carried into the range (already in the months and counts above), in carry-date order. */
  carried?: CarriedInvoiceRow[];
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
  /** Purchases and expenses, GST-inclusive, for which the supply information is held (supplier credits netted). */
  box11: number;
  /** Box 11 × 3/23. */
  box12: number;
  /** Credit adjustments: entered by hand (private use reversed and the like). */
  box13: number;
  /** Total GST credit for purchases and expenses: Box 12 + Box 13. */
  box14: number;
  /** Box 10 − Box 14: GST to pay, or a refund when negative. */
  box15: number;
}

export interface GstReport {
  basis: GstBasis;
  start_date: LocalDate;
  end_date: LocalDate;
  total_sales: number;
  total_gst_collected: number;
  invoice_count: number;
  paid_invoices_count: number;
  /** Neither paid in full nor voided, as of today. */
  unpaid_invoices_count: number;
  /** Counted in invoice_count, and voided since. */
  voided_invoices_count: number;
  breakdown_by_month: { month: string; sales: number; gst: number; count: number }[];
  gst_return: GstReturnBoxes;
  /**
   * Corrections in the range (negative amounts), already included in the totals above: `count` of
   * them in all, and of which invoices voided and credit notes issued (invoice basis), payments
   * removed and refunds paid back (payments basis).
   */
  corrections: { count: number; sales: number; gst: number; invoices_voided: number; credit_notes: number; payments_removed: number; refunds: number };
  /** Draft invoices dated in the range, left out because they were never issued. */
  drafts_left_out: number;
  /**
   * Invoice basis: invoices that count for GST in a period already exported for the accountant
   * before they were issued, carried here (already in the totals above) and listed apart; the
   * period they belong to keeps the figures that were exported.
   */
  adjustments_to_carry: {
    count: number;
    sales: number;
    gst: number;
    invoices: { reference: string; client_name: string; issue_date: LocalDate; supply_date: LocalDate; carried_to: LocalDate; exported_period: string; sales: number; gst: number }[];
  };
  /** Invoice basis: cost changes carried here from a period already exported (already in Boxes 11 and 12). */
  purchase_adjustments: PurchaseAdjustments;
}

/** Draft invoices' issue dates in the range (what `drafts_left_out` counts). */
export const countDraftsIn = (draftDates: Iterable<LocalDate>, range: DateRange): number => {
  let n = 0;
  for (const d of draftDates) if (inRange(d, range)) n += 1;
  return n;
};

/**
 * Invoice basis: each issued invoice in the range by its time of supply — the issue date, or an
 * earlier payment (a deposit) — at its full value (IRD: "invoice issued or any payment
 * received, whichever is first"); an invoice voided in the range is subtracted in the month of
 * the void, whenever it was supplied.
 */
export function sumInvoiceBasis(
  rows: Iterable<ReportInvoiceRow>,
  range: DateRange,
  draftsLeftOut = 0,
  credits: Iterable<ReportCreditRow> = [],
  exports: readonly GstExportRecord[] = [],
): GstSums {
  const all = [...rows];
  const months = new Map<string, GstMonthSums>();
  const monthOfSums = (month: string): GstMonthSums => {
    const m = months.get(month) ?? { month, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0 };
    months.set(month, m);
    return m;
  };
  let invoiceCount = 0;
  let paidCount = 0;
  let voidedCount = 0;
  const corrections = { ...NO_CORRECTIONS };
  /** A void or a credit note: its whole value taken off `month`, as a correction. */
  const subtract = (month: string, x: { totalCents: bigint; gstCents: bigint; zeroRatedCents: bigint }, kind: CorrectionKind): void => {
    const m = monthOfSums(month);
    m.salesCents -= x.totalCents;
    m.gstCents -= x.gstCents;
    m.zeroRatedCents -= x.zeroRatedCents;
    corrections.count += 1;
    corrections[kind] += 1;
    corrections.salesCents -= x.totalCents;
    corrections.gstCents -= x.gstCents;
  };
  for (const r of all) {
    if (inRange(r.supplyDate, range)) {
      const m = monthOfSums(r.supplyMonth);
      m.salesCents += r.totalCents;
      m.gstCents += r.gstCents;
      m.zeroRatedCents += r.zeroRatedCents;
      m.count += 1;
      invoiceCount += 1;
      if (r.paid) paidCount += 1;
      if (r.voidDate !== null) voidedCount += 1;
    }
    if (r.voidDate !== null && r.voidMonth !== null && inRange(r.voidDate, range)) subtract(r.voidMonth, r, 'voids');
  }
  // A credit note is a correction in the period it is issued: negative sales and GST then.
  for (const c of credits) if (inRange(c.date, range)) subtract(c.month, c, 'creditNotes');
  return withCarries({ months: [...months.values()], invoiceCount, paidCount, voidedCount, corrections, draftsLeftOut }, carriedRows(all, exports), range);
}

/**
 * The invoice-basis sums with the carried invoices moved: out of the month of their time of supply
 * (each was counted there, at its whole value) and into the month of their carry date, listed in
 * `carried`. The API applies it to its SQL sums and the replay to its own, with the same rows.
 */
export function withCarries(sums: GstSums, carried: readonly CarriedInvoiceRow[], range: DateRange): GstSums {
  if (carried.length === 0) return sums;
  const months = new Map(sums.months.map((m) => [m.month, { ...m }]));
  const monthOfSums = (month: string): GstMonthSums => {
    const m = months.get(month) ?? { month, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0 };
    months.set(month, m);
    return m;
  };
  let { invoiceCount, paidCount, voidedCount } = sums;
  const move = (r: CarriedInvoiceRow, month: string, sign: 1n | -1n): void => {
    const m = monthOfSums(month);
    m.salesCents += sign * r.totalCents;
    m.gstCents += sign * r.gstCents;
    m.zeroRatedCents += sign * r.zeroRatedCents;
    const n = Number(sign);
    m.count += n;
    invoiceCount += n;
    if (r.paid) paidCount += n;
    if (r.voidDate !== null) voidedCount += n;
  };
  const into: CarriedInvoiceRow[] = [];
  for (const r of carried) {
    if (inRange(r.supplyDate, range)) move(r, r.supplyMonth, -1n);
    if (inRange(r.carryDate, range)) {
      move(r, monthOf(r.carryDate), 1n);
      into.push(r);
    }
  }
  into.sort((a, b) => (a.carryDate < b.carryDate ? -1 : a.carryDate > b.carryDate ? 1 : a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0));
  return { ...sums, months: [...months.values()], invoiceCount, paidCount, voidedCount, carried: [...(sums.carried ?? []), ...into] };
}

/**
 * Payments basis: each payment received in the range, with its share of GST; a payment removed in
 * the range is subtracted then. Counts are distinct invoices with a payment received in the range.
 */
export function sumPaymentsBasis(rows: Iterable<ReportPaymentRow>, range: DateRange, draftsLeftOut = 0): GstSums {
  const months = new Map<string, GstMonthSums & { docs: Set<string> }>();
  const docs = new Map<string, { paid: boolean; voided: boolean }>();
  const corrections = { ...NO_CORRECTIONS };
  for (const r of rows) {
    if (!inRange(r.date, range)) continue;
    const m = months.get(r.month) ?? { month: r.month, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0, docs: new Set<string>() };
    months.set(r.month, m);
    m.salesCents += r.amountCents;
    m.gstCents += r.gstCents;
    m.zeroRatedCents += r.zeroRatedCents;
    if (r.kind !== 'payment') {
      // A removal, a refund, or a credit note settling money held: a correction in the period of its date.
      corrections.count += 1;
      if (r.kind !== 'credit') corrections[r.kind === 'refund' ? 'refunds' : 'removals'] += 1;
      corrections.salesCents += r.amountCents;
      corrections.gstCents += r.gstCents;
      continue;
    }
    m.docs.add(r.documentId);
    m.count = m.docs.size;
    docs.set(r.documentId, { paid: r.invoicePaid, voided: r.invoiceVoided });
  }
  return {
    months: [...months.values()].map(({ docs: _d, ...m }) => m),
    invoiceCount: docs.size,
    paidCount: [...docs.values()].filter((d) => d.paid).length,
    voidedCount: [...docs.values()].filter((d) => d.voided).length,
    corrections,
    draftsLeftOut,
  };
}

/** Boxes 5–10 in cents: sales, zero-rated, their difference, its GST, debit adjustments typed by hand (Box 9), and Box 10 = 8 + 9. */
export function salesBoxesCents(salesCents: bigint, zeroRatedCents: bigint, debitAdjustmentsCents = 0n): { box7: bigint; box8: bigint; box9: bigint; box10: bigint } {
  const box7 = salesCents - zeroRatedCents;
  const box8 = roundReturnGst(box7);
  return { box7, box8, box9: debitAdjustmentsCents, box10: box8 + debitAdjustmentsCents };
}

/** Every box of the return, 5–15: the one function the report, its CSV and the accountant's ZIP use. */
export function gstReturnBoxes(salesCents: bigint, zeroRatedCents: bigint, purchases: PurchaseSums = NO_PURCHASES, debitAdjustmentsCents = 0n): GstReturnBoxes {
  const s = salesBoxesCents(salesCents, zeroRatedCents, debitAdjustmentsCents);
  const p = purchaseBoxesCents(purchases, s.box10);
  return {
    box5: centsToNumber(salesCents),
    box6: centsToNumber(zeroRatedCents),
    box7: centsToNumber(s.box7),
    box8: centsToNumber(s.box8),
    box9: centsToNumber(s.box9),
    box10: centsToNumber(s.box10),
    box11: centsToNumber(p.box11),
    box12: centsToNumber(p.box12),
    box13: centsToNumber(p.box13),
    box14: centsToNumber(p.box14),
    box15: centsToNumber(p.box15),
  };
}

/** The report from its sums. Every month the range touches is listed, in order, zeros included. */
export function assembleGstReport(
  sums: GstSums,
  range: DateRange,
  basis: GstBasis,
  purchases: PurchaseSums = NO_PURCHASES,
  purchaseAdjustmentsOfRange: PurchaseAdjustments = NO_PURCHASE_ADJUSTMENTS,
  debitAdjustmentsCents = 0n,
): GstReport {
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
    unpaid_invoices_count: sums.invoiceCount - sums.paidCount - sums.voidedCount,
    voided_invoices_count: sums.voidedCount,
    breakdown_by_month: breakdown,
    gst_return: gstReturnBoxes(sales, zero, purchases, debitAdjustmentsCents),
    corrections: {
      count: sums.corrections.count,
      sales: centsToNumber(sums.corrections.salesCents),
      gst: centsToNumber(sums.corrections.gstCents),
      invoices_voided: sums.corrections.voids,
      credit_notes: sums.corrections.creditNotes,
      payments_removed: sums.corrections.removals,
      refunds: sums.corrections.refunds,
    },
    drafts_left_out: sums.draftsLeftOut,
    adjustments_to_carry: adjustmentsToCarry(sums.carried ?? []),
    purchase_adjustments: purchaseAdjustmentsOfRange,
  };
}

function adjustmentsToCarry(carried: readonly CarriedInvoiceRow[]): GstReport['adjustments_to_carry'] {
  let sales = 0n;
  let gst = 0n;
  const invoices = carried.map((r) => {
    sales += r.totalCents;
    gst += r.gstCents;
    return {
      reference: r.reference, client_name: r.clientName, issue_date: r.issueDate, supply_date: r.supplyDate, carried_to: r.carryDate,
      exported_period: periodLabel(r.exported), sales: centsToNumber(r.totalCents), gst: centsToNumber(r.gstCents),
    };
  });
  return { count: carried.length, sales: centsToNumber(sales), gst: centsToNumber(gst), invoices };
}

/** The whole report from rows in memory (replay, tests). The API gets the same sums from SQL. */
export function gstReport(
  rows: {
    invoices: Iterable<ReportInvoiceRow>;
    payments: Iterable<ReportPaymentRow>;
    credits?: Iterable<ReportCreditRow>;
    draftDates?: Iterable<LocalDate>;
    /** Receipts, bills and expenses; with `registered` (claims need a GST-registered business). */
    costs?: Iterable<CostEntry>;
    registered?: boolean;
    /** Box 13, entered by hand. */
    creditAdjustmentsCents?: bigint;
  },
  range: DateRange,
  basis: GstBasis = 'invoice',
  exports: readonly GstExportRecord[] = [],
): GstReport {
  const drafts = countDraftsIn(rows.draftDates ?? [], range);
  const sums = basis === 'invoice' ? sumInvoiceBasis(rows.invoices, range, drafts, rows.credits ?? [], exports) : sumPaymentsBasis(rows.payments, range, drafts);
  const purchases = sumPurchases(rows.costs ?? [], range, basis, rows.registered ?? true, rows.creditAdjustmentsCents ?? 0n);
  return assembleGstReport(sums, range, basis, purchases);
}
