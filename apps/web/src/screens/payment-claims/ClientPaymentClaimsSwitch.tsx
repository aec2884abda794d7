// 'Construction client': this client's new invoices start as payment claims under the Construction
// Contracts Act 2002 (with the details suggested from the quote or the claim before).
import './payment-claims.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorDetail } from '../../api/client.ts';
import { clientPaymentClaimsQuery, setClientPaymentClaims } from './queries.ts';

export function ClientPaymentClaimsSwitch({ clientId }: { clientId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(clientPaymentClaimsQuery(api, clientId));
  const save = useMutation({
    mutationFn: (on: boolean) => setClientPaymentClaims(api, clientId, on),
    onSuccess: (answer) => queryClient.setQueryData(clientPaymentClaimsQuery(api, clientId).queryKey, answer),
  });
  if (query.isError) return null;
  const checked = save.isPending ? save.variables : (query.data?.payment_claims ?? false);
  return (
    <div className="client-claims">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={query.isPending || save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
          aria-describedby="client-claims-hint"
        />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">Construction client</span>
      </label>
      <p id="client-claims-hint" className="field__hint">
        {checked
          ? 'New invoices for this client start as payment claims under the Construction Contracts Act 2002.'
          : 'Turn on for construction work: new invoices then start as payment claims under the Construction Contracts Act 2002.'}
      </p>
      {save.isError && (
        <p className="callout callout--error" role="alert">
          {errorDetail(save.error) ?? 'Could not change this client'}
        </p>
      )}
    </div>
  );
}
