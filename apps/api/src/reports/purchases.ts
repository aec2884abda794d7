// The purchases side of a GST period (Boxes 11–14): the account's stored costs counted on the
// basis's date, summed by the domain's sumPurchases. The report, its CSV and the accountant's ZIP
// all take their purchases from here, so the boxes they show are the same.
import { type DateRange, type GstBasis, type PurchaseSums, sumPurchases } from '@tradie/domain';
import { costEntriesForPeriod } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { loadBusinessSettings } from '../settings/repository.ts';

export async function purchasesFor(sql: Sql, accountId: string, range: DateRange, basis: GstBasis): Promise<PurchaseSums> {
  const [entries, settings] = await Promise.all([costEntriesForPeriod(sql, accountId, range, basis), loadBusinessSettings(sql, accountId)]);
  return sumPurchases(entries, range, basis, settings.gst_registered);
}
