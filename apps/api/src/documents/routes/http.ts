// What the documents routes share: reading a body with its line items named the way the screens
// number them, the path's document id, and turning a use case's answer into the response.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { type BodyLabels, readBody } from '../../http/body.ts';
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
