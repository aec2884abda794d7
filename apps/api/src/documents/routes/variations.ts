// A variation of an accepted quote after it is proposed (POST /:id/variations, routes/commands.ts):
// emailing it to the client, and recording the client's answer given in person (commands/variations.ts).
import { documentDetail, sendVariationInput, variationSendResult } from '@tradie/contracts';
import type { Context, Hono } from 'hono';
import { actorOf } from '../../auth/middleware.ts';
import { requireActiveSubscription } from '../../billing/access.ts';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { plausibleId } from '../../http/ids.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { ApiError } from '../../http/problem.ts';
import { describe } from '../../openapi/describe.ts';
import { type VariationAnswer, answerVariation, sendVariation } from '../commands/variations.ts';
import { TAG, documentIdOf, readDocumentBody, reply } from './http.ts';

export const VARIATION_NOT_FOUND = 'Variation not found';

/** The path's variation id; one that cannot name a variation is 404 before anything else. */
function variationIdOf(c: Context): string {
  const id = c.req.param('variationId') ?? '';
  if (!plausibleId(id)) throw new ApiError(404, VARIATION_NOT_FOUND);
  return id;
}

const ANSWERS: { action: VariationAnswer; summary: string }[] = [
  { action: 'approve', summary: 'Mark a variation approved: the client agreed to it in person or in writing (it can then be invoiced)' },
  { action: 'decline', summary: 'Mark a variation declined on the client\'s word' },
  { action: 'withdraw', summary: 'Withdraw a variation the client has not answered' },
];

export function documentVariationRoutes(r: Hono<AppEnv>, deps: AppDeps): void {
  r.post(
    '/:id/variations/:variationId/send',
    describe({
      tag: TAG,
      summary: "Email a variation to the client with the quote's link, where they approve or decline it, and the quote's PDF (the same guard and outcomes as sending a document)",
      body: sendVariationInput,
      idempotent: true,
      response: { status: 200, schema: variationSendResult },
      errors: [402, 403, 404, 409, 422, 429, 503],
    }),
    requireActiveSubscription(deps),
    async (c) => {
      const id = documentIdOf(c);
      const variationId = variationIdOf(c);
      const input = await readDocumentBody(c, sendVariationInput, { optional: true });
      return reply(c, await sendVariation(deps, actorOf(c), id, variationId, input, idempotencyKey(c)));
    },
  );

  for (const { action, summary } of ANSWERS) {
    r.post(`/:id/variations/:variationId/${action}`, describe({ tag: TAG, summary, response: { status: 200, schema: documentDetail }, errors: [404, 409] }), async (c) =>
      reply(c, await answerVariation(deps, actorOf(c), documentIdOf(c), variationIdOf(c), action)),
    );
  }
}
