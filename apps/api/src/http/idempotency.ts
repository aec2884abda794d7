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

/**
 * Inside a transaction: replays the stored answer for (account, scope, key), or runs `fn` and
 * stores its answer. Without a key, just runs `fn`.
 */
export async function idempotent<T>(
  sql: Sql,
  claim: { accountId: string; scope: string; key: string | undefined; hash: string },
  fn: () => Promise<{ status: number; body: T }>,
): Promise<StoredAnswer<T>> {
  if (!claim.key) return { ...(await fn()), replayed: false };
  const inserted = await sql.query(
    `INSERT INTO idempotency_keys (account_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, scope, key) DO NOTHING RETURNING key`,
    [claim.accountId, claim.scope, claim.key, claim.hash],
  );
  if (inserted.length === 0) {
    const [row] = await sql.query<{ request_hash: string; status: number | null; response: T }>(
      'SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3',
      [claim.accountId, claim.scope, claim.key],
    );
    if (!row) throw new ApiError(409, 'This request is already being handled. Please wait a moment and reload.');
    if (row.request_hash !== claim.hash) throw new ApiError(422, 'This Idempotency-Key was already used for a different request.');
    if (row.status === null) throw new ApiError(409, 'This request is already being handled. Please wait a moment and reload.');
    return { status: row.status, body: row.response, replayed: true };
  }
  const answer = await fn();
  await sql.query('UPDATE idempotency_keys SET status = $4, response = $5::jsonb WHERE account_id = $1 AND scope = $2 AND key = $3', [
    claim.accountId, claim.scope, claim.key, answer.status, answer.body as object,
  ]);
  return { ...answer, replayed: false };
}
