// One invoice or one cost at a time, across processes: a claim on its row in xero_sync or xero_bills
// (made if missing, taken only when free or lapsed). Another holder means Busy (try again shortly);
// a claim whose work made nothing in Xero leaves no row behind; otherwise the claim is released.
import { claimKey, leaseOf, releaseClaim } from '@tradie/store';
import type { AppDeps } from '../../deps.ts';
import { Busy } from '../../errors.ts';

/** A claim older than this is taken over (its holder died). Longer than any sync can take with the adapter's bounded retries. */
export const CLAIM_LEASE_MS = 10 * 60_000;
const BUSY_RETRY_AFTER_SECONDS = 5;

type ClaimedRow = { table: 'xero_sync'; column: 'document_id' } | { table: 'xero_bills'; column: 'cost_id' };

export async function withXeroRowClaim<T>(
  deps: Pick<AppDeps, 'store' | 'clock' | 'ids'>,
  row: ClaimedRow & { accountId: string; id: string; busy: string },
  fn: () => Promise<T>,
): Promise<T> {
  const { table, column, accountId, id } = row;
  const token = deps.ids.uuid();
  const now = deps.clock.now();
  const claimed = await claimKey(deps.store.db, { table, key: { account_id: accountId, [column]: id }, also: { created_at: now.toISOString() } }, leaseOf(token, now, CLAIM_LEASE_MS), now);
  if (!claimed) throw new Busy(row.busy, undefined, BUSY_RETRY_AFTER_SECONDS);
  try {
    return await fn();
  } finally {
    await deps.store.db.query(`DELETE FROM ${table} WHERE account_id = $1 AND ${column} = $2 AND claimed_by = $3 AND xero_invoice_id IS NULL`, [accountId, id, token]);
    await releaseClaim(deps.store.db, token, { table, where: `account_id = $2 AND ${column} = $3`, params: [accountId, id] });
  }
}
