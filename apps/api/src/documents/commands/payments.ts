// Payments against an invoice: one of the outstanding balance (mark paid), one of any amount, and
// removing one recorded by mistake. Each sets off the push to Xero (reactions/registry.ts).
import type { DocumentDetail, markPaidInput, paymentInput } from '@tradie/contracts';
import { type LocalDate, centsToString, documentFigures, parseDecimalInput, toCents } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { detailOf, type RecordedPayment, recordedPaymentOf } from '../view.ts';
import { gstNoticeOf } from '../../reports/gstExports.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';
import { Invalid } from '../../errors.ts';

export type MarkPaid = z.output<typeof markPaidInput>;

export function markPaid(ports: CommandPorts, actor: Actor, id: string, input: MarkPaid, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { once: { scope: `documents:mark-paid:${id}`, key, request: input } }, async (w) => {
    const paid = await w.decide(id, () => ({ type: 'MarkPaid', data: { paymentId: ports.ids.uuid(), date: input.date ?? w.today(), method: input.method, reference: input.reference } }));
    return detailOf(paid.view, paid.version, w.today(), await gstNoticeOf(w.tx, actor.accountId, paid.view));
  });
}

export type RecordPayment = z.output<typeof paymentInput>;

/** Answers the payment with what the invoice owes and is now (view.ts recordedPaymentOf). */
export async function recordPayment(ports: CommandPorts, actor: Actor, id: string, input: RecordPayment, key: string | undefined): Promise<Answer<RecordedPayment>> {
  const amount = parseDecimalInput(input.amount);
  if (!amount) throw new Invalid('Amount must be a number');
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: `documents:payment:${id}`, key, request: input } }, async (w) => {
    const paymentId = ports.ids.uuid();
    const paid = await w.decide(id, { type: 'RecordPayment', data: { paymentId, amount: amount.toFixed(), date: input.date ?? w.today(), method: input.method, reference: input.reference } });
    return recordedPaymentOf(paid.view, paymentId, w.today());
  });
}

export const removePayment = (ports: CommandPorts, actor: Actor, id: string, paymentId: string): Promise<Answer<DocumentDetail>> =>
  runDocumentCommand(ports, actor, {}, async (w) => {
    const done = await w.decide(id, { type: 'RemovePayment', data: { paymentId } });
    return detailOf(done.view, done.version, w.today());
  });

/** A payment a client made by card through the business's Stripe account (payments/webhook.ts). */
export interface CardPayment {
  /** Derived from the PaymentIntent, so a redelivered event or the backstop event records nothing twice. */
  paymentId: string;
  /** What the client paid towards the invoice (the surcharge left out), in cents. */
  amountCents: bigint;
  date: LocalDate;
  /** 'Stripe pi_...' */
  reference: string;
}

export interface CardPaymentOutcome {
  /** Recorded now: at most the balance owed. */
  recordedCents: bigint;
  /** Paid by card but more than was owed (the invoice was paid some other way meanwhile): not recorded. */
  excessCents: bigint;
  /** The payment was recorded before (a redelivery or the backstop). */
  duplicate: boolean;
  /** The invoice is void or not an invoice: nothing recorded. */
  refused: string | null;
}

/**
 * Records a card payment with the same command as one typed in (RecordPayment, method 'card'),
 * but never more than the invoice still owes: the rest is answered as `excessCents` for the
 * caller to flag, rather than refusing money that was already taken.
 */
export async function recordCardPayment(ports: CommandPorts, actor: Actor, id: string, p: CardPayment): Promise<CardPaymentOutcome> {
  const answer = await runDocumentCommand(ports, actor, {}, async (w): Promise<CardPaymentOutcome> => {
    const loaded = await w.load(id);
    const d = loaded.state;
    if (d.status === 'deleted') return { recordedCents: 0n, excessCents: p.amountCents, duplicate: false, refused: 'The invoice no longer exists' };
    if (d.payments.some((x) => x.paymentId === p.paymentId) || d.refunds.some((r) => r.paymentId === p.paymentId)) {
      return { recordedCents: 0n, excessCents: 0n, duplicate: true, refused: null };
    }
    if (d.type !== 'invoice' || d.status === 'void') return { recordedCents: 0n, excessCents: p.amountCents, duplicate: false, refused: `The ${d.type} is ${d.status === 'void' ? 'void' : 'not an invoice'}` };
    const { balanceCents } = documentFigures(d);
    const fits = p.amountCents < balanceCents ? p.amountCents : balanceCents > 0n ? balanceCents : 0n;
    if (fits > 0n) {
      await w.decide(loaded, { type: 'RecordPayment', data: { paymentId: p.paymentId, amount: centsToString(fits), date: p.date, method: 'card', reference: p.reference } });
    }
    return { recordedCents: fits, excessCents: p.amountCents - fits, duplicate: false, refused: null };
  });
  return answer.body;
}

/** A refund of a card payment, made in the business's Stripe account (payments/webhook.ts). */
export interface CardRefund {
  paymentId: string;
  refundId: string;
  /** The total refunded on the payment so far, in cents (Stripe's charge.amount_refunded); only what is new is recorded. */
  refundedToDateCents: bigint;
  date: LocalDate;
}

/** Records the part of a refund not recorded yet (PaymentRefunded); answers the cents recorded now. */
export async function recordCardRefund(ports: CommandPorts, actor: Actor, id: string, r: CardRefund): Promise<bigint> {
  const answer = await runDocumentCommand(ports, actor, {}, async (w): Promise<bigint> => {
    const loaded = await w.load(id);
    const d = loaded.state;
    if (d.status === 'deleted') return 0n;
    const payment = d.payments.find((x) => x.paymentId === r.paymentId);
    if (!payment) return 0n;
    const before = d.refunds.filter((x) => x.paymentId === r.paymentId).reduce((a, x) => a + toCents(x.amount), 0n);
    const paidCents = toCents(payment.amount);
    const target = r.refundedToDateCents < paidCents ? r.refundedToDateCents : paidCents;
    const now = target - before;
    if (now <= 0n || d.refunds.some((x) => x.refundId === r.refundId)) return 0n;
    await w.decide(loaded, { type: 'RecordRefund', data: { paymentId: r.paymentId, refundId: r.refundId, amount: centsToString(now), date: r.date } });
    return now;
  });
  return answer.body;
}
