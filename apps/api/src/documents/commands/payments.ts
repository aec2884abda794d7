// Payments against an invoice: one of the outstanding balance (mark paid), one of any amount, and
// removing one recorded by mistake. Each sets off the push to Xero (reactions/registry.ts).
import type { DocumentDetail, markPaidInput, paymentInput } from '@tradie/contracts';
import { parseDecimalInput } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { ApiError } from '../../http/problem.ts';
import { detailOf, type RecordedPayment, recordedPaymentOf } from '../view.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';

export type MarkPaid = z.output<typeof markPaidInput>;

export function markPaid(ports: CommandPorts, actor: Actor, id: string, input: MarkPaid, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { once: { scope: `documents:mark-paid:${id}`, key, request: input }, settle: id }, async (w) => {
    const paid = await w.decide(id, () => ({ type: 'MarkPaid', data: { paymentId: ports.ids.uuid(), date: input.date ?? w.today(), method: input.method, reference: input.reference } }));
    return detailOf(paid.view, paid.version, w.today());
  });
}

export type RecordPayment = z.output<typeof paymentInput>;

/** Answers the payment with what the invoice owes and is now (view.ts recordedPaymentOf). */
export async function recordPayment(ports: CommandPorts, actor: Actor, id: string, input: RecordPayment, key: string | undefined): Promise<Answer<RecordedPayment>> {
  const amount = parseDecimalInput(input.amount);
  if (!amount) throw new ApiError(422, 'Amount must be a number');
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: `documents:payment:${id}`, key, request: input }, settle: id }, async (w) => {
    const paymentId = ports.ids.uuid();
    const paid = await w.decide(id, { type: 'RecordPayment', data: { paymentId, amount: amount.toFixed(), date: input.date ?? w.today(), method: input.method, reference: input.reference } });
    return recordedPaymentOf(paid.view, paymentId, w.today());
  });
}

export const removePayment = (ports: CommandPorts, actor: Actor, id: string, paymentId: string): Promise<Answer<DocumentDetail>> =>
  runDocumentCommand(ports, actor, { settle: id }, async (w) => {
    const done = await w.decide(id, { type: 'RemovePayment', data: { paymentId } });
    return detailOf(done.view, done.version, w.today());
  });
