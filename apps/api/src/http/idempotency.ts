// Idempotency-Key: a tradie double-tapping on a weak signal gets one invoice, one payment, one
// email. The key is claimed inside the command's own transaction, so the answer is stored in
// the same commit as the events; a concurrent retry waits on the key's row and then replays
// the stored answer. Keys are per account and per operation.
import { createHash } from 'node:crypto';
import type { Sql } from '@tradie/store';
import type { Context } from 'hono';
import { ApiError } from './problem.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export function idempotencyKey(c: Context): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER)?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw new ApiError(400, 'The Idempotency-Key header must be 1–200 visible ASCII characters.');
  return key;
}

export const requestHash = (body: unknown): string => createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');

export interface StoredAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/** A request's claim on its Idempotency-Key: unique per account and scope. */
export interface KeyClaim {
  accountId: string;
  scope: string;
  key: string;
  /** requestHash of the request as validated. */
  hash: string;
}

export const STILL_HANDLED = 'This request is already being handled. Please wait a moment and reload.';

export type ClaimResult = { claimed: true } | { claimed: false; status: number; body: unknown };

/**
 * Claims the key for this request (a pending row), or finds it taken: by the same request with
 * its answer stored (that answer, to replay), by the same request still being handled (409 with
 * `pending`, the words for what is under way), or by another request (422).
 */
export async function claimKey(sql: Sql, c: KeyClaim, pending = STILL_HANDLED): Promise<ClaimResult> {
  const inserted = await sql.query(
    `INSERT INTO idempotency_keys (account_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, scope, key) DO NOTHING RETURNING key`,
    [c.accountId, c.scope, c.key, c.hash],
  );
  if (inserted.length > 0) return { claimed: true };
  const [row] = await sql.query<{ request_hash: string; status: number | null; response: unknown }>(
    'SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3',
    [c.accountId, c.scope, c.key],
  );
  if (!row) throw new ApiError(409, pending);
  if (row.request_hash !== c.hash) throw new ApiError(422, 'This Idempotency-Key was already used for a different request.');
  if (row.status === null) throw new ApiError(409, pending);
  return { claimed: false, status: row.status, body: row.response };
}

/** Stores the answer on a claimed key: from now on the same request replays it. */
export async function storeAnswer(sql: Sql, c: KeyClaim, answer: { status: number; body: unknown }): Promise<void> {
  await sql.query('UPDATE idempotency_keys SET status = $4, response = $5::jsonb WHERE account_id = $1 AND scope = $2 AND key = $3', [
    c.accountId, c.scope, c.key, answer.status, answer.body as object,
  ]);
}

/** Gives up a claim that has no answer yet, so the same key may try again. */
export async function releaseKey(sql: Sql, c: KeyClaim): Promise<void> {
  await sql.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3 AND status IS NULL', [c.accountId, c.scope, c.key]);
}

/**
 * Inside a transaction: replays the stored answer for (account, scope, key), or runs `fn` and
 * stores its answer. Without a key, just runs `fn`.
 */
export async function idempotent<T>(
  sql: Sql,
  claim: Omit<KeyClaim, 'key'> & { key: string | undefined },
  fn: () => Promise<{ status: number; body: T }>,
): Promise<StoredAnswer<T>> {
  const { key } = claim;
  if (!key) return { ...(await fn()), replayed: false };
  const c = { ...claim, key };
  const got = await claimKey(sql, c);
  if (!got.claimed) return { status: got.status, body: got.body as T, replayed: true };
  const answer = await fn();
  await storeAnswer(sql, c, answer);
  return { ...answer, replayed: false };
}
