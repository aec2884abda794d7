import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzDate } from '@tradie/domain';
import { InvoiceStateBadges, SyncedBadge } from '../shared/parts.tsx';
import { VoidedInXeroCallout } from './VoidedInXeroCallout.tsx';
import { AccountingCallout } from './AccountingCallout.tsx';
import { AccountingPushCallout } from './AccountingPushCallout.tsx';
import { accountingPushQuery } from './queries.ts';
import { api } from '../../api/client.ts';
import { money, type DetailView } from './view.ts';
import { AddressLines } from '../../ui/AddressLines.tsx';
import { PaymentBadge, StatusChip, TypeChip } from '../../ui/Chip.tsx';

/**
 * The detail's header card: the reference with its chips, the client, the dates, the total and
 * balance, then what the tradie should know about it (accepted online, converted, void, draft, a Xero
 * difference, changes Xero does not have yet).
 */
export function SummaryCard({ doc, view, acceptedOnline }: { doc: DocumentDetail; view: DetailView; acceptedOnline?: string | null }) {
  const { isQuote, reference, isVoid, synced, isDraftInvoice } = view;
  // The same query as the callout below (one request): the badge turns amber while Xero is behind.
  const push = useQuery({ ...accountingPushQuery(api, doc.id), enabled: synced && !isQuote });
  const dueLabel = isQuote ? 'Valid until' : 'Due';
  const dueDate = isQuote ? doc.valid_until : doc.due_date;

  return (
    <header className="card detail__summary">
      <div className="detail__ref-row">
        <p className="detail__ref">{reference}</p>
        <span className="chip-row">
          <TypeChip type={doc.type} label={doc.title} />
          <StatusChip status={doc.status} />
          {!isQuote && !isVoid && <InvoiceStateBadges status={doc.payment_status} extra={doc.extra_data} />}
          {!isQuote && isVoid && <PaymentBadge status={doc.payment_status} />}
          {synced && <SyncedBadge behind={Boolean(push.data?.last_error)} />}
        </span>
      </div>
      <p className="detail__client">
        {doc.client_name || 'No client'}
        {doc.client?.email && <span className="detail__client-email">{doc.client.email}</span>}
      </p>
      {(doc.job_title || doc.site_address) && (
        <dl className="facts detail__job">
          {doc.job_title && (
            <div>
              <dt>Job</dt>
              <dd data-testid="detail-job-title">{doc.job_title}</dd>
            </div>
          )}
          {doc.site_address && (
            <div>
              <dt>Site</dt>
              <dd data-testid="detail-site-address">
                <AddressLines address={doc.site_address} />
              </dd>
            </div>
          )}
        </dl>
      )}
      <dl className="facts detail__dates">
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
        {!isQuote && (
          <div>
            <dt>Payment terms</dt>
            <dd data-testid="detail-payment-terms">{doc.payment_terms_text}</dd>
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
        {!isQuote && doc.credited > 0 && (
          <div>
            <span className="detail__amount-label">Credited</span>
            <span className="detail__amount" data-testid="detail-summary-credited">
              {money(doc.credited)}
            </span>
          </div>
        )}
      </div>
      {acceptedOnline && (
        <p className="callout callout--success detail__note" data-testid="accepted-online">
          {acceptedOnline}
        </p>
      )}
      {isQuote && doc.deposit && <DepositNote doc={doc} deposit={doc.deposit} />}
      {doc.variations_summary && (
        <p className="callout detail__note" data-testid="detail-variations-summary">
          {doc.variations_summary}
        </p>
      )}
      {doc.converted_to && <LinkedNote className="callout callout--success detail__note" text="Converted to an invoice." id={doc.converted_to} link="View the invoice" />}
      {doc.converted_from && <LinkedNote className="callout detail__note" text="Made from a quote." id={doc.converted_from} link="View the quote" />}
      {isVoid && <p className="callout callout--warning detail__note">Void{doc.void_reason ? `: ${doc.void_reason}` : ''}</p>}
      <AccountingCallout doc={doc} />
      {!isQuote && <VoidedInXeroCallout doc={doc} />}
      {doc.gst_notice && (
        <p className="callout callout--warning detail__note" role="status" data-testid="gst-notice">
          {doc.gst_notice}
        </p>
      )}
      {!isQuote && <AccountingPushCallout doc={doc} synced={synced} />}
      {isDraftInvoice && (
        <p className="callout detail__note" data-testid="draft-note">
          Draft: not in your GST report until it is sent, marked issued or paid. Handed it over on site or printed it? Mark it issued.
        </p>
      )}
    </header>
  );
}

/**
 * The deposit the quote asks for; once accepted, its invoice (issued when the client accepted
 * online), or that it is still to invoice (accepted by hand, or it could not be issued then).
 */
function DepositNote({ doc, deposit }: { doc: DocumentDetail; deposit: NonNullable<DocumentDetail['deposit']> }) {
  const invoice = doc.stages?.invoices.find((i) => i.kind === 'deposit') ?? null;
  const accepted = doc.status === 'accepted';
  if (invoice) return <LinkedNote className="callout callout--success detail__note" text={`Deposit of ${money(invoice.total)} invoiced: ${invoice.reference}.`} id={invoice.id} link="View the deposit invoice" />;
  return (
    <p className={`callout detail__note${accepted ? ' callout--warning' : ''}`} data-testid="detail-deposit">
      {accepted ? `The deposit (${deposit.formatted}) is not invoiced yet: invoice it under Stages below.` : deposit.wording}
    </p>
  );
}

/** A note about the document this one was converted to or from, with a link to it. */
function LinkedNote({ className, text, id, link }: { className: string; text: string; id: string; link: string }) {
  return (
    <p className={className}>
      {text}{' '}
      <Link to="/app/invoices/$id" params={{ id }}>
        {link}
      </Link>
    </p>
  );
}
