// What the reports read: one row per live invoice and one per payment, as pure functions of the
// invoice's state. The read model stores exactly these rows; `npm run replay` computes them in
// memory. Both then add up whole cents, so the API and the replay can never disagree.
import { clientDisplayName } from '../clients/displayName.ts';
import { type LocalDate, monthOf } from '../dates/dates.ts';
import { type DocumentView, documentFigures, paidDate, paymentStatus } from '../documents/document.ts';
import { apportionCumulative } from '../money/rounding.ts';
import { toCents } from '../money/money.ts';

export interface ReportInvoiceRow {
  documentId: string;
  reference: string;
  issueDate: LocalDate;
  /** The month of the issue date (annual summary). */
  month: string;
  /**
   * The time of supply for GST on the invoice basis: the issue date, or the first payment when
   * a payment (a deposit) came before the invoice (nz-rules.md §3.2). The whole sale counts then.
   */
  supplyDate: LocalDate;
  supplyMonth: string;
  /** '' when the invoice has no client. */
  clientName: string;
  clientGstNumber: string;
  subtotalCents: bigint;
  gstCents: bigint;
  totalCents: bigint;
  /** GST-inclusive value of zero-rated lines (GST return Box 6). */
  zeroRatedCents: bigint;
  paid: boolean;
  paidDate: LocalDate | null;
}

export interface ReportPaymentRow {
  documentId: string;
  paymentId: string;
  date: LocalDate;
  month: string;
  amountCents: bigint;
  /** This payment's share of the invoice's GST (payments basis). */
  gstCents: bigint;
  /** This payment's share of the invoice's zero-rated supplies. */
  zeroRatedCents: bigint;
  /** Whether the invoice is paid in full now. */
  invoicePaid: boolean;
}

/** Quotes, voided and deleted invoices have no rows: they are not supplies. */
export function reportRowsOf(d: DocumentView): { invoice: ReportInvoiceRow | null; payments: ReportPaymentRow[] } {
  if (d.type !== 'invoice' || d.status === 'void' || d.status === 'deleted') return { invoice: null, payments: [] };
  const f = documentFigures(d);
  const paid = paymentStatus(d, f) === 'paid';
  const supplyDate = d.payments.reduce((earliest, p) => (p.date < earliest ? p.date : earliest), d.issueDate);
  const invoice: ReportInvoiceRow = {
    documentId: d.id,
    reference: d.reference,
    issueDate: d.issueDate,
    month: monthOf(d.issueDate),
    supplyDate,
    supplyMonth: monthOf(supplyDate),
    clientName: d.client ? clientDisplayName(d.client) : '',
    clientGstNumber: d.client?.gst_number ?? '',
    subtotalCents: f.subtotalCents,
    gstCents: f.gstCents,
    totalCents: f.totalCents,
    zeroRatedCents: f.zeroRatedCents,
    paid,
    paidDate: paidDate(d, f),
  };
  // Shares are apportioned in the order the payments were recorded, cumulatively, so the
  // payments of a fully paid invoice carry exactly its GST and zero-rated value.
  let before = 0n;
  const payments = d.payments.map((p): ReportPaymentRow => {
    const amountCents = toCents(p.amount);
    const row: ReportPaymentRow = {
      documentId: d.id,
      paymentId: p.paymentId,
      date: p.date,
      month: monthOf(p.date),
      amountCents,
      gstCents: apportionCumulative(f.gstCents, f.totalCents, before, amountCents),
      zeroRatedCents: apportionCumulative(f.zeroRatedCents, f.totalCents, before, amountCents),
      invoicePaid: paid,
    };
    before += amountCents;
    return row;
  });
  return { invoice, payments };
}
