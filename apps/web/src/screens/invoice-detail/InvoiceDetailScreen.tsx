import './detail.css';
import { useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { Notice, useNotice } from '../../ui/Toast.tsx';
import { invalidateDocuments } from '../shared/documents.ts';
import { BackLink } from './BackLink.tsx';
import { DetailActions, type Panel } from './DetailActions.tsx';
import { LineItemsCard } from './LineItemsCard.tsx';
import { PaymentForm } from './PaymentForm.tsx';
import { PaymentHistory } from './PaymentHistory.tsx';
import { documentDetailQuery, recordPayment, sendDocument } from './queries.ts';
import { SendHistory } from './SendHistory.tsx';
import { SendPanel } from './SendPanel.tsx';
import { SummaryCard } from './SummaryCard.tsx';
import { detailView } from './view.ts';

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

/** One loaded quote or invoice: its parts in order, the open form (send or payment) and the notice. */
function Detail({ doc }: { doc: DocumentDetail }) {
  const queryClient = useQueryClient();
  const { notice, show, clear } = useNotice();
  const [panel, setPanel] = useState<Panel>('none');
  const view = detailView(doc);
  const { isQuote, isVoid } = view;

  return (
    <section className="screen detail" aria-labelledby="detail-title">
      <BackLink />
      <h1 id="detail-title" className="eyebrow detail__heading">
        Invoice Detail
      </h1>

      <SummaryCard doc={doc} view={view} />

      <DetailActions doc={doc} view={view} panel={panel} onPanel={setPanel} show={show} />

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

      <LineItemsCard doc={doc} isQuote={isQuote} />

      {!isQuote && <PaymentHistory doc={doc} isVoid={isVoid} show={show} />}

      <SendHistory sends={doc.sends} />

      <Notice notice={notice} onClose={clear} />
    </section>
  );
}
