// Server calls of the credit notes (docs/api/credit-notes.md): an invoice's credit notes, crediting
// it, one credit note's PDF, emailing it to the client and money paid back against one. The list hangs under the invoice's
// detail key, so whatever reloads the documents reloads it too.
import { queryOptions } from '@tanstack/react-query';
import type { CreditNoteInput, CreditNoteRecord, CreditNoteRefundInput, CreditNoteSendResult } from '@tradie/contracts';
import { documentKeys, documentPath, type Api } from '../shared/queries.ts';

export const creditNoteKeys = {
  list: (invoiceId: string) => [...documentKeys.detail(invoiceId), 'credit-notes'] as const,
};

const notePath = (id: string, rest = ''): string => `/credit-notes/${encodeURIComponent(id)}${rest}`;

/** GET /invoices/{id}/credit-notes: oldest first. */
export const creditNotesQuery = (api: Api, invoiceId: string) =>
  queryOptions({
    queryKey: creditNoteKeys.list(invoiceId),
    queryFn: ({ signal }) => api.get<CreditNoteRecord[]>(documentPath(invoiceId, '/credit-notes'), { signal }),
  });

/** POST /invoices/{id}/credit-notes: the new credit note. */
export const issueCreditNote = (api: Api, invoiceId: string, body: CreditNoteInput, idempotencyKey: string) =>
  api.post<CreditNoteRecord>(documentPath(invoiceId, '/credit-notes'), body, { idempotencyKey });

/** POST /credit-notes/{id}/refunds: the credit note with the refund. */
export const recordRefund = (api: Api, noteId: string, body: CreditNoteRefundInput, idempotencyKey: string) =>
  api.post<CreditNoteRecord>(notePath(noteId, '/refunds'), body, { idempotencyKey });

/** POST /credit-notes/{id}/send: emails it to the client; the answer says what happened to the email. */
export const sendCreditNote = (api: Api, noteId: string, idempotencyKey: string) => api.post<CreditNoteSendResult>(notePath(noteId, '/send'), undefined, { idempotencyKey });

/** GET /credit-notes/{id}/pdf (needs the bearer header, so fetched as a blob). */
export const fetchCreditNotePdf = (api: Api, noteId: string) => api.blob(notePath(noteId, '/pdf'));
