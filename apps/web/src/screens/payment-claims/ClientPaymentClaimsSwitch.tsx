// 'Construction client': this client's new invoices start as payment claims under the Construction
// Contracts Act 2002 (with the details suggested from the quote or the claim before).
import './payment-claims.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { SavedSwitch } from '../shared/SavedSwitch.tsx';
import { clientPaymentClaimsQuery, setClientPaymentClaims } from './queries.ts';

export function ClientPaymentClaimsSwitch({ clientId }: { clientId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(clientPaymentClaimsQuery(api, clientId));
  const save = useCommand({
    failed: 'Could not change this client',
    run: (on: boolean) => setClientPaymentClaims(api, clientId, on),
    onDone: (answer) => queryClient.setQueryData(clientPaymentClaimsQuery(api, clientId).queryKey, answer),
  });
  return (
    <SavedSwitch
      query={query}
      saved={query.data?.payment_claims}
      save={save}
      label="Construction client"
      hintId="client-claims-hint"
      hint={(checked) =>
        checked
          ? 'New invoices for this client start as payment claims under the Construction Contracts Act 2002.'
          : 'Turn on for construction work: new invoices then start as payment claims under the Construction Contracts Act 2002.'
      }
    />
  );
}
