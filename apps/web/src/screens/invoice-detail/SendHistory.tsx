import { useCommand } from '../shared/command.ts';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzDate, nzDateOf } from '@tradie/domain';
import { Card } from '../../ui/Card.tsx';

type Send = DocumentDetail['send_attempts'][number];

/** What happened to one email, in words. Only a delivered one sent the document. */
export function sendOutcomeText(s: Pick<Send, 'outcome' | 'detail'>): string {
  if (s.outcome === 'delivered') return 'Delivered';
  if (s.outcome === 'saved_not_delivered') return s.detail ?? 'Saved to the outbox — email is not set up on this server';
  return `Not delivered — ${s.detail ?? 'the mail server refused it'}`;
}

/**
 * Every attempt to email this document, with what happened to it (docs/api/documents.md, "Delivered or
 * not"); nothing until one was made. When the last one was not delivered, Try again sends it again.
 */
export function SendHistory({ attempts, onRetry }: { attempts: DocumentDetail['send_attempts']; onRetry?: (() => Promise<void>) | undefined }) {
  const retry = useCommand({ run: async () => onRetry?.() });
  const busy = retry.pending;
  if (attempts.length === 0) return null;
  const last = attempts[attempts.length - 1]!;
  return (
    <Card titleId="detail-sends-title" title="Emails">
      <ul className="detail-sends">
        {attempts.map((s, i) => (
          <li key={i}>
            To {s.to.join(', ')}
            {s.cc.length > 0 ? `, CC ${s.cc.join(', ')}` : ''}
            {s.at ? ` · ${formatNzDate(nzDateOf(s.at))}` : ''}
            <span className={s.outcome === 'delivered' ? 'detail-sends__outcome' : 'detail-sends__outcome detail-sends__outcome--not-delivered'}>{sendOutcomeText(s)}</span>
          </li>
        ))}
      </ul>
      {last.outcome !== 'delivered' && onRetry && (
        <div className="detail-form__buttons">
          <button type="button" className="button button--secondary" onClick={() => retry.run()} disabled={busy} aria-busy={busy}>
            {busy ? 'Sending...' : 'Try again'}
          </button>
        </div>
      )}
    </Card>
  );
}
