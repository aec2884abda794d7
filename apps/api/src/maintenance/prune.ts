// Tables that only grow, pruned on a schedule (main.ts: at start-up and every hour). Each rule
// deletes only rows that can no longer change an answer:
//
//   refresh_tokens          expired more than a day ago (a replay of one is refused as unknown, as before)
//   one_time_tokens         expired more than a day ago (used, revoked or not: a link past its time is refused either way)
//   login_failures          older than the login throttle's window (they count for nothing after it)
//   idempotency_keys        older than 30 days (a phone replaying a queued request does so within minutes or hours)
//   xero_oauth_states       expired (a Connect window lives ten minutes)
//   billing_webhook_events  received more than 30 days ago (Stripe redelivers for 3 days at most)
//   rate_limits             windows that have ended (a count only matters inside its window)
//   audit_log               older than 400 days (a year of security history, and a little more)
//   outbox                  done more than 7 days ago (a failed or given-up row stays until it is done)
//
// The event log is never pruned: it is the tradie's record — until the tradie deletes their
// account: then the same hourly pass purges it once its window has passed (account/purge.ts).
import type { AppDeps } from '../deps.ts';
import { purgeDeletedAccounts } from '../account/purge.ts';
import { LOGIN_THROTTLE } from '../auth/commands/shared.ts';

const DAY = 86_400_000;

export interface PruneRule {
  table: string;
  /** The SQL condition on the row, with $1 the cut-off instant. */
  where: string;
  /** How far before now the cut-off is, ms. */
  keepMs: number;
}

export const PRUNE_RULES: readonly PruneRule[] = [
  { table: 'refresh_tokens', where: 'expires_at < $1', keepMs: DAY },
  { table: 'one_time_tokens', where: 'expires_at < $1', keepMs: DAY },
  { table: 'login_failures', where: 'at < $1', keepMs: LOGIN_THROTTLE.windowMinutes * 60_000 },
  { table: 'idempotency_keys', where: 'created_at < $1', keepMs: 30 * DAY },
  { table: 'xero_oauth_states', where: 'expires_at < $1', keepMs: 0 },
  { table: 'billing_webhook_events', where: 'received_at < $1', keepMs: 30 * DAY },
  { table: 'rate_limits', where: 'window_end < $1', keepMs: 0 },
  { table: 'audit_log', where: 'at < $1', keepMs: 400 * DAY },
  { table: 'outbox', where: 'done_at < $1', keepMs: 7 * DAY },
];

/** Deletes what the rules say is spent; answers how many rows of each table went. */
export async function pruneSpentRows(deps: Pick<AppDeps, 'store' | 'clock'>): Promise<Record<string, number>> {
  const now = deps.clock.now().getTime();
  const removed: Record<string, number> = {};
  for (const rule of PRUNE_RULES) {
    const rows = await deps.store.db.query(`DELETE FROM ${rule.table} WHERE ${rule.where} RETURNING 1`, [new Date(now - rule.keepMs).toISOString()]);
    removed[rule.table] = rows.length;
  }
  return removed;
}

/** Purges deleted accounts that are due and prunes, now and then every `everyMs`; the timer never keeps the process alive. Returns a stop function. */
export function schedulePruning(deps: Pick<AppDeps, 'store' | 'clock' | 'log' | 'config' | 'files'>, everyMs = 3_600_000): () => void {
  const run = (): void => {
    // Deleted accounts whose window has passed (account/purge.ts), then the spent rows.
    void purgeDeletedAccounts(deps).catch((e: unknown) => deps.log('error', 'purging deleted accounts failed', { error: e instanceof Error ? e.message : String(e) }))
      .then(() => pruneSpentRows(deps)).then(
      (removed) => {
        const total = Object.values(removed).reduce((a, b) => a + b, 0);
        if (total > 0) deps.log('info', 'pruned spent rows', removed);
      },
      (e: unknown) => deps.log('error', 'pruning spent rows failed', { error: e instanceof Error ? e.message : String(e) }),
    );
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
