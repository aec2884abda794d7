// Credit notes (docs/api/credit-notes.md), signed in and scoped to the account: crediting an
// invoice and listing its credit notes under /api/v1/invoices; one credit note, its PDF, emailing
// it to the client and money paid back against it under /api/v1/credit-notes. Another account's invoice or credit note is 404.
import { creditNoteInput, creditNoteRecord, creditNoteRefundInput, creditNoteSendInput, creditNoteSendResult } from '@tradie/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { loadDocument } from '../documents/repository.ts';
import { documentCommand, documentIdOf, readDocumentBody, reply } from '../documents/routes/http.ts';
import { pdfResponse } from '../http/attachment.ts';
import type { AppEnv } from '../http/env.ts';
import { idempotencyKey } from '../http/idempotency.ts';
import { describe } from '../openapi/describe.ts';
import { issueCreditNote, loadCreditNote, recordCreditNoteRefund } from './commands.ts';
import { creditNotePdfOf } from './pdf.ts';
import { sendCreditNote } from './send.ts';
import { requireActiveSubscription } from '../billing/access.ts';
import { creditNoteRecordOf } from './view.ts';

export const TAG = 'Credit notes';

/** Under /invoices (signed in once for all its parts, routes/index.ts): credit an invoice, and its credit notes. */
export function invoiceCreditNoteRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post(
    '/:id/credit-notes',
    describe({
      tag: TAG,
      summary: 'Credit an issued invoice: some lines (or part of their quantity) or an amount including GST, with a reason',
      body: creditNoteInput,
      idempotent: true,
      response: { status: 201, schema: creditNoteRecord },
      errors: [404, 409],
    }),
    documentCommand(deps, creditNoteInput, issueCreditNote),
  );

  r.get('/:id/credit-notes', describe({ tag: TAG, summary: "The invoice's credit notes, oldest first", response: { status: 200, schema: z.array(creditNoteRecord) }, errors: [404] }), async (c) => {
    const loaded = await loadDocument(deps.store, c.get('accountId'), documentIdOf(c));
    return c.json(loaded.state.creditNotes.map((n) => creditNoteRecordOf(loaded.state, n)));
  });
  return r;
}

/** Under /credit-notes: one credit note, its PDF, and refunds against it. */
export function creditNoteRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use('*', requireAuth(deps));

  r.get('/:id', describe({ tag: TAG, summary: 'One credit note with the supply correction information', response: { status: 200, schema: creditNoteRecord }, errors: [404] }), async (c) => {
    const { invoice, note } = await loadCreditNote(deps.store, c.get('accountId'), c.req.param('id'));
    return c.json(creditNoteRecordOf(invoice.state, note));
  });

  r.get(
    '/:id/pdf',
    describe({ tag: TAG, summary: "The credit note's PDF", response: { status: 200, contentType: 'application/pdf', description: 'The PDF, named by its reference' }, errors: [404] }),
    async (c) => pdfResponse(c, await creditNotePdfOf(deps, c.get('accountId'), c.req.param('id'))),
  );

  r.post(
    '/:id/send',
    describe({
      tag: TAG,
      summary: "Email the credit note to the client with its PDF attached, through the same checks as an invoice's send (403 `email_unconfirmed`; 429 over the daily recipients or 30 sends in 10 minutes)",
      body: creditNoteSendInput,
      idempotent: true,
      response: { status: 200, schema: creditNoteSendResult },
      errors: [402, 403, 404, 429, 503],
    }),
    requireActiveSubscription(deps),
    async (c) => {
      const input = await readDocumentBody(c, creditNoteSendInput, { optional: true });
      return reply(c, await sendCreditNote(deps, actorOf(c), c.req.param('id'), input, idempotencyKey(c)));
    },
  );

  r.post(
    '/:id/refunds',
    describe({
      tag: TAG,
      summary: 'Record money paid back to the client against a credit note (at most what the invoice owes back)',
      body: creditNoteRefundInput,
      idempotent: true,
      response: { status: 201, schema: creditNoteRecord },
      errors: [404, 409],
    }),
    async (c) => {
      const input = await readDocumentBody(c, creditNoteRefundInput);
      return reply(c, await recordCreditNoteRefund(deps, actorOf(c), c.req.param('id'), input, idempotencyKey(c)));
    },
  );
  return r;
}
