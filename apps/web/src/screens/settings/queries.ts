// Server data for the Settings screen: the business settings query and the calls behind its
// buttons. The api client arrives as an argument, so tests can hand in their own.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BusinessSettingsInput, BusinessSettingsRecord, LogoUploadResponse } from '@tradie/contracts';
import { API_BASE, type ApiClient } from '../../api/client.ts';

type Api = Pick<ApiClient, 'get' | 'put' | 'del' | 'upload'>;

export const settingsKeys = {
  all: ['business-settings'] as const,
};

/** GET /business-settings: every field with its default, plus soft warnings. */
export const businessSettingsQuery = (api: Api) =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => api.get<BusinessSettingsRecord>('/business-settings', { signal }),
  });

/** PUT /business-settings → the saved record (with warnings). */
export const saveBusinessSettings = (api: Api, body: BusinessSettingsInput) => api.put<BusinessSettingsRecord>('/business-settings', body);

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

export const invalidateSettings = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: settingsKeys.all });
