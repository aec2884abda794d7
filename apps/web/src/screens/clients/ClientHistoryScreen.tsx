import './clients.css';
import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { clientDisplayName, formatNzDate } from '@tradie/domain';
import type { ClientDocument, ClientHistory } from '@tradie/contracts';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { PaymentBadge, StatusChip } from '../../ui/Chip.tsx';
import { nzd } from './clientForm.ts';
import { ClientRemindersSwitch } from './ClientRemindersSwitch.tsx';
import { ClientPaymentClaimsSwitch } from '../payment-claims/ClientPaymentClaimsSwitch.tsx';
import { clientHistoryQuery } from './queries.ts';
import { LoadingBlock, RetryAlert } from '../../ui/Status.tsx';

/** /app/clients/$id: one client's quotes and invoices, what they came to and what is still owed. */
export function ClientHistoryScreen() {
  const { id } = useParams({ from: '/app/clients/$id' });
  const history = useQuery(clientHistoryQuery(api, id));

  return (
    <section className="screen client-history" aria-labelledby="client-history-title">
      <Link to="/app/clients" className="back-link client-history__back">
        <span aria-hidden="true">←</span> Clients
      </Link>

      {history.isPending && (
        <>
          <h1 id="client-history-title" className="screen-title">
            Client history
          </h1>
          <LoadingBlock />
        </>
      )}

      {history.isError && (
        <>
          <h1 id="client-history-title" className="screen-title">
            {isApiError(history.error) && history.error.status === 404 ? 'Client not found' : 'Client history'}
          </h1>
          {isApiError(history.error) && history.error.status === 404 ? (
            <p>This client is not in your client book. It may have been deleted.</p>
          ) : (
            <RetryAlert link onRetry={() => void history.refetch()} busy={history.isFetching}>
              Error: {errorDetail(history.error) ?? 'Failed to load client history'}
            </RetryAlert>
          )}
        </>
      )}

      {history.data && <HistoryBody history={history.data} />}
    </section>
  );
}

function HistoryBody({ history }: { history: ClientHistory }) {
  const { client, documents, summary } = history;
  const contact = [client.email, client.phone].filter((s) => s !== '');
  return (
    <>
      <h1 id="client-history-title" className="screen-title client-history__title">
        {clientDisplayName(client)}
      </h1>
      {contact.length > 0 && <p className="screen__subtitle client-history__contact">{contact.join(' · ')}</p>}
      <ClientRemindersSwitch clientId={client.id} />
      <ClientPaymentClaimsSwitch clientId={client.id} />

      <h2 className="client-history__heading">Summary</h2>
      <dl className="stats history-summary">
        {[
          { label: 'Invoiced', amount: summary.invoiced_total },
          { label: 'Paid', amount: summary.paid_total },
          { label: 'Balance owing', amount: summary.outstanding_balance, attention: summary.outstanding_balance > 0 },
          { label: 'Overdue', amount: summary.overdue_balance },
        ].map((stat) => (
          <div key={stat.label} className={stat.attention ? 'stat stat--attention' : 'stat'}>
            <dt className="stat__label">{stat.label}</dt>
            <dd className="stat__value">{nzd(stat.amount)}</dd>
          </div>
        ))}
      </dl>
      <p className="client-history__counts">
        {countOf(summary.invoice_count, 'invoice')} · {countOf(summary.quote_count, 'quote')}
      </p>

      <h2 className="client-history__heading">Quotes and invoices</h2>
      {documents.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">No quotes or invoices yet</p>
          <p>Quotes and invoices made for this client will show here.</p>
        </div>
      ) : (
        <ul className="history-list">
          {documents.map((d) => (
            <HistoryRow key={d.id} doc={d} />
          ))}
        </ul>
      )}
    </>
  );
}

const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function HistoryRow({ doc }: { doc: ClientDocument }) {
  const invoice = doc.type === 'invoice';
  return (
    <li>
      <Link to="/app/invoices/$id" params={{ id: doc.id }} className="card card--item card--link history-row">
        <span className="history-row__top">
          <span className="history-row__ref">{doc.reference}</span>
          <span className="chip-row">
            <StatusChip status={doc.status} />
            {/* The same chips as the invoice list: the status, and for an invoice its payment badge. */}
            {invoice && doc.status !== 'void' && <PaymentBadge status={doc.payment_status} />}
          </span>
        </span>
        <span className="history-row__meta">
          {invoice ? 'Invoice' : 'Quote'} · {formatNzDate(doc.issue_date)}
          {invoice && doc.paid_date && ` · Paid ${formatNzDate(doc.paid_date)}`}
        </span>
        <span className="history-row__money">
          <span>
            <span className="history-row__label">Total</span> {nzd(doc.total)}
          </span>
          {invoice && doc.status !== 'void' && (
            <span className={doc.balance > 0 ? 'history-row__owing' : undefined}>
              <span className="history-row__label">Balance owing</span> {nzd(doc.balance)}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
