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
import { type DocumentFigures, type DocumentView, type PaymentLogEntry, documentFigures, paidDate, paymentStatus, timeOfSupply } from '../documents/document.ts';
import type { CentsFigures } from '../gst/gst.ts';
import { roundShare } from '../money/rounding.ts';
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
  /** The instant it was first issued (null when the app did not record it): whether it came after a GST export (gstCarry.ts). */
  issuedAt: string | null;
  paid: boolean;
  paidDate: LocalDate | null;
  /** The NZ day an issued invoice was voided (its reversal is dated then), or null. */
  voidDate: LocalDate | null;
  voidMonth: string | null;
}

/**
 * A payment received, the reversal of one that was removed later, money refunded on one or paid
 * back on a credit note (negative, on its date), or the GST a credit note moves on money already
 * received when it leaves nothing owed either way (no money, its date).
 */
export type PaymentRowKind = 'payment' | 'removal' | 'refund' | 'credit';

export interface ReportPaymentRow {
  documentId: string;
  /** The payment's id; for money paid back on a credit note, or a credit row, the credit note's. */
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
  const supplyDate = timeOfSupply(d);
  const voidDate = d.status === 'void' ? (d.voidedOn ?? d.issueDate) : null;
  const clientName = d.client ? clientDisplayName(d.client) : '';
  const invoice: ReportInvoiceRow = {
    documentId: d.id,
    reference: d.reference,
    issueDate: d.issueDate,
    month: monthOf(d.issueDate),
    supplyDate,
    supplyMonth: monthOf(supplyDate),
    issuedAt: d.issuedAt,
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
  const payments = paymentRowsOf(d, f, { invoicePaid: paid, invoiceVoided: voidDate !== null });
  const credits: ReportCreditRow[] = d.creditNotes.map((n) => ({
    documentId: d.id, creditNoteId: n.creditNoteId, reference: n.reference, invoiceReference: d.reference, date: n.date, month: monthOf(n.date),
    clientName, clientGstNumber: d.client?.gst_number ?? '',
    subtotalCents: toCents(n.subtotal), gstCents: toCents(n.gst), totalCents: toCents(n.total), zeroRatedCents: toCents(n.zeroRated),
  }));
  return { invoice, payments, credits };
}

/**
 * The payments-basis rows of an invoice: one per step of its payment log that moves money
 * (payment, removal, refund of a payment, money paid back on a credit note), and one for a credit
 * note that leaves nothing owed either way while money is held, when it moves any GST.
 *
 * Each row's share of GST is worked cumulatively over the whole invoice, in the order things
 * happened: what the money held after the step carries, less what the rows before it carried.
 * Money held carries its share of the invoice as it stands then, net of the credit notes issued
 * so far: round(held × (GST − credited GST) / (total − credited)), half up (while everything is
 * credited, at the invoice's own rate until the money is paid back). So a step's share depends
 * only on the steps before it (a later correction never changes an earlier row); without credit
 * notes the shares are exactly the payments' cumulative shares of the invoice's GST; and once
 * nothing is owed either way (held = total − credited), the rows carry exactly the invoice's GST
 * less its credit notes' — the invoice basis's figure, to the cent. The zero-rated share the same.
 */
export function paymentRowsOf(d: DocumentView, f: DocumentFigures, now: { invoicePaid: boolean; invoiceVoided: boolean }): ReportPaymentRow[] {
  const notes = new Map(d.creditNotes.map((n) => [n.creditNoteId, n]));
  let held = 0n;
  const credited = { total: 0n, gst: 0n, zero: 0n };
  const carried = { gst: 0n, zero: 0n };
  /** What `held` carries of GST and of the zero-rated value, of the invoice net of the credits so far. */
  const shareOf = (of: bigint, creditedOf: bigint): bigint => {
    const netTotal = f.totalCents - credited.total;
    return netTotal > 0n ? roundShare(of - creditedOf, held, netTotal) : roundShare(of, held, f.totalCents);
  };
  const rows: ReportPaymentRow[] = [];
  const step = (p: PaymentLogEntry, kind: PaymentRowKind, amountCents: bigint): void => {
    const gst = shareOf(f.gstCents, credited.gst);
    const zero = shareOf(f.zeroRatedCents, credited.zero);
    rows.push({
      documentId: d.id, paymentId: p.paymentId, kind, date: p.date, month: monthOf(p.date), amountCents,
      gstCents: gst - carried.gst, zeroRatedCents: zero - carried.zero, ...now,
      ...(p.refundId !== undefined ? { refundId: p.refundId } : {}),
    });
    carried.gst = gst;
    carried.zero = zero;
  };
  for (const p of d.paymentLog) {
    const cents = toCents(p.amount);
    if (p.kind === 'credited') {
      const n = notes.get(p.paymentId);
      if (!n) continue;
      credited.total += toCents(n.total);
      credited.gst += toCents(n.gst);
      credited.zero += toCents(n.zeroRated);
      // Money held and nothing owed either way: it now carries the invoice's GST net of credits.
      if (held !== 0n && held === f.totalCents - credited.total) {
        const before = rows.length;
        step(p, 'credit', 0n);
        const row = rows[before]!;
        if (row.gstCents === 0n && row.zeroRatedCents === 0n) rows.pop();
      }
      continue;
    }
    const amountCents = p.kind === 'recorded' ? cents : -cents;
    held += amountCents;
    step(p, p.kind === 'recorded' ? 'payment' : p.kind === 'removed' ? 'removal' : 'refund', amountCents);
  }
  return rows;
}
