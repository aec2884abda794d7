// Card payments the business must look at in its Stripe dashboard: a card payment that came in
// while the invoice was settled some other way (the excess, or all of it, to refund in Stripe),
// and disputes. The webhook records them (repository.ts recordIssue); the home screen lists the
// open ones until the business marks each done.
import type { PaymentIssues } from '@tradie/contracts';
import { centsToNumber } from '@tradie/domain';
import type { EventStore, Sql, StoreTx } from '@tradie/store';
import { loadDocument } from '../documents/repository.ts';
import { NotFound } from '../errors.ts';

/** The most a list shows: older open issues wait behind them. */
const LIMIT = 20;

export const PAYMENT_ISSUE_NOT_FOUND = 'No such payment issue';

/** The account's open issues, newest first, each with its invoice's reference when it has one. */
export async function openPaymentIssues(store: EventStore, accountId: string): Promise<PaymentIssues['items']> {
  const rows = await store.db.query<{ id: string; kind: 'overpaid' | 'dispute'; document_id: string | null; amount_cents: string; detail: string; created_at: string | Date }>(
    `SELECT id::text AS id, kind, document_id, amount_cents::text AS amount_cents, detail, created_at FROM payment_issues
     WHERE account_id = $1 AND done_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ${LIMIT}`,
    [accountId],
  );
  return Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      kind: r.kind,
      document_id: r.document_id,
      reference: r.document_id ? await referenceOf(store, accountId, r.document_id) : null,
      amount: centsToNumber(BigInt(r.amount_cents)),
      detail: r.detail,
      at: new Date(r.created_at).toISOString(),
    })),
  );
}

/** The invoice's reference; null when it is gone (deleted documents keep no reference to show). */
async function referenceOf(store: Pick<StoreTx, 'readStream'>, accountId: string, documentId: string): Promise<string | null> {
  try {
    return (await loadDocument(store, accountId, documentId)).state.reference;
  } catch (e) {
    if (e instanceof NotFound) return null;
    throw e;
  }
}

/** Marks one open issue of the account done; 404 for anything else (another account's, or one done already). */
export async function markPaymentIssueDone(sql: Sql, accountId: string, id: string, now: Date): Promise<void> {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new NotFound(PAYMENT_ISSUE_NOT_FOUND);
  const rows = await sql.query('UPDATE payment_issues SET done_at = $3 WHERE account_id = $1 AND id = $2::bigint AND done_at IS NULL RETURNING id', [accountId, id, now.toISOString()]);
  if (rows.length === 0) throw new NotFound(PAYMENT_ISSUE_NOT_FOUND);
}
