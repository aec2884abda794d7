// A drafted invoice and its payments, shared by the document decider's spec files.
import type { DocumentEvent } from '../src/documents/events.ts';
import { DomainError } from '../src/errors.ts';
import { linesSchema } from '../src/documents/lines.ts';
import { documentDecider, foldDocument, type DocumentCommand, type DocumentView, type DraftInput } from '../src/documents/document.ts';

export const lines = linesSchema.parse([
  { description: 'Replace hot water cylinder valve', qty: 1, unit_price: 180 },
  { description: 'Labour', qty: 2.5, unit_price: 90 },
]); // 180 + 225 = 405 excl, GST 60.75, total 465.75

export const draftInput = (over: Partial<DraftInput> = {}): DraftInput => ({
  documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total',
  issueDate: '2026-05-04', paymentTerms: '7 days', ...over,
});
export const drafted = (over: Partial<DraftInput> = {}): DocumentEvent => documentDecider.decide({ type: 'DraftDocument', data: draftInput(over) }, { status: 'none' })[0]!;
export const paid = (paymentId: string, amount: string, date = '2026-05-10'): DocumentEvent => ({
  type: 'PaymentRecorded', data: { documentId: 'd1', paymentId, amount, date, method: 'bank_transfer', reference: '' },
});
export const view = (...events: DocumentEvent[]): DocumentView => foldDocument(events) as DocumentView;

/** The events a command gives, or none when the domain refuses it (any other error is a bug and fails the test). */
export function decideOrRefuse(command: DocumentCommand, events: readonly DocumentEvent[]): DocumentEvent[] {
  try {
    return documentDecider.decide(command, foldDocument(events));
  } catch (e) {
    if (e instanceof DomainError) return [];
    throw e;
  }
}
