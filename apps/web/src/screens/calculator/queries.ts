// Server data for the calculator: the client picker and the calls behind Generate. The api client
// arrives as an argument, so tests can hand in their own. The business settings (GST rounding) and
// the reload after a change are shared with the other document screens: ../shared/documents.ts.
import { queryOptions } from '@tanstack/react-query';
import type { ClientRecord, CreateDocumentInput, DocumentDetail } from '@tradie/contracts';
import { documentPath, type Api } from '../shared/documents.ts';

/** GET /clients (the calculator's picker; the same cache entry as the Clients screen). */
export const clientPickerQuery = (api: Api) =>
  queryOptions({
    queryKey: ['clients', 'list'] as const,
    queryFn: ({ signal }) => api.get<ClientRecord[]>('/clients', { signal }),
  });

export const createDocument = (api: Api, body: CreateDocumentInput, idempotencyKey: string) =>
  api.post<DocumentDetail>('/invoices', body, { idempotencyKey });

export const generatePdf = (api: Api, id: string) => api.post<{ pdf_url: string; sha256: string }>(documentPath(id, '/generate-pdf'));
