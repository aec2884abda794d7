// When the synced invoice's figures in Xero differ from ours (it was edited there): say so, and offer
// 'Send ours to Xero', which puts this invoice's lines back on Xero's copy. Ours never changes from
// here: the invoice the client was given stays as it was issued.
import { useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { ActionCallout } from '../../ui/ActionCallout.tsx';
import { useCommand } from '../shared/command.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { invalidateDocuments } from '../shared/queries.ts';
import { sendOursToAccounting } from './queries.ts';

export const DIFFERENCE_TEXT = {
  send: `Send ours to ${PROVIDER_NAME}`,
  sending: 'Sending...',
  failed: `Could not reach ${PROVIDER_NAME}. Please try again.`,
} as const;

/** Nothing unless Xero's totals differ from ours. */
export function AccountingCallout({ doc }: { doc: Pick<DocumentDetail, 'id' | 'accounting'> }) {
  const queryClient = useQueryClient();
  const send = useCommand({
    run: () => sendOursToAccounting(api, doc.id),
    failed: DIFFERENCE_TEXT.failed,
    onDone: () => invalidateDocuments(queryClient),
  });
  if (!doc.accounting?.difference) return null;
  return (
    <ActionCallout testId="accounting-difference" error={send.error} label={DIFFERENCE_TEXT.send} pendingLabel={DIFFERENCE_TEXT.sending} pending={send.pending} onAction={() => send.run()}>
      {doc.accounting.difference}. Check the invoice in {PROVIDER_NAME} before you rely on either figure, or send ours to put this invoice&apos;s lines back on it.
    </ActionCallout>
  );
}
