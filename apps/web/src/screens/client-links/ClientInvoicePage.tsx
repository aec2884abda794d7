// /i/{token}: the client's invoice without signing in: what it is for, its credit notes (each with
// its amount, reason and PDF), what is paid and paid back, the balance, and how to pay (by card through the business's Stripe account, else the bank details). Back
// from Stripe Checkout (?paid=1) it thanks the client and checks a few times, further apart each
// time, until the payment has reached the invoice.
import './client-links.css';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { CLIENT_LINK_MESSAGES, type PublicInvoicePage } from '@tradie/contracts';
import { api as browserApi } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { BankTransfer, BusinessHeader, ClientFrame, ClientLoading, DocumentCard, DocumentHeading, LinkProblem, longDay, useDocumentTitle } from './parts.tsx';
import { PayPanel } from './PayPanel.tsx';
import { apiHref, publicInvoiceQuery, type PublicApi } from './queries.ts';
import { useViewBeacon } from './useViewBeacon.ts';

/** The waits between checks after a card payment (ms): five checks over about 45 seconds, then it stops. */
export const PAID_POLL_DELAYS = [1500, 3000, 6000, 12_000, 24_000] as const;

export const PAYMENT_CONFIRMING = 'Thank you — your payment is being confirmed';

/** The route's screen. */
export function ClientInvoicePage() {
  const { token } = useParams({ from: '/i/$token' });
  const { paid } = useSearch({ from: '/i/$token' });
  return <InvoicePage api={browserApi} token={token} returnedFromPayment={paid === 1} goTo={(url) => window.location.assign(url)} />;
}

interface InvoicePageProps {
  api: PublicApi;
  token: string;
  /** Back from Stripe Checkout. */
  returnedFromPayment: boolean;
  /** Leaves for Stripe Checkout. */
  goTo: (url: string) => void;
  /** The waits between checks after paying (tests make them short). */
  pollDelays?: readonly number[];
}

export function InvoicePage({ api, token, returnedFromPayment, goTo, pollDelays = PAID_POLL_DELAYS }: InvoicePageProps) {
  const query = useQuery(publicInvoiceQuery(api, token));
  useViewBeacon(token, query.isSuccess);
  useDocumentTitle(query.data?.document, query.data?.business);
  const polling = usePaidPolling(returnedFromPayment, query.data?.state, () => void query.refetch(), pollDelays);

  if (query.isPending) return <ClientLoading label="Invoice" />;
  if (query.isError) return <LinkProblem error={query.error} onRetry={() => void query.refetch()} />;

  const page = query.data;
  const paid = page.state === 'paid';
  const owing = page.document.balance > 0;
  return (
    <ClientFrame label={`Invoice ${page.document.reference}`}>
      <BusinessHeader business={page.business} />
      <DocumentHeading doc={page.document}>
        {paid ? (
          <p className="callout callout--success client-state" role="status" data-testid="invoice-state">
            {CLIENT_LINK_MESSAGES.paid}
          </p>
        ) : returnedFromPayment ? (
          <p className="callout client-state" role="status" data-testid="invoice-state">
            {PAYMENT_CONFIRMING}
            {polling ? '' : '. It can take a few minutes to show here.'}
          </p>
        ) : page.state === 'overdue' ? (
          <p className="callout callout--warning client-state" data-testid="invoice-state">
            This invoice was due on {longDay(page.document.due_date)}.
          </p>
        ) : null}
      </DocumentHeading>
      <DocumentCard doc={page.document} money={page.money} />
      <CreditNotes page={page} />
      <Payments page={page} />
      {!paid && owing && !returnedFromPayment && (page.pay ? <PayPanel api={api} token={token} page={page} goTo={goTo} onGone={() => void query.refetch()} /> : <BankDetails page={page} />)}
      {!paid && !owing && <p className="callout client-state">{CLIENT_LINK_MESSAGES.nothingToPay}</p>}
    </ClientFrame>
  );
}

/**
 * After Stripe Checkout: checks again after each wait in `delays` until the invoice is paid, then
 * stops. Returns whether checks are still to come.
 */
function usePaidPolling(active: boolean, state: PublicInvoicePage['state'] | undefined, refetch: () => void, delays: readonly number[]): boolean {
  const [round, setRound] = useState(0);
  const done = !active || state === 'paid' || round >= delays.length;
  const loaded = state !== undefined;
  useEffect(() => {
    if (done || !loaded) return undefined;
    const timer = setTimeout(() => {
      refetch();
      setRound((r) => r + 1);
    }, delays[round]);
    return () => clearTimeout(timer);
  }, [done, loaded, round, delays, refetch]);
  return !done;
}

/** Each credit note on the invoice: its number and date, what it took off and why, what was paid back on it, and its PDF. */
function CreditNotes({ page }: { page: PublicInvoicePage }) {
  if (page.credit_notes.length === 0) return null;
  return (
    <Card titleId="client-credit-notes-title" title="Credit notes" className="client-card">
      <ul className="row-list">
        {page.credit_notes.map((n) => (
          <li key={n.reference} className="row-list__item client-credit-note" data-testid="client-credit-note">
            <span className="client-credit-note__text">
              <span className="client-credit-note__ref">
                {n.reference} · {longDay(n.date)}
              </span>
              <span className="client-credit-note__reason">{n.reason}</span>
              {n.formatted.refunded && <span className="client-credit-note__reason">{n.formatted.refunded} paid back to you</span>}
              <a className="client-credit-note__pdf" href={apiHref(n.pdf_url)} download>
                Download the PDF<span className="visually-hidden"> of credit note {n.reference}</span>
              </a>
            </span>
            <span className="client-payments__amount">−{n.formatted.total}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Payments({ page }: { page: PublicInvoicePage }) {
  if (page.payments.length === 0) return null;
  return (
    <Card titleId="client-payments-title" title="Payments received" className="client-card">
      <ul className="row-list">
        {page.payments.map((p, i) => (
          <li key={i} className="row-list__item">
            <span>
              {longDay(p.date)}
              {p.method_label ? ` · ${p.method_label}` : ''}
            </span>
            <span className="client-payments__amount">{p.formatted}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function BankDetails({ page }: { page: PublicInvoicePage }) {
  return <BankTransfer bank={page.bank} business={page.business} amount={page.document.formatted.balance} reference={page.document.reference} titleId="client-bank-title" title="How to pay" />;
}
