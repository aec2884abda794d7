// Card payments the business must sort out in Stripe: what happened and what to do (in the server's
// words), the invoice, a link to the right page of Stripe's dashboard, and Done.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PaymentIssues } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { markPaymentIssueDone, paymentIssuesQuery, stripeDashboardUrl } from '../shared/paymentIssues.ts';
import { AttentionBanner } from './AttentionBanner.tsx';

export function PaymentIssuesBanner() {
  const queryClient = useQueryClient();
  const issues = useQuery(paymentIssuesQuery(api));
  const done = useMutation({
    mutationFn: (id: string) => markPaymentIssueDone(api, id),
    onSuccess: (_, id) =>
      queryClient.setQueryData<PaymentIssues>(paymentIssuesQuery(api).queryKey, (prev) => (prev ? { items: prev.items.filter((i) => i.id !== id) } : prev)),
  });
  const items = issues.data?.items ?? [];
  const kindOf = new Map(items.map((i) => [i.id, i.kind]));
  return (
    <AttentionBanner
      name="payment-issues"
      title={items.length === 1 ? 'A card payment needs you in Stripe' : `${items.length} card payments need you in Stripe`}
      items={items.map((i) => ({ id: i.id, text: i.reference ? `${i.reference}: ${i.detail}` : i.detail, documentId: i.document_id, reference: i.reference }))}
      action="Done"
      actionFor={(i) => `with the card payment${i.reference ? ` for ${i.reference}` : ''}`}
      onAction={(id) => done.mutate(id)}
      busyId={done.isPending ? done.variables : null}
      error={done.error}
      failed="Could not mark it done. Please try again."
      extra={(i) => (
        <a href={stripeDashboardUrl(kindOf.get(i.id) ?? 'overpaid')} target="_blank" rel="noopener noreferrer" className="button button--ghost button--compact">
          Open Stripe<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
    />
  );
}
