import './detail.css';
import { useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { DocumentDetail, SendDocumentInput, SendResult } from '@tradie/contracts';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { newIdempotencyKey } from '../shared/documents.ts';
import { Notice, useNotice } from '../../ui/Toast.tsx';
import { BackLink } from './BackLink.tsx';
import { ClientLinkCard, hasClientLink, leftDraft } from './ClientLinkCard.tsx';
import { DetailActions, type Panel } from './DetailActions.tsx';
import { LineItemsCard } from './LineItemsCard.tsx';
import { PriceBookMovesCard } from './PriceBookMovesCard.tsx';
import { JobProfitCard } from './JobProfitCard.tsx';
import { ProfitCard } from './ProfitCard.tsx';
import { PaymentForm } from './PaymentForm.tsx';
import { PaymentHistory } from './PaymentHistory.tsx';
import { RemindersPart } from './RemindersPart.tsx';
import { clientLinkKeys, liveDocumentDetailQuery, recordPayment, sendDocument } from './queries.ts';
import { SendHistory } from './SendHistory.tsx';
import { SendPanel } from './SendPanel.tsx';
import { PhotosCard } from './PhotosCard.tsx';
import { SummaryCard } from './SummaryCard.tsx';
import { TimelineCard, useOnlineAcceptance } from './TimelineCard.tsx';
import { detailView } from './view.ts';
import { StagesPart } from '../stages/StagesPart.tsx';
import { PaymentClaimPart } from '../payment-claims/PaymentClaimPart.tsx';
import { CreditForm } from '../credit-notes/CreditForm.tsx';
import { CreditNotesPart } from '../credit-notes/CreditNotesPart.tsx';
import { LoadingBlock, RetryAlert } from '../../ui/Status.tsx';
import { invalidateDocuments } from '../shared/queries.ts';

export function InvoiceDetailScreen() {
  const { id } = useParams({ from: '/app/invoices/$id' });
  const query = useQuery(liveDocumentDetailQuery(api, id));

  if (query.isPending) {
    return (
      <DetailScreen back={false}>
        <LoadingBlock largeSpinner />
      </DetailScreen>
    );
  }

  if (query.isError) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <DetailScreen>
        <RetryAlert onRetry={missing ? undefined : () => void query.refetch()}>
          {missing ? 'This quote or invoice was not found. It may have been deleted.' : (errorDetail(query.error) ?? 'Failed to load this document')}
        </RetryAlert>
      </DetailScreen>
    );
  }

  return <Detail key={query.data.id} doc={query.data} />;
}

/**
 * The screen's frame: the link back to the list (unless `back` is false) and the heading, which
 * names what it shows once that is known.
 */
function DetailScreen({ back = true, type, children }: { back?: boolean; type?: DocumentDetail['type']; children: ReactNode }) {
  return (
    <section className="screen detail" aria-labelledby="detail-title">
      {back && <BackLink />}
      <h1 id="detail-title" className="eyebrow detail__heading">
        {type === 'quote' ? 'Quote Detail' : type === 'invoice' ? 'Invoice Detail' : 'Quote or Invoice'}
      </h1>
      {children}
    </section>
  );
}

/** One loaded quote or invoice: its parts in order, the open form (send or payment) and the notice. */
function Detail({ doc }: { doc: DocumentDetail }) {
  const queryClient = useQueryClient();
  const { notice, show, clear } = useNotice();
  const [panel, setPanel] = useState<Panel>('none');
  // The credit note issued on this screen a moment ago: the Credit notes card shows it first.
  const [issuedNote, setIssuedNote] = useState<string | null>(null);
  const view = detailView(doc);
  const { isQuote, isVoid } = view;
  const noun = isQuote ? 'Quote' : 'Invoice';
  const acceptedOnline = useOnlineAcceptance(doc.id, isQuote && leftDraft(doc));

  // The document changed (the live refresh brought the client's answer or card payment, or a
  // command here): the timeline and the link's views follow, unless already on their way.
  const shown = useRef(doc);
  useEffect(() => {
    if (shown.current === doc) return;
    shown.current = doc;
    for (const queryKey of [clientLinkKeys.timeline(doc.id), clientLinkKeys.link(doc.id)]) void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
  }, [doc, queryClient]);

  // What a send did, in words: 'sent' only when a mail server took it (docs/api/documents.md).
  const announceSend = (result: SendResult) => {
    void invalidateDocuments(queryClient);
    if (result.outcome === 'delivered') show(`${noun} sent to ${[...result.to, ...result.cc].join(', ')}`);
    else show(result.detail ?? 'Saved to the outbox — email is not set up on this server', 'info');
  };
  // A refused send is recorded on the document too: reload it to show the attempt.
  const send = (key: string, body?: SendDocumentInput) =>
    sendDocument(api, doc.id, key, body).catch((e: unknown) => {
      void invalidateDocuments(queryClient);
      throw e;
    });
  const tryAgain = async () => {
    try {
      announceSend(await send(newIdempotencyKey()));
    } catch (e) {
      show(errorDetail(e) ?? `Could not send the ${noun.toLowerCase()}`, 'error');
    }
  };

  return (
    <DetailScreen type={doc.type}>
      <SummaryCard doc={doc} view={view} acceptedOnline={acceptedOnline} />

      <DetailActions doc={doc} view={view} panel={panel} onPanel={setPanel} show={show} />

      {panel === 'send' && (
        <SendPanel
          doc={doc}
          onSend={send}
          onSent={(result) => {
            setPanel('none');
            announceSend(result);
          }}
          onCancel={() => setPanel('none')}
        />
      )}

      {panel === 'payment' && (
        <PaymentForm
          balance={doc.balance}
          onSubmit={(body, key) => recordPayment(api, doc.id, body, key)}
          onDone={(amount, warning) => {
            setPanel('none');
            void invalidateDocuments(queryClient);
            if (warning) show(`Payment of $${amount} recorded. ${warning}`, 'info');
            else show(`Payment of $${amount} recorded`);
          }}
          onCancel={() => setPanel('none')}
        />
      )}

      {panel === 'credit' && (
        <CreditForm
          doc={doc}
          onDone={(note) => {
            setPanel('none');
            setIssuedNote(note.id);
            show(`Credit note ${note.reference} for ${note.formatted.total} issued`);
          }}
          onCancel={() => setPanel('none')}
        />
      )}

      <CreditNotesPart doc={doc} issuedId={issuedNote} show={show} />

      <StagesPart doc={doc} show={show} />

      <PaymentClaimPart doc={doc} />

      {hasClientLink(doc, view) && <ClientLinkCard doc={doc} view={view} show={show} />}

      <PriceBookMovesCard doc={doc} show={show} />
      <LineItemsCard doc={doc} isQuote={isQuote} />
      <PhotosCard doc={doc} show={show} />
      <ProfitCard doc={doc} />
      <JobProfitCard doc={doc} />

      {!isQuote && <PaymentHistory doc={doc} isVoid={isVoid} synced={view.synced} show={show} />}
      <RemindersPart doc={doc} />

      <SendHistory attempts={doc.send_attempts} onRetry={isVoid ? undefined : tryAgain} />

      {leftDraft(doc) && <TimelineCard id={doc.id} />}

      <Notice notice={notice} onClose={clear} />
    </DetailScreen>
  );
}
