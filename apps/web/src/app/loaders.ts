// The signed-in routes' loaders. Each starts the queries its screen reads on first render as soon as
// the route is navigated to (after the session check), beside the download of the screen's code,
// rather than after the screen has rendered. They use the screens' own query options, so they fill
// the same cache entries, and they never wait or throw: the screen's useQuery still shows
// 'Loading...', the data or its error as before, joining a fetch that is still running rather than
// repeating it. Home and Tax Reports read nothing until asked, so they have no loader.
//
// A link's intent (hover, focus, touch) preloads the route too: the data then starts with the code,
// except on a slow connection or with Save-Data on, where only the code is fetched and the data waits
// for the tap (touching cards while scrolling a list would otherwise fetch a detail for each).
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
import { savesData } from '../boot/offline.ts';
import { clientHistoryQuery } from '../screens/clients/queries.ts';
import { documentDetailQuery } from '../screens/invoice-detail/queries.ts';
import { documentCountsQuery, documentListQuery } from '../screens/invoices/queries.ts';
import { filterOf, initialTab, type InvoicesSearch } from '../screens/invoices/search.ts';
// The Settings screen's query, from where it is defined: settings/queries.ts also brings the audit
// log's page limits, and with them the contracts' schemas, into the app's first download.
import { businessSettingsQuery, clientListQuery } from '../screens/shared/queries.ts';

export interface LoaderContext {
  queryClient: QueryClient;
  api: ApiClient;
}

/** What the router hands a loader: its context, and whether this is a preload on a link's intent. */
interface LoaderArgs {
  context: LoaderContext;
  preload: boolean;
}

/** False for a link's intent on a slow connection or with Save-Data on: the data waits for the tap. */
function wanted(preload: boolean): boolean {
  return !preload || typeof navigator === 'undefined' || !savesData(navigator);
}

/** /app/invoices: the tab counts and the first page of the tab the screen opens on (with its filter). */
export function loadInvoices({ context: { queryClient, api }, preload }: LoaderArgs, search: InvoicesSearch): void {
  if (!wanted(preload)) return;
  void queryClient.prefetchQuery(documentCountsQuery(api));
  const tab = search.tab ?? initialTab();
  if (tab !== 'templates') void queryClient.prefetchInfiniteQuery(documentListQuery(api, tab === 'quotes' ? 'quote' : 'invoice', filterOf(search)));
}

/** /app/invoices/$id: the quote or invoice. */
export function loadInvoiceDetail({ context: { queryClient, api }, preload }: LoaderArgs, id: string): void {
  if (wanted(preload)) void queryClient.prefetchQuery(documentDetailQuery(api, id));
}

/** /app/calculator: the client picker and the business settings (GST rounding). */
export function loadCalculator({ context: { queryClient, api }, preload }: LoaderArgs): void {
  if (!wanted(preload)) return;
  void queryClient.prefetchQuery(clientListQuery(api));
  void queryClient.prefetchQuery({ ...businessSettingsQuery(api), retry: false });
}

/** /app/clients: the client book. */
export function loadClients({ context: { queryClient, api }, preload }: LoaderArgs): void {
  if (wanted(preload)) void queryClient.prefetchQuery(clientListQuery(api));
}

/**
 * /app/clients/$id: the client's history, when none is cached. A cached one is shown at once and
 * checked again by the screen as it opens (the query is never fresh), as it always was; fetching it
 * here as well would ask twice.
 */
export function loadClientHistory({ context: { queryClient, api }, preload }: LoaderArgs, id: string): void {
  const query = clientHistoryQuery(api, id);
  if (wanted(preload) && queryClient.getQueryData(query.queryKey) === undefined) void queryClient.prefetchQuery(query);
}

/** /app/settings: the business settings (the screen reads them whichever tab is open). */
export function loadSettings({ context: { queryClient, api }, preload }: LoaderArgs): void {
  if (wanted(preload)) void queryClient.prefetchQuery(businessSettingsQuery(api));
}
