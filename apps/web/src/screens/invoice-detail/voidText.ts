// The confirm before Void: what it does to the reports, in the tradie's words.
import type { DocumentDetail } from '@tradie/contracts';

/** What voiding does to the reports, said before it happens. */
export function voidConfirmText(doc: Pick<DocumentDetail, 'type' | 'issued_on' | 'reference'>): string {
  if (doc.type === 'quote') return `Void ${doc.reference}? Its number stays used and it can't be changed again.`;
  if (doc.issued_on === null) return `Void ${doc.reference}? It is a draft that was never issued, so no report changes. Its number stays used and it can't be changed again.`;
  return `Void ${doc.reference}? It stays in the GST report for the period it was issued, and is taken off again in the period you void it (today). Its number stays used and it can't be changed again.`;
}
