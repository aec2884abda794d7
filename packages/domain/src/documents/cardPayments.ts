// Money a client paid by card, and card refunds, fitted to the invoice as it stands when they
// arrive (Stripe's webhooks come late, twice, or after the invoice was paid some other way).
// The money was already taken, so nothing is refused for being too much: the part the invoice
// still owed is recorded, and the rest is answered for the business to see and pay back.
import { centsToString, toCents } from '../money/money.ts';
import type { LocalDate } from '../dates/dates.ts';
import { type DocumentCommand, type DocumentState, documentFigures } from './document.ts';

export interface CardPaymentIn {
  paymentId: string;
  amountCents: bigint;
  date: LocalDate;
  reference: string;
}

export interface CardPaymentFit {
  /** The RecordPayment to decide, or null when nothing is recorded. */
  command: DocumentCommand | null;
  /** Recorded now: at most the balance owed. */
  recordedCents: bigint;
  /** Taken by card but more than was owed: not recorded. */
  excessCents: bigint;
  /** Recorded before (a redelivery, or the backstop event). */
  duplicate: boolean;
  /** Why nothing could be recorded (gone, void, not an invoice), or null. */
  refused: string | null;
}

/** How much of a card payment the invoice takes, and the command that records it. */
export function fitCardPayment(d: DocumentState, p: CardPaymentIn): CardPaymentFit {
  const none = (refused: string): CardPaymentFit => ({ command: null, recordedCents: 0n, excessCents: p.amountCents, duplicate: false, refused });
  if (d.status === 'none' || d.status === 'deleted') return none('The invoice no longer exists');
  if (d.payments.some((x) => x.paymentId === p.paymentId) || d.refunds.some((r) => r.paymentId === p.paymentId)) {
    return { command: null, recordedCents: 0n, excessCents: 0n, duplicate: true, refused: null };
  }
  if (d.type !== 'invoice' || d.status === 'void') return none(`The ${d.type} is ${d.status === 'void' ? 'void' : 'not an invoice'}`);
  const { balanceCents } = documentFigures(d);
  const fits = p.amountCents < balanceCents ? p.amountCents : balanceCents > 0n ? balanceCents : 0n;
  return {
    command: fits > 0n ? { type: 'RecordPayment', data: { paymentId: p.paymentId, amount: centsToString(fits), date: p.date, method: 'card', reference: p.reference } } : null,
    recordedCents: fits,
    excessCents: p.amountCents - fits,
    duplicate: false,
    refused: null,
  };
}

export interface CardRefundIn {
  paymentId: string;
  refundId: string;
  /** The total refunded on the payment so far (Stripe's amount_refunded); only what is new is recorded. */
  refundedToDateCents: bigint;
  date: LocalDate;
}

/** The part of a card refund not recorded yet, never more than the payment: the RecordRefund, or null. */
export function fitCardRefund(d: DocumentState, r: CardRefundIn): { command: DocumentCommand | null; recordedCents: bigint } {
  const nothing = { command: null, recordedCents: 0n };
  if (d.status === 'none' || d.status === 'deleted') return nothing;
  const payment = d.payments.find((x) => x.paymentId === r.paymentId);
  if (!payment || d.refunds.some((x) => x.refundId === r.refundId)) return nothing;
  const before = d.refunds.filter((x) => x.paymentId === r.paymentId).reduce((a, x) => a + toCents(x.amount), 0n);
  const paidCents = toCents(payment.amount);
  const target = r.refundedToDateCents < paidCents ? r.refundedToDateCents : paidCents;
  const now = target - before;
  if (now <= 0n) return nothing;
  return { command: { type: 'RecordRefund', data: { paymentId: r.paymentId, refundId: r.refundId, amount: centsToString(now), date: r.date } }, recordedCents: now };
}
