// The profit report: quoted profit of accepted quotes and invoiced profit of issued invoices, by
// month, quarter or tax year, per client and per category. Every figure is the one profit function's
// (documentProfit / creditNoteProfit / profitOfDocument, profit/profit.ts), the same the quote and
// invoice screens show; this only says which day each figure belongs to and adds them up:
// - a quote counts its profit on the New Zealand day it was accepted (a converted quote was accepted first);
// - an invoice counts its lines' profit on the day it was issued; each credit note takes its share
//   off on its own date, and a void takes back what was left on the day of the void — as the GST
//   report corrects in the period of the correction, so a month already reported never changes. Over
//   all days an invoice adds up to exactly its screen's profit (profitOfDocument: net of credit notes).
// Lines without a cost are never read as costing nothing: their sell is counted apart ('cost not
// recorded'), and gross profit is over the costed lines only.
// Beside them, actual-cost profit: what the invoices made from jobs (accepted quotes) sold, less the
// costs and hours recorded against those jobs (costs/actual.ts), each on its own day — so over all
// days a job adds up to its job view's 'profit so far' (invoiced net of credits − actual costs).
import { clientDisplayName } from '../clients/displayName.ts';
import type { ActualCost } from '../costs/actual.ts';
import { type LocalDate, formatMonth, lastOfMonth, monthOf, monthsBetween, nzDateOf, taxYearLabel, taxYearOf } from '../dates/dates.ts';
import type { DocumentView } from '../documents/document.ts';
import type { ClientSnapshot } from '../documents/events.ts';
import type { Line } from '../documents/lineValues.ts';
import { toCents } from '../money/money.ts';
import { categoryName, type CostCategory } from '../profit/categories.ts';
import { type CategoryProfit, type DocumentProfit, type ProfitFigures, NO_PROFIT, addProfit, creditNoteProfit, documentProfit, mergeCategories, negateProfit, profitOfDocument, sortCategories } from '../profit/profit.ts';
import type { DateRange } from './gstReport.ts';

export const PROFIT_GROUPINGS = ['month', 'quarter', 'tax_year'] as const;
export type ProfitGrouping = (typeof PROFIT_GROUPINGS)[number];

/** What the report reads of a quote or invoice (a DocumentView has all of it). */
export type ProfitSource = Pick<DocumentView, 'id' | 'type' | 'status' | 'reference' | 'lines' | 'gstRounding' | 'acceptedAt' | 'issuedOn' | 'voidedOn' | 'convertedFrom'> & {
  client: Pick<ClientSnapshot, 'id' | 'name' | 'is_business' | 'business_name'> | null;
  creditNotes: readonly { date: LocalDate; lines: readonly { line: Line }[]; subtotal: string }[];
};

export type ProfitKind = 'quoted' | 'invoiced';

/** One dated piece of profit: a quote accepted, an invoice issued, a credit note, a void. */
export interface ProfitEntry {
  kind: ProfitKind;
  date: LocalDate;
  documentId: string;
  clientKey: string;
  clientName: string;
  /** 1 for a quote accepted or an invoice issued; 0 for a correction. */
  documents: number;
  profit: DocumentProfit;
}

const negate = (p: DocumentProfit): DocumentProfit => ({ ...negateProfit(p), categories: p.categories.map((c) => ({ ...negateProfit(c), category: c.category })) });

/** A quote that was accepted: its status is accepted or converted and the day it was accepted is known. */
const acceptedQuote = (d: ProfitSource): boolean => d.type === 'quote' && d.acceptedAt !== null && (d.status === 'accepted' || d.status === 'converted');

/** The dated pieces of one document's profit. Over all days an invoice's add up to profitOfDocument. */
export function profitEntriesOf(d: ProfitSource): ProfitEntry[] {
  const client = { clientKey: d.client?.id ?? '', clientName: d.client ? clientDisplayName(d.client) : 'No client' };
  const base = { documentId: d.id, ...client };
  if (d.type === 'quote') {
    return acceptedQuote(d) ? [{ ...base, kind: 'quoted', date: nzDateOf(d.acceptedAt!), documents: 1, profit: profitOfDocument({ lines: d.lines, gstRounding: d.gstRounding }) }] : [];
  }
  if (d.issuedOn === null) return [];
  const out: ProfitEntry[] = [{ ...base, kind: 'invoiced', date: d.issuedOn, documents: 1, profit: documentProfit(d.lines, d.gstRounding) }];
  for (const n of d.creditNotes) {
    out.push({ ...base, kind: 'invoiced', date: n.date, documents: 0, profit: negate(creditNoteProfit({ lines: n.lines, subtotalCents: toCents(n.subtotal) }, d.gstRounding)) });
  }
  if (d.status === 'void' && d.voidedOn !== null) {
    out.push({ ...base, kind: 'invoiced', date: d.voidedOn, documents: 0, profit: negate(profitOfDocument({ lines: d.lines, gstRounding: d.gstRounding, creditNotes: d.creditNotes })) });
  }
  return out;
}

/**
 * Actual-cost profit: the sell (excl. GST, net of credit notes and voids) of invoices made from jobs,
 * the actual costs recorded against jobs, and the difference. An invoice not made from a quote has
 * no job to record costs against, so it is not in these figures.
 */
export interface ActualFigures {
  sellCents: bigint;
  costCents: bigint;
  /** sellCents − costCents. */
  profitCents: bigint;
}

export const NO_ACTUAL: ActualFigures = { sellCents: 0n, costCents: 0n, profitCents: 0n };

const addActual = (a: ActualFigures, sellCents: bigint, costCents: bigint): ActualFigures => ({
  sellCents: a.sellCents + sellCents,
  costCents: a.costCents + costCents,
  profitCents: a.profitCents + sellCents - costCents,
});

/** Quoted, invoiced and actual-cost figures side by side, and how many quotes were accepted and invoices issued. */
export interface ProfitPair {
  quoted: ProfitFigures;
  invoiced: ProfitFigures;
  actual: ActualFigures;
  quotes: number;
  invoices: number;
}

export interface ProfitReportRow extends ProfitPair {
  key: string;
  label: string;
}

export interface ProfitReport {
  range: DateRange;
  grouping: ProfitGrouping;
  total: ProfitPair;
  /** Every month, quarter or tax year the range touches, in order, empty ones too. */
  periods: ProfitReportRow[];
  /** Each client with something in the range, by name. */
  clients: ProfitReportRow[];
  /** Each category with something in the range: built-in first, then the business's own. */
  categories: ProfitReportRow[];
}

const EMPTY_PAIR: ProfitPair = { quoted: NO_PROFIT, invoiced: NO_PROFIT, actual: NO_ACTUAL, quotes: 0, invoices: 0 };

function addEntry(p: ProfitPair, kind: ProfitKind, f: ProfitFigures, documents: number): ProfitPair {
  return kind === 'quoted' ? { ...p, quoted: addProfit(p.quoted, f), quotes: p.quotes + documents } : { ...p, invoiced: addProfit(p.invoiced, f), invoices: p.invoices + documents };
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The period a day falls in, as a key that sorts in time order and the words for it. */
export function profitPeriodOf(date: LocalDate, grouping: ProfitGrouping): { key: string; label: string } {
  if (grouping === 'month') return { key: monthOf(date), label: formatMonth(monthOf(date)) };
  if (grouping === 'tax_year') {
    const y = taxYearOf(date);
    return { key: String(y), label: `Tax year ${taxYearLabel(y)}` };
  }
  const year = Number(date.slice(0, 4));
  const q = Math.floor((Number(date.slice(5, 7)) - 1) / 3);
  return { key: `${year}-Q${q + 1}`, label: `${SHORT_MONTHS[q * 3]}–${SHORT_MONTHS[q * 3 + 2]} ${year}` };
}

/** Each job's client, as its quote names it (or, failing that, an invoice made from it). */
function jobClientsOf(sources: readonly ProfitSource[]): Map<string, { clientKey: string; clientName: string }> {
  const out = new Map<string, { clientKey: string; clientName: string }>();
  const named = (d: ProfitSource) => ({ clientKey: d.client?.id ?? '', clientName: d.client ? clientDisplayName(d.client) : 'No client' });
  for (const s of sources) if (s.type === 'quote') out.set(s.id, named(s));
  for (const s of sources) if (s.type === 'invoice' && s.convertedFrom !== null && !out.has(s.convertedFrom)) out.set(s.convertedFrom, named(s));
  return out;
}

/**
 * The profit report over `range` (inclusive NZ days). `categories` names the business's categories
 * (renamed ones keep their new names); `actualCosts` are the costs and hours recorded against jobs
 * (costs/actual.ts). Only the pieces dated in the range count.
 */
export function profitReport(
  sources: readonly ProfitSource[],
  range: DateRange,
  grouping: ProfitGrouping,
  categories: readonly Pick<CostCategory, 'id' | 'name'>[] = [],
  actualCosts: readonly ActualCost[] = [],
): ProfitReport {
  const periods = new Map<string, ProfitReportRow>();
  for (const month of monthsBetween(range.start, range.end)) {
    const p = profitPeriodOf(`${month}-01`, grouping);
    if (!periods.has(p.key)) periods.set(p.key, { ...p, ...EMPTY_PAIR });
  }
  const clients = new Map<string, ProfitReportRow>();
  const byCategory = { quoted: [] as CategoryProfit[], invoiced: [] as CategoryProfit[] };
  const actualByCategory = new Map<string, ActualFigures>();
  const addActualTo = (category: string, sellCents: bigint, costCents: bigint): void => void actualByCategory.set(category, addActual(actualByCategory.get(category) ?? NO_ACTUAL, sellCents, costCents));
  let total = EMPTY_PAIR;
  // One dated piece into the total, its period and its client.
  const add = (date: LocalDate, clientKey: string, clientName: string, f: (p: ProfitPair) => ProfitPair): void => {
    total = f(total);
    const period = profitPeriodOf(date, grouping);
    const row = periods.get(period.key)!;
    periods.set(period.key, { ...row, ...f(row) });
    const c = clients.get(clientKey) ?? { key: clientKey, label: clientName, ...EMPTY_PAIR };
    clients.set(clientKey, { ...c, ...f(c) });
  };
  for (const s of sources) {
    const fromJob = s.type === 'invoice' && s.convertedFrom !== null;
    for (const e of profitEntriesOf(s)) {
      if (e.date < range.start || e.date > range.end) continue;
      add(e.date, e.clientKey, e.clientName, (p) => {
        const next = addEntry(p, e.kind, e.profit, e.documents);
        return fromJob ? { ...next, actual: addActual(next.actual, e.profit.sellCents, 0n) } : next;
      });
      byCategory[e.kind].push(...e.profit.categories);
      if (fromJob) for (const c of e.profit.categories) addActualTo(c.category, c.sellCents, 0n);
    }
  }
  const jobClients = jobClientsOf(sources);
  for (const a of actualCosts) {
    if (a.date < range.start || a.date > range.end) continue;
    const client = jobClients.get(a.jobId) ?? { clientKey: '', clientName: 'No client' };
    add(a.date, client.clientKey, client.clientName, (p) => ({ ...p, actual: addActual(p.actual, 0n, a.cents) }));
    addActualTo(a.category, 0n, a.cents);
  }
  const quoted = new Map(mergeCategories(byCategory.quoted).map((c) => [c.category, c]));
  const invoiced = new Map(mergeCategories(byCategory.invoiced).map((c) => [c.category, c]));
  const ids = sortCategories([...new Set([...byCategory.quoted, ...byCategory.invoiced].map((c) => c.category).concat([...actualByCategory.keys()]))].map((category) => ({ category }))).map((c) => c.category);
  return {
    range,
    grouping,
    total,
    periods: [...periods.values()],
    clients: [...clients.values()].sort((a, b) => a.label.localeCompare(b.label, 'en-NZ') || (a.key < b.key ? -1 : 1)),
    categories: ids.map((id) => ({
      key: id,
      label: categoryName(categories, id),
      quoted: quoted.get(id) ?? NO_PROFIT,
      invoiced: invoiced.get(id) ?? NO_PROFIT,
      actual: actualByCategory.get(id) ?? NO_ACTUAL,
      quotes: 0,
      invoices: 0,
    })),
  };
}

/** This month's invoiced sales and gross profit (the home screen): the report over the month that holds `today`. */
export function invoicedThisMonth(sources: readonly ProfitSource[], today: LocalDate): ProfitPair {
  const month = monthOf(today);
  return profitReport(sources, { start: `${month}-01`, end: lastOfMonth(month) }, 'month').total;
}
