// Server data for the calculator: the client picker, the business settings (GST rounding), the
// draft being edited and the calls behind Generate and Save. The api client arrives as an argument, so tests can hand in their own. The
// picker, the settings and the reload after a change are shared with other screens: they are
// defined in ../shared/queries.ts and re-exported here; the route's loader starts the same queries.
import type { BusinessSettingsRecord, ClientRecord, CreateDocumentInput, DocumentDetail } from '@tradie/contracts';
import type { MarginBasis } from '@tradie/domain';
import { clientListQuery, documentPath, type Api } from '../shared/queries.ts';

export { documentKeys, invalidateDocuments } from '../shared/queries.ts';
/** GET /invoices/{id}: the draft being edited (the detail's own query, so one cache entry). */
export { documentDetailQuery } from '../invoice-detail/queries.ts';
/** PUT /invoices/{id}: Save while editing a draft. */
export { reviseDocument } from '../shared/documentEdits.ts';
/** GET /business-settings, no retry: the calculator works with the default rounding meanwhile. */
export { documentSettingsQuery as settingsQuery } from '../shared/queries.ts';

/** The client picker: the Clients screen's list (one cache entry). */
export const clientPickerQuery = clientListQuery;

export const createDocument = (api: Api, body: CreateDocumentInput, idempotencyKey: string) =>
  api.post<DocumentDetail>('/invoices', body, { idempotencyKey });

export const generatePdf = (api: Api, id: string) => api.post<{ pdf_url: string; sha256: string }>(documentPath(id, '/generate-pdf'));

/** POST /clients: the client typed into the calculator's quick-add, made before the document. */
export const quickAddClient = (api: Api, body: { name: string; email: string; phone: string }, idempotencyKey: string) =>
  api.post<ClientRecord>('/clients', body, { idempotencyKey });

/** PUT /business-settings with the way the account works out a price (markup or margin) only. */
export const saveMarginBasis = (api: Api, value: MarginBasis) => api.put<BusinessSettingsRecord>('/business-settings', { margin_basis: value });
