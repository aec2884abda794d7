// Reading request bodies: JSON only where JSON is expected, a clear 4xx for anything else, and
// the zod schema that shapes it. Size is limited by the bodyLimit middleware in app.ts.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, zodProblem } from './problem.ts';

export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
  }
  const text = await c.req.text();
  if (text.trim() === '') throw new ApiError(400, 'The request body is empty. Send a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
}

/** Parses the JSON body with a schema: 400 unreadable, 415 not JSON, 422 the first problem. */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const raw = await readJson(c);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(422, 'The request body must be a JSON object.');
  const r = schema.safeParse(raw);
  if (!r.success) {
    const p = zodProblem(r.error);
    throw new ApiError(422, p.detail, { errors: p.errors });
  }
  return r.data;
}

/** Parses query parameters with a schema (422 on the first problem). */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const r = schema.safeParse(c.req.query());
  if (!r.success) {
    const p = zodProblem(r.error);
    throw new ApiError(422, p.detail, { errors: p.errors });
  }
  return r.data;
}
