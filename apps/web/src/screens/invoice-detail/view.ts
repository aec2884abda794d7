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

/** Every action the detail can offer, by name. */
export type ActionKey = 'edit' | 'send' | 'issue' | 'payment' | 'markPaid' | 'convert' | 'accept' | 'decline' | 'credit' | 'sync' | 'duplicate' | 'remove' | 'void';

/**
 * The one action that moves the document on from where it stands: Send a draft, Record payment on
 * an unpaid invoice, Convert an accepted quote (not yet invoiced in stages), Accept a quote awaiting
 * its answer. None on a void, paid or converted document, or an accepted quote invoiced in stages.
 */
export function primaryActionOf(doc: Pick<DocumentDetail, 'status' | 'converted_to' | 'stages'>, view: Pick<DetailView, 'isVoid' | 'isQuote' | 'paid'>): ActionKey | null {
  if (view.isVoid) return null;
  if (doc.status === 'draft') return 'send';
  if (!view.isQuote) return view.paid ? null : 'payment';
  if (doc.converted_to !== null) return null;
  if (doc.status === 'accepted') return doc.stages?.invoices.length ? null : 'convert';
  return 'accept';
}
