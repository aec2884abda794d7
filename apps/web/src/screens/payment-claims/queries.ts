// Server data for a payment claim under the Construction Contracts Act 2002: the claim of an invoice,
// saving its details, the payer's schedule and retention released, and a construction client's
// default. The api client arrives as an argument, so tests can hand in their own.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { PaymentClaimInput, PaymentClaimRecord, PaymentScheduleInput, RetentionReleaseInput } from '@tradie/contracts';
import { documentKeys, documentPath as path, invalidateDocuments, type Api } from '../shared/queries.ts';

export const claimKeys = {
  claim: (id: string) => [...documentKeys.detail(id), 'payment-claim'] as const,
  client: (clientId: string) => ['payment-claims', 'client', clientId] as const,
};

/** GET /invoices/{id}/payment-claim. */
export const paymentClaimQuery = (api: Api, id: string) =>
  queryOptions({ queryKey: claimKeys.claim(id), queryFn: ({ signal }) => api.get<PaymentClaimRecord>(path(id, '/payment-claim'), { signal }) });

export const savePaymentClaim = (api: Api, id: string, body: PaymentClaimInput) => api.put<PaymentClaimRecord>(path(id, '/payment-claim'), body);
export const clearPaymentClaim = (api: Api, id: string) => api.del<PaymentClaimRecord>(path(id, '/payment-claim'));
export const recordSchedule = (api: Api, id: string, body: PaymentScheduleInput, idempotencyKey: string) =>
  api.post<PaymentClaimRecord>(path(id, '/payment-schedules'), body, { idempotencyKey });
export const releaseRetention = (api: Api, id: string, body: RetentionReleaseInput, idempotencyKey: string) =>
  api.post<PaymentClaimRecord>(path(id, '/retention-releases'), body, { idempotencyKey });

/** After a claim changed: its answer into the cache, and the document (its due date, its version) reloaded. */
export function claimChanged(queryClient: QueryClient, id: string, record: PaymentClaimRecord): Promise<void> {
  queryClient.setQueryData(claimKeys.claim(id), record);
  return invalidateDocuments(queryClient);
}

/** GET /payment-claims/clients/{id}: whether the client's new invoices start as claims. */
export const clientPaymentClaimsQuery = (api: Api, clientId: string) =>
  queryOptions({
    queryKey: claimKeys.client(clientId),
    queryFn: ({ signal }) => api.get<{ payment_claims: boolean }>(`/payment-claims/clients/${encodeURIComponent(clientId)}`, { signal }),
  });

export const setClientPaymentClaims = (api: Api, clientId: string, on: boolean) =>
  api.put<{ payment_claims: boolean }>(`/payment-claims/clients/${encodeURIComponent(clientId)}`, { payment_claims: on });
