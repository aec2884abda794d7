// Whether Xero has a synced invoice's latest changes: the push after each command records why it
// failed (xero_sync.last_push_error, cleared by the next push that gets through), and the outbox
// says when a reaction that failed for a reason worth another go (Xero busy or out of reach) runs
// again. The invoice's screen shows both, so a payment that did not reach Xero never passes for one
// that did. A read back from Xero that failed (xero_sync.last_pull_error, kept by the xero-pull
// reaction) is shown the same way, after any push failure: Xero may have a payment we do not.
import type { AccountingPushFailures, AccountingPushStatus } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import type { AppDeps } from '../../deps.ts';
import { NotFound } from '../../errors.ts';
import { outboxFailures } from '../../reactions/outbox.ts';
import { xeroCreditNotePush, xeroPull, xeroPush } from '../../reactions/registry.ts';
import { loadDocument } from '../../documents/repository.ts';
import { readSyncRow } from './sync.ts';

const XERO_REACTIONS: readonly string[] = [xeroPush.name, xeroCreditNotePush.name];
const XERO_READS: readonly string[] = [xeroPull.name];

/** At most this many invoices in the home screen's list (the oldest failures wait for the newest to be dealt with). */
export const PUSH_FAILURES_SHOWN = 20;

/** When the outbox next tries each document's Xero reactions again, by stream id (the earliest planned attempt). */
async function retriesByStream(deps: Pick<AppDeps, 'store'>, accountId: string, reactions: readonly string[] = XERO_REACTIONS): Promise<Map<string, string>> {
  const next = new Map<string, string>();
  for (const f of await outboxFailures(deps.store.db, accountId)) {
    if (!reactions.includes(f.reaction) || f.next_attempt_at === null) continue;
    const known = next.get(f.stream_id);
    if (known === undefined || f.next_attempt_at < known) next.set(f.stream_id, f.next_attempt_at);
  }
  return next;
}

/** GET /integrations/xero/push/{id}: 404 for a document that is not the account's. */
export async function pushStatusOf(deps: Pick<AppDeps, 'store'>, accountId: string, documentId: string): Promise<AccountingPushStatus> {
  await loadDocument(deps.store, accountId, documentId);
  const row = await readSyncRow(deps.store.db, accountId, documentId);
  if (!row?.xero_invoice_id) return { synced: false, last_error: null, retry_at: null, direction: null };
  if (row.last_push_error !== null) {
    return { synced: true, last_error: row.last_push_error, retry_at: (await retriesByStream(deps, accountId)).get(documentStreamId(documentId)) ?? null, direction: 'to_xero' };
  }
  const [pull] = await deps.store.db.query<{ last_pull_error: string | null }>('SELECT last_pull_error FROM xero_sync WHERE account_id = $1 AND document_id = $2', [accountId, documentId]);
  if (pull?.last_pull_error) {
    return { synced: true, last_error: pull.last_pull_error, retry_at: (await retriesByStream(deps, accountId, XERO_READS)).get(documentStreamId(documentId)) ?? null, direction: 'from_xero' };
  }
  return { synced: true, last_error: null, retry_at: null, direction: null };
}

/** GET /integrations/xero/push: the synced invoices whose last push failed, for the home screen. */
export async function pushFailuresOf(deps: Pick<AppDeps, 'store'>, accountId: string): Promise<AccountingPushFailures> {
  // A push failure first (Xero lacks our changes); else a read back that failed (we may lack Xero's).
  const rows = await deps.store.db.query<{ document_id: string; last_error: string; direction: 'to_xero' | 'from_xero' }>(
    `SELECT document_id, coalesce(last_push_error, last_pull_error) AS last_error,
            CASE WHEN last_push_error IS NOT NULL THEN 'to_xero' ELSE 'from_xero' END AS direction
       FROM xero_sync
      WHERE account_id = $1 AND xero_invoice_id IS NOT NULL AND (last_push_error IS NOT NULL OR last_pull_error IS NOT NULL)
      ORDER BY coalesce(last_push_error_at, last_pull_error_at) DESC NULLS LAST, document_id LIMIT $2`,
    [accountId, PUSH_FAILURES_SHOWN],
  );
  if (rows.length === 0) return { items: [] };
  const retries = await retriesByStream(deps, accountId);
  const reads = await retriesByStream(deps, accountId, XERO_READS);
  const items: AccountingPushFailures['items'] = [];
  for (const r of rows) {
    // A document deleted since is left out (its 404), not an error; any other failure is one.
    const loaded = await loadDocument(deps.store, accountId, r.document_id).catch((e: unknown) => {
      if (e instanceof NotFound) return null;
      throw e;
    });
    if (!loaded) continue;
    const retryAt = (r.direction === 'to_xero' ? retries : reads).get(documentStreamId(r.document_id)) ?? null;
    items.push({ id: r.document_id, document_id: r.document_id, reference: loaded.state.reference, last_error: r.last_error, retry_at: retryAt, direction: r.direction });
  }
  return { items };
}
