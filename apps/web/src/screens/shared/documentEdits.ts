// Changing a quote or invoice after it was made: which documents can still be edited (and why not),
// and the calls behind Edit, Duplicate, Delete draft and 'Void and re-issue'. Shared by the detail
// (its buttons) and the calculator (its edit mode), so both say the same thing.
import type { DocumentDetail, ReviseDocumentInput } from '@tradie/contracts';
import { isSynced, PROVIDER_NAME } from './documents.ts';
import { documentPath, type Api } from './queries.ts';

/** What an edit needs to know of a document. */
export type EditableFacts = Pick<DocumentDetail, 'type' | 'status' | 'sends' | 'payments' | 'extra_data' | 'converted_to'>;

/**
 * How a document that cannot be edited is replaced: an invoice is voided and a copy opened
 * ('Void and re-issue'); a quote is left as it is and a copy opened ('Copy to a new quote').
 */
export type Replacement = 'void-and-copy' | 'copy' | null;

export type Editability = { editable: true } | { editable: false; reason: string; replace: Replacement };

export const SENT_CANNOT_CHANGE = "Sent documents can't be changed — void it and issue a new one";

/**
 * A draft nobody has seen, paid or synced can be edited (and deleted); anything else says why not,
 * in the words of the rule the server applies (the domain's document decider), and how to replace it.
 */
export function editability(doc: EditableFacts): Editability {
  const isQuote = doc.type === 'quote';
  if (doc.status === 'void') return { editable: false, reason: `This ${isQuote ? 'quote' : 'invoice'} is void. Duplicate it to start again.`, replace: null };
  if (doc.payments.length > 0) {
    return { editable: false, reason: "This invoice has payments recorded, so it can't be changed. Remove the payments, then void it and issue a new one.", replace: null };
  }
  const unsentDraft = doc.sends.length === 0 && (doc.status === 'draft' || (isQuote && doc.status === 'expired'));
  if (unsentDraft && isSynced(doc.extra_data)) {
    return { editable: false, reason: `This invoice is synced to ${PROVIDER_NAME}, so it can't be changed here — void it and issue a new one`, replace: 'void-and-copy' };
  }
  if (unsentDraft) return { editable: true };
  if (isQuote) {
    const what = doc.converted_to !== null ? 'This quote has been turned into an invoice' : doc.sends.length > 0 ? 'Sent quotes' : 'Answered quotes';
    return { editable: false, reason: `${what} can't be changed — copy it to a new quote instead`, replace: 'copy' };
  }
  return { editable: false, reason: doc.sends.length > 0 ? SENT_CANNOT_CHANGE : "Issued invoices can't be changed — void it and issue a new one", replace: 'void-and-copy' };
}

/** Only a draft nobody has seen is deleted; the detail offers Delete draft exactly when it can be edited. */
export const isDeletableDraft = (doc: EditableFacts): boolean => editability(doc).editable;

/** 'Delete draft INV-0003?' */
export const deleteDraftConfirm = (reference: string): string => `Delete draft ${reference}?`;

/** PUT /invoices/{id}: the revision, with the version the edit started from (409 when someone else changed it meanwhile). */
export const reviseDocument = (api: Api, id: string, body: ReviseDocumentInput) => api.put<DocumentDetail>(documentPath(id), body);

/** POST /invoices/{id}/duplicate: a new draft (201), once per Idempotency-Key. */
export const duplicateDocument = (api: Api, id: string, idempotencyKey: string) => api.post<DocumentDetail>(documentPath(id, '/duplicate'), undefined, { idempotencyKey });

/** DELETE /invoices/{id}: an unseen draft is deleted (anything else would be voided; the detail asks only for drafts). */
export const deleteDocument = (api: Api, id: string) => api.del<{ id: string; outcome: 'deleted' | 'voided' }>(documentPath(id));

/** POST /invoices/{id}/void. */
export const voidDocument = (api: Api, id: string) => api.post<DocumentDetail>(documentPath(id, '/void'));
