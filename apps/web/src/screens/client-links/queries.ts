// Server data for the client's pages (/q/{token}, /i/{token}): no sign-in, so every call goes out
// without the tradie's bearer token (a tradie opening a client's link on their own phone is the
// client there) and a 401 is never refreshed. The api client arrives as an argument, so tests can
// hand in their own.
import { queryOptions } from '@tanstack/react-query';
import type {
  AcceptQuoteInput,
  AcceptVariationInput,
  CheckoutStarted,
  DeclineQuoteInput,
  DeclineVariationInput,
  PublicInvoicePage,
  PublicQuotePage,
  RequestChangesInput,
} from '@tradie/contracts';
import { API_BASE, type ApiClient, type RequestOptions } from '../../api/client.ts';

export type PublicApi = Pick<ApiClient, 'get' | 'post'>;

const anonymous: RequestOptions = { anonymous: true, noRefresh: true };
const token = (t: string) => encodeURIComponent(t);

/** The pages a client opens from a link (no session): not the detail's `clientLinkKeys`, the link itself. */
export const publicPageKeys = {
  quote: (t: string) => ['client-link', 'quote', t] as const,
  invoice: (t: string) => ['client-link', 'invoice', t] as const,
};

/** A link that no longer works (404 unknown, 410 withdrawn, expired, superseded) is not retried. */
const retryUnlessGone = (failures: number, error: unknown): boolean => {
  const status = (error as { status?: unknown }).status;
  return failures < 1 && status !== 404 && status !== 410 && status !== 429;
};

/** A client's page, asked for afresh each time it is shown. */
const publicPageQuery = <Page>(api: PublicApi, queryKey: readonly string[], path: string) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => api.get<Page>(path, { ...anonymous, signal }),
    retry: retryUnlessGone,
    staleTime: 0,
  });

/** GET /public/quotes/{token}. */
export const publicQuoteQuery = (api: PublicApi, t: string) => publicPageQuery<PublicQuotePage>(api, publicPageKeys.quote(t), `/public/quotes/${token(t)}`);

/** GET /public/invoices/{token}. */
export const publicInvoiceQuery = (api: PublicApi, t: string) => publicPageQuery<PublicInvoicePage>(api, publicPageKeys.invoice(t), `/public/invoices/${token(t)}`);

export const acceptPublicQuote = (api: PublicApi, t: string, body: AcceptQuoteInput) =>
  api.post<PublicQuotePage>(`/public/quotes/${token(t)}/accept`, body, anonymous);

export const declinePublicQuote = (api: PublicApi, t: string, body: DeclineQuoteInput) =>
  api.post<PublicQuotePage>(`/public/quotes/${token(t)}/decline`, body, anonymous);

export const requestQuoteChanges = (api: PublicApi, t: string, body: RequestChangesInput) =>
  api.post<PublicQuotePage>(`/public/quotes/${token(t)}/changes`, body, anonymous);

/** POST /public/invoices/{token}/checkout → Stripe Checkout's address. */
export const startCheckout = (api: PublicApi, t: string) => api.post<CheckoutStarted>(`/public/invoices/${token(t)}/checkout`, undefined, anonymous);

/** The document's PDF and the logo are relative to the API base. */
export const apiHref = (relative: string): string => `${API_BASE}${relative}`;

/** The page was seen: counted by this beacon, never by the GET. */
export function sendViewBeacon(t: string, nav: Pick<Navigator, 'sendBeacon'> | undefined = globalThis.navigator, fetcher: typeof fetch | undefined = globalThis.fetch): void {
  const url = `${API_BASE}/public/links/${token(t)}/viewed`;
  try {
    if (nav && typeof nav.sendBeacon === 'function' && nav.sendBeacon(url)) return;
  } catch {
    // Some browsers throw on a beacon they will not queue: the fetch below does the job.
  }
  void fetcher?.(url, { method: 'POST', keepalive: true, credentials: 'omit' }).catch(() => undefined);
}

/** POST /public/quotes/{token}/variations/{id}/accept: the page again, the variation approved. */
export const approvePublicVariation = (api: PublicApi, t: string, variationId: string, body: AcceptVariationInput) =>
  api.post<PublicQuotePage>(`/public/quotes/${token(t)}/variations/${encodeURIComponent(variationId)}/accept`, body, anonymous);

/** POST /public/quotes/{token}/variations/{id}/decline. */
export const declinePublicVariation = (api: PublicApi, t: string, variationId: string, body: DeclineVariationInput) =>
  api.post<PublicQuotePage>(`/public/quotes/${token(t)}/variations/${encodeURIComponent(variationId)}/decline`, body, anonymous);
