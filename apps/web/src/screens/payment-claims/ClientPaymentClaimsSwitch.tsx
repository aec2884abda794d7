// 'Construction client': this client's new invoices start as payment claims under the Construction
// Contracts Act 2002 (with the details suggested from the quote or the claim before).
import './payment-claims.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorDetail } from '../../api/client.ts';
import { SwitchField } from '../../ui/SwitchField.tsx';
import { clientPaymentClaimsQuery, setClientPaymentClaims } from './queries.ts';

export function ClientPaymentClaimsSwitch({ clientId }: { clientId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(clientPaymentClaimsQuery(api, clientId));
  const save = useMutation({
    mutationFn: (on: boolean) => setClientPaymentClaims(api, clientId, on),
    onSuccess: (answer) => queryClient.setQueryData(clientPaymentClaimsQuery(api, clientId).queryKey, answer),
  });
  // The switch moves in the same render as the tap (a controlled checkbox would otherwise snap back
  // until the mutation's pending state arrives), and goes back to the server's answer when it settles.
  const [wanted, setWanted] = useState<boolean | null>(null);
  if (query.isError) return null;
  const checked = wanted ?? (save.isPending ? save.variables : (query.data?.payment_claims ?? false));
  return (
    <SwitchField
      label="Construction client"
      hintId="client-claims-hint"
      hint={
        checked
          ? 'New invoices for this client start as payment claims under the Construction Contracts Act 2002.'
          : 'Turn on for construction work: new invoices then start as payment claims under the Construction Contracts Act 2002.'
      }
      checked={checked}
      disabled={query.isPending || save.isPending}
      onChange={(on) => {
        setWanted(on);
        save.mutate(on, { onSettled: () => setWanted(null) });
      }}
      error={save.isError && (errorDetail(save.error) ?? 'Could not change this client')}
    />
  );
}
