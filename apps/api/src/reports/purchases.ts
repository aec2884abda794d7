// The purchases side of a GST period (Boxes 11–14): the account's stored costs counted on the
// basis's date, summed by the domain's sumPurchases. The report, its CSV and the accountant's ZIP
// all take their purchases from here, so the boxes they show are the same. The tax year's expenses
// (GET /reports/expenses) are here too.
import type { ExpensesReportResponse } from '@tradie/contracts';
import {
  centsToNumber, type DateRange, type GstBasis, type LocalDate, NO_PURCHASE_ADJUSTMENTS, type PurchaseAdjustments, type PurchaseSums, purchaseAdjustments, purchaseCarryNotice,
  purchasesWithCarries, sumExpenses, sumPurchases, taxYearLabel, taxYearRange, toCents,
} from '@tradie/domain';
import { costEntriesForPeriod, costHistoriesTouching, costsForPeriod } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { loadBusinessSettings } from '../settings/repository.ts';
import { exportSpan, gstExportsOf } from './gstExports.ts';

/**
 * The purchases of a period (Boxes 11–14) and, on the invoice basis, the cost changes carried into
 * it from periods already exported (and out of those): domain costs/purchaseCarry.ts. With no export
 * (most accounts) this reads nothing more than the period's costs.
 */
export async function purchasesFor(sql: Sql, accountId: string, range: DateRange, basis: GstBasis, creditAdjustmentsCents = 0n): Promise<PurchaseSums & { adjustments: PurchaseAdjustments }> {
  const [current, settings, exports] = await Promise.all([
    costsForPeriod(sql, accountId, range, basis),
    loadBusinessSettings(sql, accountId),
    basis === 'invoice' ? gstExportsOf(sql, accountId) : Promise.resolve([]),
  ]);
  const registered = settings.gst_registered;
  const span = exportSpan(exports);
  if (!span) return { ...sumPurchases(current.map((c) => c.entry), range, basis, registered, creditAdjustmentsCents), adjustments: NO_PURCHASE_ADJUSTMENTS };
  const histories = await costHistoriesTouching(sql, accountId, { start: span.from, end: span.to }, span.first);
  const { entries, carried } = purchasesWithCarries(current, histories, exports, range);
  return { ...sumPurchases(entries, range, basis, registered, creditAdjustmentsCents), adjustments: purchaseAdjustments(carried, registered) };
}

/** What recording, changing or deleting a cost dated on `dates` at `at` says when it lands in an exported GST period, or null. */
export async function costGstNotice(sql: Sql, accountId: string, dates: readonly LocalDate[], at: Date): Promise<string | null> {
  return purchaseCarryNotice(dates, at.toISOString(), await gstExportsOf(sql, accountId));
}

/**
 * The tax year's expenses beside the annual summary's revenue (the same summary the Annual tab
 * shows, passed in), and the net profit before tax: GET /reports/expenses.
 */
export async function expensesReportFor(sql: Sql, accountId: string, year: number, annual: { total_revenue: number }): Promise<ExpensesReportResponse> {
  const range = taxYearRange(year);
  const [entries, settings] = await Promise.all([costEntriesForPeriod(sql, accountId, range, 'invoice'), loadBusinessSettings(sql, accountId)]);
  const sums = sumExpenses(entries, range, settings.gst_registered);
  const revenueCents = toCents(annual.total_revenue);
  return {
    year,
    label: taxYearLabel(year),
    start_date: range.start,
    end_date: range.end,
    revenue: annual.total_revenue,
    expenses: centsToNumber(sums.totalCents),
    count: sums.count,
    by_category: sums.byCategory.map((c) => ({ category: c.category, amount: centsToNumber(c.cents) })),
    net_profit_before_tax: centsToNumber(revenueCents - sums.totalCents),
  };
}
