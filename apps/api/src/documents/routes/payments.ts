// Payments: mark paid (the outstanding balance), the history, record one of any amount, remove one.
import { documentDetail, invoicePaymentRecord, markPaidInput, paymentInput, recordedPaymentRecord } from '@tradie/contracts';
import type { Hono } from 'hono';
import { z } from 'zod';
import { actorOf } from '../../auth/middleware.ts';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { describe } from '../../openapi/describe.ts';
import { markPaid, recordPayment, removePayment } from '../commands/payments.ts';
import { loadDocument } from '../repository.ts';
import { invoicePaymentRecordOf } from '../view.ts';
import { documentCommand, reply, TAG } from './http.ts';

export function documentPaymentRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.post(
    '/:id/mark-paid',
    describe({ tag: TAG, summary: 'Record a payment of the outstanding balance', body: markPaidInput, idempotent: true, response: { status: 200, schema: documentDetail }, errors: [404, 409] }),
    documentCommand(deps, markPaidInput, markPaid, { optional: true }),
  );

  r.get('/:id/payments', describe({ tag: TAG, summary: 'Payment history, each payment with its card refunds', response: { status: 200, schema: z.array(invoicePaymentRecord) }, errors: [404] }), async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), c.req.param('id'));
    return c.json(loaded.state.payments.map((p) => invoicePaymentRecordOf(loaded.state, p)));
  });

  r.post(
    '/:id/payments',
    describe({
      tag: TAG,
      summary: 'Record a payment (more than $0, at most the balance, whole cents)',
      body: paymentInput,
      idempotent: true,
      // The payment with the invoice's balance, payment status and status (view.ts recordedPaymentOf).
      response: { status: 201, schema: recordedPaymentRecord },
      errors: [404, 409],
    }),
    documentCommand(deps, paymentInput, recordPayment),
  );

  r.delete('/:id/payments/:paymentId', describe({ tag: TAG, summary: 'Remove a payment', response: { status: 200, schema: documentDetail }, errors: [404, 409] }), async (c) =>
    reply(c, await removePayment(deps, actorOf(c), c.req.param('id'), c.req.param('paymentId'))),
  );
}
