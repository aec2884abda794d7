// /app/calculator?edit={id}: the draft is loaded, then the calculator opens on it. A document that
// can no longer be changed (sent, issued, paid, void) is not opened: the screen says why, and links
// back to it, where its replacement ('Void and re-issue', Duplicate) is offered.
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { LoadingBlock, RetryAlert } from '../../ui/Status.tsx';
import { editability } from '../shared/documentEdits.ts';
import { referenceOf } from '../shared/documents.ts';
import { documentDetailQuery } from '../invoice-detail/queries.ts';


function GateScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="screen calc" aria-labelledby="calc-title">
      <h1 id="calc-title" className="screen-title">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** Renders `children` with the draft once it has loaded and can be edited. */
export function EditGate({ id, children }: { id: string; children: (doc: DocumentDetail) => ReactNode }) {
  const query = useQuery(documentDetailQuery(api, id));
  if (query.isPending) {
    return (
      <GateScreen title="Edit">
        <LoadingBlock largeSpinner />
      </GateScreen>
    );
  }
  if (query.isError) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <GateScreen title="Edit">
        <RetryAlert onRetry={missing ? undefined : () => void query.refetch()}>
          {missing ? 'This quote or invoice was not found. It may have been deleted.' : (errorDetail(query.error) ?? 'Failed to load this document')}
        </RetryAlert>
      </GateScreen>
    );
  }
  const doc = query.data;
  const can = editability(doc);
  if (!can.editable) {
    return (
      <GateScreen title={`Edit ${referenceOf(doc)}`}>
        <div className="callout callout--warning callout--action" role="status">
          <span>{can.reason}</span>
          <Link to="/app/invoices/$id" params={{ id: doc.id }} className="button button--secondary button--compact">
            Back to {referenceOf(doc)}
          </Link>
        </div>
      </GateScreen>
    );
  }
  return children(doc);
}
