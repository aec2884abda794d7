// Server data for quotes and invoices: query factories and the calls behind the buttons, shared by
// the list, the detail and the calculator. The api client arrives as an argument.
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  AccountingSyncResult,
  BusinessSettingsRecord,
  ClientRecord,
  CreateDocumentInput,
  DocumentCounts,
  DocumentDetail,
  DocumentListRecord,
  PaymentInput,
  PaymentRecord,
  SendResult,
} from '@tradie/contracts';
import { Decimal, fallbackReference, toCents, toCentsHalfUp } from '@tradie/domain';
import { ApiError, type ApiClient } from '../../api/client.ts';
import type { ListFilter } from './search.ts';

export type Api = Pick<ApiClient, 'get' | 'getWithHeaders' | 'post' | 'put' | 'del' | 'blob'>;
export type DocumentType = 'quote' | 'invoice';

/** 50 at a time; the screen loads more as you scroll. */
export const PAGE_SIZE = 50;

/** The accounting provider: Xero. */
export const PROVIDER_NAME = 'Xero';
export const PROVIDER_PATH = 'xero';
export const PROVIDER_INVOICE_ID = 'xero_invoice_id';

export const documentKeys = {
  all: ['documents'] as const,
  counts: () => [...documentKeys.all, 'counts'] as const,
  lists: () => [...documentKeys.all, 'list'] as const,
  list: (type: DocumentType, filter: ListFilter = {}) => [...documentKeys.lists(), type, filter] as const,
  detail: (id: string) => [...documentKeys.all, 'detail', id] as const,
};

const path = (id: string, rest = ''): string => `/invoices/${encodeURIComponent(id)}${rest}`;

/** GET /invoices/counts: the tab counts. */
export const documentCountsQuery = (api: Api) =>
  queryOptions({
    queryKey: documentKeys.counts(),
    queryFn: ({ signal }) => api.get<DocumentCounts>('/invoices/counts', { signal }),
  });

export interface DocumentPage {
  records: DocumentListRecord[];
  nextCursor: string | null;
  total: number | null;
}

/** One page of GET /invoices for a tab (and its filter); the next page's cursor travels in X-Next-Cursor. */
export async function fetchDocumentPage(api: Api, type: DocumentType, cursor: string | null, signal?: AbortSignal, filter: ListFilter = {}): Promise<DocumentPage> {
  const query = new URLSearchParams({ type, limit: String(PAGE_SIZE) });
  if (filter.status) query.set('status', filter.status);
  if (filter.from) query.set('from', filter.from);
  if (filter.to) query.set('to', filter.to);
  if (cursor) query.set('cursor', cursor);
  const { data, headers } = await api.getWithHeaders<DocumentListRecord[]>(`/invoices?${query.toString()}`, signal ? { signal } : {});
  const total = Number(headers.get('X-Total-Count'));
  return { records: Array.isArray(data) ? data : [], nextCursor: headers.get('X-Next-Cursor') || null, total: Number.isFinite(total) && headers.has('X-Total-Count') ? total : null };
}

export const documentListQuery = (api: Api, type: DocumentType, filter: ListFilter = {}) =>
  infiniteQueryOptions({
    queryKey: documentKeys.list(type, filter),
    queryFn: ({ pageParam, signal }) => fetchDocumentPage(api, type, pageParam, signal, filter),
    initialPageParam: null as string | null,
    getNextPageParam: (last: DocumentPage) => last.nextCursor,
  });

/** GET /invoices/{id}. */
export const documentDetailQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: documentKeys.detail(id),
    queryFn: ({ signal }) => api.get<DocumentDetail>(path(id), { signal }),
  });

/** GET /clients (the calculator's picker; the same cache entry as the Clients screen). */
export const clientPickerQuery = (api: Api) =>
  queryOptions({
    queryKey: ['clients', 'list'] as const,
    queryFn: ({ signal }) => api.get<ClientRecord[]>('/clients', { signal }),
  });

/** GET /business-settings: CC/BCC shown before sending. */
export const settingsQuery = (api: Api) =>
  queryOptions({
    queryKey: ['business-settings'] as const,
    queryFn: ({ signal }) => api.get<BusinessSettingsRecord>('/business-settings', { signal }),
  });

// ---- commands ---------------------------------------------------------------------------------

export const createDocument = (api: Api, body: CreateDocumentInput, idempotencyKey: string) =>
  api.post<DocumentDetail>('/invoices', body, { idempotencyKey });

export const generatePdf = (api: Api, id: string) => api.post<{ pdf_url: string; sha256: string }>(path(id, '/generate-pdf'));

export const fetchPdf = (api: Api, id: string) => api.blob(path(id, '/pdf'));

export const sendDocument = (api: Api, id: string, idempotencyKey: string) => api.post<SendResult>(path(id, '/send'), undefined, { idempotencyKey });

export const markPaid = (api: Api, id: string, idempotencyKey: string) => api.post<DocumentDetail>(path(id, '/mark-paid'), undefined, { idempotencyKey });

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

export const syncToAccounting = (api: Api, id: string) => api.post<AccountingSyncResult>(`/integrations/${PROVIDER_PATH}/sync/${encodeURIComponent(id)}`);

/** After any change to documents: the tabs, the counts and every detail reload. */
export const invalidateDocuments = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: documentKeys.all });

// ---- what the screens show --------------------------------------------------------------------

/** The reference, or 'QTE-'/'INV-' plus the first 8 characters of the id. */
export const referenceOf = (d: { type: DocumentType; reference: string; id: string }): string => d.reference || fallbackReference(d.type, d.id);

/**
 * A money number from the API to whole cents, through the domain. The API rounds to cents, so
 * toCents is exact; anything else (a float sum) is rounded to the cent rather than shown wrong.
 */
export function centsOf(amount: number): bigint {
  if (!Number.isFinite(amount)) return 0n;
  try {
    return toCents(amount);
  } catch (e) {
    // A fraction of a cent (a float sum): rounded to the cent rather than shown wrong. Anything else is a bug.
    if (!(e instanceof RangeError)) throw e;
    return toCentsHalfUp(new Decimal(amount));
  }
}

/** Payment status: 'paid', 'partial', anything else is unpaid. */
export { paymentBadge } from '../../ui/Chip.tsx';

export const isSynced = (extra: Record<string, string> | null | undefined): boolean => Boolean(extra?.[PROVIDER_INVOICE_ID]);

export const syncedMessage = (r: AccountingSyncResult): string =>
  r.already_synced ? `Already synced ${PROVIDER_NAME}: ${r.xero_invoice_number}` : `✓ Synced ${PROVIDER_NAME}: ${r.xero_invoice_number}`;

/** Sync failures: HTTP 400 shows the detail (or 'Please connect … in Settings first'); else 'Failed to sync to …'. */
export function syncErrorMessage(e: unknown): string {
  if (e instanceof ApiError && e.status === 400) return e.detail || `Please connect ${PROVIDER_NAME} in Settings first`;
  return `Failed to sync to ${PROVIDER_NAME}`;
}

export const MARK_PAID_CONFIRM = 'Mark this invoice as paid?';
export const MARK_PAID_FAILED = 'Failed to mark as paid';

/** A fresh Idempotency-Key (randomUUID needs a secure context; getRandomValues does not). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
