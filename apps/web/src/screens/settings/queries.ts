// Server data for the Settings screen: the calls behind its buttons and the queries of its tabs. The
// api client arrives as an argument, so tests can hand in their own. The business settings are read
// by the document screens too: their query and key are in ../shared/queries.ts (imported from
// there); the route's loader starts the same query.
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  AUDIT_PAGE,
  type AuditLogPage,
  type BillingPlansResponse,
  type BusinessSettingsInput,
  type ChangeEmailInput,
  type ChangeEmailResult,
  type DeleteAccountInput,
  type BusinessSettingsRecord,
  type ConnectOnboarding,
  type LogoUploadResponse,
  type OnlinePaymentSettings,
  type OnlinePaymentSettingsInput,
  type TokenPair,
  type XeroBillAccounts,
} from '@tradie/contracts';
import { API_BASE, type ApiClient } from '../../api/client.ts';
import { businessSettingsKey } from '../shared/queries.ts';

type Api = Pick<ApiClient, 'get' | 'put' | 'del' | 'upload'>;

export const settingsKeys = {
  audit: ['security', 'audit'] as const,
  payments: ['payments', 'settings'] as const,
};

/** PUT /business-settings → the saved record (with warnings). */
export const saveBusinessSettings = (api: Api, body: BusinessSettingsInput) => api.put<BusinessSettingsRecord>('/business-settings', body);

/** PUT /business-settings {gst_registered} → the saved record (the switch saves on its own). */
export const saveGstRegistration = (api: Api, registered: boolean) => api.put<BusinessSettingsRecord>('/business-settings', { gst_registered: registered });

/** POST /business-settings/logo (multipart, field `file`) → {logo_url}. */
export function uploadLogo(api: Api, file: File): Promise<LogoUploadResponse> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.upload<LogoUploadResponse>('/business-settings/logo', form);
}

/** DELETE /business-settings/logo */
export const deleteLogo = (api: Api) => api.del('/business-settings/logo');

/** logo_url is relative to the API base and signed, so a plain <img> can show it. */
export const logoSrc = (logoUrl: string): string => `${API_BASE}${logoUrl}`;

export const invalidateSettings = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: businessSettingsKey });

/** Security activity, a page at a time: 20 to start (a phone screen or two), then 'Show more'. */
export const AUDIT_PAGE_SIZE = Math.min(20, AUDIT_PAGE.maxLimit);

/** GET /security/audit?limit=…&before=… — newest first; `next_before` leads to the older page. */
export const auditLogQuery = (api: Pick<ApiClient, 'get'>) =>
  infiniteQueryOptions({
    queryKey: settingsKeys.audit,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
      if (pageParam) query.set('before', pageParam);
      return api.get<AuditLogPage>(`/security/audit?${query.toString()}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditLogPage) => last.next_before ?? null,
  });

/** POST /auth/logout-all: every refresh token of the user is revoked (this device's too). */
/** POST /auth/change-password: every other session ends; this one is handed a fresh pair. */
export const changePassword = (api: Pick<ApiClient, 'post'>, currentPassword: string, newPassword: string) =>
  api.post<TokenPair & { detail: string }>('/auth/change-password', { current_password: currentPassword, new_password: newPassword });

/** POST /account/change-email: a link goes to the new address; the answer says whether a mail server took it. */
export const changeEmail = (api: Pick<ApiClient, 'post'>, body: ChangeEmailInput) => api.post<ChangeEmailResult>('/account/change-email', body);

/** GET /account/export: the whole account as one JSON file. */
export const exportAccount = (api: Pick<ApiClient, 'blob'>) => api.blob('/account/export/zip');

/** POST /account/delete: every session ends on the server. */
export const deleteAccount = (api: Pick<ApiClient, 'post'>, body: DeleteAccountInput) => api.post('/account/delete', body);

export const signOutEverywhere = (api: Pick<ApiClient, 'post'>) => api.post<{ detail: string }>('/auth/logout-all');

// ---- card payments from clients (the Payments tab) -----------------------------------------------

/** GET /payments/settings: whether this server takes card payments, the Stripe account's state, the card fee. */
export const paymentSettingsQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: settingsKeys.payments,
    queryFn: ({ signal }) => api.get<OnlinePaymentSettings>('/payments/settings', { signal }),
    // Back from Stripe's onboarding the state has changed: always asked again when the tab opens.
    staleTime: 0,
  });

/** PUT /payments/settings → the saved settings. */
export const savePaymentSettings = (api: Pick<ApiClient, 'put'>, body: OnlinePaymentSettingsInput) => api.put<OnlinePaymentSettings>('/payments/settings', body);

/** POST /payments/connect → Stripe's hosted onboarding address. */
export const connectPayments = (api: Pick<ApiClient, 'post'>) => api.post<ConnectOnboarding>('/payments/connect');

/** GET /billing/plans: the prices on offer, excluding GST. */
export const billingPlansQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: ['billing', 'plans'] as const,
    queryFn: ({ signal }) => api.get<BillingPlansResponse>('/billing/plans', { signal }),
    staleTime: 60 * 60 * 1000,
  });

/** GET /integrations/xero/bill-accounts: where each cost category's bills go in Xero. */
export const xeroBillAccountsQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: ['integrations', 'xero', 'bill-accounts'] as const,
    queryFn: ({ signal }) => api.get<XeroBillAccounts>('/integrations/xero/bill-accounts', { signal }),
  });

/** PUT /integrations/xero/bill-accounts: one category's account (null: the standard chart's). */
export const chooseXeroBillAccount = (api: Pick<ApiClient, 'put'>, category: string, code: string | null) =>
  api.put<XeroBillAccounts>('/integrations/xero/bill-accounts', { category, code });
