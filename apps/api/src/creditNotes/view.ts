// How a credit note reads in the API. Every figure is the domain's, in whole cents, turned into a
// number rounded to cents only here.
import type { CreditNoteRecord } from '@tradie/contracts';
import { type CreditNote, type DocumentView, centsToNumber, clientDisplayName, documentTotals, formatNzd, refundedOn, toCents } from '@tradie/domain';
import { lineRecordsOf } from '../documents/view.ts';

export const creditNotePdfPathOf = (id: string): string => `/credit-notes/${id}/pdf`;

/**
 * The credited lines, shown without GST so they add up to the credit's own subtotal (which, for the
 * credit that closes an invoice, carries what was left and can be a cent from its lines' own).
 */
function creditNoteLineRecords(invoice: DocumentView, note: CreditNote): CreditNoteRecord['line_items'] {
  const lines = note.lines.map((l) => l.line);
  const records = lineRecordsOf(lines, documentTotals(lines, invoice.gstRounding), toCents(note.subtotal));
  return records.map((r, i) => ({ line_index: note.lines[i]!.lineIndex, ...r }));
}

export function creditNoteRecordOf(invoice: DocumentView, note: CreditNote): CreditNoteRecord {
  const refunded = refundedOn(note);
  return {
    id: note.creditNoteId,
    number: note.number,
    reference: note.reference,
    invoice_id: invoice.id,
    invoice_reference: note.invoiceReference,
    date: note.date,
    reason: note.reason,
    supplier: { name: note.supplier.name, gst_number: note.supplier.gstNumber },
    client: invoice.client,
    client_name: invoice.client ? clientDisplayName(invoice.client) : '',
    line_items: creditNoteLineRecords(invoice, note),
    amount: note.amount === null ? null : centsToNumber(toCents(note.amount)),
    subtotal: centsToNumber(toCents(note.subtotal)),
    gst: centsToNumber(toCents(note.gst)),
    total: centsToNumber(toCents(note.total)),
    refunded: centsToNumber(refunded),
    refunds: note.refunds.map((r) => ({ id: r.refundId, amount: centsToNumber(toCents(r.amount)), date: r.date, method: r.method, reference: r.reference, recorded_at: r.recordedAt })),
    formatted: { subtotal: formatNzd(toCents(note.subtotal)), gst: formatNzd(toCents(note.gst)), total: formatNzd(toCents(note.total)), refunded: formatNzd(refunded) },
    pdf_url: creditNotePdfPathOf(note.creditNoteId),
    sends: note.sends.map((x) => ({ to: x.to, cc: x.cc, bcc: x.bcc, subject: x.subject, at: x.at, outcome: x.outcome, detail: x.detail })),
    created_at: note.issuedAt,
  };
}
