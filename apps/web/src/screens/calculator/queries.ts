// The calculator's own calls: Generate (the quick-add client, the document, its PDF) and the price
// basis it remembers. The api client arrives as an argument, so tests can hand in their own. The
// client list, the business settings, the draft being edited and the reload after a change are
// shared with other screens and imported from where they are defined (../shared/queries.ts,
// ../invoice-detail/queries.ts, ../shared/documentEdits.ts).
import type { BusinessSettingsRecord, ClientRecord, CreateDocumentInput, DocumentDetail } from '@tradie/contracts';
import type { MarginBasis } from '@tradie/domain';
import { documentPath, type Api } from '../shared/queries.ts';

export const createDocument = (api: Api, body: CreateDocumentInput, idempotencyKey: string) =>
  api.post<DocumentDetail>('/invoices', body, { idempotencyKey });

export const generatePdf = (api: Api, id: string) => api.post<{ pdf_url: string; sha256: string }>(documentPath(id, '/generate-pdf'));

/** POST /clients: the client typed into the calculator's quick-add, made before the document. */
export const quickAddClient = (api: Api, body: { name: string; email: string; phone: string }, idempotencyKey: string) =>
  api.post<ClientRecord>('/clients', body, { idempotencyKey });

/** PUT /business-settings with the way the account works out a price (markup or margin) only. */
export const saveMarginBasis = (api: Api, value: MarginBasis) => api.put<BusinessSettingsRecord>('/business-settings', { margin_basis: value });
