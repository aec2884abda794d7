// Server data for one quote or invoice: its query, the calls behind the detail's buttons and forms,
// and how an answer goes into the cache. The api client arrives as an argument, so tests can hand
// in their own. What the list and the calculator share with it is in ../shared/queries.ts (the
// pieces the detail uses are re-exported here); the route's loader starts the same detail query.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClientLinkRecord, DocumentDetail, DocumentTimeline, PaymentInput, PaymentRecord, SendResult } from '@tradie/contracts';
import { isApiError } from '../../api/client.ts';
import { documentKeys, documentPath as path, invalidateDocuments, type Api } from '../shared/queries.ts';

export { documentKeys, invalidateDocuments };
/** The CC/BCC shown before sending. */
export { documentSettingsQuery as settingsQuery } from '../shared/queries.ts';

/** GET /invoices/{id}. */
export const documentDetailQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: documentKeys.detail(id),
    queryFn: ({ signal }) => api.get<DocumentDetail>(path(id), { signal }),
  });

export const fetchPdf = (api: Api, id: string) => api.blob(path(id, '/pdf'));

export const sendDocument = (api: Api, id: string, idempotencyKey: string) => api.post<SendResult>(path(id, '/send'), undefined, { idempotencyKey });

export type RecordedPayment = PaymentRecord & { balance: number; payment_status: string; status: string };

export const recordPayment = (api: Api, id: string, body: PaymentInput, idempotencyKey: string) =>
  api.post<RecordedPayment>(path(id, '/payments'), body, { idempotencyKey });

export const removePayment = (api: Api, id: string, paymentId: string) => api.del<DocumentDetail>(path(id, `/payments/${encodeURIComponent(paymentId)}`));

export const convertQuote = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/convert'));

export const voidDocument = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/void'));

export const acceptQuote = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/accept'));

/** A draft invoice handed over on site or printed: issued, so it counts in the reports. */
export const markIssued = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/issue'));

export const declineQuote = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/decline'));

/** The detail's one-tap commands, each answered with the document as it is now. */
export type DocumentCommand = 'convert' | 'void' | 'accept' | 'decline' | 'issue';

export function runCommand(api: Api, id: string, action: DocumentCommand): Promise<DocumentDetail> {
  switch (action) {
    case 'issue':
      return markIssued(api, id);
    case 'convert':
      return convertQuote(api, id);
    case 'void':
      return voidDocument(api, id);
    case 'accept':
      return acceptQuote(api, id);
    case 'decline':
      return declineQuote(api, id);
  }
}

/** After a change on the detail: the answer becomes the cached detail, and every document list reloads. */
export function applyDetailChange(queryClient: QueryClient, updated?: DocumentDetail): void {
  if (updated) queryClient.setQueryData(documentKeys.detail(updated.id), updated);
  void invalidateDocuments(queryClient);
}

// ---- the client's link and the timeline ----------------------------------------------------------

export const clientLinkKeys = {
  link: (id: string) => [...documentKeys.detail(id), 'link'] as const,
  timeline: (id: string) => [...documentKeys.detail(id), 'timeline'] as const,
};

/** GET /invoices/{id}/link: the active link, or null when there is none (404). */
export const clientLinkQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: clientLinkKeys.link(id),
    queryFn: async ({ signal }): Promise<ClientLinkRecord | null> => {
      try {
        return await api.get<ClientLinkRecord>(path(id, '/link'), { signal });
      } catch (e) {
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
  });

/** POST /invoices/{id}/link: the active link, issued if there is none. */
export const issueClientLink = (api: Api, id: string) => api.post<ClientLinkRecord>(path(id, '/link'));

/** DELETE /invoices/{id}/link: the link stops working. */
export const withdrawClientLink = (api: Api, id: string) => api.del(path(id, '/link'));

/** GET /invoices/{id}/timeline: what happened to the document, oldest first. */
export const timelineQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: clientLinkKeys.timeline(id),
    queryFn: ({ signal }) => api.get<DocumentTimeline>(path(id, '/timeline'), { signal }),
  });
