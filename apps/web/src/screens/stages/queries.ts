// Server calls of the Stages card (docs/api/stages.md): invoice a stage of an accepted quote, and
// propose, send, answer or withdraw a variation of it. The answers go into the documents' cache by the screen.
import type { DocumentDetail, StageInput, VariationInput, VariationSendResult } from '@tradie/contracts';
import { documentPath, type Api } from '../shared/queries.ts';

/** POST /invoices/{quoteId}/stages: the new stage invoice (a numbered draft). */
export const invoiceStage = (api: Api, quoteId: string, body: StageInput, idempotencyKey: string) =>
  api.post<DocumentDetail>(documentPath(quoteId, '/stages'), body, { idempotencyKey });

/** POST /invoices/{quoteId}/variations: the quote with its new variation (awaiting the client's approval). */
export const addVariation = (api: Api, quoteId: string, body: VariationInput, idempotencyKey: string) =>
  api.post<DocumentDetail>(documentPath(quoteId, '/variations'), body, { idempotencyKey });

/** POST /invoices/{quoteId}/variations/{id}/send: emailed with the quote's link (the answer says what happened to the email). */
export const sendVariation = (api: Api, quoteId: string, variationId: string, idempotencyKey: string) =>
  api.post<VariationSendResult>(documentPath(quoteId, `/variations/${encodeURIComponent(variationId)}/send`), undefined, { idempotencyKey });

/** The business records the client's answer given in person, or withdraws the variation: the quote again. */
export const answerVariation = (api: Api, quoteId: string, variationId: string, answer: 'approve' | 'decline' | 'withdraw') =>
  api.post<DocumentDetail>(documentPath(quoteId, `/variations/${encodeURIComponent(variationId)}/${answer}`));
