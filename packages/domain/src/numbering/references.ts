// Sequential references per account and type: QTE-0001, INV-0001, CN-0001, never reused. The counter is
// its own stream (sequence-{accountId}-{type}); its version is the last number handed out, so
// optimistic concurrency on that stream is what keeps two numbers from ever being the same.
import type { DocumentType } from '../documents/events.ts';
import type { SequenceEvent } from './events.ts';

/** What is numbered: quotes, invoices and credit notes, each on its own sequence. */
export type SequenceType = DocumentType | 'credit_note';

export const REFERENCE_PREFIX: Record<SequenceType, string> = { quote: 'QTE', invoice: 'INV', credit_note: 'CN' };

export const formatReference = (type: SequenceType, n: number): string => `${REFERENCE_PREFIX[type]}-${String(n).padStart(4, '0')}`;

/** 'QTE-' or 'INV-' plus the first 8 characters of the id, when there is no reference. */
export const fallbackReference = (type: DocumentType, id: string): string => `${REFERENCE_PREFIX[type]}-${id.slice(0, 8)}`;

export const sequenceStreamId = (accountId: string, type: SequenceType): string => `sequence-${accountId}-${type}`;

/** The next number after a sequence stream at `version` (its version counts the numbers handed out). */
export function allocateReference(version: number, type: SequenceType, documentId: string): SequenceEvent {
  const number = version + 1;
  return { type: 'ReferenceAllocated', data: { documentId, number, reference: formatReference(type, number) } };
}
