// The annual summary for an NZ tax year (spec §3 Annual report). `year` names the year the tax
// year ends in: 2026 is 1 April 2025 – 31 March 2026. Revenue is GST-exclusive (income for the
// IR3); GST is reported beside it. Paid and unpaid split by whether each invoice is paid in full.
import { taxYearLabel, taxYearRange, monthsBetween, type LocalDate } from '../dates/dates.ts';
import { invalid } from '../errors.ts';
import { centsToNumber } from '../money/money.ts';
import { inRange } from './gstReport.ts';
import type { ReportInvoiceRow } from './rows.ts';

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
}

export function sumAnnual(rows: Iterable<ReportInvoiceRow>, year: number): AnnualSums {
  const range = taxYearRange(year);
  const months = new Map<string, AnnualMonthSums>();
  const clients = new Map<string, bigint>();
  for (const r of rows) {
    if (!inRange(r.issueDate, range)) continue;
    const m = months.get(r.month) ?? { month: r.month, revenueCents: 0n, gstCents: 0n, count: 0, paidCount: 0, paidRevenueCents: 0n };
    m.revenueCents += r.subtotalCents;
    m.gstCents += r.gstCents;
    m.count += 1;
    if (r.paid) {
      m.paidCount += 1;
      m.paidRevenueCents += r.subtotalCents;
    }
    months.set(r.month, m);
    if (r.clientName) clients.set(r.clientName, (clients.get(r.clientName) ?? 0n) + r.subtotalCents);
  }
  return { months: [...months.values()], clients: [...clients].map(([name, revenueCents]) => ({ name, revenueCents })) };
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
    top_clients: [...sums.clients].sort(compareClients).slice(0, TOP_CLIENTS).map((c) => ({ name: c.name, revenue: centsToNumber(c.revenueCents) })),
    monthly_breakdown,
  };
}

export const annualSummary = (rows: Iterable<ReportInvoiceRow>, year: number): AnnualSummary => assembleAnnualSummary(sumAnnual(rows, year), year);
