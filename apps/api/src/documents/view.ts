// How a quote or invoice reads in the API: the detail from the folded stream (the list record
// from a documents_list row is made beside its query, in the projections package). Every figure comes from the domain (documentFigures, lineTotals)
// as whole cents and is turned into a number rounded to cents only here, at the edge.
import { ACCOUNTING_MESSAGES, type DepositRecord, type DocumentDetail, type InvoicePaymentRecord, type LineRecord, type PaymentRecord, type RecordedPaymentRecord, type VariationRecord } from '@tradie/contracts';
import {
  type DocumentTotals, type DocumentView, type Line, type LocalDate, type Payment, type Variation,
  STATUS_LABELS, VARIATION_STATUS_LABELS, accountingDifference, accountingExtraData, accountingDifferenceText, centsToNumber, clientDisplayName, documentFigures, documentStatus, documentTitleOf, depositCentsOf, depositWording,
  documentTotals, formatNzd, paidDate, paymentTermsText, profitOfDocument, paymentStatus, quoteStageBasis, shownLineText, shownLines, stageCreditedCents, stageLedger, stageSummary, stageSummaryOn, stageTotalCents, toCents, variationName, variationsSummary,
} from '@tradie/domain';

import { costedLineRecordsOf, documentProfitRecordOf } from './profitView.ts';

export const pdfPathOf = (id: string): string => `/invoices/${id}/pdf`;

/** The accounting system's copy as extra_data, as the list says it (accountingExtraData). */
export const extraDataOf = (d: DocumentView): Record<string, string> => accountingExtraData(d);

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

/** The answer to recording a payment: the payment, and what the document owes and is now (its contract: recordedPaymentRecord). */
export type RecordedPayment = RecordedPaymentRecord;

export function recordedPaymentOf(d: DocumentView, paymentId: string, today: LocalDate): RecordedPayment {
  const payment = d.payments.find((p) => p.paymentId === paymentId);
  if (!payment) throw new Error(`Payment ${paymentId} is not on document ${d.id}`);
  const f = documentFigures(d);
  const status = documentStatus(d, today, f);
  if (status === 'deleted') throw new Error('A deleted document takes no payment');
  const record: RecordedPayment = { ...paymentRecordOf(payment), balance: centsToNumber(f.balanceCents), payment_status: paymentStatus(d, f), status };
  // Xero's copy is voided: the push leaves it alone (integrations/xero/sync.ts), so the payment stays here only; said so.
  if (d.sync?.voidedThere && d.status !== 'void') record.warning = ACCOUNTING_MESSAGES.paymentVoidedThere;
  return record;
}

/**
 * Lines as the API answers them: as stored and priced, and as every surface shows them, without GST
 * so they add up to `subtotalCents` (the document's own, or a credit note's: shownLines).
 */
export function lineRecordsOf(lines: readonly Line[], totals: DocumentTotals, subtotalCents: bigint = totals.subtotalCents): LineRecord[] {
  const shown = shownLines(lines, totals, subtotalCents);
  return lines.map((l, i) => {
    const lt = totals.lines[i]!;
    const text = shownLineText(shown[i]!);
    return {
      description: l.description,
      qty: Number(l.qty),
      unit_price: Number(l.unit_price),
      tax_included: l.tax_included,
      tax_rate: Number(l.tax_rate),
      amount: centsToNumber(lt.amountCents),
      gst: centsToNumber(lt.taxCents),
      amount_excl_gst: centsToNumber(shown[i]!.amountCents),
      formatted: { unit_price: text.unitPrice, amount: text.amount },
    };
  });
}

/** A quote's deposit as every screen, its PDF and its page show it: the deposit stage's own figure. */
export function depositRecordOf(d: Pick<DocumentView, 'type' | 'deposit' | 'lines' | 'gstRounding'>): DepositRecord | null {
  if (d.type !== 'quote' || !d.deposit) return null;
  const cents = depositCentsOf(d.lines, d.gstRounding, d.deposit);
  return { percent: 'percent' in d.deposit ? d.deposit.percent : null, amount: centsToNumber(cents), formatted: formatNzd(cents), wording: depositWording(d.deposit, cents) };
}

/** The detail of a live document (deleted ones are 404 before they get here). */
export function detailOf(d: DocumentView, version: number, today: LocalDate, gstNotice: string | null = null): DocumentDetail {
  const f = documentFigures(d);
  const status = documentStatus(d, today, f);
  if (status === 'deleted') throw new Error('A deleted document has no detail');
  return {
    id: d.id,
    type: d.type,
    number: d.number,
    reference: d.reference,
    title: documentTitleOf(d),
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
    payment_terms_text: paymentTermsText(d.paymentTerms, d.dueDate),
    notes: d.notes,
    job_title: d.jobTitle,
    site_address: d.siteAddress,
    deposit: depositRecordOf(d),
    gst_rounding: d.gstRounding,
    gst_registered: d.gstRegistered,
    line_items: costedLineRecordsOf(d.lines, lineRecordsOf(d.lines, f)),
    profit: documentProfitRecordOf(profitOfDocument(d)),
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
    variations: d.type === 'quote' ? variationRecordsOf(d) : [],
    variations_summary: d.type === 'quote' && d.variations.length > 0 ? variationsSummary(d) : null,
    is_payment_claim: d.paymentClaim !== null,
    gst_notice: gstNotice,
    version,
  };
}

/** Lines as the API shows them, each with its amount and its own GST (from documentTotals of the same lines). */
/** A quote's variations: each its own figures, where it stands, and what stage invoices took of it. */
export function variationRecordsOf(d: DocumentView): VariationRecord[] {
  if (d.variations.length === 0) return [];
  const basis = quoteStageBasis(d);
  const ledger = stageLedger(basis.lines.length, d.stages, d.stageCredits);
  return d.variations.map((v: Variation) => {
    const t = documentTotals(v.lines, d.gstRounding);
    const indexes = v.lines.map((_, k) => v.firstLine + k);
    const value = indexes.reduce((a, i) => a + basis.values[i]!, 0n);
    const invoiced = indexes.reduce((a, i) => a + ledger[i]!.invoicedCents, 0n);
    const a = v.clientAcceptance;
    return {
      id: v.variationId,
      number: v.number,
      name: variationName(v),
      note: v.note,
      status: v.status,
      status_label: VARIATION_STATUS_LABELS[v.status],
      line_items: lineRecordsOf(v.lines, t),
      line_indexes: indexes,
      subtotal: centsToNumber(t.subtotalCents),
      gst: centsToNumber(t.gstCents),
      total: centsToNumber(t.totalCents),
      formatted: { subtotal: formatNzd(t.subtotalCents), gst: formatNzd(t.gstCents), total: formatNzd(t.totalCents) },
      invoiced: centsToNumber(invoiced),
      remaining: centsToNumber(value > invoiced ? value - invoiced : 0n),
      proposed_at: v.proposedAt,
      send_attempts: v.sendLog.map((x) => ({ to: x.to, cc: x.cc, bcc: x.bcc, subject: x.subject, at: x.at, outcome: x.outcome, detail: x.detail })),
      approved_at: v.status === 'approved' ? v.approvedAt : null,
      approved_by: v.status === 'approved' ? (a ? 'client' : 'business') : null,
      signer_name: a?.signerName ?? null,
      signed: a?.signatureSha256 != null,
      declined_at: v.status === 'declined' ? v.declinedAt : null,
      declined_by: v.status === 'declined' ? (v.declinedByClient ? 'client' : 'business') : null,
      decline_note: v.declineNote,
      withdrawn_at: v.withdrawnAt,
    };
  });
}

/** A quote's stage invoices and the Quoted / Invoiced / Remaining numbers; null for an invoice. */
function stagesOf(d: DocumentView): DocumentDetail['stages'] {
  if (d.type !== 'quote') return null;
  // Invoiced is net of the credit notes on the stage invoices: a credited stage gives its share back.
  // Without variations the quote's own lines are the basis (the same figures, worked once).
  const sum = d.variations.length === 0 ? stageSummary(d.lines, d.gstRounding, d.stages, d.stageCredits) : stageSummaryOn(quoteStageBasis(d), d.stages, d.stageCredits);
  return {
    quoted: centsToNumber(sum.quotedCents),
    invoiced: centsToNumber(sum.invoicedCents),
    remaining: centsToNumber(sum.remainingCents),
    invoices: d.stages.map((s) => ({
      id: s.invoiceId, reference: s.reference, kind: s.kind, total: centsToNumber(stageTotalCents(s)), credited: centsToNumber(stageCreditedCents(s, d.stageCredits)),
    })),
  };
}
