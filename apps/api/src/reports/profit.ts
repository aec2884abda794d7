// The profit report (docs/api/reports.md, "Profit"): the account's accepted quotes and issued
// invoices folded from their streams, and the domain's profitReport over them — the same profit
// function the quote and invoice screens call (profitOfDocument), so a document's figures here are
// its screen's. Actual-cost profit takes off the costs and hours recorded against jobs, each as the
// job's own view counts it (the domain's actualOfCost / actualOfHours). Its CSV goes through toCsv
// (csv-stringify, formula-looking text neutralised).
import type { ActualProfitRecord, MonthProfitResponse, ProfitReportResponse, ProfitReportRow } from '@tradie/contracts';
import {
  type ActualFigures, type DateRange, type LocalDate, type ProfitGrouping, type ProfitPair, type ProfitReport, type ProfitReportRow as DomainRow, type ProfitSource,
  categoryName, centsToNumber, formatMonth, formatNzd, invoicedThisMonth, marginTenths, markupTenths, monthOf, profitReport,
} from '@tradie/domain';
import { jobActualCosts } from '@tradie/projections';
import type { EventStore, Sql } from '@tradie/store';
import { loadDocument } from '../documents/repository.ts';
import { profitFiguresRecordOf } from '../documents/profitView.ts';
import { loadPricing } from '../settings/pricing.ts';
import { loadBusinessSettings } from '../settings/repository.ts';
import { type Cell, toCsv } from './csv.ts';

/** Streams folded at once while reading the documents. */
const LOAD_AT_ONCE = 16;

/**
 * The account's documents that can carry profit: quotes accepted (or converted after acceptance)
 * and invoices that were issued (voided ones too: their void is a correction), every one folded.
 */
export async function profitSourcesOf(store: Pick<EventStore, 'db' | 'readStream'>, accountId: string): Promise<ProfitSource[]> {
  const rows = await store.db.query<{ id: string }>(
    `SELECT id FROM documents_list WHERE account_id = $1
       AND ((type = 'quote' AND lifecycle IN ('accepted', 'converted')) OR (type = 'invoice' AND lifecycle NOT IN ('draft', 'deleted')))
     ORDER BY seq`,
    [accountId],
  );
  const out: ProfitSource[] = [];
  for (let i = 0; i < rows.length; i += LOAD_AT_ONCE) {
    const loaded = await Promise.all(rows.slice(i, i + LOAD_AT_ONCE).map((r) => loadDocument(store, accountId, r.id)));
    out.push(...loaded.map((l) => l.state));
  }
  return out;
}

const actualRecordOf = (a: ActualFigures): ActualProfitRecord => ({
  sell: centsToNumber(a.sellCents),
  cost: centsToNumber(a.costCents),
  profit: centsToNumber(a.profitCents),
  formatted: { sell: formatNzd(a.sellCents), cost: formatNzd(a.costCents), profit: formatNzd(a.profitCents) },
});

const rowOf = (r: Pick<DomainRow, 'key' | 'label'> & ProfitPair): ProfitReportRow => ({
  key: r.key,
  label: r.label,
  quotes: r.quotes,
  invoices: r.invoices,
  quoted: profitFiguresRecordOf(r.quoted),
  invoiced: profitFiguresRecordOf(r.invoiced),
  actual: actualRecordOf(r.actual),
});

/**
 * The domain's report over the account's documents and the costs and hours recorded against its jobs
 * (categories named by their built-in names; profitNamed renames them). A cost's GST is claimed back,
 * and so not a cost, only while the business is registered.
 */
export async function profitReportOf(store: Pick<EventStore, 'db' | 'readStream'>, accountId: string, range: DateRange, grouping: ProfitGrouping): Promise<ProfitReport> {
  const { gst_registered } = await loadBusinessSettings(store.db, accountId);
  const [sources, actual] = await Promise.all([profitSourcesOf(store, accountId), jobActualCosts(store.db, accountId, range, gst_registered)]);
  return profitReport(sources, range, grouping, [], actual);
}

/**
 * The report with its categories named as the business names them now (Settings → Pricing). Names
 * are not events, so a report kept by the account's version is named afresh on every answer.
 */
export async function profitNamed(sql: Sql, accountId: string, r: ProfitReport): Promise<ProfitReport> {
  const { categories } = await loadPricing(sql, accountId);
  return { ...r, categories: r.categories.map((c) => ({ ...c, label: categoryName(categories, c.key) })) };
}

export const profitResponseOf = (r: ProfitReport): ProfitReportResponse => ({
  start_date: r.range.start,
  end_date: r.range.end,
  group: r.grouping,
  total: rowOf({ key: 'total', label: 'Total', ...r.total }),
  periods: r.periods.map(rowOf),
  clients: r.clients.map(rowOf),
  categories: r.categories.map(rowOf),
});

/** The home screen's figure: invoiced sales and gross profit of the month holding `today`. */
export async function monthProfitFor(store: Pick<EventStore, 'db' | 'readStream'>, accountId: string, today: LocalDate): Promise<MonthProfitResponse> {
  const pair = invoicedThisMonth(await profitSourcesOf(store, accountId), today);
  return { month: monthOf(today), label: formatMonth(monthOf(today)), invoices: pair.invoices, invoiced: profitFiguresRecordOf(pair.invoiced) };
}

// ---- the CSV -------------------------------------------------------------------------------------

export const PROFIT_HEADER = [
  'Section', 'Name', 'Quotes accepted', 'Quoted sell excl. GST', 'Quoted cost', 'Quoted gross profit', 'Quoted sell with cost not recorded',
  'Invoices issued', 'Invoiced sell excl. GST', 'Invoiced cost', 'Invoiced gross profit', 'Invoiced margin %', 'Invoiced markup %', 'Invoiced sell with cost not recorded',
  'Job invoices sell excl. GST', 'Actual job costs', 'Actual-cost profit',
];

/** Tenths of a percent as text, the sign kept below one percent too ('-0.5'). */
function tenths(t: bigint | null): string | null {
  if (t === null) return null;
  const a = t < 0n ? -t : t;
  return `${t < 0n ? '-' : ''}${a / 10n}.${a % 10n}`;
}

function csvRow(section: string, r: Pick<DomainRow, 'label'> & ProfitPair): Cell[] {
  const q = r.quoted;
  const i = r.invoiced;
  return [
    section, r.label, String(r.quotes), q.sellCents, q.costCents, q.grossProfitCents, q.uncostedSellCents,
    String(r.invoices), i.sellCents, i.costCents, i.grossProfitCents, tenths(marginTenths(i)), tenths(markupTenths(i)), i.uncostedSellCents,
    r.actual.sellCents, r.actual.costCents, r.actual.profitCents,
  ];
}

/** The report as CSV: the periods, the clients, the categories, then the total. Amounts excl. GST; margin and markup over the costed lines. */
export function profitCsv(r: ProfitReport): string {
  return toCsv([
    PROFIT_HEADER,
    ...r.periods.map((p) => csvRow('Period', p)),
    ...r.clients.map((c) => csvRow('Client', c)),
    ...r.categories.map((c) => csvRow('Category', c)),
    csvRow('Total', { label: 'Total', ...r.total }),
  ]);
}

export const profitCsvFileName = (range: DateRange): string => `profit-report-${range.start}-to-${range.end}.csv`;

