// Drafting and the lifecycle: create, revise, delete, void, issue, accept, decline, convert,
// duplicate. Each route parses, calls its use case (commands/*.ts) and answers what it returns.
import { createDocumentInput, documentDetail, reviseDocumentInput, stageInput, variationInput, voidDocumentInput } from '@tradie/contracts';
import type { Hono } from 'hono';
import { z } from 'zod';
import { actorOf } from '../../auth/middleware.ts';
import { requireActiveSubscription } from '../../billing/access.ts';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { describe } from '../../openapi/describe.ts';
import { convertQuote } from '../commands/convert.ts';
import { createDocument } from '../commands/create.ts';
import { duplicateDocument } from '../commands/duplicate.ts';
import { acceptQuote, declineQuote, discardDocument, issueDocument, voidDocument } from '../commands/lifecycle.ts';
import { reviseDocument } from '../commands/revise.ts';
import { invoiceStage, proposeVariation } from '../commands/stages.ts';
import { copyDocumentPhotos, removeDocumentPhotos } from '../photos.ts';
import { type DocumentUseCase, documentCommand, documentIdOf, readDocumentBody, reply, TAG } from './http.ts';

const detail = { status: 200, schema: documentDetail };

export function documentCommandRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  // An expired trial blocks new work (docs/decisions/0004-expired-trial.md); payments, voids,
  // reads and PDFs of what the tradie already has stay open.
  const newWork = requireActiveSubscription(deps);

  r.post(
    '/',
    describe({ tag: TAG, summary: 'Create a quote or invoice (numbered QTE-/INV-, issue date today in NZ)', body: createDocumentInput, idempotent: true, response: { status: 201, schema: documentDetail }, errors: [402, 404] }),
    newWork,
    async (c) => {
      const input = await readDocumentBody(c, createDocumentInput);
      return reply(c, await createDocument(deps, actorOf(c), input, idempotencyKey(c)));
    },
  );

  r.put('/:id', describe({ tag: TAG, summary: 'Revise a draft', body: reviseDocumentInput, response: detail, errors: [402, 404, 409] }), newWork, async (c) => {
    const input = await readDocumentBody(c, reviseDocumentInput);
    return reply(c, await reviseDocument(deps, actorOf(c), c.req.param('id'), input));
  });

  r.delete(
    '/:id',
    describe({
      tag: TAG,
      summary: 'Delete an unseen draft; an issued document is voided (its number is never reused)',
      response: { status: 200, schema: z.object({ id: z.string(), outcome: z.enum(['deleted', 'voided']) }) },
      errors: [404, 409],
    }),
    async (c) => {
      const answer = await discardDocument(deps, actorOf(c), c.req.param('id'));
      // A deleted draft's photos go with it (after the commit: a file with no row is never served).
      if (answer.body.outcome === 'deleted') await removeDocumentPhotos(deps, c.get('accountId'), answer.body.id);
      return reply(c, answer);
    },
  );

  r.post('/:id/void', describe({ tag: TAG, summary: 'Void', body: voidDocumentInput, response: detail, errors: [404, 409] }), async (c) => {
    const input = await readDocumentBody(c, voidDocumentInput, { optional: true });
    return reply(c, await voidDocument(deps, actorOf(c), c.req.param('id'), input));
  });

  r.post(
    '/:id/issue',
    describe({ tag: TAG, summary: "Mark a draft invoice issued (handed over without the app's email): it counts in the reports from now on", response: detail, errors: [404, 409] }),
    async (c) => reply(c, await issueDocument(deps, actorOf(c), c.req.param('id'))),
  );

  r.post('/:id/accept', describe({ tag: TAG, summary: 'Mark a quote accepted', response: detail, errors: [404, 409] }), async (c) =>
    reply(c, await acceptQuote(deps, actorOf(c), c.req.param('id'))),
  );

  r.post('/:id/decline', describe({ tag: TAG, summary: 'Mark a quote declined', response: detail, errors: [404, 409] }), async (c) =>
    reply(c, await declineQuote(deps, actorOf(c), c.req.param('id'))),
  );

  r.post(
    '/:id/convert',
    describe({ tag: TAG, summary: 'Turn a quote into a new invoice', response: { status: 201, schema: documentDetail }, errors: [402, 404, 409] }),
    newWork,
    async (c) => reply(c, await convertQuote(deps, actorOf(c), c.req.param('id'))),
  );

  /** POST /:id/<action> on an accepted quote: a body, an Idempotency-Key, and 201 with the document the use case answers. */
  function onAcceptedQuote<S extends z.ZodType>(
    action: string,
    summary: string,
    body: S,
    useCase: DocumentUseCase<z.output<S>>,
  ): void {
    r.post(
      `/:id/${action}`,
      describe({ tag: TAG, summary, body, idempotent: true, response: { status: 201, schema: documentDetail }, errors: [402, 404, 409, 422] }),
      newWork,
      documentCommand(deps, body, useCase),
    );
  }

  onAcceptedQuote(
    'stages',
    "Invoice a stage of an accepted quote: a deposit (percent of the quote's total or an amount), a progress invoice (percent, amount, per line a percent or quantity, or what is left of an approved variation) or the final invoice (what is left). A new numbered draft invoice; refused past 100 % of a line or of the quote, and for a variation the client has not approved",
    stageInput,
    invoiceStage,
  );

  onAcceptedQuote(
    'variations',
    "Propose a variation of an accepted quote: extra work as an agreement of its own, awaiting the client's approval (the signed quote never changes; only an approved variation can be invoiced). Answers the quote",
    variationInput,
    proposeVariation,
  );

  r.post(
    '/:id/duplicate',
    describe({
      tag: TAG,
      summary: "Duplicate a quote or invoice into a new draft: the next number of its type, dated today, the client's current details, its lines, notes, payment terms, deposit and photos",
      idempotent: true,
      response: { status: 201, schema: documentDetail },
      errors: [402, 404],
    }),
    newWork,
    async (c) => {
      const id = documentIdOf(c);
      const answer = await duplicateDocument(deps, actorOf(c), id, idempotencyKey(c));
      // The copy takes the photos too (again on a replay: what is there already is not copied twice).
      await copyDocumentPhotos(deps, c.get('accountId'), id, answer.body.id);
      return reply(c, answer);
    },
  );
}
