import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { PUSH_FAILED, tryAccountingAgain } from '../shared/accountingPush.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { nzDateTime } from '../shared/nzTime.ts';
import { accountingPushQuery } from './queries.ts';
import { invalidateDocuments } from '../shared/queries.ts';

export const PUSH_TEXT = {
  behind: `${PROVIDER_NAME} doesn't have the latest changes to this invoice.`,
  notRead: `We couldn't check ${PROVIDER_NAME} for payments, voids or credit notes made there on this invoice.`,
  retryAt: (at: string) => `We'll try again at ${nzDateTime(at)}.`,
  tryAgain: 'Try again',
  trying: `Sending to ${PROVIDER_NAME}...`,
  failed: PUSH_FAILED,
} as const;

/**
 * For an invoice synced to Xero: when the last push of its changes (a payment, the send, a void, a
 * credit note or refund) did not get there — or the last read of Xero's changes back failed — say so
 * with the reason, when the app tries again by itself, and a Try again button (a push, or a read). Nothing while Xero is up to date, so the '✓ Xero' badge never
 * stands for a payment Xero does not have.
 */
export function AccountingPushCallout({ doc, synced }: { doc: Pick<DocumentDetail, 'id'>; synced: boolean }) {
  const queryClient = useQueryClient();
  const status = useQuery({ ...accountingPushQuery(api, doc.id), enabled: synced });
  const push = useCommand({
    // The way that failed: send ours to Xero, or read Xero's back.
    run: () => tryAccountingAgain(api, doc.id, status.data?.direction ?? 'to_xero'),
    failed: PUSH_TEXT.failed,
    // The detail (Xero's totals may have come back with the push) and, under its key, this status.
    onDone: () => invalidateDocuments(queryClient),
    onFailed: () => invalidateDocuments(queryClient),
  });
  const s = status.data;
  if (!synced || !s?.last_error) return null;
  // While the status reloads after a push, the push's own refusal is the newest word.
  const reason = push.error ?? s.last_error;
  return (
    <div className="callout callout--warning callout--action detail__note" role="status" data-testid="accounting-push-error">
      <span>
        {s.direction === 'from_xero' ? PUSH_TEXT.notRead : PUSH_TEXT.behind}
        <span className="callout__detail">
          {reason}
          {s.retry_at && !push.failure ? ` ${PUSH_TEXT.retryAt(s.retry_at)}` : ''}
        </span>
      </span>
      <button type="button" className="button button--ghost button--compact" onClick={() => push.run()} disabled={push.pending} aria-busy={push.pending}>
        {push.pending ? PUSH_TEXT.trying : PUSH_TEXT.tryAgain}
      </button>
    </div>
  );
}
