// The server data more than one feature reads: the documents' cache keys and reload, the business
// settings and the client book. Defined once here and imported from here (a feature's queries.ts
// holds only what is its own), so each query has one name and one cache key. The route loaders
// (app/loaders.ts) start these same queries, so this module stays small: types from the contracts,
// no domain code.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccountingStatus, BusinessSettingsRecord, ClientRecord } from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';
import type { ListFilter } from '../invoices/search.ts';

export type Api = Pick<ApiClient, 'get' | 'getWithHeaders' | 'post' | 'put' | 'del' | 'blob'>;
export type DocumentType = 'quote' | 'invoice';

// ---- quotes and invoices ------------------------------------------------------------------------

export const documentKeys = {
  all: ['documents'] as const,
  counts: () => [...documentKeys.all, 'counts'] as const,
  lists: () => [...documentKeys.all, 'list'] as const,
  list: (type: DocumentType, filter: ListFilter = {}) => [...documentKeys.lists(), type, filter] as const,
  detail: (id: string) => [...documentKeys.all, 'detail', id] as const,
};

/** The API path of one document, and of what hangs off it ('/pdf', '/payments', …). */
export const documentPath = (id: string, rest = ''): string => `/invoices/${encodeURIComponent(id)}${rest}`;

/** After any change to documents: the tabs, the counts and every detail reload. */
export const invalidateDocuments = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: documentKeys.all });

// ---- business settings --------------------------------------------------------------------------

export const businessSettingsKey = ['business-settings'] as const;

/**
 * GET /business-settings: every field with its default, plus soft warnings (the Settings screen's
 * form). A document screen that reads them on the side (the calculator's GST rounding, the CC/BCC
 * shown before sending) adds `retry: false`: it carries on without them.
 */
export const businessSettingsQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: businessSettingsKey,
    queryFn: ({ signal }) => api.get<BusinessSettingsRecord>('/business-settings', { signal }),
  });

// ---- the client book ----------------------------------------------------------------------------

export const clientKeys = {
  all: ['clients'] as const,
  list: () => [...clientKeys.all, 'list'] as const,
  history: (id: string) => [...clientKeys.all, 'history', id] as const,
};

/** GET /clients: the whole book (the Clients screen searches it in the browser; the calculator's picker). */
export const clientListQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: clientKeys.list(),
    queryFn: ({ signal }) => api.get<ClientRecord[]>('/clients', { signal }),
  });

// ---- the accounting connection -----------------------------------------------------------------

export const accountingStatusKey = ['accounting-status'] as const;

/**
 * GET /integrations/xero/status: whether Xero is connected. The invoice list and screen offer
 * 'Sync to Xero' only when it is; asked again whenever a screen that reads it opens (a connection
 * made in Settings shows at once). A failure is read as not connected: nothing to sync to.
 */
export const accountingStatusQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: accountingStatusKey,
    queryFn: ({ signal }) => api.get<AccountingStatus>('/integrations/xero/status', { signal }),
    staleTime: 0,
    retry: false,
  });
