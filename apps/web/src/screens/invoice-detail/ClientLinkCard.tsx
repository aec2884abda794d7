// The client's link to a sent quote or invoice: copy it (or share it by text message), see whether
// the client has opened it, and withdraw it.
import './client-link.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ClientLinkRecord, DocumentDetail, DocumentTimeline } from '@tradie/contracts';
import { formatNzDate } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { RetryAlert } from '../../ui/Status.tsx';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { useCommand } from '../shared/command.ts';
import { nzDateTime } from '../shared/nzTime.ts';
import { clientLinkKeys, clientLinkQuery, issueClientLink, timelineQuery, withdrawClientLink } from './queries.ts';
import type { DetailView } from './view.ts';

/** Sent, or tried: out of the tradie's drafts and on its way to the client (a timeline has more than 'Created'). */
export const leftDraft = (doc: DocumentDetail): boolean => doc.status !== 'draft' || doc.send_attempts.length > 0;

/** A link is for a quote or invoice the client has been sent (or could be): not a draft never sent, not a void one. */
export const hasClientLink = (doc: DocumentDetail, view: DetailView): boolean => !view.isVoid && leftDraft(doc);

/** Whether the last link made for the document is still out (made, and not withdrawn since). */
export function activeLinkIn(entries: DocumentTimeline['entries']): boolean {
  const last = [...entries].reverse().find((e) => e.kind === 'link_issued' || e.kind === 'link_withdrawn');
  return last?.kind === 'link_issued';
}

/** How long 'Copied' stays on the button. */
const COPIED_MS = 2500;

interface Props {
  doc: DocumentDetail;
  view: DetailView;
  show: (text: string, tone?: NoticeTone) => void;
}

export function ClientLinkCard({ doc, view, show }: Props) {
  const queryClient = useQueryClient();
  // Asked for only while the timeline says a link is out: a document without one is not asked (its 404 would be noise).
  const timeline = useQuery(timelineQuery(api, doc.id));
  const linkOut = timeline.data ? activeLinkIn(timeline.data.entries) : false;
  const query = useQuery({ ...clientLinkQuery(api, doc.id), enabled: linkOut });
  const [copied, setCopied] = useState(false);
  // When the clipboard is refused: the address, selected, for a long press to copy.
  const [manual, setManual] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const noun = view.isQuote ? 'quote' : 'invoice';
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const remember = (link: ClientLinkRecord) => queryClient.setQueryData(clientLinkKeys.link(doc.id), link);
  const refreshTimeline = () => void queryClient.invalidateQueries({ queryKey: clientLinkKeys.timeline(doc.id) });

  /** Copy link and Share: the link is made (or the one out is given again) and kept, then handed on. */
  const issueThen = (handOn: (link: ClientLinkRecord) => Promise<void>) => ({
    run: () => issueClientLink(api, doc.id),
    failed: 'Could not make the link',
    onDone: async (link: ClientLinkRecord) => {
      remember(link);
      refreshTimeline();
      await handOn(link);
    },
    onFailed: (message: string) => show(message, 'error'),
  });

  const copy = useCommand(
    issueThen(async (link) => {
      try {
        await navigator.clipboard.writeText(link.url);
        setManual(null);
        setCopied(true);
        show(`Link to ${view.reference} copied`);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_MS);
      } catch {
        setManual(link.url);
      }
    }),
  );

  const share = useCommand(
    issueThen(async (link) => {
      try {
        await navigator.share({ title: `${view.isQuote ? 'Quote' : 'Invoice'} ${view.reference}`, text: `Your ${noun} ${view.reference}`, url: link.url });
      } catch {
        // Closed without sharing: nothing to say.
      }
    }),
  );

  const withdraw = useCommand({
    run: () => withdrawClientLink(api, doc.id),
    failed: 'Could not withdraw the link',
    onDone: () => {
      queryClient.setQueryData(clientLinkKeys.link(doc.id), null);
      refreshTimeline();
      setManual(null);
      show('Link withdrawn: it no longer opens');
    },
    onFailed: (message) => show(message, 'error'),
  });

  const confirmWithdraw = () => {
    if (window.confirm(`Withdraw the link to ${view.reference}? Your client will no longer be able to open it. Copy link makes a new one.`)) withdraw.run();
  };

  const link = query.data ?? null;
  const busy = copy.pending || share.pending || withdraw.pending;

  return (
    <Card titleId="detail-link-title" title="Client link" className="client-link">
      <p className="card__intro">
        Your client opens the {noun} on their phone without signing in{view.isQuote ? ', and can accept it there' : ', and can pay it there'}.
      </p>
      {query.isError && <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the link'}</RetryAlert>}
      {link && (
        <dl className="facts client-link__facts" data-testid="client-link-facts">
          <div>
            <dt>Opened</dt>
            <dd>{link.views === 0 ? 'Not yet' : link.views === 1 ? 'Once' : `${link.views} times`}</dd>
          </div>
          {link.last_viewed_at && (
            <div>
              <dt>Last opened</dt>
              <dd>{nzDateTime(link.last_viewed_at)}</dd>
            </div>
          )}
          <div>
            <dt>Works until</dt>
            <dd>{formatNzDate(link.expires_on)}</dd>
          </div>
        </dl>
      )}
      {(query.isSuccess || (timeline.isSuccess && !linkOut)) && !link && <p className="detail__empty">No link yet. Copy link makes one.</p>}
      {manual && (
        <div className="field">
          <label className="field__label" htmlFor="detail-link-url">
            Press and hold to copy the link
          </label>
          <input id="detail-link-url" className="input" readOnly value={manual} onFocus={(e) => e.target.select()} autoFocus />
        </div>
      )}
      <div className="client-link__buttons">
        <button type="button" className="button button--primary" onClick={() => copy.run()} disabled={busy} aria-busy={copy.pending}>
          {copied ? 'Copied ✓' : copy.pending ? 'Copying...' : 'Copy link'}
        </button>
        {canShare && (
          <button type="button" className="button button--secondary" onClick={() => share.run()} disabled={busy}>
            Share…
          </button>
        )}
        {link && (
          <button type="button" className="button button--ghost client-link__withdraw" onClick={confirmWithdraw} disabled={busy}>
            Withdraw link
          </button>
        )}
      </div>
    </Card>
  );
}
