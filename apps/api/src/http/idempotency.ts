// Idempotency-Key: a tradie double-tapping on a weak signal gets one invoice, one payment, one
// email. A command's key is claimed by the row holding its answer, written in the same statement
// as the command's events, so both commit or neither does; a request whose key is taken (a
// repeat, or a concurrent twin that committed first) is refused by that row's unique key, and its
// retry finds and replays the stored answer. Keys are per account and per operation.
import { createHash } from 'node:crypto';
import { ConcurrencyError, isUnavailable, type RowInsert, type Sql, type StoreTx } from '@tradie/store';
import type { Context } from 'hono';
import { isRetry } from '../commands.ts';
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
 * The answer stored for this request's key, to replay: null when the key is free; 422 when it
 * was used for another request, 409 with `pending` while a request that claimed it without an
 * answer (claimKey) is still being handled.
 */
export async function storedAnswer<T>(tx: Pick<StoreTx, 'read'>, c: KeyClaim, pending = STILL_HANDLED): Promise<StoredAnswer<T> | null> {
  const [row] = await tx.read<{ request_hash: string; status: number | null; response: unknown }>(
    'SELECT request_hash, status, response FROM idempotency_keys WHERE account_id = $1 AND scope = $2 AND key = $3',
    [c.accountId, c.scope, c.key],
  );
  if (!row) return null;
  if (row.request_hash !== c.hash) throw new ApiError(422, 'This Idempotency-Key was already used for a different request.');
  if (row.status === null) throw new ApiError(409, pending);
  return { status: row.status, body: row.response as T, replayed: true };
}

/** The key's row with its answer: the claim and the answer at once, written with the command's events. */
export const answerRow = (c: KeyClaim, answer: { status: number; body: unknown }): RowInsert => ({
  table: 'idempotency_keys',
  columns: [
    { name: 'account_id', type: 'text' },
    { name: 'scope', type: 'text' },
    { name: 'key', type: 'text' },
    { name: 'request_hash', type: 'text' },
    { name: 'status', type: 'integer' },
    { name: 'response', type: 'jsonb' },
  ],
  values: [c.accountId, c.scope, c.key, c.hash, answer.status, answer.body],
});

/**
 * Inside a store command (commands.ts execute): replays the stored answer for (account, scope,
 * key), or runs `fn` and stores its answer with the command's write — the key's row written in
 * the same statement as the events, so a repeat of the request is refused by its unique key and
 * the retry replays what was stored. The key is looked up before `fn` only on a retry, and after a
 * refusal from `fn` (a repeat of a payment that paid the invoice off is refused by the domain
 * before it can meet the key): a first attempt costs no round trip of its own. Without a key,
 * just runs `fn`.
 */
export async function idempotent<T>(
  tx: StoreTx,
  claim: Omit<KeyClaim, 'key'> & { key: string | undefined },
  fn: () => Promise<{ status: number; body: T }>,
): Promise<StoredAnswer<T>> {
  const { key } = claim;
  if (!key) return { ...(await fn()), replayed: false };
  const c = { ...claim, key };
  const replay = async (): Promise<StoredAnswer<T> | null> => {
    const stored = await storedAnswer<T>(tx, c);
    // Nothing this attempt gathered or wrote is kept.
    if (stored) tx.rollback();
    return stored;
  };
  if (isRetry(tx)) {
    const stored = await replay();
    if (stored) return stored;
  }
  let answer: { status: number; body: T };
  try {
    answer = await fn();
  } catch (e) {
    if (e instanceof ConcurrencyError || isUnavailable(e)) throw e;
    let stored: StoredAnswer<T> | null;
    try {
      stored = await replay();
    } catch (lookup) {
      // The key used for another request says more than the refusal; a failed look-up says less.
      if (lookup instanceof ApiError) throw lookup;
      throw e;
    }
    if (stored) return stored;
    throw e;
  }
  await tx.insert(answerRow(c, answer));
  return { ...answer, replayed: false };
}
