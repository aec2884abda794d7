import './detail.css';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzd, formatNzdPrice, formatNzDate, nzDateOf, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@tradie/domain';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { useMarkPaid, useSyncToAccounting } from '../invoices/actions.ts';
import {
  acceptQuote,
  centsOf,
  markIssued,
  convertQuote,
  declineQuote,
  documentDetailQuery,
  documentKeys,
  fetchPdf,
  invalidateDocuments,
  isSynced,
  PROVIDER_NAME,
  recordPayment,
  referenceOf,
  removePayment,
  sendDocument,
  voidDocument,
} from '../invoices/documents.ts';
import { Notice, useNotice } from '../../ui/Toast.tsx';
import { PaymentBadge, StatusChip, SyncedBadge, TypeChip } from '../invoices/parts.tsx';
import { PaymentForm } from './PaymentForm.tsx';
import { SendPanel } from './SendPanel.tsx';
import { voidConfirmText } from './voidText.ts';

type Panel = 'none' | 'send' | 'payment';
type Action = 'convert' | 'void' | 'accept' | 'decline' | 'issue';


const money = (n: number): string => formatNzd(centsOf(n));

export function InvoiceDetailScreen() {
  const { id } = useParams({ from: '/app/invoices/$id' });
  const query = useQuery(documentDetailQuery(api, id));

  if (query.isPending) {
    return (
      <section className="screen detail" aria-labelledby="detail-title">
        <h1 id="detail-title" className="eyebrow detail__heading">
          Invoice Detail
        </h1>
        <div className="loading-row loading-row--centre" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading...</span>
        </div>
      </section>
    );
  }

  if (query.isError) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <section className="screen detail" aria-labelledby="detail-title">
        <BackLink />
        <h1 id="detail-title" className="eyebrow detail__heading">
          Invoice Detail
        </h1>
        <div className="callout callout--error callout--action" role="alert">
          <span>{missing ? 'This quote or invoice was not found. It may have been deleted.' : (errorDetail(query.error) ?? 'Failed to load this document')}</span>
          {!missing && (
            <button type="button" className="button button--ghost button--compact" onClick={() => void query.refetch()}>
              Retry
            </button>
          )}
        </div>
      </section>
    );
  }

  return <Detail key={query.data.id} doc={query.data} />;
}

function BackLink() {
  return (
    <Link to="/app/invoices" className="back-link">
      <span aria-hidden="true">←</span> Invoices &amp; Quotes
    </Link>
  );
}

function Detail({ doc }: { doc: DocumentDetail }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { notice, show, clear } = useNotice();
  const [panel, setPanel] = useState<Panel>('none');
  const [pdfBusy, setPdfBusy] = useState(false);
  const markPaid = useMarkPaid(show);
  const sync = useSyncToAccounting(show);
  const objectUrls = useRef<string[]>([]);

  useEffect(
    () => () => {
      for (const u of objectUrls.current) URL.revokeObjectURL(u);
    },
    [],
  );

  const isQuote = doc.type === 'quote';
  const reference = referenceOf(doc);
  const isVoid = doc.status === 'void';
  const paid = doc.payment_status === 'paid';
  const synced = isSynced(doc.extra_data);
  const openQuote = isQuote && !isVoid && doc.converted_to === null && doc.status !== 'declined';
  const isDraftInvoice = !isQuote && !isVoid && doc.issued_on === null;

  const afterChange = (updated?: DocumentDetail) => {
    if (updated) queryClient.setQueryData(documentKeys.detail(updated.id), updated);
    void invalidateDocuments(queryClient);
  };

  const command = useMutation({
    mutationFn: async (action: Action) => {
      switch (action) {
        case 'issue':
          return markIssued(api, doc.id);
        case 'convert':
          return convertQuote(api, doc.id);
        case 'void':
          return voidDocument(api, doc.id);
        case 'accept':
          return acceptQuote(api, doc.id);
        case 'decline':
          return declineQuote(api, doc.id);
      }
    },
    onSuccess: async (updated, action) => {
      if (action === 'convert') {
        queryClient.setQueryData(documentKeys.detail(updated.id), updated);
        void invalidateDocuments(queryClient);
        await navigate({ to: '/app/invoices/$id', params: { id: updated.id } });
        return;
      }
      afterChange(updated);
      const said = {
        void: `${reference} is now void`,
        accept: 'Quote marked as accepted',
        decline: 'Quote marked as declined',
        issue: `${reference} is marked issued: it now counts in your GST report`,
      } as const;
      show(said[action]);
    },
    onError: (e) => show(errorDetail(e) ?? 'Something went wrong', 'error'),
  });

  const paymentRemoval = useMutation({
    mutationFn: (paymentId: string) => removePayment(api, doc.id, paymentId),
    onSuccess: (updated) => {
      afterChange(updated);
      show('Payment removed');
    },
    onError: (e) => show(errorDetail(e) ?? 'Could not remove the payment', 'error'),
  });

  // The PDF needs the bearer header, so it is fetched as a blob and opened from an object URL. The
  // window is opened in the tap itself (pop-up blockers allow that), then pointed at the PDF.
  const viewPdf = async () => {
    if (pdfBusy) return;
    const win = window.open('', '_blank');
    setPdfBusy(true);
    try {
      const blob = await fetchPdf(api, doc.id);
      const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
      objectUrls.current.push(url);
      if (win && !win.closed) win.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      win?.close();
      show(errorDetail(e) ?? 'Could not open the PDF', 'error');
    } finally {
      setPdfBusy(false);
    }
  };

  const confirmThen = (text: string, action: Action) => {
    if (window.confirm(text)) command.mutate(action);
  };

  const confirmRemovePayment = (paymentId: string) => {
    if (window.confirm('Remove this payment?')) paymentRemoval.mutate(paymentId);
  };

  const busyAction = command.isPending ? command.variables : null;
  const dueLabel = isQuote ? 'Valid until' : 'Due';
  const dueDate = isQuote ? doc.valid_until : doc.due_date;

  return (
    <section className="screen detail" aria-labelledby="detail-title">
      <BackLink />
      <h1 id="detail-title" className="eyebrow detail__heading">
        Invoice Detail
      </h1>

      <header className="card detail__summary">
        <div className="detail__ref-row">
          <p className="detail__ref">{reference}</p>
          <span className="chip-row">
            <TypeChip type={doc.type} />
            <StatusChip status={doc.status} />
            {!isQuote && <PaymentBadge status={doc.payment_status} />}
            {synced && <SyncedBadge />}
          </span>
        </div>
        <p className="detail__client">
          {doc.client_name || 'No client'}
          {doc.client?.email && <span className="detail__client-email">{doc.client.email}</span>}
        </p>
        <dl className="detail__dates">
          <div>
            <dt>Issued</dt>
            <dd>{formatNzDate(doc.issue_date)}</dd>
          </div>
          {dueDate && (
            <div>
              <dt>{dueLabel}</dt>
              <dd>{formatNzDate(dueDate)}</dd>
            </div>
          )}
          {doc.paid_date && (
            <div>
              <dt>Paid</dt>
              <dd>{formatNzDate(doc.paid_date)}</dd>
            </div>
          )}
        </dl>
        <div className="detail__amounts">
          <div>
            <span className="detail__amount-label">Total</span>
            <span className="detail__amount" data-testid="detail-total">
              {doc.formatted.total}
            </span>
          </div>
          {!isQuote && (
            <div>
              <span className="detail__amount-label">Balance</span>
              <span className={`detail__amount${doc.balance === 0 ? ' detail__amount--clear' : ''}`} data-testid="detail-balance">
                {doc.formatted.balance}
              </span>
            </div>
          )}
        </div>
        {doc.converted_to && (
          <p className="callout callout--success detail__note">
            Converted to an invoice.{' '}
            <Link to="/app/invoices/$id" params={{ id: doc.converted_to }}>
              View the invoice
            </Link>
          </p>
        )}
        {doc.converted_from && (
          <p className="callout detail__note">
            Made from a quote.{' '}
            <Link to="/app/invoices/$id" params={{ id: doc.converted_from }}>
              View the quote
            </Link>
          </p>
        )}
        {isVoid && <p className="callout callout--warning detail__note">Void{doc.void_reason ? `: ${doc.void_reason}` : ''}</p>}
        {doc.accounting?.difference && (
          <p className="callout callout--warning detail__note" role="status" data-testid="accounting-difference">
            {doc.accounting.difference}. Check the invoice in {PROVIDER_NAME} before you rely on either figure.
          </p>
        )}
        {isDraftInvoice && (
          <p className="callout detail__note" data-testid="draft-note">
            Draft: not in your GST report until it is sent, marked issued or paid. Handed it over on site or printed it? Mark it issued.
          </p>
        )}
      </header>

      <div className="detail__actions" role="group" aria-label="Actions">
        <button type="button" className="button button--secondary" onClick={() => void viewPdf()} disabled={pdfBusy} aria-busy={pdfBusy}>
          {pdfBusy ? 'Opening...' : 'View PDF'}
        </button>
        {!isVoid && doc.converted_to === null && doc.status !== 'declined' && (
          <button type="button" className="button button--accent" aria-expanded={panel === 'send'} onClick={() => setPanel(panel === 'send' ? 'none' : 'send')}>
            Send
          </button>
        )}
        {isDraftInvoice && (
          <button type="button" className="button button--secondary" onClick={() => command.mutate('issue')} disabled={busyAction === 'issue'}>
            {busyAction === 'issue' ? 'Saving...' : 'Mark as issued'}
          </button>
        )}
        {!isQuote && !isVoid && !paid && (
          <button type="button" className="button button--primary" aria-expanded={panel === 'payment'} onClick={() => setPanel(panel === 'payment' ? 'none' : 'payment')}>
            Record payment
          </button>
        )}
        {!isQuote && !isVoid && !paid && (
          <button type="button" className="button button--secondary" onClick={() => markPaid.run(doc.id)} disabled={markPaid.pendingId === doc.id}>
            {markPaid.pendingId === doc.id ? 'Saving...' : 'Mark Paid'}
          </button>
        )}
        {openQuote && (
          <button type="button" className="button button--primary" onClick={() => command.mutate('convert')} disabled={busyAction === 'convert'}>
            {busyAction === 'convert' ? 'Converting...' : 'Convert to Invoice'}
          </button>
        )}
        {openQuote && doc.status !== 'accepted' && (
          <button type="button" className="button button--secondary" onClick={() => command.mutate('accept')} disabled={busyAction === 'accept'}>
            Accept Quote
          </button>
        )}
        {openQuote && (
          <button type="button" className="button button--ghost" onClick={() => confirmThen('Mark this quote as declined?', 'decline')} disabled={busyAction === 'decline'}>
            Decline Quote
          </button>
        )}
        {!isQuote && !isVoid && !synced && (
          <button type="button" className="button button--ghost" onClick={() => sync.run(doc.id)} disabled={sync.pendingId === doc.id}>
            {sync.pendingId === doc.id ? 'Syncing...' : `Sync to ${PROVIDER_NAME}`}
          </button>
        )}
        {!isVoid && !paid && doc.converted_to === null && (
          <button type="button" className="button button--danger" onClick={() => confirmThen(voidConfirmText({ ...doc, reference }), 'void')} disabled={busyAction === 'void'}>
            {busyAction === 'void' ? 'Voiding...' : 'Void'}
          </button>
        )}
      </div>

      {panel === 'send' && (
        <SendPanel
          doc={doc}
          onSend={(key) => sendDocument(api, doc.id, key)}
          onSent={(result) => {
            setPanel('none');
            void invalidateDocuments(queryClient);
            show(`${isQuote ? 'Quote' : 'Invoice'} sent to ${[...result.to, ...result.cc].join(', ')}`);
          }}
          onCancel={() => setPanel('none')}
        />
      )}

      {panel === 'payment' && (
        <PaymentForm
          balance={doc.balance}
          onSubmit={(body, key) => recordPayment(api, doc.id, body, key)}
          onDone={(amount) => {
            setPanel('none');
            void invalidateDocuments(queryClient);
            show(`Payment of $${amount} recorded`);
          }}
          onCancel={() => setPanel('none')}
        />
      )}

      <section className="card" aria-labelledby="detail-lines-title">
        <h2 id="detail-lines-title" className="card__title">
          Line items
        </h2>
        <ul className="detail-lines">
          {doc.line_items.map((l, i) => (
            <li key={i} className="detail-lines__item">
              <span className="detail-lines__desc">{l.description}</span>
              <span className="detail-lines__calc">
                {String(l.qty)} × {formatNzdPrice(l.unit_price)}
                {l.tax_rate === 0 ? ' · no GST' : ''}
              </span>
              <span className="detail-lines__amount">{money(l.amount)}</span>
            </li>
          ))}
        </ul>
        <dl className="figures detail__figures">
          <div className="figures__row">
            <dt>Subtotal</dt>
            <dd data-testid="detail-subtotal">{doc.formatted.subtotal}</dd>
          </div>
          <div className="figures__row">
            <dt>GST</dt>
            <dd data-testid="detail-gst">{doc.formatted.gst}</dd>
          </div>
          <div className="figures__row figures__row--total">
            <dt>Total {doc.gst === 0 ? '(excl. GST)' : '(incl. GST)'}</dt>
            <dd>{doc.formatted.total}</dd>
          </div>
          {!isQuote && (
            <>
              <div className="figures__row">
                <dt>Paid</dt>
                <dd data-testid="detail-paid">{doc.formatted.paid}</dd>
              </div>
              <div className="figures__row figures__row--total">
                <dt>Balance</dt>
                <dd>{doc.formatted.balance}</dd>
              </div>
            </>
          )}
        </dl>
        {doc.notes && <p className="detail__notes">{doc.notes}</p>}
      </section>

      {!isQuote && (
        <section className="card" aria-labelledby="detail-payments-title">
          <h2 id="detail-payments-title" className="card__title">
            Payment history
          </h2>
          {doc.payments.length === 0 ? (
            <p className="detail__empty">No payments recorded yet.</p>
          ) : (
            <ul className="detail-payments">
              {doc.payments.map((p) => (
                <li key={p.id} className="detail-payments__item">
                  <span className="detail-payments__main">
                    <span className="detail-payments__amount">{money(p.amount)}</span>
                    <span className="detail-payments__meta">
                      {formatNzDate(p.date)} · {PAYMENT_METHOD_LABELS[p.method as PaymentMethod] ?? p.method}
                      {p.reference ? ` · ${p.reference}` : ''}
                    </span>
                  </span>
                  {!isVoid && (
                    <button
                      type="button"
                      className="button button--danger button--compact"
                      onClick={() => confirmRemovePayment(p.id)}
                      disabled={paymentRemoval.isPending && paymentRemoval.variables === p.id}
                    >
                      Remove<span className="visually-hidden"> payment of {money(p.amount)} on {formatNzDate(p.date)}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {doc.sends.length > 0 && (
        <section className="card" aria-labelledby="detail-sends-title">
          <h2 id="detail-sends-title" className="card__title">
            Emails sent
          </h2>
          <ul className="detail-sends">
            {doc.sends.map((s, i) => (
              <li key={i}>
                To {s.to.join(', ')}
                {s.cc.length > 0 ? `, CC ${s.cc.join(', ')}` : ''}
                {s.at ? ` · ${formatNzDate(nzDateOf(s.at))}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}
