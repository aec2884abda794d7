// 'Send reminder now' for one invoice, with what happened in words under it: 'Reminder sent to …'
// only when a mail server took it; the API's own words when it went to the outbox or was refused.
// When the server has said it would refuse one now (paused, no reminders for the client, one a
// day, the account's sending limits), the button is off and says why, in the server's words.
import './reminder-send.css';
import { useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { useCommand } from './command.ts';
import { invalidateDocuments } from './queries.ts';
import { invalidateReminders, REMINDER_TEXT, sendOutcomeText, sendReminderNow } from './reminders.ts';
import { ErrorAlert } from '../../ui/Status.tsx';

interface Props {
  documentId: string;
  /** Said to screen readers after the button's words: which invoice ('INV-0004'). */
  reference?: string;
  className?: string;
  /** Why the server would refuse a reminder now: the button is off and this shows beside it. */
  blockedReason?: string | null;
  /** The subject the reminder would have, shown under the button when it can be sent. */
  subject?: string | null;
}

export function ReminderSendButton({ documentId, reference, className, blockedReason, subject }: Props) {
  const whyId = useId();
  const queryClient = useQueryClient();
  const reload = () => {
    void invalidateReminders(queryClient);
    void invalidateDocuments(queryClient);
  };
  const send = useCommand({ run: () => sendReminderNow(api, documentId), failed: 'Could not send the reminder', onDone: reload, onFailed: reload });
  const outcome = send.result ? sendOutcomeText(send.result) : null;
  return (
    <div className={['reminder-send', className ?? ''].filter(Boolean).join(' ')}>
      <button
        type="button"
        className="button button--secondary button--compact reminder-send__button"
        onClick={() => send.run()}
        disabled={send.pending || Boolean(blockedReason)}
        aria-busy={send.pending}
        aria-describedby={blockedReason || subject ? whyId : undefined}
      >
        {send.pending ? REMINDER_TEXT.sending : REMINDER_TEXT.sendNow}
        {reference && !send.pending && <span className="visually-hidden"> for {reference}</span>}
      </button>
      {blockedReason ? (
        <p id={whyId} className="reminder-send__why" data-testid="reminder-send-why">
          {blockedReason}
        </p>
      ) : (
        subject && (
          <p id={whyId} className="reminder-send__why">
            {REMINDER_TEXT.willBeHeaded(subject)}
          </p>
        )
      )}
      <div role="status" className="reminder-send__result">
        {outcome && (
          <p className={`callout ${outcome.delivered ? 'callout--success' : 'callout--warning'} reminder-send__text`}>
            {outcome.text}
          </p>
        )}
      </div>
      <ErrorAlert message={send.error} className="reminder-send__text" />
    </div>
  );
}
