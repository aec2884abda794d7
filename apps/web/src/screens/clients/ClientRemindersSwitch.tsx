// 'No reminders for this client': this client's invoices get no automatic payment reminders.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { SavedSwitch } from '../shared/SavedSwitch.tsx';
import { clientRemindersQuery, invalidateReminders, REMINDER_TEXT, setClientNoReminders } from '../shared/reminders.ts';

export function ClientRemindersSwitch({ clientId }: { clientId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(clientRemindersQuery(api, clientId));
  const save = useCommand({
    failed: 'Could not change the reminders for this client',
    run: (noReminders: boolean) => setClientNoReminders(api, clientId, noReminders).then(() => noReminders),
    onDone: (noReminders) => {
      queryClient.setQueryData(clientRemindersQuery(api, clientId).queryKey, { no_reminders: noReminders });
      void invalidateReminders(queryClient);
    },
  });
  return (
    <SavedSwitch
      query={query}
      saved={query.data?.no_reminders}
      save={save}
      label={REMINDER_TEXT.noReminders}
      hintId="client-reminders-hint"
      hint={(checked) => (checked ? 'Automatic payment reminders are not sent to this client.' : 'Overdue invoices for this client get the automatic payment reminders.')}
    />
  );
}
