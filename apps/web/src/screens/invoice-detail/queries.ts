// Server data for one quote or invoice: its query, the calls behind the detail's buttons and forms,
// and how an answer goes into the cache. The api client arrives as an argument, so tests can hand
// in their own. What the list and the calculator share with it is in ../shared/queries.ts
// (imported from there); the route's loader starts the same detail query.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccountingPushResult, AccountingPushStatus, ClientLinkRecord, DocumentDetail, DocumentTimeline, PaymentInput, PhotoList, PhotoRecord, PriceBookMoves, RecordedPaymentRecord, SendDocumentInput, SendPreview, SendResult } from '@tradie/contracts';
import { type ApiClient, isApiError } from '../../api/client.ts';
import { accountingPushPath } from '../shared/accountingPush.ts';
import { PROVIDER_PATH } from '../shared/documents.ts';
import { documentKeys, documentPath as path, invalidateDocuments, type Api } from '../shared/queries.ts';

/** GET /invoices/{id}. */
export const documentDetailQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: documentKeys.detail(id),
    queryFn: ({ signal }) => api.get<DocumentDetail>(path(id), { signal }),
  });

/**
 * A sent quote waits for the client's answer and an issued, unpaid invoice may be paid by card, both
 * from the client's phone through their link: the screen showing one asks for it again this often
 * (only while the tab is visible), so the tradie sees the answer or the payment without reloading.
 */
export const LIVE_REFRESH_MS = 15_000;

/**
 * Whether the client may change this document from their phone now (answer the quote or a variation
 * of it sent to them, pay the invoice): it has gone to them (sent, or a send tried: a draft whose
 * email waits in the outbox has a link too), and is not answered, paid or void.
 */
export function awaitsClient(d: (Pick<DocumentDetail, 'type' | 'status' | 'payment_status' | 'send_attempts'> & Partial<Pick<DocumentDetail, 'variations'>>) | undefined): boolean {
  if (!d) return false;
  const goneToClient = d.status !== 'draft' || d.send_attempts.length > 0;
  if (d.type === 'quote' && d.status === 'accepted') return (d.variations ?? []).some((v) => v.status === 'awaiting_approval' && v.send_attempts.length > 0);
  if (d.type === 'quote') return goneToClient && (d.status === 'sent' || d.status === 'draft');
  return goneToClient && d.payment_status !== 'paid' && d.status !== 'void';
}

/** The detail as its screen reads it: asked for again every LIVE_REFRESH_MS while the client may act on it. */
export const liveDocumentDetailQuery = (api: Api, id: string) =>
  queryOptions({
    ...documentDetailQuery(api, id),
    refetchInterval: (query) => (awaitsClient(query.state.data) ? LIVE_REFRESH_MS : false),
  });

export const fetchPdf = (api: Api, id: string) => api.blob(path(id, '/pdf'));

export const sendDocument = (api: Api, id: string, idempotencyKey: string, body?: SendDocumentInput) => api.post<SendResult>(path(id, '/send'), body, { idempotencyKey });

/** GET /invoices/{id}/send-preview: the email a send with no changes makes, for the Send sheet to fill in. Asked afresh each time the sheet opens. */
export const sendPreviewQuery = (api: Pick<Api, 'get'>, id: string) =>
  queryOptions({ queryKey: [...documentKeys.detail(id), 'send-preview'] as const, queryFn: ({ signal }) => api.get<SendPreview>(path(id, '/send-preview'), { signal }), staleTime: 0, gcTime: 0 });


export const recordPayment = (api: Api, id: string, body: PaymentInput, idempotencyKey: string) =>
  api.post<RecordedPaymentRecord>(path(id, '/payments'), body, { idempotencyKey });

export const removePayment = (api: Api, id: string, paymentId: string) => api.del<DocumentDetail>(path(id, `/payments/${encodeURIComponent(paymentId)}`));

export const convertQuote = (api: Api, id: string) => api.post<DocumentDetail>(path(id, '/convert'));

/** POST /invoices/{id}/void, with the reason the tradie gave (the server's default when none). */
export const voidDocument = (api: Api, id: string, reason?: string) => api.post<DocumentDetail>(path(id, '/void'), reason === undefined ? undefined : { reason });

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

// ---- Xero ------------------------------------------------------------------------------------------

/** Under the detail's key, so whatever reloads the detail after a change reloads this too. */
export const accountingPushKey = (id: string) => [...documentKeys.detail(id), 'accounting-push'] as const;

/**
 * GET /integrations/xero/push/{id}: whether Xero has this invoice's latest changes. While the app
 * means to try again by itself, asked for again every LIVE_REFRESH_MS (visible tab only), so the
 * warning goes once the retry gets through.
 */
export const accountingPushQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: accountingPushKey(id),
    queryFn: ({ signal }) => api.get<AccountingPushStatus>(accountingPushPath(id), { signal }),
    refetchInterval: (query) => (query.state.data?.retry_at ? LIVE_REFRESH_MS : false),
  });

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

// ---- The price book moving since the document was priced ---------------------------------------

/** Under the detail's key with its version: a change to the document (an Update, an edit) asks again. */
export const priceBookMovesQuery = (api: Api, id: string, version: number) =>
  queryOptions({ queryKey: [...documentKeys.detail(id), 'price-book-moves', version] as const, queryFn: ({ signal }) => api.get<PriceBookMoves>(path(id, '/price-book-moves'), { signal }) });

/** Re-prices one line of a draft from the price book's cost now; answers the document. */
export const updateFromPriceBook = (api: Api, id: string, lineIndex: number, version: number) =>
  api.post<DocumentDetail>(path(id, '/price-book-moves/update'), { line_index: lineIndex, version });

/** POST /integrations/xero/send-ours/{id}: this invoice's lines put back on Xero's copy after it was edited there. */
export const sendOursToAccounting = (api: Api, id: string) => api.post<AccountingPushResult>(`/integrations/${PROVIDER_PATH}/send-ours/${encodeURIComponent(id)}`);

/** GET /invoices/{id}/photos: the photos on it, in order. */
export const documentPhotosQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: [...documentKeys.detail(id), 'photos'] as const,
    queryFn: ({ signal }) => api.get<PhotoList>(path(id, '/photos'), { signal }),
  });

/** A photo's bytes (the bearer token rules out a plain link), the thumbnail by default. */
export const documentPhotoQuery = (api: Pick<ApiClient, 'blob'>, id: string, photoId: string, size: 'thumb' | 'full' = 'thumb') =>
  queryOptions({
    queryKey: [...documentKeys.detail(id), 'photos', photoId, size] as const,
    queryFn: ({ signal }) => documentPhotoBlob(api, id, photoId, size, signal),
    staleTime: Infinity,
  });

/** GET /invoices/{id}/photos/{photoId}: the JPEG (or its thumbnail). */
export const documentPhotoBlob = (api: Pick<ApiClient, 'blob'>, id: string, photoId: string, size: 'thumb' | 'full', signal?: AbortSignal) =>
  api.blob(`${path(id, '/photos')}/${encodeURIComponent(photoId)}?size=${size}`, signal ? { signal } : {});

/** POST /invoices/{id}/photos (multipart, field `file`). */
export function uploadDocumentPhoto(api: Pick<ApiClient, 'upload'>, id: string, file: Blob, name: string): Promise<PhotoRecord> {
  const form = new FormData();
  form.append('file', file, name);
  return api.upload<PhotoRecord>(path(id, '/photos'), form);
}

/** PATCH /invoices/{id}/photos/{photoId}: in the PDF's appendix or not. */
export const setDocumentPhotoInPdf = (api: Pick<ApiClient, 'patch'>, id: string, photoId: string, inPdf: boolean) =>
  api.patch<PhotoRecord>(`${path(id, '/photos')}/${encodeURIComponent(photoId)}`, { in_pdf: inPdf });

/** DELETE /invoices/{id}/photos/{photoId}. */
export const removeDocumentPhoto = (api: Pick<ApiClient, 'del'>, id: string, photoId: string) => api.del<void>(`${path(id, '/photos')}/${encodeURIComponent(photoId)}`);
