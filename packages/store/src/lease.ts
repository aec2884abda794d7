// Leases: how a process takes rows of a work table for a while, so that two processes (or two
// runs in one) never work on the same row, and a process that dies holding rows loses them when
// the lease ends. Every leased table has `claimed_by text` (the holder's token) and
// `claimed_until timestamptz`; the outbox, the reminder queue, the Xero sync claims and the client
// answer notice windows all take and give back their rows through these functions, and nothing
// else writes those two columns.
//
// - claimDue: a batch of due rows (SELECT … FOR UPDATE SKIP LOCKED inside one UPDATE, so two
//   claimers never wait on each other and never get the same row).
// - claimKey: one row by its key, made if missing (an upsert that takes it only when free or lapsed).
// - releaseClaim: give a row back, with any other changes, but only while this token still holds it
//   (a process whose lease lapsed and was taken over changes nothing); updateHeld changes a held
//   row and keeps the lease.
import type { Sql } from './types.ts';

/** The tables that are leased. Names are code, never input: they are written into the SQL. */
export type LeasedTable = 'outbox' | 'reminder_queue' | 'xero_sync' | 'xero_bills' | 'client_notice_windows';

export interface Lease {
  /** The holder's token, kept in claimed_by. */
  readonly token: string;
  /** When the lease ends (claimed_until). */
  readonly until: Date;
}

/** A lease of `ms` from `now` under `token`. */
export const leaseOf = (token: string, now: Date, ms: number): Lease => ({ token, until: new Date(now.getTime() + ms) });

export interface DueRowsQuery {
  table: 'outbox' | 'reminder_queue';
  /** The key column (and its cast), e.g. `id` with `::bigint`. */
  key: string;
  /** What makes a row due, over the table's columns; its parameters are `params`, numbered from $5. */
  due: string;
  params?: readonly unknown[];
  orderBy: string;
  returning: string;
}

/**
 * Takes up to `limit` due rows not held by a live lease, and answers them as `returning` lists.
 * Parameters $1–$4 are the token, the lease's end, now and the limit.
 */
export function claimDue<T>(sql: Sql, q: DueRowsQuery, lease: Lease, now: Date, limit: number): Promise<T[]> {
  return sql.query<T>(
    `UPDATE ${q.table} SET claimed_by = $1, claimed_until = $2::timestamptz
     WHERE ${q.key} IN (
       SELECT ${q.key} FROM ${q.table}
       WHERE (${q.due}) AND (claimed_until IS NULL OR claimed_until < $3::timestamptz)
       ORDER BY ${q.orderBy} LIMIT $4::int
       FOR UPDATE SKIP LOCKED)
     RETURNING ${q.returning}`,
    [lease.token, lease.until.toISOString(), now.toISOString(), limit, ...(q.params ?? [])],
  );
}

export interface KeyedRowQuery {
  table: 'xero_sync' | 'xero_bills' | 'client_notice_windows';
  /** The row's key (its unique columns) and their values. */
  key: Readonly<Record<string, string>>;
  /** Other columns' values for a row made here (never changed on a row that exists). */
  also?: Readonly<Record<string, unknown>>;
  returning?: string;
}

/**
 * Takes the row whose key is `key` (made, with `also`, if missing), unless a live lease holds it.
 * Answers the row as `returning` lists (the token by default), or null while someone else holds it.
 */
export async function claimKey<T = { claimed_by: string }>(sql: Sql, q: KeyedRowQuery, lease: Lease, now: Date): Promise<T | null> {
  const keyColumns = Object.keys(q.key);
  const columns = [...keyColumns, ...Object.keys(q.also ?? {})];
  const values = [...Object.values(q.key), ...Object.values(q.also ?? {})];
  const n = values.length;
  const [row] = await sql.query<T>(
    `INSERT INTO ${q.table} (${columns.join(', ')}, claimed_by, claimed_until)
     VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}, $${n + 1}, $${n + 2}::timestamptz)
     ON CONFLICT (${keyColumns.join(', ')}) DO UPDATE SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until
     WHERE ${q.table}.claimed_until IS NULL OR ${q.table}.claimed_until < $${n + 3}::timestamptz
     RETURNING ${q.returning ?? 'claimed_by'}`,
    [...values, lease.token, lease.until.toISOString(), now.toISOString()],
  );
  return row ?? null;
}

export interface Release {
  table: LeasedTable;
  /** Which row: a condition over the table's columns, with `params` numbered from $2 ($1 is the token). */
  where: string;
  /** Other columns set as the row is given back (`attempts = $3::int, …`), or none. */
  set?: string;
  params: readonly unknown[];
}

/** Gives the row back (claimed_by and claimed_until cleared, `set` applied) while `token` holds it; answers whether it did. */
export function releaseClaim(sql: Sql, token: string, r: Release): Promise<boolean> {
  return updateHeld(sql, token, { ...r, set: `${r.set ? `${r.set}, ` : ''}claimed_by = NULL, claimed_until = NULL` });
}

/** Changes the row (`set` is required) while `token` holds it, keeping the lease; answers whether it did. */
export async function updateHeld(sql: Sql, token: string, r: Release & { set: string }): Promise<boolean> {
  const rows = await sql.query(`UPDATE ${r.table} SET ${r.set} WHERE (${r.where}) AND claimed_by = $1 RETURNING claimed_by`, [token, ...r.params]);
  return rows.length > 0;
}
