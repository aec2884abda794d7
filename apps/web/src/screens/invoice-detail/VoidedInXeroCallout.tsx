import { useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { ActionCallout } from '../../ui/ActionCallout.tsx';
import { useCommand } from '../shared/command.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { invalidateDocuments } from '../shared/queries.ts';
import { voidDocument } from './queries.ts';

/** The reason a void here records when the tradie follows Xero. */
export const VOIDED_IN_XERO_REASON = `Voided in ${PROVIDER_NAME}`;

export const VOIDED_THERE_TEXT = {
  note: `Voided in ${PROVIDER_NAME}. No reminders go for it. It still stands here until you void it here too.`,
  voidHere: 'Void here too',
  voiding: 'Voiding…',
  failed: "Couldn't void the invoice. Please try again.",
} as const;

/**
 * For an invoice whose copy in Xero was voided (or deleted) there: say so, and void it here with one
 * tap. Nothing is voided here by Xero alone: what the client was sent and the GST report change
 * only when the tradie says so.
 */
export function VoidedInXeroCallout({ doc }: { doc: Pick<DocumentDetail, 'id' | 'extra_data'> }) {
  const queryClient = useQueryClient();
  const voidHere = useCommand({
    run: () => voidDocument(api, doc.id, VOIDED_IN_XERO_REASON),
    failed: VOIDED_THERE_TEXT.failed,
    onDone: () => invalidateDocuments(queryClient),
    onFailed: () => invalidateDocuments(queryClient),
  });
  if (!doc.extra_data['voided_in']) return null;
  return (
    <ActionCallout testId="voided-in-xero" error={voidHere.error} label={VOIDED_THERE_TEXT.voidHere} pendingLabel={VOIDED_THERE_TEXT.voiding} pending={voidHere.pending} onAction={() => voidHere.run()}>
      {VOIDED_THERE_TEXT.note}
    </ActionCallout>
  );
}
