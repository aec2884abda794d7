// Server data for the price book: query factories and the calls behind its buttons. The api client
// arrives as an argument, so tests can hand in their own. Read by the Price book screen and by the
// calculator's line picker, both loaded only when opened.
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  PriceBookItemDetail,
  PriceBookItemInput,
  PriceBookItemRecord,
  PriceBookList,
  PriceListImportInput,
  PriceListImportResult,
  PriceListPreview,
  PriceListPreviewInput,
} from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';

type Api = Pick<ApiClient, 'get' | 'post' | 'put' | 'del'>;

export const priceBookKeys = {
  all: ['price-book'] as const,
  search: (q: string, limit: number) => [...priceBookKeys.all, 'search', q, limit] as const,
  item: (id: string) => [...priceBookKeys.all, 'item', id] as const,
};

/** GET /price-book/items?q=: the items whose words start with what was typed, by name. */
export const priceBookSearchQuery = (api: Pick<ApiClient, 'get'>, q: string, limit = 50) =>
  queryOptions({
    queryKey: priceBookKeys.search(q.trim(), limit),
    queryFn: ({ signal }) => api.get<PriceBookList>(`/price-book/items?q=${encodeURIComponent(q.trim())}&limit=${limit}`, { signal }),
    // The last answer stays on screen while the next keystroke's is on its way.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** GET /price-book/items/{id}: the item and its price changes. */
export const priceBookItemQuery = (api: Pick<ApiClient, 'get'>, id: string) =>
  queryOptions({ queryKey: priceBookKeys.item(id), queryFn: ({ signal }) => api.get<PriceBookItemDetail>(`/price-book/items/${encodeURIComponent(id)}`, { signal }) });

export const createItem = (api: Api, body: PriceBookItemInput) => api.post<PriceBookItemRecord>('/price-book/items', body);
export const updateItem = (api: Api, id: string, body: PriceBookItemInput, version: number) =>
  api.put<PriceBookItemRecord>(`/price-book/items/${encodeURIComponent(id)}`, { ...body, version });
export const deleteItem = (api: Api, id: string) => api.del(`/price-book/items/${encodeURIComponent(id)}`);

export const previewPriceList = (api: Api, body: PriceListPreviewInput) => api.post<PriceListPreview>('/price-book/imports/preview', body);
export const importPriceList = (api: Api, body: PriceListImportInput) => api.post<PriceListImportResult>('/price-book/imports', body);

/** After any change: every search and item reloads. */
export const invalidatePriceBook = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: priceBookKeys.all });
