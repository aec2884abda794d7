// Idempotency for sending an email, which can't be rolled back with a transaction: the key is
// claimed (pending) in its own small transaction before the mail goes, and completed with the
// answer in the transaction that records DocumentSent. A retry with the same key meanwhile gets
// 409; after, the stored answer. If the mail could not be sent the claim is released, so the
// same key may try again. If the mail went but recording failed, the claim stays pending: the
// key never sends twice.
import type { Sql } from '@tradie/store';
import { ApiError } from '../http/problem.ts';

export interface Claim {
  accountId: string;
  scope: string;
  key: string;
  hash: string;
}

export const ALREADY_SENDING = 'This is already being sent. Please wait a moment and reload.';

export type ClaimResult = { claimed: true } | { claimed: false; status: number; body: unknown };

export async function claimKey(db: Sql, c: Claim): Promise<ClaimResult> {
  const inserted = await db.query(
    `INSERT INTO idempotency_keys (account_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, scope, key) DO NOTHING RETURNING key`,
    [c.accountId, c.scope, c.key, c.hash],
  );
  if (inserted.length > 0) return { claimed: true };
  const [row] = await db.query<{ request_hash: string; status: number | null; response: unknown }>(
    'SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3',
    [c.accountId, c.scope, c.key],
  );
  if (!row || row.status === null) throw new ApiError(409, ALREADY_SENDING);
  if (row.request_hash !== c.hash) throw new ApiError(422, 'This Idempotency-Key was already used for a different request.');
  return { claimed: false, status: row.status, body: row.response };
}

export async function completeKey(sql: Sql, c: Claim, answer: { status: number; body: unknown }): Promise<void> {
  await sql.query('UPDATE idempotency_keys SET status = $4, response = $5::jsonb WHERE account_id = $1 AND scope = $2 AND key = $3', [
    c.accountId, c.scope, c.key, answer.status, answer.body as object,
  ]);
}

export async function releaseKey(db: Sql, c: Claim): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3 AND status IS NULL', [c.accountId, c.scope, c.key]);
}
