// GET /api/v1/jobs/{quoteId}/profit: a job's real profit so far (docs/api/costs.md). The job is an
// accepted quote of the account; what it was quoted at and cost to quote comes from its lines
// (profitOfDocument), what was invoiced from the invoices made from it (issued, not void, less
// their credit notes), and the actual costs from the costs and hours recorded against it, all
// through the domain's jobProfit and overrunWarnings.
import { COST_MESSAGES, JOB_LIST_MAX, type JobList, type JobProfitRecord, type JobSort } from '@tradie/contracts';
import {
  type CategoryCents, compareJobs, DEFAULT_COST_CATEGORIES, overPercent, toCents, LABOUR, LABOUR_CATEGORY, type JobProfit, centsToString, categoryName, jobProfit, lineCategoryOf, overrunWarnings, profitOfDocument,
} from '@tradie/domain';
import { jobEntries } from '@tradie/projections';
import type { EventStore } from '@tradie/store';
import { NotFound } from '../errors.ts';
import { loadDocument } from '../documents/repository.ts';
import { loadBusinessSettings } from '../settings/repository.ts';

export const jobNotFound = (): NotFound => new NotFound(COST_MESSAGES.jobNotFound);

/** A job's figures: quoted, actual by category (hours under labour), invoiced net of credits, profit so far, and the overrun warnings. */
export async function jobProfitOf(store: EventStore, accountId: string, quoteId: string, overPercent: number): Promise<JobProfitRecord> {
  const quote = await loadDocument(store, accountId, quoteId).catch(() => {
    throw jobNotFound();
  });
  const q = quote.state;
  if (q.type !== 'quote' || (q.status !== 'accepted' && q.status !== 'converted')) throw jobNotFound();
  const [entries, settings, invoiceRows] = await Promise.all([
    jobEntries(store.db, accountId, quoteId),
    loadBusinessSettings(store.db, accountId),
    store.db.query<{ id: string }>(`SELECT id FROM documents_list WHERE account_id = $1 AND converted_from = $2 AND type = 'invoice' AND lifecycle NOT IN ('draft', 'void', 'deleted')`, [accountId, quoteId]),
  ]);
  let invoicedNet = 0n;
  for (const row of invoiceRows) invoicedNet += profitOfDocument((await loadDocument(store, accountId, row.id)).state).sellCents;
  const quoted = profitOfDocument(q);
  // A cost files under the quote's category it names (anything else is materials), so actual and quoted compare category by category.
  const profit: JobProfit = jobProfit({
    quotedSellCents: quoted.sellCents,
    quotedCostCents: quoted.costCents,
    invoicedNetCents: invoicedNet,
    costs: entries.costs.map((c) => ({ ...c, category: lineCategoryOf(c.category) })),
    hours: entries.hours,
    registered: settings.gst_registered,
  });
  const actual: CategoryCents[] = profit.byCategory.map((c) => ({ category: c.category === LABOUR ? LABOUR_CATEGORY : c.category, cents: c.cents }));
  const merged = new Map<string, bigint>();
  for (const a of actual) merged.set(a.category, (merged.get(a.category) ?? 0n) + a.cents);
  const actualRows = [...merged.entries()].map(([category, cents]) => ({ category, cents }));
  const quotedRows = quoted.categories.filter((c) => c.costCents !== 0n).map((c) => ({ category: c.category, cents: c.costCents }));
  const nameOf = (id: string): string => categoryName(DEFAULT_COST_CATEGORIES, id);
  return {
    quote_id: quoteId,
    quote_number: q.reference,
    client_name: q.client?.name ?? '',
    quoted_sell: centsToString(profit.quotedSellCents),
    quoted_cost: centsToString(profit.quotedCostCents),
    quoted_by_category: quotedRows.map((c) => ({ category: c.category, cost: centsToString(c.cents) })),
    actual_by_category: actualRows.map((c) => ({ category: c.category, cost: centsToString(c.cents) })),
    actual_cost: centsToString(profit.actualCostCents),
    invoiced_net: centsToString(profit.invoicedNetCents),
    profit_so_far: centsToString(profit.profitSoFarCents),
    warnings: overrunWarnings(quotedRows, actualRows, overPercent, nameOf),
  };
}

/**
 * GET /jobs: the newest accepted quotes (at most JOB_LIST_MAX), each with its profit so far
 * (jobProfitOf, the same figures as the job's own card) and how far its costs are over its quoted
 * cost, in the order asked for (the domain's compareJobs).
 */
export async function jobListOf(store: EventStore, accountId: string, sort: JobSort, overPercentWarning: number): Promise<JobList> {
  const rows = await store.db.query<{ id: string }>(
    `SELECT id FROM documents_list WHERE account_id = $1 AND type = 'quote' AND lifecycle IN ('accepted', 'converted') ORDER BY seq DESC LIMIT ${JOB_LIST_MAX + 1}`,
    [accountId],
  );
  const ids = rows.slice(0, JOB_LIST_MAX).map((r) => r.id);
  const jobs = [];
  for (const [i, id] of ids.entries()) {
    const job = await jobProfitOf(store, accountId, id, overPercentWarning);
    const over = overPercent(toCents(job.actual_cost), toCents(job.quoted_cost));
    jobs.push({ job: { ...job, overrun_percent: over === null ? null : Number(over) }, order: { position: ids.length - i, profitCents: toCents(job.profit_so_far), overrunPercent: over } });
  }
  jobs.sort((a, b) => compareJobs(sort)(a.order, b.order));
  return { jobs: jobs.map((j) => j.job), has_more: rows.length > JOB_LIST_MAX };
}
