// Card payments to look at in Stripe (docs/api/payments.md): one paid while the invoice was settled
// another way, or a dispute. The home screen lists them until the business marks each done.
import { queryOptions } from '@tanstack/react-query';
import type { PaymentIssues } from '@tradie/contracts';
import type { Api } from './queries.ts';

export const paymentIssuesKey = ['payments', 'issues'] as const;

export const paymentIssuesQuery = (api: Api) =>
  queryOptions({ queryKey: paymentIssuesKey, queryFn: ({ signal }) => api.get<PaymentIssues>('/payments/issues', { signal }) });

export const markPaymentIssueDone = (api: Api, id: string) => api.post<void>(`/payments/issues/${encodeURIComponent(id)}/done`);

/** Where in Stripe's dashboard the business deals with it: refunds from the payments list, disputes from their own. */
export const stripeDashboardUrl = (kind: PaymentIssues['items'][number]['kind']): string =>
  kind === 'dispute' ? 'https://dashboard.stripe.com/disputes' : 'https://dashboard.stripe.com/payments';
