// How a quote or invoice reads in the API: the detail from the folded stream (the list record
// from a documents_list row is made beside its query, in the projections package). Every figure comes from the domain (documentFigures, lineTotals)
// as whole cents and is turned into a number rounded to cents only here, at the edge.
import type { DocumentDetail, InvoicePaymentRecord, PaymentRecord } from '@tradie/contracts';
import {
  type DocumentStatus, type DocumentView, type LocalDate, type Payment, type PaymentStatus,
  STATUS_LABELS, accountingDifference, accountingDifferenceText, centsToNumber, clientDisplayName, documentFigures, documentStatus, formatNzd, paidDate,
  paymentStatus, stageCreditedCents, stageSummary, stageTotalCents, toCents,
} from '@tradie/domain';

export const pdfPathOf = (id: string): string => `/invoices/${id}/pdf`;

/** Provider links as extra_data: `{provider}_invoice_id` (and its number). */
export function extraDataOf(d: DocumentView): Record<string, string> {
  if (!d.sync) return {};
  return { [`${d.sync.provider}_invoice_id`]: d.sync.externalId, [`${d.sync.provider}_invoice_number`]: d.sync.externalNumber };
}

/** The accounting system's copy: its totals as it last answered them, and the difference from ours in words. */
function accountingOf(d: DocumentView): DocumentDetail['accounting'] {
  if (!d.sync) return null;
  const reported = d.sync.reported;
  const diff = accountingDifference(d);
  return {
    provider: d.sync.provider,
    reported: reported ? { subtotal: centsToNumber(toCents(reported.subtotal)), gst: centsToNumber(toCents(reported.gst)), total: centsToNumber(toCents(reported.total)), at: reported.at } : null,
    difference: diff ? accountingDifferenceText(d.sync.provider, diff) : null,
  };
}

export const paymentRecordOf = (p: Payment): PaymentRecord => ({
  id: p.paymentId,
  amount: centsToNumber(toCents(p.amount)),
  date: p.date,
  method: p.method,
  reference: p.reference,
  recorded_at: p.recordedAt,
});

/** A payment with the card refunds made on it. */
export const invoicePaymentRecordOf = (d: Pick<DocumentView, 'refunds'>, p: Payment): InvoicePaymentRecord => ({
  ...paymentRecordOf(p),
  refunds: d.refunds.filter((r) => r.paymentId === p.paymentId).map((r) => ({ id: r.refundId, amount: centsToNumber(toCents(r.amount)), date: r.date })),
});

/** The answer to recording a payment: the payment, and what the document owes and is now. */
export interface RecordedPayment extends PaymentRecord {
  balance: number;
  payment_status: PaymentStatus;
  status: DocumentStatus;
}

export function recordedPaymentOf(d: DocumentView, paymentId: string, today: LocalDate): RecordedPayment {
  const payment = d.payments.find((p) => p.paymentId === paymentId);
  if (!payment) throw new Error(`Payment ${paymentId} is not on document ${d.id}`);
  const f = documentFigures(d);
  return { ...paymentRecordOf(payment), balance: centsToNumber(f.balanceCents), payment_status: paymentStatus(d, f), status: documentStatus(d, today, f) };
}

/** The detail of a live document (deleted ones are 404 before they get here). */
export function detailOf(d: DocumentView, version: number, today: LocalDate): DocumentDetail {
  const f = documentFigures(d);
  const status = documentStatus(d, today, f);
  if (status === 'deleted') throw new Error('A deleted document has no detail');
  return {
    id: d.id,
    type: d.type,
    number: d.number,
    reference: d.reference,
    status,
    status_label: STATUS_LABELS[status],
    payment_status: paymentStatus(d, f),
    paid_date: paidDate(d, f),
    client: d.client,
    client_id: d.client?.id ?? null,
    client_name: d.client ? clientDisplayName(d.client) : '',
    issue_date: d.issueDate,
    due_date: d.dueDate,
    valid_until: d.validUntil,
    payment_terms: d.paymentTerms,
    notes: d.notes,
    gst_rounding: d.gstRounding,
    line_items: d.lines.map((l, i) => {
      const lt = f.lines[i]!;
      return {
        description: l.description,
        qty: Number(l.qty),
        unit_price: Number(l.unit_price),
        tax_included: l.tax_included,
        tax_rate: Number(l.tax_rate),
        amount: centsToNumber(lt.amountCents),
        gst: centsToNumber(lt.taxCents),
      };
    }),
    subtotal: centsToNumber(f.subtotalCents),
    gst: centsToNumber(f.gstCents),
    total: centsToNumber(f.totalCents),
    paid: centsToNumber(f.paidCents),
    balance: centsToNumber(f.balanceCents),
    formatted: {
      subtotal: formatNzd(f.subtotalCents),
      gst: formatNzd(f.gstCents),
      total: formatNzd(f.totalCents),
      paid: formatNzd(f.paidCents),
      balance: formatNzd(f.balanceCents),
    },
    credited: centsToNumber(f.creditedCents),
    to_refund: centsToNumber(f.balanceCents < 0n ? -f.balanceCents : 0n),
    payments: d.payments.map((p) => invoicePaymentRecordOf(d, p)),
    sends: d.sends.map((s) => ({ to: s.to, cc: s.cc, bcc: s.bcc, subject: s.subject, at: s.at })),
    // Every attempt with its outcome; only the delivered ones (`sends`) make the document sent.
    send_attempts: d.sendLog.map((s) => ({ to: s.to, cc: s.cc, bcc: s.bcc, subject: s.subject, at: s.at, outcome: s.outcome, detail: s.detail })),
    converted_to: d.convertedTo,
    converted_from: d.convertedFrom,
    extra_data: extraDataOf(d),
    accounting: accountingOf(d),
    void_reason: d.voidReason,
    reminders_paused: d.remindersPaused,
    issued_on: d.issuedOn,
    voided_on: d.voidedOn,
    pdf_url: pdfPathOf(d.id),
    pdf_sha256: d.pdfSha256,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    stages: stagesOf(d),
    is_payment_claim: d.paymentClaim !== null,
    version,
  };
}

/** A quote's stage invoices and the Quoted / Invoiced / Remaining numbers; null for an invoice. */
function stagesOf(d: DocumentView): DocumentDetail['stages'] {
  if (d.type !== 'quote') return null;
  // Invoiced is net of the credit notes on the stage invoices: a credited stage gives its share back.
  const sum = stageSummary(d.lines, d.gstRounding, d.stages, d.stageCredits);
  return {
    quoted: centsToNumber(sum.quotedCents),
    invoiced: centsToNumber(sum.invoicedCents),
    remaining: centsToNumber(sum.remainingCents),
    invoices: d.stages.map((s) => ({
      id: s.invoiceId, reference: s.reference, kind: s.kind, total: centsToNumber(stageTotalCents(s)), credited: centsToNumber(stageCreditedCents(s, d.stageCredits)),
    })),
  };
}
