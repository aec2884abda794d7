// Figures and statuses derived from a document's state (never stored by hand): totals, balance, paid, status.
import { type LocalDate, compareDates } from '../dates/dates.ts';
import { type DocumentTotals, documentTotals } from '../gst/gst.ts';
import { toCents } from '../money/money.ts';
import { creditRefundedCents, creditedCents } from './creditNotes.ts';
import type { DocumentType } from './events.ts';
import type { Lifecycle, DocumentView } from './view.ts';

// ---- derived figures ----------------------------------------------------------------------

export interface DocumentFigures extends DocumentTotals {
  paidCents: bigint;
  /** What credit notes credited (GST-inclusive). */
  creditedCents: bigint;
  /** total − paid − credited; below zero when a credit left money owed back to the client. */
  balanceCents: bigint;
}

/**
 * The money that moved on an invoice, named apart: what the client paid (every payment standing)
 * and what was paid back to them (card refunds on payments and refunds on credit notes). What is
 * paid (`paidCents`) is the first less the second.
 */
export function moneyMoved(d: Pick<DocumentView, 'payments' | 'refunds' | 'creditNotes'>): { receivedCents: bigint; refundedCents: bigint } {
  return {
    receivedCents: d.payments.reduce((a, p) => a + toCents(p.amount), 0n),
    refundedCents: d.refunds.reduce((a, r) => a + toCents(r.amount), 0n) + creditRefundedCents(d.creditNotes ?? []),
  };
}

export function documentFigures(d: DocumentView): DocumentFigures {
  const totals = documentTotals(d.lines, d.gstRounding);
  // A refund gives money back: what was paid is the payments less their refunds (on payments
  // and on credit notes).
  const moved = moneyMoved(d);
  const paidCents = moved.receivedCents - moved.refundedCents;
  const credited = creditedCents(d.creditNotes ?? []);
  return { ...totals, paidCents, creditedCents: credited, balanceCents: totals.totalCents - paidCents - credited };
}

/**
 * The time of supply on the invoice basis (GST Act s 9(1)): the earlier of the invoice being
 * issued and any payment. An invoice dated ahead (postdated) counts from the day it was issued
 * (sent, marked issued or paid against); one dated before that day (backdated) counts from its
 * date; a payment before either (a deposit) brings it to the payment's date. Every payment ever
 * received counts, removed ones too: an earlier period's report never changes because of a later
 * correction. (docs/decisions/0001)
 */
export function timeOfSupply(d: Pick<DocumentView, 'issueDate' | 'issuedOn' | 'paymentLog'>): LocalDate {
  const issued = d.issuedOn !== null && d.issuedOn < d.issueDate ? d.issuedOn : d.issueDate;
  return d.paymentLog.reduce((earliest, p) => (p.kind === 'recorded' && p.date < earliest ? p.date : earliest), issued);
}

export type PaymentStatus = 'paid' | 'partial' | 'unpaid';

/**
 * What the list and the detail both say of the accounting system's copy, as `extra_data`: its id
 * and number (`{provider}_invoice_id`, `{provider}_invoice_number`), `paid_in` when the invoice is
 * paid and money came back from there ('Paid (in Xero)'), and `voided_in` while its copy is voided
 * or deleted there and the invoice is not void here ('Voided in Xero', off the Overdue card).
 */
export function accountingExtraData(d: DocumentView, f: DocumentFigures = documentFigures(d)): Record<string, string> {
  if (!d.sync) return {};
  const { provider } = d.sync;
  const extra: Record<string, string> = { [`${provider}_invoice_id`]: d.sync.externalId, [`${provider}_invoice_number`]: d.sync.externalNumber };
  if (d.status !== 'void' && f.balanceCents <= 0n && d.payments.some((p) => p.source?.provider === provider)) extra['paid_in'] = provider;
  if (d.sync.voidedThere && d.status !== 'void') extra['voided_in'] = provider;
  return extra;
}

/** paid when nothing is owed, partial when something was paid and something is owed. Quotes are never paid. */
export function paymentStatus(d: DocumentView, f: DocumentFigures = documentFigures(d)): PaymentStatus {
  if (d.type === 'quote') return 'unpaid';
  if (f.balanceCents <= 0n) return 'paid';
  return f.paidCents > 0n ? 'partial' : 'unpaid';
}

/** The day the last payment brought the balance to nothing. */
export function paidDate(d: DocumentView, f: DocumentFigures = documentFigures(d)): LocalDate | null {
  if (paymentStatus(d, f) !== 'paid' || d.payments.length === 0) return null;
  return d.payments.map((p) => p.date).reduce((a, b) => (a > b ? a : b));
}

export type DocumentStatus =
  | 'draft'
  | 'issued'
  | 'sent'
  | 'accepted'
  | 'declined'
  | 'converted'
  | 'expired'
  | 'partial'
  | 'paid'
  | 'overdue'
  | 'void'
  | 'deleted';

/**
 * The status a person sees. Quotes: draft → sent → accepted | declined | converted, expired when
 * an open quote passes its valid-until date. Invoices: draft → sent → partial → paid, overdue when
 * money is owed past the due date, void. `today` is the NZ calendar day, passed in.
 */
export function documentStatus(d: DocumentView, today: LocalDate, f: DocumentFigures = documentFigures(d)): DocumentStatus {
  return deriveStatus({ type: d.type, lifecycle: d.status, validUntil: d.validUntil, dueDate: d.dueDate, paymentStatus: paymentStatus(d, f) }, today);
}

/** The same rule from the few facts a list row keeps (the read model derives status at read time). */
export function deriveStatus(
  d: { type: DocumentType; lifecycle: Lifecycle; validUntil: LocalDate | null; dueDate: LocalDate; paymentStatus: PaymentStatus },
  today: LocalDate,
): DocumentStatus {
  if (d.lifecycle === 'void' || d.lifecycle === 'deleted') return d.lifecycle;
  if (d.type === 'quote') {
    if ((d.lifecycle === 'draft' || d.lifecycle === 'sent') && d.validUntil && compareDates(d.validUntil, today) < 0) return 'expired';
    return d.lifecycle;
  }
  if (d.paymentStatus === 'paid') return 'paid';
  // A draft was never given to anyone (money taken issues it): it cannot be overdue.
  if (d.lifecycle === 'draft') return 'draft';
  if (compareDates(d.dueDate, today) < 0) return 'overdue';
  if (d.paymentStatus === 'partial') return 'partial';
  return d.lifecycle === 'sent' || d.lifecycle === 'issued' ? d.lifecycle : 'draft';
}

export const STATUS_LABELS: Record<DocumentStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  converted: 'Converted',
  expired: 'Expired',
  partial: 'Partly paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
  deleted: 'Deleted',
};
