// The invoice detail's Reminders part: whether the automatic payment reminders are on for this
// invoice, Pause / Resume, and a reminder sent now. Shown for an issued invoice with money owing.
import './reminders-part.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DocumentDetail, DocumentTimeline, OverdueSummary } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { ReminderSendButton } from '../shared/ReminderSendButton.tsx';
import { invalidateDocuments, timelineQuery } from './queries.ts';
import { invalidateReminders, overdueQuery, REMINDER_TEXT, setRemindersPaused } from '../shared/reminders.ts';

/** Statuses of an invoice that has gone to the client and can still be owed money. */
const REMINDABLE = new Set(['issued', 'sent', 'partial', 'overdue']);

/** Whether the part shows: an invoice that has been issued or sent, with money owing. */
export const hasReminders = (doc: Pick<DocumentDetail, 'type' | 'status' | 'balance'>): boolean => doc.type === 'invoice' && REMINDABLE.has(doc.status) && doc.balance > 0;

/**
 * Whether this invoice's reminders are paused, from what the server has said: the detail itself when
 * it carries the flag; else the last pause or resume in the invoice's timeline (its own history);
 * else the Overdue list's item for it; null when none of them says.
 */
export function pausedFromServer(
  doc: DocumentDetail,
  timeline: DocumentTimeline | undefined,
  overdue: { items: { document_id: string; reminders_paused: boolean }[] } | undefined,
): boolean | null {
  const own = (doc as DocumentDetail & { reminders_paused?: unknown }).reminders_paused;
  if (typeof own === 'boolean') return own;
  const last = timeline?.entries.filter((e) => e.kind === 'reminders_paused' || e.kind === 'reminders_resumed').at(-1);
  if (last) return last.kind === 'reminders_paused';
  const item = overdue?.items.find((i) => i.document_id === doc.id);
  return item ? item.reminders_paused : null;
}

/** The part, for an invoice it applies to (nothing otherwise). */
export function RemindersPart({ doc }: { doc: DocumentDetail }) {
  return hasReminders(doc) ? <RemindersCard doc={doc} /> : null;
}

function RemindersCard({ doc }: { doc: DocumentDetail }) {
  const queryClient = useQueryClient();
  const overdue = useQuery(overdueQuery(api));
  const timeline = useQuery(timelineQuery(api, doc.id));
  // The state the last Pause / Resume here left it in: it stands until the server says otherwise.
  const [lastSet, setLastSet] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (paused: boolean) => setRemindersPaused(api, doc.id, paused).then(() => paused),
    onSuccess: (paused) => {
      setLastSet(paused);
      queryClient.setQueryData<OverdueSummary>(overdueQuery(api).queryKey, (prev) =>
        prev ? { ...prev, items: prev.items.map((i) => (i.document_id === doc.id ? { ...i, reminders_paused: paused } : i)) } : prev,
      );
      void invalidateReminders(queryClient);
      void invalidateDocuments(queryClient);
    },
  });
  const server = pausedFromServer(doc, timeline.data, overdue.data);
  // Right after a change, while the server's answers reload, the change stands.
  const reloading = timeline.isFetching || overdue.isFetching;
  const paused = (reloading && lastSet !== null ? lastSet : server) ?? lastSet ?? false;

  return (
    <Card titleId="detail-reminders-title" title="Reminders" className="reminders-part">
      <p className="reminders-part__state" data-testid="reminders-state">
        {paused ? REMINDER_TEXT.pausedForInvoice : REMINDER_TEXT.onForInvoice}
      </p>
      <div className="reminders-part__actions">
        <button
          type="button"
          className="button button--ghost button--compact reminders-part__toggle"
          onClick={() => toggle.mutate(!paused)}
          disabled={toggle.isPending}
          aria-busy={toggle.isPending}
        >
          {paused ? REMINDER_TEXT.resume : REMINDER_TEXT.pause}
        </button>
        <ReminderSendButton documentId={doc.id} />
      </div>
      {toggle.isError && (
        <p className="callout callout--error" role="alert">
          {errorDetail(toggle.error) ?? 'Could not change the reminders for this invoice'}
        </p>
      )}
    </Card>
  );
}
