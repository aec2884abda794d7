// Whether Xero has a synced invoice's latest changes: the push after each command records why it
// failed (xero_sync.last_push_error, cleared by the next push that gets through), and the outbox
// says when a reaction that failed for a reason worth another go (Xero busy or out of reach) runs
// again. The invoice's screen shows both, so a payment that did not reach Xero never passes for one
// that did.
import { type AccountingPushStatus } from '@tradie/contracts';
import { documentStreamId } from '@tradie/domain';
import type { AppDeps } from '../../deps.ts';
import { outboxFailures } from '../../reactions/outbox.ts';
import { xeroCreditNotePush, xeroPush } from '../../reactions/registry.ts';
import { loadDocument, readSyncRow } from './sync.ts';

const XERO_REACTIONS: readonly string[] = [xeroPush.name, xeroCreditNotePush.name];

/** GET /integrations/xero/push/{id}: 404 for a document that is not the account's. */
export async function pushStatusOf(deps: Pick<AppDeps, 'store'>, accountId: string, documentId: string): Promise<AccountingPushStatus> {
  await loadDocument(deps, accountId, documentId);
  const row = await readSyncRow(deps.store.db, accountId, documentId);
  if (!row?.xero_invoice_id) return { synced: false, last_error: null, retry_at: null };
  const streamId = documentStreamId(documentId);
  const retries = (await outboxFailures(deps.store.db, accountId))
    .filter((f) => f.stream_id === streamId && XERO_REACTIONS.includes(f.reaction) && f.next_attempt_at !== null)
    .map((f) => f.next_attempt_at as string)
    .sort();
  return { synced: true, last_error: row.last_push_error, retry_at: row.last_push_error === null ? null : (retries[0] ?? null) };
}
