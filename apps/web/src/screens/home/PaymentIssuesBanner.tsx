// Card payments the business must sort out in Stripe: what happened and what to do (in the server's
// words), the invoice, a link to the right page of Stripe's dashboard, and Done.
import { api } from '../../api/client.ts';
import { markPaymentIssueDone, paymentIssuesQuery, stripeDashboardUrl } from '../shared/paymentIssues.ts';
import { AttentionBanner, useListUntilDone } from './AttentionBanner.tsx';

export function PaymentIssuesBanner() {
  const { items, act, busyId, error } = useListUntilDone(paymentIssuesQuery(api), (id) => markPaymentIssueDone(api, id));
  return (
    <AttentionBanner
      name="payment-issues"
      title={items.length === 1 ? 'A card payment needs you in Stripe' : `${items.length} card payments need you in Stripe`}
      items={items.map((i) => ({
        id: i.id,
        text: i.reference ? `${i.reference}: ${i.detail}` : i.detail,
        documentId: i.document_id,
        reference: i.reference,
        elsewhere: { href: stripeDashboardUrl(i.kind), label: 'Open Stripe' },
      }))}
      action="Done"
      actionFor={(i) => `with the card payment${i.reference ? ` for ${i.reference}` : ''}`}
      onAction={act}
      busyId={busyId}
      error={error}
      failed="Could not mark it done. Please try again."
    />
  );
}
