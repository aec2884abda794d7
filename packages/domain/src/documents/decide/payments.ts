// Money received and given back: payments recorded, marked paid, removed, refunded.
import { compareDates, formatNzDateLong, isLocalDate } from '../../dates/dates.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { centsToString, formatNzd, requirePositiveCents, toCents } from '../../money/money.ts';
import { accountingProviderName } from '../accountingProviders.ts';
import type { DocumentEvent } from '../events.ts';
import { documentFigures } from '../figures.ts';
import type { DocumentState } from '../view.ts';
import { requireExisting, requireInvoice, requireNotVoid, paymentEvent, sameSource, type CommandOf } from './guards.ts';

export function decideRecordPayment(command: CommandOf<'RecordPayment'>, state: DocumentState): DocumentEvent[] {
  return [paymentEvent(requireExisting(state), command.data)];
}

export function decideMarkPaid(command: CommandOf<'MarkPaid'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'be marked paid');
  requireNotVoid(d);
  const { balanceCents } = documentFigures(d);
  if (balanceCents <= 0n) throw conflict('This invoice is already paid');
  return [paymentEvent(d, { ...command.data, amount: centsToString(balanceCents) })];
}

export function decideRemovePayment(command: CommandOf<'RemovePayment'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take payments');
  requireNotVoid(d);
  const payment = d.payments.find((p) => p.paymentId === command.data.paymentId);
  if (!payment) throw notFound('Payment not found');
  if (d.refunds.some((r) => r.paymentId === command.data.paymentId)) throw conflict('This payment was refunded, so it stays on the invoice with its refund.');
  const source = command.data.source;
  // What the accounting system holds as paid there is its to take back: a payment made there goes
  // when it is deleted there, never by a removal here (it would come straight back).
  if (payment.source && !source) {
    const name = accountingProviderName(payment.source.provider);
    throw conflict(`This payment was recorded in ${name}. Delete it in ${name} and it goes from here too.`);
  }
  if (source && !sameSource(payment.source, source)) throw conflict(`This payment was not recorded from ${accountingProviderName(source.provider)}`);
  const data = { documentId: d.id, paymentId: command.data.paymentId };
  return [{ type: 'PaymentRemoved', data: source ? { ...data, source: { provider: source.provider, externalId: source.externalId } } : data }];
}

/** A refund of a recorded payment: never more than is left of it, once per refund id. */
export function decideRecordRefund(command: CommandOf<'RecordRefund'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take payments');
  const c = command.data;
  const payment = d.payments.find((p) => p.paymentId === c.paymentId);
  if (!payment) throw notFound('Payment not found');
  if (!isLocalDate(c.date)) throw invalid('The refund date is not a valid date');
  if (compareDates(c.date, payment.date) < 0) throw invalid(`A refund can't be dated before the payment it gives back (${formatNzDateLong(payment.date)})`);
  if (d.refunds.some((r) => r.refundId === c.refundId)) throw conflict('This refund is already recorded');
  const cents = requirePositiveCents(c.amount, 'A refund');
  const left = toCents(payment.amount) - d.refunds.filter((r) => r.paymentId === c.paymentId).reduce((a, r) => a + toCents(r.amount), 0n);
  if (cents > left) throw invalid(`This refund is more than the ${formatNzd(left)} left of the payment`);
  return [{ type: 'PaymentRefunded', data: { documentId: d.id, paymentId: c.paymentId, refundId: c.refundId, amount: centsToString(cents), date: c.date } }];
}
