// Reads of documents_list: the list and the tab counts. Keyset pagination on seq (the position of
// the document's first event: unique, and newest first by creation), never OFFSET, so page 200
// costs what page 1 costs. Status depends on today (overdue, expired), so it is derived when read:
// in SQL for the filter (statusCondition), by the domain's deriveStatus for the answer; the two are tested against
// each other. Every query is scoped by account.
import type { DocumentCounts, DocumentListRecord } from '@tradie/contracts';
import {
  type DocumentStatus, type DocumentType, type Lifecycle, type LocalDate, type PaymentStatus, centsToNumber, deriveStatus,
} from '@tradie/domain';
import type { Sql } from '@tradie/store';

export interface ListFilter {
  type?: DocumentType | undefined;
  status?: DocumentStatus[] | undefined;
  client_id?: string | undefined;
  q?: string | undefined;
  from?: LocalDate | undefined;
  to?: LocalDate | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** A cursor that is not one this module handed out (the API answers 422 with the message). */
export class InvalidCursorError extends Error {
  constructor() {
    super('The cursor is not valid. Load the list again from the first page.');
    this.name = 'InvalidCursorError';
  }
}

/**
 * deriveStatus in SQL as a condition on the row's columns: the rows whose status, today, is one
 * of `statuses`. Written out per status rather than as one CASE expression compared with the list,
 * so the planner can estimate it from the columns' statistics: a common status (paid) then walks
 * the (account_id, type, seq) index newest first and stops at a page, instead of sorting every row
 * of the account. deriveStatus's branches, in its order:
 *   void or deleted → the lifecycle; a quote → expired when draft or sent past valid_until, else the
 *   lifecycle; an invoice → paid when paid; draft when a draft; overdue when due before today;
 *   partial when part paid; sent or issued as the lifecycle; else draft.
 */
function statusCondition(statuses: readonly DocumentStatus[], todayValue: LocalDate, p: (v: unknown) => string): string {
  // A parameter only when used: one whose type nothing in the statement names is an error.
  let todayParam: string | undefined;
  const today = (): string => (todayParam ??= p(todayValue));
  const quoteExpired = (): string => `lifecycle IN ('draft', 'sent') AND valid_until < ${today()}::date`;
  const invoice = `type <> 'quote' AND lifecycle NOT IN ('void', 'deleted')`;
  const open = `payment_status <> 'paid' AND lifecycle <> 'draft'`;
  const lifecycles: readonly string[] = ['draft', 'issued', 'sent', 'accepted', 'declined', 'converted'];
  const parts: string[] = [];
  for (const s of new Set(statuses)) {
    if (s === 'void' || s === 'deleted') parts.push(`lifecycle = ${p(s)}`);
    else if (s === 'expired') parts.push(`(type = 'quote' AND ${quoteExpired()})`);
    if (lifecycles.includes(s)) parts.push(`(type = 'quote' AND lifecycle = ${p(s)} AND NOT coalesce(${quoteExpired()}, false))`);
    if (s === 'paid') parts.push(`(${invoice} AND payment_status = 'paid')`);
    else if (s === 'draft') {
      parts.push(
        `(${invoice} AND payment_status <> 'paid' AND (lifecycle = 'draft' OR ` +
          `(due_date >= ${today()}::date AND payment_status <> 'partial' AND lifecycle NOT IN ('sent', 'issued'))))`,
      );
    } else if (s === 'overdue') parts.push(`(${invoice} AND ${open} AND due_date < ${today()}::date)`);
    else if (s === 'partial') parts.push(`(${invoice} AND ${open} AND payment_status = 'partial' AND due_date >= ${today()}::date)`);
    else if (s === 'sent' || s === 'issued') {
      parts.push(`(${invoice} AND payment_status NOT IN ('paid', 'partial') AND lifecycle = ${p(s)} AND due_date >= ${today()}::date)`);
    }
  }
  return parts.length === 0 ? 'false' : `(${parts.join(' OR ')})`;
}

export const encodeCursor = (seq: string): string => Buffer.from(`s${seq}`, 'utf8').toString('base64url');

/** The seq a cursor names; InvalidCursorError for anything else. */
export function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^s(\d{1,19})$/.exec(text);
  if (!m?.[1]) throw new InvalidCursorError();
  return m[1];
}

/** A documents_list row as the list selects it (dates and cents as text). */
export interface ListRow {
  id: string;
  seq: string;
  type: DocumentType;
  reference: string;
  lifecycle: Lifecycle;
  client_name: string;
  total_cents: string;
  balance_cents: string;
  payment_status: PaymentStatus;
  paid_date: string | null;
  extra_data: Record<string, string> | string;
  issue_date: string;
  due_date: string;
  valid_until: string | null;
  job_title: string;
  site: string;
}

/** The fields a document's row starts with (id to total, as in the contracts), status derived for `today`. */
export function documentRowOf(
  r: Omit<ListRow, 'extra_data' | 'balance_cents' | 'paid_date' | 'issue_date'>,
  today: LocalDate,
): Pick<DocumentListRecord, 'id' | 'type' | 'reference' | 'status' | 'client_name' | 'total'> {
  const status = deriveStatus({ type: r.type, lifecycle: r.lifecycle, validUntil: r.valid_until, dueDate: r.due_date, paymentStatus: r.payment_status }, today);
  return {
    id: r.id,
    type: r.type,
    reference: r.reference,
    // documents_list has no rows for deleted documents, so 'deleted' never reaches here.
    status: status as DocumentListRecord['status'],
    client_name: r.client_name,
    total: centsToNumber(BigInt(r.total_cents)),
  };
}

/** The list record (docs/api/documents.md): the list fields plus issue_date, due_date and balance; status derived for `today`. */
export function listRecordOf(r: ListRow, today: LocalDate): DocumentListRecord {
  return {
    ...documentRowOf(r, today),
    payment_status: r.payment_status,
    paid_date: r.paid_date,
    extra_data: typeof r.extra_data === 'string' ? (JSON.parse(r.extra_data) as Record<string, string>) : r.extra_data,
    issue_date: r.issue_date,
    due_date: r.due_date,
    balance: centsToNumber(BigInt(r.balance_cents)),
    job_title: r.job_title,
    site_address: r.site,
  };
}

// seq is selected as text (bigint-safe on both drivers): ORDER BY and WHERE name documents_list.seq, the number.
const LIST_COLUMNS = `id, seq::text AS seq, type, reference, lifecycle, client_name, total_cents::text AS total_cents,
  balance_cents::text AS balance_cents, payment_status, paid_date::text AS paid_date, extra_data, issue_date::text AS issue_date,
  due_date::text AS due_date, valid_until::text AS valid_until, job_title, site`;

export interface ListPage {
  records: DocumentListRecord[];
  nextCursor: string | null;
  total: number;
}

/** A page of the account's documents, newest first, and how many match the filter in all. */
export async function listDocuments(sql: Sql, accountId: string, filter: ListFilter, today: LocalDate): Promise<ListPage> {
  const params: unknown[] = [accountId];
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['account_id = $1'];
  if (filter.type) where.push(`type = ${p(filter.type)}`);
  if (filter.client_id) where.push(`client_id = ${p(filter.client_id)}`);
  if (filter.q) where.push(`position(${p(filter.q)} in search) > 0`);
  if (filter.from) where.push(`issue_date >= ${p(filter.from)}::date`);
  if (filter.to) where.push(`issue_date <= ${p(filter.to)}::date`);
  if (filter.status && filter.status.length > 0) {
    where.push(statusCondition(filter.status, today, p));
  }
  const countParams = [...params];
  const countWhere = where.join(' AND ');
  // Qualified: `seq` alone would be the text alias of the select list.
  if (filter.cursor) where.push(`documents_list.seq < ${p(decodeCursor(filter.cursor))}::bigint`);
  const limitParam = p(filter.limit + 1);
  const [rows, counted] = await Promise.all([
    sql.query<ListRow>(`SELECT ${LIST_COLUMNS} FROM documents_list WHERE ${where.join(' AND ')} ORDER BY documents_list.seq DESC LIMIT ${limitParam}::int`, params),
    sql.query<{ n: number | string }>(`SELECT count(*)::int AS n FROM documents_list WHERE ${countWhere}`, countParams),
  ]);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    records: page.map((r) => listRecordOf(r, today)),
    nextCursor: rows.length > filter.limit && last ? encodeCursor(last.seq) : null,
    total: Number(counted[0]?.n ?? 0),
  };
}

/**
 * The tab counts in one grouped COUNT over the (account_id, type, seq) index. A voided document is
 * not counted: the list shows it only under its own filter (status=void), never in a total.
 */
export async function countDocuments(sql: Sql, accountId: string): Promise<DocumentCounts> {
  const rows = await sql.query<{ type: DocumentType; n: number | string }>(
    "SELECT type, count(*)::int AS n FROM documents_list WHERE account_id = $1 AND lifecycle <> 'void' GROUP BY type",
    [accountId],
  );
  const n = (t: DocumentType): number => Number(rows.find((r) => r.type === t)?.n ?? 0);
  return { quotes: n('quote'), invoices: n('invoice') };
}
