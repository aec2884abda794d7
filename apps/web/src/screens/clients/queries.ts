// Server data for the client book: query factories and the calls behind the form's buttons. The
// api client arrives as an argument, so tests can hand in their own. The list is read by the
// calculator's picker too, so it and the keys are in ../shared/queries.ts (imported from there);
// the routes' loaders start the same queries.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClientHistory, ClientRecord } from '@tradie/contracts';
import type { ApiClient } from '../../api/client.ts';
import { clientKeys } from '../shared/queries.ts';
import type { ClientBody } from './clientForm.ts';

type Api = Pick<ApiClient, 'get' | 'post' | 'put' | 'del'>;

/** GET /clients/{id}/documents: the client's quotes and invoices with the money summary. */
export const clientHistoryQuery = (api: Api, id: string) =>
  queryOptions({
    queryKey: clientKeys.history(id),
    // Payments and new documents change it from other screens: show the cached copy at once, but
    // always check it again when the history is opened.
    staleTime: 0,
    queryFn: ({ signal }) => api.get<ClientHistory>(`/clients/${encodeURIComponent(id)}/documents`, { signal }),
  });

/**
 * POST /clients. The key is made once per opening of the form, so a retried or double-tapped save
 * creates one client.
 */
export const createClient = (api: Api, body: ClientBody, idempotencyKey: string) =>
  api.post<ClientRecord>('/clients', body, { idempotencyKey });

/** PUT /clients/{id}: a full replacement, with the version the form was opened at (409 when stale). */
export const updateClient = (api: Api, id: string, body: ClientBody, version: number) =>
  api.put<ClientRecord>(`/clients/${encodeURIComponent(id)}`, { ...body, version });

export const deleteClient = (api: Api, id: string) => api.del(`/clients/${encodeURIComponent(id)}`);

/** After any change: the list and every history reload (a history shows the client's details too). */
export const invalidateClients = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: clientKeys.all });
