// What the detail's parts derive from the document: the reference, which buttons apply, money text.
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzd } from '@tradie/domain';
import { centsOf, isSynced, referenceOf } from '../shared/documents.ts';

export const money = (n: number): string => formatNzd(centsOf(n));

export interface DetailView {
  isQuote: boolean;
  reference: string;
  isVoid: boolean;
  paid: boolean;
  synced: boolean;
  /** A quote that can still be converted, accepted or declined. */
  openQuote: boolean;
  /** An invoice not yet sent, marked issued or paid: not in the GST report. */
  isDraftInvoice: boolean;
}

export function detailView(doc: DocumentDetail): DetailView {
  const isQuote = doc.type === 'quote';
  const isVoid = doc.status === 'void';
  return {
    isQuote,
    reference: referenceOf(doc),
    isVoid,
    paid: doc.payment_status === 'paid',
    synced: isSynced(doc.extra_data),
    openQuote: isQuote && !isVoid && doc.converted_to === null && doc.status !== 'declined',
    isDraftInvoice: !isQuote && !isVoid && doc.issued_on === null,
  };
}
