// /q/{token}: the client's quote, opened from the tradie's email or text without signing in. They
// read it, and accept (name, terms, optional signature), decline or ask for changes; once accepted,
// they approve or decline each variation of it (ClientVariations), the quote itself unchanged.
import './client-links.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { CLIENT_LINK_MESSAGES, DECLINE_REASON_LABELS, type PublicQuotePage } from '@tradie/contracts';
import { api as browserApi } from '../../api/client.ts';
import { BankTransfer, BusinessHeader, businessName, ClientFrame, ClientLoading, DocumentCard, DocumentHeading, LinkProblem, longDay, nzLongDate, useDocumentTitle } from './parts.tsx';
import { ClientVariations } from './ClientVariations.tsx';
import { AcceptForm, OtherAnswers } from './QuoteAnswers.tsx';
import { publicQuoteQuery, type PublicApi } from './queries.ts';
import { useViewBeacon } from './useViewBeacon.ts';

/** The route's screen. */
export function ClientQuotePage() {
  const { token } = useParams({ from: '/q/$token' });
  const navigate = useNavigate();
  return <QuotePage api={browserApi} token={token} goTo={(path) => void navigate({ to: path })} />;
}

/** `goTo`: on to the deposit invoice's page (/i/{token}) once accepting issued it and it can be paid by card there. */
export function QuotePage({ api, token, goTo }: { api: PublicApi; token: string; goTo?: (path: string) => void }) {
  const queryClient = useQueryClient();
  const options = publicQuoteQuery(api, token);
  const query = useQuery(options);
  useViewBeacon(token, query.isSuccess);
  useDocumentTitle(query.data?.document, query.data?.business);

  if (query.isPending) return <ClientLoading label="Quote" />;
  if (query.isError) return <LinkProblem error={query.error} onRetry={() => void query.refetch()} />;

  const page = query.data;
  const answerable = page.state === 'open' || page.state === 'changes_requested';
  const onAnswered = (next: PublicQuotePage) => {
    queryClient.setQueryData(options.queryKey, next);
    // Accepted with a deposit to pay by card: straight on to Pay now.
    const deposit = next.deposit_invoice;
    if (answerable && next.state === 'accepted' && deposit?.pay_by_card && !deposit.paid) goTo?.(deposit.path);
  };
  const onStale = () => void query.refetch();
  // Asked again, the page answers why the link stopped working, and shows it full page.
  const onGone = onStale;

  return (
    <ClientFrame label={`Quote ${page.document.reference}`}>
      <BusinessHeader business={page.business} />
      <DocumentHeading doc={page.document}>
        <QuoteState page={page} />
      </DocumentHeading>
      <DocumentCard doc={page.document} />
      {page.state === 'accepted' && <DepositToPay page={page} />}
      {answerable && (
        <>
          <AcceptForm api={api} token={token} page={page} onAnswered={onAnswered} onStale={onStale} onGone={onGone} />
          <OtherAnswers api={api} token={token} page={page} onAnswered={onAnswered} onStale={onStale} onGone={onGone} />
        </>
      )}
      <ClientVariations api={api} token={token} page={page} onAnswered={onAnswered} onStale={onStale} />
    </ClientFrame>
  );
}

/** Once accepted: the deposit invoice to pay (Pay now on its page, or the bank details here), paid, or still to come. */
function DepositToPay({ page }: { page: PublicQuotePage }) {
  const deposit = page.deposit_invoice;
  if (!deposit) {
    if (!page.deposit_pending) return null;
    return (
      <p className="callout client-state" role="status" data-testid="client-deposit-pending">
        {businessName(page.business)} will send you the deposit invoice.
      </p>
    );
  }
  if (deposit.paid) {
    return (
      <p className="callout callout--success client-state" role="status" data-testid="client-deposit-paid">
        Deposit paid ({deposit.reference}, {deposit.formatted.total}). Thank you!
      </p>
    );
  }
  const invoiceLink = (
    <a className={deposit.pay_by_card ? 'button button--accent button--large button--block' : 'text-link'} href={deposit.path}>
      {deposit.pay_by_card ? `Pay the deposit ${deposit.formatted.balance}` : `View the deposit invoice ${deposit.reference}`}
    </a>
  );
  return (
    <section className="client-deposit-due" data-testid="client-deposit-due" aria-labelledby="client-deposit-title">
      <h2 id="client-deposit-title" className="client-deposit-due__title">
        Your deposit: {deposit.formatted.balance}, due now
      </h2>
      <p className="card__intro">Deposit invoice {deposit.reference} is issued for your acceptance.</p>
      {deposit.pay_by_card ? invoiceLink : <BankTransfer bank={deposit.bank} business={page.business} amount={deposit.formatted.balance} reference={deposit.reference} titleId="client-deposit-bank-title" title="Pay the deposit by bank transfer" />}
      {!deposit.pay_by_card && <p className="client-deposit-due__link">{invoiceLink}</p>}
    </section>
  );
}

/** Where the quote stands, in words, under its heading. */
function QuoteState({ page }: { page: PublicQuotePage }) {
  if (page.state === 'accepted' && page.acceptance) {
    return (
      <p className="callout callout--success client-state" role="status" data-testid="quote-state">
        Accepted by {page.acceptance.signer_name} on {nzLongDate(page.acceptance.accepted_at)}
        {page.acceptance.signed ? ' (signed)' : ''}. Thank you!
      </p>
    );
  }
  if (page.state === 'declined') {
    const reasons = page.decline?.reasons.map((r) => DECLINE_REASON_LABELS[r]).join(', ');
    return (
      <p className="callout callout--warning client-state" role="status" data-testid="quote-state">
        {CLIENT_LINK_MESSAGES.alreadyDeclined}
        {page.decline ? ` (${nzLongDate(page.decline.declined_at)}${reasons ? `: ${reasons}` : ''})` : ''}
      </p>
    );
  }
  if (page.state === 'expired') {
    return (
      <p className="callout callout--warning client-state" role="status" data-testid="quote-state">
        This quote expired{page.document.valid_until ? ` on ${longDay(page.document.valid_until)}` : ''}. Please ask {businessName(page.business)} for a new one.
      </p>
    );
  }
  if (page.state === 'changes_requested') {
    return (
      <p className="callout client-state" role="status" data-testid="quote-state">
        You asked for changes. {businessName(page.business, true)} will be in touch; you can still accept this quote as it is.
      </p>
    );
  }
  return null;
}
