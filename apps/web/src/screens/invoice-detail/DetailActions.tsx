import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { useCommand } from '../shared/command.ts';
import { useMarkPaid, useSyncToAccounting } from '../shared/documentActions.ts';
import { usePdfWindow } from '../shared/pdfWindow.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { useEditActions } from './EditActions.tsx';
import { applyDetailChange, fetchPdf, runCommand, type DocumentCommand } from './queries.ts';
import type { DetailView } from './view.ts';
import { voidConfirmText } from './voidText.ts';
import { canCredit } from '../credit-notes/creditNotes.ts';
import { accountingStatusQuery, documentKeys, invalidateDocuments } from '../shared/queries.ts';

/** Which form is open under the buttons. */
export type Panel = 'none' | 'send' | 'payment' | 'credit';

interface Props {
  doc: DocumentDetail;
  view: DetailView;
  panel: Panel;
  onPanel: (panel: Panel) => void;
  show: (text: string, tone?: NoticeTone) => void;
}

/**
 * The row of buttons under the summary: View PDF, Edit, Send, Mark as issued, Record payment, Mark
 * Paid, the quote's Convert / Accept / Decline, Sync to Xero, Duplicate, Delete draft and Void, each
 * shown only when it applies; then what Edit says of a document that can no longer be changed.
 */
export function DetailActions({ doc, view, panel, onPanel, show }: Props) {
  const { isQuote, reference, isVoid, paid, synced, openQuote, isDraftInvoice } = view;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const markPaid = useMarkPaid(show);
  const sync = useSyncToAccounting(show);
  // 'Sync to Xero' only where Xero is connected: elsewhere it could only fail.
  const canSync = useQuery(accountingStatusQuery(api)).data?.connected === true;
  const objectUrls = useRef<string[]>([]);
  const { busy: pdfBusy, open: viewPdf } = usePdfWindow(
    () => fetchPdf(api, doc.id),
    show,
    (url) => {
      objectUrls.current.push(url);
    },
  );
  const edits = useEditActions({ doc, reference, show });
  // The client may change their mind: a declined quote can still be marked accepted.
  const answerable = openQuote || (isQuote && doc.status === 'declined');

  useEffect(
    () => () => {
      for (const u of objectUrls.current) URL.revokeObjectURL(u);
    },
    [],
  );

  const command = useCommand({
    run: async (action: DocumentCommand) => runCommand(api, doc.id, action),
    failed: 'Something went wrong',
    onDone: async (updated, action) => {
      if (action === 'convert') {
        queryClient.setQueryData(documentKeys.detail(updated.id), updated);
        void invalidateDocuments(queryClient);
        await navigate({ to: '/app/invoices/$id', params: { id: updated.id } });
        return;
      }
      applyDetailChange(queryClient, updated);
      const said = {
        void: `${reference} is now void`,
        accept: 'Quote marked as accepted',
        decline: 'Quote marked as declined',
        issue: `${reference} is marked issued: it now counts in your GST report`,
      } as const;
      show(said[action]);
    },
    onFailed: (message) => show(message, 'error'),
  });

  const confirmThen = (text: string, action: DocumentCommand) => {
    if (window.confirm(text)) command.run(action);
  };

  const busyAction = command.input ?? null;

  return (
    <>
      <div className="action-grid detail__actions" role="group" aria-label="Actions">
        <button type="button" className="button button--secondary" onClick={() => void viewPdf()} disabled={pdfBusy} aria-busy={pdfBusy}>
          {pdfBusy ? 'Opening...' : 'View PDF'}
        </button>
        {edits.edit}
        {!isVoid && doc.converted_to === null && doc.status !== 'declined' && (
          <button
            type="button"
            className="button button--accent"
            aria-expanded={panel === 'send'}
            onClick={() => {
              // No client, nobody to send it to: said before the sheet opens.
              if (panel !== 'send' && !doc.client) {
                show(`Add a client to this ${isQuote ? 'quote' : 'invoice'} before sending it.`, 'error');
                return;
              }
              onPanel(panel === 'send' ? 'none' : 'send');
            }}
          >
            Send
          </button>
        )}
        {isDraftInvoice && (
          <button type="button" className="button button--secondary" onClick={() => command.run('issue')} disabled={busyAction === 'issue'}>
            {busyAction === 'issue' ? 'Saving...' : 'Mark as issued'}
          </button>
        )}
        {!isQuote && !isVoid && !paid && (
          <button type="button" className="button button--primary" aria-expanded={panel === 'payment'} onClick={() => onPanel(panel === 'payment' ? 'none' : 'payment')}>
            Record payment
          </button>
        )}
        {!isQuote && !isVoid && !paid && (
          <button type="button" className="button button--secondary" onClick={() => markPaid.run(doc.id)} disabled={markPaid.pendingId === doc.id}>
            {markPaid.pendingId === doc.id ? 'Saving...' : 'Mark Paid'}
          </button>
        )}
        {openQuote && !doc.stages?.invoices.length && (
          <button type="button" className="button button--primary" onClick={() => command.run('convert')} disabled={busyAction === 'convert'}>
            {busyAction === 'convert' ? 'Converting...' : 'Convert to Invoice'}
          </button>
        )}
        {answerable && doc.status !== 'accepted' && (
          <button type="button" className="button button--secondary" onClick={() => command.run('accept')} disabled={busyAction === 'accept'}>
            Accept Quote
          </button>
        )}
        {openQuote && (
          <button type="button" className="button button--ghost" onClick={() => confirmThen('Mark this quote as declined?', 'decline')} disabled={busyAction === 'decline'}>
            Decline Quote
          </button>
        )}
        {canCredit(doc) && (
          <button type="button" className="button button--secondary" aria-expanded={panel === 'credit'} onClick={() => onPanel(panel === 'credit' ? 'none' : 'credit')}>
            Credit
          </button>
        )}
        {canSync && !isQuote && !isVoid && !synced && (
          <button type="button" className="button button--ghost" onClick={() => sync.run(doc.id)} disabled={sync.pendingId === doc.id}>
            {sync.pendingId === doc.id ? 'Syncing...' : `Sync to ${PROVIDER_NAME}`}
          </button>
        )}
        {edits.duplicate}
        {edits.remove}
        {!isVoid && !paid && doc.converted_to === null && !(doc.credited > 0) && (
          <button type="button" className="button button--danger" onClick={() => confirmThen(voidConfirmText({ ...doc, reference }), 'void')} disabled={busyAction === 'void'}>
            {busyAction === 'void' ? 'Voiding...' : 'Void'}
          </button>
        )}
      </div>
      {edits.panel}
    </>
  );
}
