// Server calls of the Stages card (docs/api/stages.md): invoice a stage of an accepted quote, and
// add a variation to it. The answers go into the documents' cache by the screen.
import type { DocumentDetail, StageInput, VariationInput } from '@tradie/contracts';
import { documentPath, type Api } from '../shared/queries.ts';

export { applyDetailChange, documentKeys, invalidateDocuments } from '../invoice-detail/queries.ts';

/** POST /invoices/{quoteId}/stages: the new stage invoice (a numbered draft). */
export const invoiceStage = (api: Api, quoteId: string, body: StageInput, idempotencyKey: string) =>
  api.post<DocumentDetail>(documentPath(quoteId, '/stages'), body, { idempotencyKey });

/** POST /invoices/{quoteId}/variations: the quote with its new line. */
export const addVariation = (api: Api, quoteId: string, body: VariationInput, idempotencyKey: string) =>
  api.post<DocumentDetail>(documentPath(quoteId, '/variations'), body, { idempotencyKey });
