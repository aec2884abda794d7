// A job's actual costs as the profit report and the job's own view count them: each cost recorded
// against the job at its cost to the business (without the GST claimed back) under the quote's
// category it names (anything else is materials), and each hours entry at hours × rate under labour.
import type { LocalDate } from '../dates/dates.ts';
import { lineCategoryOf } from '../priceBook/items.ts';
import { LABOUR_CATEGORY } from '../profit/categories.ts';
import { type CostEntry, type HoursEntry, costToBusinessCents, hoursCostCents } from './costs.ts';

/** One actual cost of a job, dated: a receipt or bill on the date of the supplier's invoice, hours on the day worked. */
export interface ActualCost {
  jobId: string;
  date: LocalDate;
  /** A line category id (materials, labour, …, or the business's own). */
  category: string;
  /** Excl. claimable GST; negative for a credit from a supplier. */
  cents: bigint;
}

/** A cost recorded against a job, as one of the job's actual costs. */
export function actualOfCost(
  jobId: string,
  e: Pick<CostEntry, 'date' | 'amountCents' | 'gst' | 'supplyInformationHeld' | 'credit' | 'category'>,
  registered: boolean,
): ActualCost {
  return { jobId, date: e.date, category: lineCategoryOf(e.category), cents: costToBusinessCents(e, registered) };
}

/** Hours worked on a job, as one of its actual costs (labour). */
export function actualOfHours(jobId: string, h: Pick<HoursEntry, 'date' | 'hours' | 'rate'>): ActualCost {
  return { jobId, date: h.date, category: LABOUR_CATEGORY, cents: hoursCostCents(h) };
}
