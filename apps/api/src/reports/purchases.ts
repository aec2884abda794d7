// The purchases side of a GST period (Boxes 11–14): the account's stored costs counted on the
// basis's date, summed by the domain's sumPurchases. The report, its CSV and the accountant's ZIP
// all take their purchases from here, so the boxes they show are the same. The tax year's expenses
// (GET /reports/expenses) are here too.
import type { ExpensesReportResponse } from '@tradie/contracts';
import { centsToNumber, type DateRange, type GstBasis, type PurchaseSums, sumExpenses, sumPurchases, taxYearLabel, taxYearRange, toCents } from '@tradie/domain';
import { costEntriesForPeriod } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { loadBusinessSettings } from '../settings/repository.ts';

export async function purchasesFor(sql: Sql, accountId: string, range: DateRange, basis: GstBasis): Promise<PurchaseSums> {
  const [entries, settings] = await Promise.all([costEntriesForPeriod(sql, accountId, range, basis), loadBusinessSettings(sql, accountId)]);
  return sumPurchases(entries, range, basis, settings.gst_registered);
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
