// 'No reminders for this client': this client's invoices get no automatic payment reminders.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorDetail } from '../../api/client.ts';
import { SwitchField } from '../../ui/SwitchField.tsx';
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
  // The switch moves in the same render as the tap (a controlled checkbox would otherwise snap back
  // until the mutation's pending state arrives), and goes back to the server's answer when it settles.
  const [wanted, setWanted] = useState<boolean | null>(null);
  if (query.isError) return null;
  const checked = wanted ?? (save.isPending ? save.variables : (query.data?.no_reminders ?? false));
  return (
    <SwitchField
      label={REMINDER_TEXT.noReminders}
      hintId="client-reminders-hint"
      hint={checked ? 'Automatic payment reminders are not sent to this client.' : 'Overdue invoices for this client get the automatic payment reminders.'}
      checked={checked}
      disabled={query.isPending || save.isPending}
      onChange={(on) => {
        setWanted(on);
        save.mutate(on, { onSettled: () => setWanted(null) });
      }}
      error={save.isError && (errorDetail(save.error) ?? 'Could not change the reminders for this client')}
    />
  );
}
