// 'No reminders for this client': this client's invoices get no automatic payment reminders.
import './client-reminders.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorDetail } from '../../api/client.ts';
import { clientRemindersQuery, invalidateReminders, REMINDER_TEXT, setClientNoReminders } from '../shared/reminders.ts';

export function ClientRemindersSwitch({ clientId }: { clientId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(clientRemindersQuery(api, clientId));
  const save = useMutation({
    mutationFn: (noReminders: boolean) => setClientNoReminders(api, clientId, noReminders).then(() => noReminders),
    onSuccess: (noReminders) => {
      queryClient.setQueryData(clientRemindersQuery(api, clientId).queryKey, { no_reminders: noReminders });
      void invalidateReminders(queryClient);
    },
  });
  if (query.isError) return null;
  const checked = save.isPending ? save.variables : (query.data?.no_reminders ?? false);
  return (
    <div className="client-reminders">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={query.isPending || save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
          aria-describedby="client-reminders-hint"
        />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">{REMINDER_TEXT.noReminders}</span>
      </label>
      <p id="client-reminders-hint" className="field__hint">
        {checked ? 'Automatic payment reminders are not sent to this client.' : 'Overdue invoices for this client get the automatic payment reminders.'}
      </p>
      {save.isError && (
        <p className="callout callout--error" role="alert">
          {errorDetail(save.error) ?? 'Could not change the reminders for this client'}
        </p>
      )}
    </div>
  );
}
