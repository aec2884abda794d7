// Reads of the costs and hours read models, every one scoped by account: the lists, one entry,
// and the stored entries the GST report and a job's profit add up (as the domain's CostEntry and
// HoursEntry, so those figures come from the domain's functions).
import type { CostRecord, HoursRecord, RecurringRecord } from '@tradie/contracts';
import {
  type ActualCost, actualOfCost, actualOfHours, CLAIM_REASON_TEXT, type CostEntry, type CostVersion, type HoursEntry, type LocalDate, type StoredCostFields, centsToString, claimReason, hoursCostCents, roundReturnGst,
} from '@tradie/domain';
import type { Sql } from '@tradie/store';

const COST_COLUMNS = `id, kind, supplier, date::text AS date, paid_date::text AS paid_date, amount_cents::text AS amount_cents, gst, supply_information_held, credit, category,
  job_id, note, stream_version`;
const HOURS_COLUMNS = 'id, who, date::text AS date, hours, rate, job_id, note, stream_version';

interface CostRow {
  id: string;
  kind: StoredCostFields['kind'];
  supplier: string;
  date: string;
  paid_date: string | null;
  amount_cents: string;
  gst: StoredCostFields['gst'];
  supply_information_held: boolean;
  credit: boolean;
  category: string;
  job_id: string | null;
  note: string;
  stream_version: number | string;
}

interface HoursRow {
  id: string;
  who: string;
  date: string;
  hours: string;
  rate: string;
  job_id: string | null;
  note: string;
  stream_version: number | string;
}

/** A stored cost as the domain's rules take it. */
export const costEntryOfRow = (r: CostRow): CostEntry => ({
  kind: r.kind, supplier: r.supplier, date: r.date as LocalDate, paidDate: r.paid_date as LocalDate | null, amountCents: BigInt(r.amount_cents), gst: r.gst,
  category: r.category, jobId: r.job_id, supplyInformationHeld: r.supply_information_held, credit: r.credit,
});

export const hoursEntryOfRow = (r: HoursRow): HoursEntry => ({ who: r.who, date: r.date as LocalDate, hours: r.hours, rate: r.rate, jobId: r.job_id, note: r.note });

/** The answer for a cost: its fields, the GST claimed back in it and, when none is, why. */
export function costRecordOf(id: string, e: CostEntry, note: string, version: number, registered: boolean, gstNotice: string | null = null): CostRecord {
  const reason = claimReason(e, registered);
  return {
    id, kind: e.kind, supplier: e.supplier, date: e.date, paid_date: e.paidDate, amount: centsToString(e.amountCents), gst: e.gst,
    gst_claimed: centsToString(reason === 'claimable' ? roundReturnGst(e.amountCents) : 0n), not_claimed_reason: reason === 'claimable' ? null : CLAIM_REASON_TEXT[reason],
    supply_information_held: e.supplyInformationHeld, credit: e.credit === true, category: e.category, job_id: e.jobId, note, version, gst_notice: gstNotice,
    // The receipt is the API's (a file beside the cost, not an event): it fills this in.
    receipt: null,
    xero_bill: null,
  };
}

export function hoursRecordOf(id: string, e: HoursEntry, version: number): HoursRecord {
  return { id, who: e.who, date: e.date, hours: e.hours, rate: e.rate, cost: centsToString(hoursCostCents(e)), job_id: e.jobId, note: e.note, version };
}

/** The filters of a list: a job (`none`: not for a job) and dates from/to inclusive. */
export interface EntryFilter {
  jobId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  kind?: string | undefined;
}

function where(accountId: string, f: EntryFilter, withKind: boolean): { clause: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const parts = ['account_id = $1'];
  if (f.jobId === 'none') parts.push('job_id IS NULL');
  else if (f.jobId !== undefined) parts.push(`job_id = $${params.push(f.jobId)}`);
  if (f.from !== undefined) parts.push(`date >= $${params.push(f.from)}::date`);
  if (f.to !== undefined) parts.push(`date <= $${params.push(f.to)}::date`);
  if (withKind && f.kind !== undefined) parts.push(`kind = $${params.push(f.kind)}`);
  return { clause: parts.join(' AND '), params };
}

/** The account's costs, newest first, at most `limit`. */
export async function listCosts(sql: Sql, accountId: string, f: EntryFilter, registered: boolean, limit: number): Promise<CostRecord[]> {
  const w = where(accountId, f, true);
  const rows = await sql.query<CostRow>(`SELECT ${COST_COLUMNS} FROM costs WHERE ${w.clause} ORDER BY date DESC, seq DESC LIMIT ${limit}`, w.params);
  return rows.map((r) => costRecordOf(r.id, costEntryOfRow(r), r.note, Number(r.stream_version), registered));
}

export async function findCost(sql: Sql, accountId: string, id: string, registered: boolean): Promise<CostRecord | null> {
  const [r] = await sql.query<CostRow>(`SELECT ${COST_COLUMNS} FROM costs WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r ? costRecordOf(r.id, costEntryOfRow(r), r.note, Number(r.stream_version), registered) : null;
}

/** The account's hours, newest first, at most `limit`. */
export async function listHours(sql: Sql, accountId: string, f: EntryFilter, limit: number): Promise<HoursRecord[]> {
  const w = where(accountId, f, false);
  const rows = await sql.query<HoursRow>(`SELECT ${HOURS_COLUMNS} FROM hours WHERE ${w.clause} ORDER BY date DESC, seq DESC LIMIT ${limit}`, w.params);
  return rows.map((r) => hoursRecordOf(r.id, hoursEntryOfRow(r), Number(r.stream_version)));
}

export async function findHours(sql: Sql, accountId: string, id: string): Promise<HoursRecord | null> {
  const [r] = await sql.query<HoursRow>(`SELECT ${HOURS_COLUMNS} FROM hours WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r ? hoursRecordOf(r.id, hoursEntryOfRow(r), Number(r.stream_version)) : null;
}

/**
 * The costs that may count in a GST period: those dated (invoice basis) or paid (payments basis)
 * between start and end. The domain's sumPurchases decides which count.
 */
export async function costEntriesForPeriod(sql: Sql, accountId: string, range: { start: string; end: string }, basis: 'invoice' | 'payments'): Promise<CostEntry[]> {
  return (await costsForPeriod(sql, accountId, range, basis)).map((c) => c.entry);
}

/** costEntriesForPeriod with each cost's id. */
export async function costsForPeriod(sql: Sql, accountId: string, range: { start: string; end: string }, basis: 'invoice' | 'payments'): Promise<{ id: string; entry: CostEntry }[]> {
  const column = basis === 'invoice' ? 'date' : 'paid_date';
  const rows = await sql.query<CostRow>(`SELECT ${COST_COLUMNS} FROM costs WHERE account_id = $1 AND ${column} BETWEEN $2::date AND $3::date`, [accountId, range.start, range.end]);
  return rows.map((r) => ({ id: r.id, entry: costEntryOfRow(r) }));
}

/**
 * The costs and hours recorded against jobs and dated between start and end (inclusive), each as
 * one of its job's actual costs (the domain's actualOfCost / actualOfHours): what the profit report's
 * actual-cost profit takes off.
 */
export async function jobActualCosts(sql: Sql, accountId: string, range: { start: string; end: string }, registered: boolean): Promise<ActualCost[]> {
  const [costs, hours] = await Promise.all([
    sql.query<CostRow>(`SELECT ${COST_COLUMNS} FROM costs WHERE account_id = $1 AND job_id IS NOT NULL AND date BETWEEN $2::date AND $3::date ORDER BY seq`, [accountId, range.start, range.end]),
    sql.query<HoursRow>(`SELECT ${HOURS_COLUMNS} FROM hours WHERE account_id = $1 AND job_id IS NOT NULL AND date BETWEEN $2::date AND $3::date ORDER BY seq`, [accountId, range.start, range.end]),
  ]);
  return [...costs.map((r) => actualOfCost(r.job_id!, costEntryOfRow(r), registered)), ...hours.map((r) => actualOfHours(r.job_id!, hoursEntryOfRow(r)))];
}

interface VersionRow {
  cost_id: string;
  at: string;
  removed: boolean;
  kind: StoredCostFields['kind'] | null;
  supplier: string | null;
  date: string | null;
  paid_date: string | null;
  amount_cents: string | null;
  gst: StoredCostFields['gst'] | null;
  supply_information_held: boolean | null;
  credit: boolean | null;
  category: string | null;
  job_id: string | null;
}

/**
 * The whole history of every cost that was recorded, changed or deleted after `after` (an instant)
 * with a version dated between `span.start` and `span.end` (the new one or the one it replaced):
 * the only costs that can have a line carried out of an exported GST period. Oldest version first.
 * Index: cost_versions (account_id, at).
 */
export async function costHistoriesTouching(sql: Sql, accountId: string, span: { start: string; end: string }, after: string): Promise<Map<string, CostVersion[]>> {
  const rows = await sql.query<VersionRow>(
    `SELECT cost_id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, removed, kind, supplier, date::text AS date, paid_date::text AS paid_date,
            amount_cents::text AS amount_cents, gst, supply_information_held, credit, category, job_id
       FROM cost_versions
      WHERE account_id = $1 AND cost_id IN (
              SELECT cost_id FROM cost_versions
               WHERE account_id = $1 AND at > $4::timestamptz AND (date BETWEEN $2::date AND $3::date OR prev_date BETWEEN $2::date AND $3::date))
      ORDER BY cost_id, version`,
    [accountId, span.start, span.end, after],
  );
  const out = new Map<string, CostVersion[]>();
  for (const r of rows) {
    const entry: CostEntry | null = r.removed
      ? null
      : {
          kind: r.kind!, supplier: r.supplier!, date: r.date as LocalDate, paidDate: r.paid_date as LocalDate | null, amountCents: BigInt(r.amount_cents!), gst: r.gst!,
          category: r.category!, jobId: r.job_id, supplyInformationHeld: r.supply_information_held!, credit: r.credit!,
        };
    const versions = out.get(r.cost_id) ?? [];
    if (versions.length === 0) out.set(r.cost_id, versions);
    versions.push({ at: r.at, entry });
  }
  return out;
}

/**
 * What a job's profit needs of each cost and hours entry recorded against it: only the columns the
 * domain's jobProfit reads (a job may carry thousands of entries; its view answers within 30 ms).
 */
export async function jobEntries(
  sql: Sql,
  accountId: string,
  jobId: string,
): Promise<{ costs: Pick<CostEntry, 'amountCents' | 'gst' | 'category' | 'supplyInformationHeld' | 'credit'>[]; hours: Pick<HoursEntry, 'hours' | 'rate'>[] }> {
  const [costs, hours] = await Promise.all([
    sql.query<Pick<CostRow, 'amount_cents' | 'gst' | 'category' | 'supply_information_held' | 'credit'>>(
      'SELECT amount_cents::text AS amount_cents, gst, category, supply_information_held, credit FROM costs WHERE account_id = $1 AND job_id = $2',
      [accountId, jobId],
    ),
    sql.query<Pick<HoursRow, 'hours' | 'rate'>>('SELECT hours, rate FROM hours WHERE account_id = $1 AND job_id = $2', [accountId, jobId]),
  ]);
  return {
    costs: costs.map((r) => ({ amountCents: BigInt(r.amount_cents), gst: r.gst, category: r.category, supplyInformationHeld: r.supply_information_held, credit: r.credit })),
    hours,
  };
}

// ---- repeating expenses ---------------------------------------------------------------------------

interface RecurringRow {
  id: string;
  supplier: string;
  amount_cents: string;
  gst: RecurringRecord['gst'];
  supply_information_held: boolean;
  category: string;
  note: string;
  frequency: RecurringRecord['frequency'];
  start_date: string;
  end_date: string | null;
  paid_on_date: boolean;
  made: number;
  last_made_on: string | null;
  next_date: string | null;
  stopped_on: string | null;
  stream_version: number | string;
}

const RECURRING_COLUMNS = `id, supplier, amount_cents::text AS amount_cents, gst, supply_information_held, category, note, frequency, start_date::text AS start_date,
  end_date::text AS end_date, paid_on_date, made, last_made_on::text AS last_made_on, next_date::text AS next_date, stopped_on::text AS stopped_on, stream_version`;

const recurringRecordOf = (r: RecurringRow): RecurringRecord => ({
  id: r.id, supplier: r.supplier, amount: centsToString(BigInt(r.amount_cents)), gst: r.gst, supply_information_held: r.supply_information_held, category: r.category,
  note: r.note, frequency: r.frequency, start_date: r.start_date, end_date: r.end_date, paid_on_date: r.paid_on_date, made: Number(r.made), last_made_on: r.last_made_on,
  next_date: r.next_date, stopped_on: r.stopped_on, version: Number(r.stream_version),
});

/** The account's repeating expenses: those still going first (by next date), then the stopped and ended, newest first. */
export async function listRecurring(sql: Sql, accountId: string): Promise<RecurringRecord[]> {
  const rows = await sql.query<RecurringRow>(
    `SELECT ${RECURRING_COLUMNS} FROM recurring_costs WHERE account_id = $1 ORDER BY next_date IS NULL, next_date, seq DESC LIMIT 500`,
    [accountId],
  );
  return rows.map(recurringRecordOf);
}

export async function findRecurring(sql: Sql, accountId: string, id: string): Promise<RecurringRecord | null> {
  const [r] = await sql.query<RecurringRow>(`SELECT ${RECURRING_COLUMNS} FROM recurring_costs WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return r ? recurringRecordOf(r) : null;
}

/** How many of the account's repeating expenses are still going. */
export async function countActiveRecurring(sql: Pick<Sql, 'query'>, accountId: string): Promise<number> {
  const [r] = await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM recurring_costs WHERE account_id = $1 AND next_date IS NOT NULL', [accountId]);
  return Number(r?.n ?? 0);
}

/** Repeating expenses with a cost due on or before `today`, across accounts, oldest due first, at most `limit`. */
export async function dueRecurring(sql: Sql, today: string, limit: number): Promise<{ id: string; account_id: string }[]> {
  return sql.query<{ id: string; account_id: string }>(
    `SELECT id, account_id FROM recurring_costs WHERE next_date <= $1::date ORDER BY next_date, seq LIMIT ${Math.floor(limit)}`,
    [today],
  );
}
