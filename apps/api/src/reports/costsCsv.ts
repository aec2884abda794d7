// The accountant's ZIP: purchases.csv (receipts and supplier bills), expenses.csv (the business's
// own expenses) and hours.csv, for the period by the date on the supplier's invoice or receipt
// (hours by the day worked), each written by the one CSV writer (csv.ts toCsv). A cost with a
// receipt names its file in the ZIP's receipts/ folder (Receipt file column).
import type { CostRecord, HoursRecord } from '@tradie/contracts';
import type { DateRange } from '@tradie/domain';
import { listCosts, listHours } from '@tradie/projections';
import type { Sql } from '@tradie/store';
import { receiptsOf } from '../costs/receipts.ts';
import { type Cell, toCsv } from './csv.ts';

/** Every entry of the period goes in the ZIP: far more than any business records in one. */
const ALL = 1_000_000;

export const COSTS_HEADER: Cell[] = [
  'Date', 'Paid date', 'Kind', 'Supplier', 'Category', 'Job', 'Incl. GST', 'GST', 'GST claimed', 'Why not claimed', 'Tax invoice held', 'Supplier credit', 'Note', 'Receipt file',
];
export const HOURS_HEADER: Cell[] = ['Date', 'Who', 'Hours', 'Hourly cost', 'Cost', 'Job', 'Note'];

const yesNo = (b: boolean): string => (b ? 'Yes' : 'No');

export function costsCsv(costs: readonly CostRecord[], jobs: ReadonlyMap<string, string>, receiptFiles: ReadonlyMap<string, string> = new Map()): string {
  return toCsv([
    COSTS_HEADER,
    ...costs.map((c): Cell[] => [
      c.date, c.paid_date, c.kind, c.supplier, c.category, c.job_id === null ? null : (jobs.get(c.job_id) ?? ''), c.amount, c.gst === 'standard' ? '15%' : 'None',
      c.gst_claimed, c.not_claimed_reason, yesNo(c.supply_information_held), yesNo(c.credit), c.note, receiptFiles.get(c.id) ?? null,
    ]),
  ]);
}

/** A receipt's name in the ZIP: receipts/2025-06-02 Plumbing World 1a2b3c4d.jpg (the supplier's letters and digits only; the id keeps it unique). */
export function receiptFileName(c: Pick<CostRecord, 'id' | 'date' | 'supplier'>, contentType: string): string {
  const supplier = c.supplier.normalize('NFKD').replace(/[^A-Za-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 40).trim() || 'receipt';
  return `receipts/${c.date} ${supplier} ${c.id.replace(/[^a-z0-9]/gi, '').slice(-8)}.${contentType === 'application/pdf' ? 'pdf' : 'jpg'}`;
}

export function hoursCsv(hours: readonly HoursRecord[], jobs: ReadonlyMap<string, string>): string {
  return toCsv([HOURS_HEADER, ...hours.map((h): Cell[] => [h.date, h.who, h.hours, h.rate, h.cost, h.job_id === null ? null : (jobs.get(h.job_id) ?? ''), h.note])]);
}

/** purchases.csv, expenses.csv and hours.csv of the period, oldest first, and the receipts to put beside them. */
export async function costFilesOf(
  sql: Sql,
  accountId: string,
  range: DateRange,
  registered: boolean,
): Promise<{ purchases: string; expenses: string; hours: string; receipts: { costId: string; name: string }[] }> {
  const period = { from: range.start, to: range.end };
  const [costs, hours, quotes] = await Promise.all([
    listCosts(sql, accountId, period, registered, ALL),
    listHours(sql, accountId, period, ALL),
    sql.query<{ id: string; reference: string }>(`SELECT id, reference FROM documents_list WHERE account_id = $1 AND type = 'quote'`, [accountId]),
  ]);
  const kept = await receiptsOf(sql, accountId, costs.map((c) => c.id));
  const receiptFiles = new Map(costs.flatMap((c) => (kept.has(c.id) ? [[c.id, receiptFileName(c, kept.get(c.id)!.content_type)] as const] : [])));
  const jobs = new Map(quotes.map((q) => [q.id, q.reference]));
  const oldestFirst = <T>(rows: readonly T[]): T[] => [...rows].reverse();
  return {
    purchases: costsCsv(oldestFirst(costs.filter((c) => c.kind !== 'expense')), jobs, receiptFiles),
    expenses: costsCsv(oldestFirst(costs.filter((c) => c.kind === 'expense')), jobs, receiptFiles),
    hours: hoursCsv(oldestFirst(hours), jobs),
    receipts: oldestFirst([...receiptFiles].map(([costId, name]) => ({ costId, name }))),
  };
}
