// GET /setup: where the first-run set-up stands (the set-up screen and the home screen's card).
import { queryOptions } from '@tanstack/react-query';
import type { SetupInput, SetupRecord } from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';

export const setupKey = ['setup'] as const;

export const setupQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({ queryKey: setupKey, queryFn: ({ signal }) => api.get<SetupRecord>('/setup', { signal }) });

/** PUT /setup: the step reached, the trade and terms, or the set-up finished or skipped. */
export const saveSetup = (api: Pick<ApiClient, 'put'>, body: SetupInput) => api.put<SetupRecord>('/setup', body);
