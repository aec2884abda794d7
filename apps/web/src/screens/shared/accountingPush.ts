// Keeping Xero up to date (docs/api/accounting.md): the app pushes a synced invoice's changes after
// each command, and reads Xero's changes back; these are the calls for when a push or a read did not
// get through — the invoices Xero is behind on, or we are (the home screen), and Try again (there and
// on the invoice).
import { queryOptions } from '@tanstack/react-query';
import type { AccountingPullResult, AccountingPushFailures, AccountingPushResult } from '@tradie/contracts';
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

/** POST /integrations/xero/pull/{id}: reads the invoice back from Xero now (after a read that failed). */
export const pullFromAccounting = (api: Api, id: string) => api.post<AccountingPullResult>(`/integrations/${PROVIDER_PATH}/pull/${encodeURIComponent(id)}`);

/** Try again, the way that failed: send ours to Xero, or read Xero's back. */
export const tryAccountingAgain = (api: Api, id: string, direction: 'to_xero' | 'from_xero' | null): Promise<unknown> => (direction === 'from_xero' ? pullFromAccounting(api, id) : pushToAccounting(api, id));

/** Said when Try again failed without a reason from the server (on the invoice and on the home screen). */
export const PUSH_FAILED = `Could not reach ${PROVIDER_NAME}. Please try again.`;
