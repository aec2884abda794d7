// The list and the tab counts, read from documents_list. Keyset pagination on seq (the position
// of the document's first event: unique, and newest first by creation), never OFFSET, so page
// 200 costs what page 1 costs. Status depends on today (overdue, expired), so it is derived when
// read: in SQL for the filter, by the domain's deriveStatus for the answer; the two are tested
// against each other.
import type { DocumentCounts, DocumentListRecord } from '@tradie/contracts';
import type { DocumentStatus, DocumentType, LocalDate } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { ApiError } from '../http/problem.ts';
import { type ListRow, listRecordOf } from './view.ts';

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

/** deriveStatus in SQL, for the row's columns and today's date at `$today`. */
const statusSql = (today: string): string => `CASE
  WHEN lifecycle IN ('void', 'deleted') THEN lifecycle
  WHEN type = 'quote' THEN CASE WHEN lifecycle IN ('draft', 'sent') AND valid_until < ${today}::date THEN 'expired' ELSE lifecycle END
  WHEN payment_status = 'paid' THEN 'paid'
  WHEN lifecycle = 'draft' THEN 'draft'
  WHEN due_date < ${today}::date THEN 'overdue'
  WHEN payment_status = 'partial' THEN 'partial'
  WHEN lifecycle IN ('sent', 'issued') THEN lifecycle
  ELSE 'draft'
END`;

export const encodeCursor = (seq: string): string => Buffer.from(`s${seq}`, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^s(\d{1,19})$/.exec(text);
  if (!m?.[1]) throw new ApiError(422, 'The cursor is not valid. Load the list again from the first page.');
  return m[1];
}

// seq is selected as text (bigint-safe on both drivers): ORDER BY and WHERE name documents_list.seq, the number.
const LIST_COLUMNS = `id, seq::text AS seq, type, reference, lifecycle, client_name, total_cents::text AS total_cents,
  balance_cents::text AS balance_cents, payment_status, paid_date::text AS paid_date, extra_data, issue_date::text AS issue_date,
  due_date::text AS due_date, valid_until::text AS valid_until`;

export interface ListPage {
  records: DocumentListRecord[];
  nextCursor: string | null;
  total: number;
}

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
    const todayParam = p(today);
    where.push(`(${statusSql(todayParam)}) IN (${filter.status.map((s) => p(s)).join(', ')})`);
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

/** The tab counts in one grouped COUNT over the (account_id, type, seq) index. */
export async function countDocuments(sql: Sql, accountId: string): Promise<DocumentCounts> {
  const rows = await sql.query<{ type: DocumentType; n: number | string }>(
    'SELECT type, count(*)::int AS n FROM documents_list WHERE account_id = $1 GROUP BY type',
    [accountId],
  );
  const n = (t: DocumentType): number => Number(rows.find((r) => r.type === t)?.n ?? 0);
  return { quotes: n('quote'), invoices: n('invoice') };
}
