// Payments against an invoice: one of the outstanding balance (mark paid), one of any amount, and
// removing one recorded by mistake. Each sets off the push to Xero (reactions/registry.ts).
import type { DocumentDetail, markPaidInput, paymentInput } from '@tradie/contracts';
import { type CardPaymentFit, type CardPaymentIn, type CardRefundIn, fitCardPayment, fitCardRefund, parseDecimalInput } from '@tradie/domain';
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

/** A payment a client made by card through the business's Stripe account (payments/webhook.ts); its id derives from the PaymentIntent, so a redelivery records nothing twice. */
export type CardPayment = CardPaymentIn;

/** What became of a card payment (the domain's fitCardPayment, less the command it decided). */
export type CardPaymentOutcome = Omit<CardPaymentFit, 'command'>;

/**
 * Records a card payment with the same command as one typed in (RecordPayment, method 'card'),
 * but never more than the invoice still owes: the rest is answered as `excessCents` for the
 * caller to flag, rather than refusing money that was already taken.
 */
export async function recordCardPayment(ports: CommandPorts, actor: Actor, id: string, p: CardPayment): Promise<CardPaymentOutcome> {
  const answer = await runDocumentCommand(ports, actor, {}, async (w): Promise<CardPaymentOutcome> => {
    const loaded = await w.load(id);
    const { command, ...outcome } = fitCardPayment(loaded.state, p);
    if (command) await w.decide(loaded, command);
    return outcome;
  });
  return answer.body;
}

/** A refund of a card payment, made in the business's Stripe account (payments/webhook.ts). */
export type CardRefund = CardRefundIn;

/** Records the part of a refund not recorded yet (PaymentRefunded); answers the cents recorded now. */
export async function recordCardRefund(ports: CommandPorts, actor: Actor, id: string, r: CardRefund): Promise<bigint> {
  const answer = await runDocumentCommand(ports, actor, {}, async (w): Promise<bigint> => {
    const loaded = await w.load(id);
    const { command, recordedCents } = fitCardRefund(loaded.state, r);
    if (command) await w.decide(loaded, command);
    return recordedCents;
  });
  return answer.body;
}
