// What the reports read: one row per issued invoice and one per payment (and per removal of a
// payment), as pure functions of the invoice's state. The read model stores exactly these rows;
// `npm run replay` computes them in memory. Both then add up whole cents, so the API and the
// replay can never disagree.
//
// Two rules shape the rows (docs/decisions/0001):
// - Only issued invoices are supplies. A draft (never sent, marked issued or paid against) has no
//   rows, so it counts in no report.
// - A correction falls in the period it is made. A voided invoice keeps its row in the period of
//   its supply and carries the day it was voided, where the reports subtract it again; a removed
//   payment keeps its row and gains a negative one dated the day of the removal. A report for a
//   period already filed therefore never changes.
import { clientDisplayName } from '../clients/displayName.ts';
import { type LocalDate, monthOf } from '../dates/dates.ts';
import { type DocumentFigures, type DocumentView, documentFigures, paidDate, paymentStatus } from '../documents/document.ts';
import type { CentsFigures } from '../gst/gst.ts';
import { apportionCumulative } from '../money/rounding.ts';
import { toCents } from '../money/money.ts';

/** The client and the amounts of an invoice's row or a credit note's, in whole cents. */
export interface ReportRowFigures extends CentsFigures {
  /** '' when there is no client. */
  clientName: string;
  clientGstNumber: string;
}

export interface ReportInvoiceRow extends ReportRowFigures {
  documentId: string;
  reference: string;
  issueDate: LocalDate;
  /** The month of the issue date (annual summary). */
  month: string;
  /**
   * The time of supply for GST on the invoice basis: the issue date, or the first payment when
   * a payment (a deposit) came before the invoice (docs/decisions/0001). The whole sale counts then.
   */
  supplyDate: LocalDate;
  supplyMonth: string;
  paid: boolean;
  paidDate: LocalDate | null;
  /** The NZ day an issued invoice was voided (its reversal is dated then), or null. */
  voidDate: LocalDate | null;
  voidMonth: string | null;
}

/** A payment received, the reversal of one that was removed later, or money refunded on one (negative, on its date). */
export type PaymentRowKind = 'payment' | 'removal' | 'refund';

export interface ReportPaymentRow {
  documentId: string;
  paymentId: string;
  kind: PaymentRowKind;
  date: LocalDate;
  month: string;
  amountCents: bigint;
  /** This payment's share of the invoice's GST (payments basis). */
  gstCents: bigint;
  /** This payment's share of the invoice's zero-rated supplies. */
  zeroRatedCents: bigint;
  /** Whether the invoice is paid in full now. */
  invoicePaid: boolean;
  /** Whether the invoice is void now (its payments were removed first). */
  invoiceVoided: boolean;
  /** For a refund row: the provider's refund id (one row per refund). */
  refundId?: string;
}

/**
 * A credit note against an issued invoice: on the invoice basis negative sales and GST in the
 * period of its date, whatever period the invoice fell in (the invoice's own row never changes).
 * Amounts are the credit's, positive; the reports subtract them.
 */
export interface ReportCreditRow extends ReportRowFigures {
  documentId: string;
  creditNoteId: string;
  reference: string;
  invoiceReference: string;
  date: LocalDate;
  month: string;
}

/** Whether an invoice counts in the reports: issued (sent, marked issued or paid against), and not a deleted draft. */
export const isReportedSupply = (d: DocumentView): boolean => d.type === 'invoice' && d.issuedOn !== null && d.status !== 'deleted';

/** A draft invoice: never issued, not voided or deleted. The reports leave it out and say how many. */
export const isDraftInvoice = (d: DocumentView): boolean => d.type === 'invoice' && d.status === 'draft';

/**
 * Quotes, drafts and deleted drafts have no rows: they are not supplies. `figures` are the
 * document's own `documentFigures(d)` when the caller has them already (a projection that shares
 * them with other read models); the rows are the same either way.
 */
export function reportRowsOf(
  d: DocumentView,
  figures?: DocumentFigures,
): { invoice: ReportInvoiceRow | null; payments: ReportPaymentRow[]; credits: ReportCreditRow[] } {
  if (!isReportedSupply(d)) return { invoice: null, payments: [], credits: [] };
  const f = figures ?? documentFigures(d);
  // A voided invoice is neither paid nor unpaid (a zero-total one would otherwise look paid).
  const paid = d.status !== 'void' && paymentStatus(d, f) === 'paid';
  // Every payment ever received counts for the time of supply, removed ones too: an earlier
  // period's report never changes because of a later correction.
  const supplyDate = d.paymentLog.reduce((earliest, p) => (p.kind === 'recorded' && p.date < earliest ? p.date : earliest), d.issueDate);
  const voidDate = d.status === 'void' ? (d.voidedOn ?? d.issueDate) : null;
  const clientName = d.client ? clientDisplayName(d.client) : '';
  const invoice: ReportInvoiceRow = {
    documentId: d.id,
    reference: d.reference,
    issueDate: d.issueDate,
    month: monthOf(d.issueDate),
    supplyDate,
    supplyMonth: monthOf(supplyDate),
    clientName,
    clientGstNumber: d.client?.gst_number ?? '',
    subtotalCents: f.subtotalCents,
    gstCents: f.gstCents,
    totalCents: f.totalCents,
    zeroRatedCents: f.zeroRatedCents,
    paid,
    paidDate: paidDate(d, f),
    voidDate,
    voidMonth: voidDate ? monthOf(voidDate) : null,
  };
  // Shares are apportioned over the running balance received, in the order payments were
  // recorded and removed (a removal is a negative step), cumulatively: each step's share depends
  // only on the steps before it, so a later correction never changes an earlier row, and the
  // payments of a fully paid invoice carry exactly its GST and zero-rated value.
  let before = 0n;
  const payments = d.paymentLog.map((p): ReportPaymentRow => {
    const amountCents = p.kind === 'recorded' ? toCents(p.amount) : -toCents(p.amount);
    const row: ReportPaymentRow = {
      documentId: d.id,
      paymentId: p.paymentId,
      kind: p.kind === 'recorded' ? 'payment' : p.kind === 'refunded' ? 'refund' : 'removal',
      date: p.date,
      month: monthOf(p.date),
      amountCents,
      gstCents: apportionCumulative(f.gstCents, f.totalCents, before, amountCents),
      zeroRatedCents: apportionCumulative(f.zeroRatedCents, f.totalCents, before, amountCents),
      invoicePaid: paid,
      invoiceVoided: voidDate !== null,
      ...(p.refundId !== undefined ? { refundId: p.refundId } : {}),
    };
    before += amountCents;
    return row;
  });
  const credits: ReportCreditRow[] = [];
  for (const n of d.creditNotes) {
    const totalCents = toCents(n.total);
    credits.push({
      documentId: d.id, creditNoteId: n.creditNoteId, reference: n.reference, invoiceReference: d.reference, date: n.date, month: monthOf(n.date),
      clientName, clientGstNumber: d.client?.gst_number ?? '',
      subtotalCents: toCents(n.subtotal), gstCents: toCents(n.gst), totalCents, zeroRatedCents: toCents(n.zeroRated),
    });
    // Money paid back on a credit note counts on the payments basis when it is paid back, with
    // the credit note's share of GST (a credit that only lowered what was owing has no row).
    let refundedBefore = 0n;
    for (const r of n.refunds) {
      const cents = toCents(r.amount);
      payments.push({
        documentId: d.id, paymentId: n.creditNoteId, kind: 'refund', date: r.date, month: monthOf(r.date), amountCents: -cents,
        gstCents: -apportionCumulative(toCents(n.gst), totalCents, refundedBefore, cents),
        zeroRatedCents: -apportionCumulative(toCents(n.zeroRated), totalCents, refundedBefore, cents),
        invoicePaid: paid, invoiceVoided: voidDate !== null, refundId: r.refundId,
      });
      refundedBefore += cents;
    }
  }
  return { invoice, payments, credits };
}
