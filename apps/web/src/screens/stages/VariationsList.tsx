// The accepted quote's variations, each apart from the quote the client signed (docs/api/stages.md,
// "Variations"): its work and total, where it stands, and what the tradie can do with it — send it
// to the client (who approves or declines it on the quote's link), record the client's answer given
// in person, withdraw it, or once approved invoice it. What the server answers is said as it is:
// 'sent' only when a mail server took the email.
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DocumentDetail, VariationRecord } from '@tradie/contracts';
import { formatNzDate, nzDateOf } from '@tradie/domain';
import { api } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { LineItemsList } from '../shared/LineItemsList.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { money } from '../invoice-detail/view.ts';
import { answerVariation, invoiceStage, sendVariation } from './queries.ts';
import { applyDetailChange } from '../invoice-detail/queries.ts';
import { documentKeys, invalidateDocuments } from '../shared/queries.ts';

type Show = (text: string, tone?: NoticeTone) => void;

const CHIP: Record<VariationRecord['status'], string> = {
  awaiting_approval: 'chip chip--warning',
  approved: 'chip chip--success',
  declined: 'chip chip--danger',
  withdrawn: 'chip chip--muted',
};

/** Where it stands, in a line under its name. */
export function variationStanding(v: VariationRecord): string {
  const day = (at: string | null): string => (at ? ` on ${formatNzDate(nzDateOf(at))}` : '');
  switch (v.status) {
    case 'awaiting_approval': {
      const sent = v.send_attempts.filter((a) => a.outcome === 'delivered').at(-1);
      if (sent) return `Sent to ${sent.to.join(', ')}${day(sent.at)}: waiting for the client's answer`;
      // Nothing says 'sent' unless a mail server took it: the last attempt in its own words.
      const last = v.send_attempts.at(-1);
      return last ? `Not sent: ${last.detail ?? 'the email was not delivered'}. The client can still approve it on the quote's link.` : 'Not sent to the client yet';
    }
    case 'approved':
      return v.approved_by === 'client' ? `Approved by ${v.signer_name ?? 'the client'}${day(v.approved_at)}${v.signed ? ' (signed)' : ''}` : `Marked approved${day(v.approved_at)}`;
    case 'declined':
      return `${v.declined_by === 'client' ? 'Declined by the client' : 'Marked declined'}${day(v.declined_at)}${v.decline_note ? `: ${v.decline_note}` : ''}`;
    case 'withdrawn':
      return `Withdrawn${day(v.withdrawn_at)}`;
  }
}

export function VariationsList({ doc, active, show }: { doc: DocumentDetail; active: boolean; show: Show }) {
  if (doc.variations.length === 0) return null;
  return (
    <section className="stages__variations" aria-labelledby="stages-variations-title">
      <h3 id="stages-variations-title" className="stages__form-title">
        Variations
      </h3>
      {doc.variations_summary && (
        <p className="stages__variations-summary" data-testid="variations-summary">
          {doc.variations_summary}
        </p>
      )}
      <ul className="stages__variation-list">
        {doc.variations.map((v) => (
          <VariationItem key={v.id} doc={doc} v={v} active={active} show={show} />
        ))}
      </ul>
    </section>
  );
}

function VariationItem({ doc, v, active, show }: { doc: DocumentDetail; v: VariationRecord; active: boolean; show: Show }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { keyFor, forget } = useIdempotencyKeys();
  const [confirming, setConfirming] = useState<'approve' | 'decline' | 'withdraw' | null>(null);
  const awaiting = active && v.status === 'awaiting_approval';
  const sentBefore = v.send_attempts.some((a) => a.outcome === 'delivered');
  const to = doc.client?.email ?? '';

  const send = useCommand({
    run: () => sendVariation(api, doc.id, v.id, keyFor('send-variation', v.id)),
    failed: `Could not send ${v.name}`,
    onDone: (result) => {
      forget('send-variation');
      void invalidateDocuments(queryClient);
      if (result.outcome === 'delivered') show(`${v.name} sent to ${[...result.to, ...result.cc].join(', ')}`);
      else show(result.detail ?? 'Saved to the outbox — email is not set up on this server', 'info');
    },
    onFailed: (message) => {
      // A refused email is recorded on the variation: reload it to show the attempt.
      void invalidateDocuments(queryClient);
      show(message, 'error');
    },
  });
  const answer = useCommand({
    run: (what: 'approve' | 'decline' | 'withdraw') => answerVariation(api, doc.id, v.id, what),
    failed: `Could not change ${v.name}`,
    onDone: (quote, what) => {
      setConfirming(null);
      applyDetailChange(queryClient, quote);
      show(what === 'approve' ? `${v.name} marked approved: it can be invoiced now` : what === 'decline' ? `${v.name} marked declined` : `${v.name} withdrawn`);
    },
    onFailed: (message) => show(message, 'error'),
  });
  const invoice = useCommand({
    run: () => invoiceStage(api, doc.id, { kind: 'progress', variation_id: v.id }, keyFor('invoice-variation', v.id)),
    failed: `Could not invoice ${v.name}`,
    onDone: async (created) => {
      queryClient.setQueryData(documentKeys.detail(created.id), created);
      void invalidateDocuments(queryClient);
      await navigate({ to: '/app/invoices/$id', params: { id: created.id } });
    },
    onFailed: (message) => show(message, 'error'),
  });
  const busy = send.pending || answer.pending || invoice.pending;

  return (
    <li className="stages__variation-item" data-testid={`variation-${v.number}`}>
      <div className="stages__variation-head">
        <span className="stages__ref">{v.name}</span>
        <span className={CHIP[v.status]}>{v.status_label}</span>
        <span className="stages__total">{v.formatted.total}</span>
      </div>
      <p className="stages__kind">{variationStanding(v)}</p>
      {v.note && <p className="stages__variation-note">{v.note}</p>}
      <LineItemsList lines={v.line_items} />
      {v.status === 'approved' && v.invoiced > 0 && (
        <p className="stages__kind">
          Invoiced {money(v.invoiced)}
          {v.remaining > 0 ? `, ${money(v.remaining)} left` : ': all of it'}
        </p>
      )}
      {awaiting && confirming === null && (
        <div className="action-grid stages__variation-actions" role="group" aria-label={`${v.name}: what to do`}>
          <button type="button" className="button button--accent" onClick={() => send.run()} disabled={busy || !to} aria-busy={send.pending}>
            {send.pending ? 'Sending...' : sentBefore ? 'Send again' : 'Send to client'}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setConfirming('approve')} disabled={busy}>
            Mark approved
          </button>
          <button type="button" className="button button--ghost" onClick={() => setConfirming('decline')} disabled={busy}>
            Mark declined
          </button>
          <button type="button" className="button button--ghost" onClick={() => setConfirming('withdraw')} disabled={busy}>
            Withdraw
          </button>
        </div>
      )}
      {awaiting && !to && <p className="field__hint">Add an email address to the client to send it; the client approves it on the quote's link.</p>}
      {awaiting && confirming !== null && (
        <div className="callout stages__variation-confirm" role="group" aria-label={`Confirm: ${confirming} ${v.name}`}>
          <p>
            {confirming === 'approve'
              ? `Did the client agree to ${v.name} (${v.formatted.total}) in person or in writing? It can then be invoiced.`
              : confirming === 'decline'
                ? `Did the client turn ${v.name} down? It can't be invoiced then.`
                : `Withdraw ${v.name}? The client can no longer approve it.`}
          </p>
          <div className="detail-form__buttons">
            <button type="button" className="button button--primary" onClick={() => answer.run(confirming)} disabled={busy} aria-busy={answer.pending}>
              {confirming === 'approve' ? 'Yes, mark approved' : confirming === 'decline' ? 'Yes, mark declined' : 'Withdraw it'}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setConfirming(null)} disabled={busy}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {active && v.status === 'approved' && v.remaining > 0 && (
        <button type="button" className="button button--secondary stages__variation-invoice" onClick={() => invoice.run()} disabled={busy} aria-busy={invoice.pending}>
          {invoice.pending ? 'Invoicing...' : `Invoice ${v.name} (${money(v.remaining)})`}
        </button>
      )}
    </li>
  );
}
