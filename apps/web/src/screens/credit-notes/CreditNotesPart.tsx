// The invoice's Credit notes card: each credit note with its number, date, amount and reason, what
// it credited, its PDF, 'Email to client' with what happened to each email (delivered, or only kept
// in the outbox, or refused), and 'Record refund' while the invoice owes the client money back. The one
// just issued stands out and is brought into view.
import './credit-notes.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { CreditNoteRecord, DocumentDetail } from '@tradie/contracts';
import { formatNzDate, nzDateOf } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { RetryAlert } from '../../ui/Status.tsx';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { money } from '../invoice-detail/view.ts';
import { sendOutcomeText } from '../invoice-detail/SendHistory.tsx';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { usePdfWindow } from '../shared/pdfWindow.ts';
import { creditedWhat, creditNoteSendNotice, refundable } from './creditNotes.ts';
import { creditNoteKeys, creditNotesQuery, fetchCreditNotePdf, sendCreditNote } from './queries.ts';
import { RefundForm } from './RefundForm.tsx';
import { invalidateDocuments } from '../shared/queries.ts';

interface Props {
  doc: DocumentDetail;
  /** The credit note issued a moment ago on this screen. */
  issuedId: string | null;
  show: (text: string, tone?: NoticeTone) => void;
}

/** The card, for an invoice with credit notes (nothing otherwise). */
export function CreditNotesPart(props: Props) {
  return props.doc.type === 'invoice' && props.doc.credited > 0 ? <CreditNotesCard {...props} /> : null;
}

function CreditNotesCard({ doc, issuedId, show }: Props) {
  const query = useQuery(creditNotesQuery(api, doc.id));
  const [refunding, setRefunding] = useState<string | null>(null);

  return (
    <Card titleId="detail-credit-notes-title" title="Credit notes" className="credit-notes">
      <dl className="figures credit-notes__figures">
        <div className="figures__row">
          <dt>Credited</dt>
          <dd data-testid="credit-notes-credited">{money(doc.credited)}</dd>
        </div>
        {doc.to_refund > 0 && (
          <div className="figures__row">
            <dt>Owed back to the client</dt>
            <dd data-testid="credit-notes-to-refund">{money(doc.to_refund)}</dd>
          </div>
        )}
      </dl>
      {query.isPending ? (
        <p className="detail__empty">Loading credit notes...</p>
      ) : query.isError ? (
        <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the credit notes'}</RetryAlert>
      ) : (
        <ul className="credit-notes__list">
          {query.data.map((note) => (
            <CreditNoteItem
              key={note.id}
              note={note}
              justIssued={note.id === issuedId}
              canRefund={refundable(note, doc.to_refund) > 0}
              refunding={refunding === note.id}
              onRefund={(open) => setRefunding(open ? note.id : null)}
              toRefund={doc.to_refund}
              invoiceId={doc.id}
              show={show}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}

interface ItemProps {
  note: CreditNoteRecord;
  justIssued: boolean;
  canRefund: boolean;
  refunding: boolean;
  onRefund: (open: boolean) => void;
  toRefund: number;
  invoiceId: string;
  show: (text: string, tone?: NoticeTone) => void;
}

function CreditNoteItem({ note, justIssued, canRefund, refunding, onRefund, toRefund, invoiceId, show }: ItemProps) {
  const ref = useRef<HTMLLIElement>(null);
  // As the invoice's own PDF; the object URL is let go a minute later.
  const { busy: pdfBusy, open: viewPdf } = usePdfWindow(
    () => fetchCreditNotePdf(api, note.id),
    show,
    (url) => setTimeout(() => URL.revokeObjectURL(url), 60_000),
  );

  useEffect(() => {
    if (justIssued) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [justIssued]);

  // Emailing it: one email per tap (the same Idempotency-Key until it is answered), and the notice
  // says what happened to it — 'emailed' only when a mail server took it.
  const queryClient = useQueryClient();
  const { keyFor, forget } = useIdempotencyKeys();
  const [sending, setSending] = useState(false);
  const email = async () => {
    if (sending) return;
    setSending(true);
    try {
      const result = await sendCreditNote(api, note.id, keyFor('send', note.id));
      forget('send');
      queryClient.setQueryData<CreditNoteRecord[]>(creditNoteKeys.list(invoiceId), (list) => list?.map((n) => (n.id === note.id ? result.credit_note : n)));
      // The invoice's timeline has the email now too.
      void invalidateDocuments(queryClient);
      const notice = creditNoteSendNotice(note.reference, result);
      show(notice.text, notice.tone);
    } catch (err) {
      forget('send');
      show(errorDetail(err) ?? `Could not email credit note ${note.reference}`, 'error');
      void invalidateDocuments(queryClient);
    } finally {
      setSending(false);
    }
  };

  return (
    <li ref={ref} className={`credit-notes__item${justIssued ? ' credit-notes__item--new' : ''}`} data-testid={`credit-note-${note.reference}`} aria-label={`Credit note ${note.reference}`}>
      {justIssued && <p className="credit-notes__new">Credit note {note.reference} issued</p>}
      <div className="credit-notes__head">
        <span className="credit-notes__ref">{note.reference}</span>
        <span className="credit-notes__total">{note.formatted.total}</span>
      </div>
      <p className="credit-notes__meta">
        {formatNzDate(note.date)} · {note.reason}
      </p>
      <p className="credit-notes__what">
        {creditedWhat(note)} · GST {note.formatted.gst}
        {note.refunded > 0 ? ` · ${note.formatted.refunded} refunded` : ''}
      </p>
      {note.sends.length > 0 && (
        <ul className="credit-notes__sends" aria-label={`Emails of ${note.reference}`}>
          {note.sends.map((x, i) => (
            <li key={i} className={x.outcome === 'delivered' ? undefined : 'credit-notes__send--not-delivered'}>
              To {[...x.to, ...x.cc].join(', ')}
              {x.at ? ` · ${formatNzDate(nzDateOf(x.at))}` : ''} · {sendOutcomeText(x)}
            </li>
          ))}
        </ul>
      )}
      <div className="credit-notes__actions">
        <button type="button" className="button button--ghost button--compact" onClick={() => void viewPdf()} disabled={pdfBusy} aria-busy={pdfBusy}>
          {pdfBusy ? 'Opening...' : 'PDF'}
          <span className="visually-hidden"> of credit note {note.reference}</span>
        </button>
        <button type="button" className="button button--secondary button--compact" onClick={() => void email()} disabled={sending} aria-busy={sending}>
          {sending ? 'Emailing...' : note.sends.some((x) => x.outcome === 'delivered') ? 'Email again' : 'Email to client'}
          <span className="visually-hidden"> credit note {note.reference}</span>
        </button>
        {canRefund && (
          <button type="button" className="button button--secondary button--compact" aria-expanded={refunding} onClick={() => onRefund(!refunding)}>
            Record refund<span className="visually-hidden"> on {note.reference}</span>
          </button>
        )}
      </div>
      {refunding && canRefund && (
        <RefundForm
          note={note}
          max={refundable(note, toRefund)}
          invoiceId={invoiceId}
          onDone={(amount) => {
            onRefund(false);
            show(`Refund of ${amount} recorded on ${note.reference}`);
          }}
          onCancel={() => onRefund(false)}
        />
      )}
    </li>
  );
}
