// Keeping Xero up to date (docs/api/accounting.md): the app pushes a synced invoice's changes after
// each command; these are the calls for when a push did not get through — the invoices Xero is behind
// on (the home screen) and Try again (there and on the invoice).
import { queryOptions } from '@tanstack/react-query';
import type { AccountingPushFailures, AccountingPushResult } from '@tradie/contracts';
import { PROVIDER_NAME, PROVIDER_PATH } from './documents.ts';
import { documentKeys, type Api } from './queries.ts';

export const accountingPushPath = (id?: string): string => `/integrations/${PROVIDER_PATH}/push${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

/** Under the documents' key: whatever reloads the documents after a change reloads this too. */
export const accountingPushFailuresKey = [...documentKeys.all, 'accounting-push-failures'] as const;

/** GET /integrations/xero/push: the synced invoices whose latest changes Xero does not have. */
export const accountingPushFailuresQuery = (api: Api) =>
  queryOptions({ queryKey: accountingPushFailuresKey, queryFn: ({ signal }) => api.get<AccountingPushFailures>(accountingPushPath(), { signal }) });

/** POST /integrations/xero/push/{id}: sends Xero what it does not have yet. */
export const pushToAccounting = (api: Api, id: string) => api.post<AccountingPushResult>(accountingPushPath(id));

/** Said when Try again failed without a reason from the server (on the invoice and on the home screen). */
export const PUSH_FAILED = `Could not reach ${PROVIDER_NAME}. Please try again.`;
