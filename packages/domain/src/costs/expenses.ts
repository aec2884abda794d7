// The business's expenses for a span of days (the income tax year): the receipts, supplier bills
// and expenses recorded, by the date on the supplier's invoice, each at its cost to the business
// (costToBusinessCents: without the GST claimed back, with it when it is not), supplier credits
// taking away; summed in all and by category. Hours are not expenses here: a worker's wages reach
// the books through payroll, and the owner's own time is no expense.
import type { LocalDate } from '../dates/dates.ts';
import { type CostEntry, costToBusinessCents } from './costs.ts';
import type { CategoryCents } from './overrun.ts';

export interface ExpenseSums {
  totalCents: bigint;
  count: number;
  /** By category, largest first (ties by name); categories netting to nothing are left out. */
  byCategory: CategoryCents[];
}

export function sumExpenses(entries: Iterable<CostEntry>, range: { start: LocalDate; end: LocalDate }, registered: boolean): ExpenseSums {
  let total = 0n;
  let count = 0;
  const byCategory = new Map<string, bigint>();
  for (const e of entries) {
    if (e.date < range.start || e.date > range.end) continue;
    const cents = costToBusinessCents(e, registered);
    // As the tradie named it (fuel, phone, insurance…): the expenses of a business are not only a quote's categories.
    const category = e.category.trim().toLowerCase() || 'other';
    total += cents;
    count += 1;
    byCategory.set(category, (byCategory.get(category) ?? 0n) + cents);
  }
  const rows = [...byCategory.entries()]
    .filter(([, cents]) => cents !== 0n)
    .map(([category, cents]) => ({ category, cents }))
    .sort((a, b) => (a.cents === b.cents ? (a.category < b.category ? -1 : 1) : a.cents > b.cents ? -1 : 1));
  return { totalCents: total, count, byCategory: rows };
}
