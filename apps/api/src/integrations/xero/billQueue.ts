// After a receipt is kept for a cost that is already a bill in Xero: one outbox row for the
// xero-bill reaction, which attaches the file to the bill (bills.ts). The row's id is made from the
// cost and the file's hash, so the same file kept twice is queued once. A cost never sent queues
// nothing: it is attached when it is sent.
import { costStreamId } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { enqueueReactions, OUTBOX_SWEEP_GRACE_MS } from '../../reactions/outbox.ts';
import { COST_RECEIPT_KEPT } from './billCause.ts';
import { xeroChangeId } from './changeCause.ts';

export async function queueReceiptForXero(sql: Sql, accountId: string, costId: string, sha256: string, now: Date): Promise<boolean> {
  const [sent] = await sql.query('SELECT 1 FROM xero_bills WHERE account_id = $1 AND cost_id = $2 AND xero_invoice_id IS NOT NULL', [accountId, costId]);
  if (!sent) return false;
  const written = await enqueueReactions(sql, {
    accountId,
    streamId: costStreamId(costId),
    id: xeroChangeId(accountId, ['receipt', costId, sha256]),
    type: COST_RECEIPT_KEPT,
    payload: { costId },
    at: new Date(now.getTime() - OUTBOX_SWEEP_GRACE_MS).toISOString(),
  });
  return written > 0;
}
