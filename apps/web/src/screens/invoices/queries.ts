// Server data for the Invoices & Quotes list: the tab counts and the pages of each tab. The api
// client arrives as an argument, so tests can hand in their own. The document keys and reload the
// other screens share are in ../shared/queries.ts; the route's loader starts the same queries.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { DocumentCounts, DocumentListRecord } from '@tradie/contracts';
import { documentKeys, type Api, type DocumentType } from '../shared/queries.ts';
import type { ListFilter } from './search.ts';

/** 50 at a time; the screen loads more as you scroll. */
export const PAGE_SIZE = 50;

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
