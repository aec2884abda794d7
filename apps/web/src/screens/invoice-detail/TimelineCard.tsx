// What happened to the quote or invoice, oldest first: made, sent, link opened, accepted, paid…
// And the summary's line for a quote the client accepted online.
import { useQuery } from '@tanstack/react-query';
import type { DocumentTimeline } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { RetryAlert } from '../../ui/Status.tsx';
import { nzDateTime, nzDay } from '../shared/nzTime.ts';
import { timelineQuery } from './queries.ts';

type Entry = DocumentTimeline['entries'][number];

export function TimelineCard({ id }: { id: string }) {
  const query = useQuery(timelineQuery(api, id));
  if (query.isPending) return null;
  return (
    <Card titleId="detail-timeline-title" title="Timeline">
      {query.isError ? (
        <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the timeline'}</RetryAlert>
      ) : query.data.entries.length === 0 ? (
        <p className="detail__empty">Nothing yet.</p>
      ) : (
        <ol className="detail-timeline">
          {query.data.entries.map((e, i) => (
            <li key={i} className={`detail-timeline__item detail-timeline__item--${e.kind}`}>
              <span className="detail-timeline__text">{e.text}</span>
              <time className="detail-timeline__at" dateTime={e.at}>
                {nzDateTime(e.at)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** 'Accepted by Jo Bloggs on 26 November 2026' when the client accepted online (the last acceptance). */
export function acceptedText(entries: readonly Entry[]): string | null {
  const accepted = [...entries].reverse().find((e) => e.kind === 'accepted');
  // 'Accepted by Jo Bloggs', 'Accepted by Jo Bloggs (signed)'; a quote the tradie marked accepted says otherwise.
  const online = accepted ? /^Accepted by (.+?)( \(signed\))?$/.exec(accepted.text) : null;
  if (!accepted || !online) return null;
  return `Accepted by ${online[1]} on ${nzDay(accepted.at)}${online[2] ?? ''}`;
}

/** The summary's line for an online acceptance of a sent quote (`sentQuote`); null otherwise, or until the timeline says so. */
export function useOnlineAcceptance(id: string, sentQuote: boolean): string | null {
  const query = useQuery({ ...timelineQuery(api, id), enabled: sentQuote });
  return sentQuote && query.data ? acceptedText(query.data.entries) : null;
}
