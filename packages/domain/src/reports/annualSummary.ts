// The annual summary for an NZ tax year. `year` names the year the tax
// year ends in: 2026 is 1 April 2025 – 31 March 2026. Revenue is GST-exclusive (income for the
// IR3); GST is reported beside it. Paid and unpaid split by whether each invoice is paid in full:
// every entry of the year (an invoice issued, voided or credited in it) counts on the side of its
// invoice, so a credit note on a paid invoice lowers paid revenue, and paid + unpaid is the total.
// What was credited, voided and refunded are named apart (docs/api/reports.md).
import { taxYearLabel, taxYearRange, monthsBetween, type LocalDate } from '../dates/dates.ts';
import { invalid } from '../errors.ts';
import { centsToNumber } from '../money/money.ts';
import { countDraftsIn, inRange } from './gstReport.ts';
import type { ReportCreditRow, ReportInvoiceRow, ReportPaymentRow } from './rows.ts';

export const TOP_CLIENTS = 10;
export const MIN_TAX_YEAR = 2000;
export const MAX_TAX_YEAR = 2100;

export function checkTaxYear(year: unknown): number {
  const n = typeof year === 'string' && /^\d{4}$/.test(year.trim()) ? Number(year) : typeof year === 'number' ? year : NaN;
  if (!Number.isInteger(n) || n < MIN_TAX_YEAR || n > MAX_TAX_YEAR) throw invalid('Please choose a tax year, for example 2026 (1 April 2025 – 31 March 2026)');
  return n;
}

export interface AnnualMonthSums {
  month: string;
  revenueCents: bigint;
  gstCents: bigint;
  count: number;
  paidCount: number;
  paidRevenueCents: bigint;
}

export interface AnnualSums {
  months: AnnualMonthSums[];
  /** Revenue per client name, any order; ties are broken by name when assembled. */
  clients: { name: string; revenueCents: bigint }[];
  /** Invoices voided and credit notes issued in the year (negative revenue and GST), already netted into the months. */
  corrections: { count: number; revenueCents: bigint; gstCents: bigint };
  /** Of the corrections, the credit notes (negative). */
  credited: { count: number; revenueCents: bigint; gstCents: bigint };
  /** Money paid back to clients in the year, GST included (positive): refunds on payments and on credit notes. */
  refunded: { count: number; cents: bigint };
  /** Draft invoices dated in the year: never issued, so left out. */
  draftsLeftOut: number;
}

export interface AnnualSummary {
  year: number;
  label: string;
  start_date: LocalDate;
  end_date: LocalDate;
  total_revenue: number;
  total_gst: number;
  paid_revenue: number;
  unpaid_revenue: number;
  top_clients: { name: string; revenue: number }[];
  monthly_breakdown: { month: string; revenue: number; gst: number; count: number; paid_count: number }[];
  /** Invoices voided and credit notes issued in the year (negative), already included above. */
  corrections: { count: number; revenue: number; gst: number };
  /** Of the corrections, the invoices voided in the year. */
  voided: { count: number; revenue: number; gst: number };
  /** Of the corrections, the credit notes issued in the year. */
  credited: { count: number; revenue: number; gst: number };
  /** Money paid back to clients in the year (GST included). Not revenue: a refund follows a credit note, which is. */
  refunded: { count: number; amount: number };
  drafts_left_out: number;
}

/**
 * Issued invoices by issue date in the tax year, GST-exclusive; an invoice voided in the year is
 * subtracted in the month of the void (and from its client), whenever it was issued, and so is a
 * credit note issued in the year — from paid revenue when its invoice is paid in full. Money paid
 * back in the year is summed apart (`payments`' refund rows).
 */
export function sumAnnual(
  rows: Iterable<ReportInvoiceRow>,
  year: number,
  draftsLeftOut = 0,
  credits: Iterable<ReportCreditRow> = [],
  payments: Iterable<ReportPaymentRow> = [],
): AnnualSums {
  const range = taxYearRange(year);
  const months = new Map<string, AnnualMonthSums>();
  const clients = new Map<string, bigint>();
  const corrections = { count: 0, revenueCents: 0n, gstCents: 0n };
  const credited = { count: 0, revenueCents: 0n, gstCents: 0n };
  const refunded = { count: 0, cents: 0n };
  const paidInvoices = new Set<string>();
  const monthOfSums = (month: string): AnnualMonthSums => {
    const m = months.get(month) ?? { month, revenueCents: 0n, gstCents: 0n, count: 0, paidCount: 0, paidRevenueCents: 0n };
    months.set(month, m);
    return m;
  };
  const addClient = (name: string, cents: bigint) => {
    if (name) clients.set(name, (clients.get(name) ?? 0n) + cents);
  };
  /** A void or a credit note: its revenue and GST taken off `month` and its client, as a correction. */
  const subtract = (month: string, x: { clientName: string; subtotalCents: bigint; gstCents: bigint }): void => {
    const m = monthOfSums(month);
    m.revenueCents -= x.subtotalCents;
    m.gstCents -= x.gstCents;
    addClient(x.clientName, -x.subtotalCents);
    corrections.count += 1;
    corrections.revenueCents -= x.subtotalCents;
    corrections.gstCents -= x.gstCents;
  };
  for (const r of rows) {
    if (r.paid) paidInvoices.add(r.documentId);
    if (inRange(r.issueDate, range)) {
      const m = monthOfSums(r.month);
      m.revenueCents += r.subtotalCents;
      m.gstCents += r.gstCents;
      m.count += 1;
      if (r.paid) {
        m.paidCount += 1;
        m.paidRevenueCents += r.subtotalCents;
      }
      addClient(r.clientName, r.subtotalCents);
    }
    if (r.voidDate !== null && r.voidMonth !== null && inRange(r.voidDate, range)) subtract(r.voidMonth, r);
  }
  // A credit note issued in the year is subtracted in its month (and from its client), as a void
  // is; and from paid revenue when its invoice is paid in full.
  for (const c of credits) {
    if (!inRange(c.date, range)) continue;
    subtract(c.month, c);
    credited.count += 1;
    credited.revenueCents -= c.subtotalCents;
    credited.gstCents -= c.gstCents;
    if (paidInvoices.has(c.documentId)) monthOfSums(c.month).paidRevenueCents -= c.subtotalCents;
  }
  for (const p of payments) {
    if (p.kind !== 'refund' || !inRange(p.date, range)) continue;
    refunded.count += 1;
    refunded.cents -= p.amountCents;
  }
  return { months: [...months.values()], clients: [...clients].map(([name, revenueCents]) => ({ name, revenueCents })), corrections, credited, refunded, draftsLeftOut };
}

/** Highest revenue first; equal revenue by name in code-point order (the SQL side sorts with COLLATE "C"). */
export const compareClients = (a: { name: string; revenueCents: bigint }, b: { name: string; revenueCents: bigint }): number =>
  a.revenueCents === b.revenueCents ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.revenueCents > b.revenueCents ? -1 : 1;

export function assembleAnnualSummary(sums: AnnualSums, year: number): AnnualSummary {
  const range = taxYearRange(year);
  const byMonth = new Map(sums.months.map((m) => [m.month, m]));
  let revenue = 0n;
  let gst = 0n;
  let paidRevenue = 0n;
  const monthly_breakdown = monthsBetween(range.start, range.end).map((month) => {
    const m = byMonth.get(month);
    revenue += m?.revenueCents ?? 0n;
    gst += m?.gstCents ?? 0n;
    paidRevenue += m?.paidRevenueCents ?? 0n;
    return { month, revenue: centsToNumber(m?.revenueCents ?? 0n), gst: centsToNumber(m?.gstCents ?? 0n), count: m?.count ?? 0, paid_count: m?.paidCount ?? 0 };
  });
  return {
    year,
    label: taxYearLabel(year),
    start_date: range.start,
    end_date: range.end,
    total_revenue: centsToNumber(revenue),
    total_gst: centsToNumber(gst),
    paid_revenue: centsToNumber(paidRevenue),
    unpaid_revenue: centsToNumber(revenue - paidRevenue),
    top_clients: [...sums.clients]
      // A client whose every invoice in the year was voided has nothing to rank.
      .filter((c) => c.revenueCents !== 0n)
      .sort(compareClients)
      .slice(0, TOP_CLIENTS)
      .map((c) => ({ name: c.name, revenue: centsToNumber(c.revenueCents) })),
    monthly_breakdown,
    corrections: { count: sums.corrections.count, revenue: centsToNumber(sums.corrections.revenueCents), gst: centsToNumber(sums.corrections.gstCents) },
    voided: {
      count: sums.corrections.count - sums.credited.count,
      revenue: centsToNumber(sums.corrections.revenueCents - sums.credited.revenueCents),
      gst: centsToNumber(sums.corrections.gstCents - sums.credited.gstCents),
    },
    credited: { count: sums.credited.count, revenue: centsToNumber(sums.credited.revenueCents), gst: centsToNumber(sums.credited.gstCents) },
    refunded: { count: sums.refunded.count, amount: centsToNumber(sums.refunded.cents) },
    drafts_left_out: sums.draftsLeftOut,
  };
}

/** The whole summary from rows in memory (replay, tests). The API gets the same sums from SQL. */
export const annualSummary = (
  rows: { invoices: Iterable<ReportInvoiceRow>; credits?: Iterable<ReportCreditRow>; payments?: Iterable<ReportPaymentRow>; draftDates?: Iterable<LocalDate> },
  year: number,
): AnnualSummary => assembleAnnualSummary(sumAnnual(rows.invoices, year, countDraftsIn(rows.draftDates ?? [], taxYearRange(year)), rows.credits ?? [], rows.payments ?? []), year);
