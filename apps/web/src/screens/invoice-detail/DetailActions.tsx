import { useNavigate } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { useCommand } from '../shared/command.ts';
import { useMarkPaid, useSyncToAccounting } from '../shared/documentActions.ts';
import { usePdfWindow } from '../shared/pdfWindow.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { useEditActions } from './EditActions.tsx';
import { applyDetailChange, fetchPdf, runCommand, type DocumentCommand } from './queries.ts';
import { type ActionKey, type DetailView, primaryActionOf } from './view.ts';
import { voidConfirmText } from './voidText.ts';
import { canCredit } from '../credit-notes/creditNotes.ts';
import { accountingStatusQuery, documentKeys, invalidateDocuments } from '../shared/queries.ts';

interface Action {
  key: ActionKey;
  render: (className: string) => ReactNode;
}

/** How an action looks in the More list: the destructive one stands apart. */
const MORE_CLASS: Partial<Record<ActionKey, string>> = { void: 'button button--danger', decline: 'button button--ghost', sync: 'button button--ghost' };

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
 * The actions under the summary: the one that moves the document on in its state (Send for a draft,
 * Record payment for an unpaid invoice, Convert for an accepted quote, Accept for a quote awaiting
 * its answer) large and first; View PDF beside More actions; and under More the rest that apply
 * (Edit, Send, Mark as issued, Record payment, Mark Paid, the quote's Convert / Accept / Decline,
 * Credit, Sync to Xero where it is connected, Duplicate, Delete draft and Void); then what Edit says
 * of a document that can no longer be changed.
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
  const [moreOpen, setMoreOpen] = useState(false);
  const moreId = useId();

  // Every action that applies now, in the order More lists them; one of them may be the primary.
  const actions: Action[] = [];
  const add = (key: ActionKey, applies: boolean, render: (className: string) => ReactNode) => {
    if (applies) actions.push({ key, render });
  };
  add('edit', Boolean(edits.edit), () => edits.edit);
  add('send', !isVoid && doc.converted_to === null && doc.status !== 'declined', (className) => (
    <button
      type="button"
      className={className}
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
  ));
  add('issue', isDraftInvoice, (className) => (
    <button type="button" className={className} onClick={() => command.run('issue')} disabled={busyAction === 'issue'}>
      {busyAction === 'issue' ? 'Saving...' : 'Mark as issued'}
    </button>
  ));
  add('payment', !isQuote && !isVoid && !paid, (className) => (
    <button type="button" className={className} aria-expanded={panel === 'payment'} onClick={() => onPanel(panel === 'payment' ? 'none' : 'payment')}>
      Record payment
    </button>
  ));
  add('markPaid', !isQuote && !isVoid && !paid, (className) => (
    <button type="button" className={className} onClick={() => markPaid.run(doc.id)} disabled={markPaid.pendingId === doc.id}>
      {markPaid.pendingId === doc.id ? 'Saving...' : 'Mark Paid'}
    </button>
  ));
  add('convert', openQuote && !doc.stages?.invoices.length, (className) => (
    <button type="button" className={className} onClick={() => command.run('convert')} disabled={busyAction === 'convert'}>
      {busyAction === 'convert' ? 'Converting...' : 'Convert to Invoice'}
    </button>
  ));
  add('accept', answerable && doc.status !== 'accepted', (className) => (
    <button type="button" className={className} onClick={() => command.run('accept')} disabled={busyAction === 'accept'}>
      Accept Quote
    </button>
  ));
  add('decline', openQuote, (className) => (
    <button type="button" className={className} onClick={() => confirmThen('Mark this quote as declined?', 'decline')} disabled={busyAction === 'decline'}>
      Decline Quote
    </button>
  ));
  add('credit', canCredit(doc), (className) => (
    <button type="button" className={className} aria-expanded={panel === 'credit'} onClick={() => onPanel(panel === 'credit' ? 'none' : 'credit')}>
      Credit
    </button>
  ));
  add('sync', canSync && !isQuote && !isVoid && !synced, (className) => (
    <button type="button" className={className} onClick={() => sync.run(doc.id)} disabled={sync.pendingId === doc.id}>
      {sync.pendingId === doc.id ? 'Syncing...' : `Sync to ${PROVIDER_NAME}`}
    </button>
  ));
  add('duplicate', Boolean(edits.duplicate), () => edits.duplicate);
  add('remove', Boolean(edits.remove), () => edits.remove);
  add('void', !isVoid && !paid && doc.converted_to === null && !(doc.credited > 0), (className) => (
    <button type="button" className={className} onClick={() => confirmThen(voidConfirmText({ ...doc, reference }), 'void')} disabled={busyAction === 'void'}>
      {busyAction === 'void' ? 'Voiding...' : 'Void'}
    </button>
  ));

  const wanted = primaryActionOf(doc, view);
  const primary = actions.find((a) => a.key === wanted) ?? null;
  const rest = actions.filter((a) => a !== primary);

  return (
    <>
      <div className="detail__actions">
        {primary && <div className="detail__primary">{primary.render('button button--accent button--large button--block')}</div>}
        <div className="action-grid" role="group" aria-label="Actions">
          <button type="button" className="button button--secondary" onClick={() => void viewPdf()} disabled={pdfBusy} aria-busy={pdfBusy}>
            {pdfBusy ? 'Opening...' : 'View PDF'}
          </button>
          {rest.length > 0 && (
            <button type="button" className="button button--secondary" aria-expanded={moreOpen} aria-controls={moreId} onClick={() => setMoreOpen((o) => !o)}>
              {moreOpen ? 'Fewer actions' : 'More actions'}
            </button>
          )}
        </div>
        {moreOpen && rest.length > 0 && (
          <div id={moreId} className="action-grid detail__more" role="group" aria-label="More actions">
            {rest.map((a) => (
              <Fragment key={a.key}>{a.render(MORE_CLASS[a.key] ?? 'button button--secondary')}</Fragment>
            ))}
          </div>
        )}
      </div>
      {edits.panel}
    </>
  );
}
