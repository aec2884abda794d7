// What the documents routes share: reading a body with its line items named the way the screens
// number them, the path's document id, turning a use case's answer into the response, and the
// handler of the usual command on one document (all three in order).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { actorOf } from '../../auth/middleware.ts';
import type { Actor } from '../../commands.ts';
import type { AppDeps } from '../../deps.ts';
import { type BodyLabels, readBody } from '../../http/body.ts';
import type { AppEnv } from '../../http/env.ts';
import { idempotencyKey } from '../../http/idempotency.ts';
import { ApiError } from '../../http/problem.ts';
import type { Answer } from '../commands/run.ts';
import { DOCUMENT_NOT_FOUND, plausibleId } from '../repository.ts';

/** The OpenAPI tag of every documents route. */
export const TAG = 'Quotes and invoices';

const lineOf = (path: readonly PropertyKey[]): number | null => (path[0] === 'line_items' && typeof path[1] === 'number' ? path[1] + 1 : null);

/** A line's problem names the line ("Line 2: Each line needs a description"). */
const lineLabels: BodyLabels = {
  field: (p) => {
    const line = lineOf(p);
    return line === null ? p.join('.') : `Line ${line}: ${p.slice(2).join('.') || 'The line'}`;
  },
  problemPrefix: (p) => {
    const line = lineOf(p);
    return line === null ? '' : `Line ${line}: `;
  },
};

/** The JSON body through `schema` (http/body.ts readBody); with `optional`, an empty body reads as {} (the screens' send and mark-paid calls have none). */
export const readDocumentBody = <S extends z.ZodType>(c: Context, schema: S, options: { optional?: boolean } = {}): Promise<z.output<S>> =>
  readBody(c, schema, { ...options, labels: lineLabels });

/** The path's document id; one that cannot name a document is 404 before it reaches an idempotency key (and SQL). */
export function documentIdOf(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!plausibleId(id)) throw new ApiError(404, DOCUMENT_NOT_FOUND);
  return id;
}

/** A use case's answer as JSON, marked when it is the stored answer of an earlier request with the same Idempotency-Key. */
export function reply(c: Context, answer: Answer<unknown>): Response {
  if (answer.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(answer.body as object, answer.status as ContentfulStatusCode);
}

/** A use case on one document that takes a body and an Idempotency-Key. */
export type DocumentUseCase<I> = (ports: AppDeps, actor: Actor, documentId: string, input: I, key: string | undefined) => Promise<Answer<unknown>>;

/**
 * The handler of a command on the path's document: the id (404 first when it cannot name one), the
 * body through `schema`, the use case with the request's Idempotency-Key, and its answer.
 */
export const documentCommand =
  <S extends z.ZodType>(deps: AppDeps, schema: S, useCase: DocumentUseCase<z.output<S>>, options: { optional?: boolean } = {}) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    const id = documentIdOf(c);
    const input = await readDocumentBody(c, schema, options);
    return reply(c, await useCase(deps, actorOf(c), id, input, idempotencyKey(c)));
  };
