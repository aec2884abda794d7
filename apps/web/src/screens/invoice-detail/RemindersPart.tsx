// The invoice detail's Reminders part: what the reminders will actually do for this invoice (the
// next automatic one and when, or why none will go), Pause / Resume, and a reminder sent now —
// its button off, with the server's reason, when the server would refuse it. Shown for an issued
// invoice with money owing.
import './reminders-part.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DocumentDetail } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { useCommand } from '../shared/command.ts';
import { ReminderSendButton } from '../shared/ReminderSendButton.tsx';
import { automaticReminderText, invalidateReminders, invoiceRemindersQuery, REMINDER_TEXT, setRemindersPaused } from '../shared/reminders.ts';
import { invalidateDocuments } from '../shared/queries.ts';

/** Statuses of an invoice that has gone to the client and can still be owed money. */
const REMINDABLE = new Set(['issued', 'sent', 'partial', 'overdue']);

/**
 * Whether the part shows: an invoice that has been issued or sent, with money owing, and not voided
 * in Xero (no reminder goes for it, so there is no Send reminder either).
 */
export const hasReminders = (doc: Pick<DocumentDetail, 'type' | 'status' | 'balance' | 'extra_data'>): boolean =>
  doc.type === 'invoice' && REMINDABLE.has(doc.status) && doc.balance > 0 && !doc.extra_data['voided_in'];

/** The part, for an invoice it applies to (nothing otherwise). */
export function RemindersPart({ doc }: { doc: DocumentDetail }) {
  return hasReminders(doc) ? <RemindersCard doc={doc} /> : null;
}

function RemindersCard({ doc }: { doc: DocumentDetail }) {
  const queryClient = useQueryClient();
  const status = useQuery(invoiceRemindersQuery(api, doc.id));
  // The state the last Pause / Resume here left it in: it stands while the server's answer reloads.
  const [lastSet, setLastSet] = useState<boolean | null>(null);
  const toggle = useCommand({
    run: (paused: boolean) => setRemindersPaused(api, doc.id, paused).then(() => paused),
    failed: 'Could not change the reminders for this invoice',
    onDone: (paused) => {
      setLastSet(paused);
      void invalidateReminders(queryClient);
      void invalidateDocuments(queryClient);
    },
  });
  const data = status.data;
  const reloading = status.isFetching && lastSet !== null;
  const paused = reloading ? lastSet : (data?.paused ?? lastSet ?? false);
  const text = reloading ? (lastSet ? REMINDER_TEXT.pausedForInvoice : REMINDER_TEXT.resumedForInvoice) : data ? automaticReminderText(data.automatic) : null;

  return (
    <Card titleId="detail-reminders-title" title="Reminders" className="reminders-part">
      <p className="reminders-part__state" data-testid="reminders-state">
        {text ?? (status.isError ? (errorDetail(status.error) ?? 'Could not load the reminders for this invoice') : 'Loading…')}
      </p>
      <div className="reminders-part__actions">
        <button
          type="button"
          className="button button--ghost button--compact reminders-part__toggle"
          onClick={() => toggle.run(!paused)}
          disabled={toggle.pending}
          aria-busy={toggle.pending}
        >
          {paused ? REMINDER_TEXT.resume : REMINDER_TEXT.pause}
        </button>
        <ReminderSendButton
          documentId={doc.id}
          blockedReason={data?.send_now.reason ?? null}
          subject={reloading ? null : (data?.send_now.subject ?? null)}
        />
      </div>
      {toggle.error && (
        <p className="callout callout--error" role="alert">
          {toggle.error}
        </p>
      )}
    </Card>
  );
}
