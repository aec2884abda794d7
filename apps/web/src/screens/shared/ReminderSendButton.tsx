// 'Send reminder now' for one invoice, with what happened in words under it: 'Reminder sent to …'
// only when a mail server took it; the API's own words when it went to the outbox or was refused.
import './reminder-send.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorDetail } from '../../api/client.ts';
import { invalidateDocuments } from './queries.ts';
import { invalidateReminders, REMINDER_TEXT, sendOutcomeText, sendReminderNow } from './reminders.ts';
import { ErrorAlert } from '../../ui/Status.tsx';

interface Props {
  documentId: string;
  /** Said to screen readers after the button's words: which invoice ('INV-0004'). */
  reference?: string;
  className?: string;
}

export function ReminderSendButton({ documentId, reference, className }: Props) {
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () => sendReminderNow(api, documentId),
    onSettled: () => {
      void invalidateReminders(queryClient);
      void invalidateDocuments(queryClient);
    },
  });
  const outcome = send.data ? sendOutcomeText(send.data) : null;
  return (
    <div className={['reminder-send', className ?? ''].filter(Boolean).join(' ')}>
      <button type="button" className="button button--secondary button--compact reminder-send__button" onClick={() => send.mutate()} disabled={send.isPending} aria-busy={send.isPending}>
        {send.isPending ? REMINDER_TEXT.sending : REMINDER_TEXT.sendNow}
        {reference && !send.isPending && <span className="visually-hidden"> for {reference}</span>}
      </button>
      <div role="status" className="reminder-send__result">
        {outcome && (
          <p className={`callout ${outcome.delivered ? 'callout--success' : 'callout--warning'} reminder-send__text`}>
            {outcome.text}
          </p>
        )}
      </div>
      <ErrorAlert message={send.isError && (errorDetail(send.error) ?? 'Could not send the reminder')} className="reminder-send__text" />
    </div>
  );
}
