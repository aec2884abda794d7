// Reading request bodies: JSON only where JSON is expected, a clear 4xx for anything else, and
// the zod schema that shapes it. Size is limited by limitBody (http/refusedBodies.ts) in app.ts.
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, zodProblem, zodStatus } from './problem.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first string (or key) in a JSON value that PostgreSQL cannot store as text: a
 * NUL or an unpaired surrogate. Iterative: a body nested thousands deep is walked, not a stack overflow.
 */
export function unstorableTextAt(value: unknown): (string | number)[] | null {
  const bad = (s: string): boolean => s.includes('\u0000') || LONE_SURROGATE.test(s);
  type Node = { value: unknown; key: string | number | null; parent: Node | null };
  const pathOf = (n: Node): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let at: Node | null = n; at && at.key !== null; at = at.parent) path.unshift(at.key);
    return path;
  };
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (bad(v)) return pathOf(node);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: node });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (bad(k)) return pathOf({ value: k, key: k, parent: node });
        stack.push({ value: child, key: k, parent: node });
      }
    }
  }
  return null;
}

/** Valid JSON can carry text no database column takes (\u0000, half a surrogate pair): a 422 that names the field, never a 500. */
export function refuseUnstorableText(value: unknown, label: (path: (string | number)[]) => string = (p) => p.join('.') || 'The request'): void {
  const at = unstorableTextAt(value);
  if (at) throw new ApiError(422, `${label(at)} contains a character that can't be saved`);
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

export async function readJson(c: Context): Promise<unknown> {
  if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
  const text = await c.req.text();
  if (text.trim() === '') throw new ApiError(400, 'The request body is empty. Send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
  refuseUnstorableText(value);
  return value;
}

/** How a body's problems are named in the answer's detail. */
export interface BodyLabels {
  /** Names the field holding text that can't be stored ("Line 2: description"). */
  field(path: (string | number)[]): string;
  /** Goes before the sentence of the first schema problem ("Line 2: "), '' for none. */
  problemPrefix(path: PropertyKey[]): string;
}

const fieldPaths: BodyLabels = { field: (p) => p.join('.') || 'The request', problemPrefix: () => '' };

/**
 * A JSON body through a schema: 415 not JSON, 400 unreadable (or a value that cannot exist), 422
 * the first problem, named by `labels`. With `optional`, an empty body reads as {} (commands whose
 * every field may be left out, called by the screens without a body).
 */
export async function readBody<S extends z.ZodType>(c: Context, schema: S, options: { optional?: boolean; labels?: BodyLabels } = {}): Promise<z.output<S>> {
  const labels = options.labels ?? fieldPaths;
  const text = await c.req.text();
  let raw: unknown = {};
  if (!(options.optional && text.trim() === '')) {
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
    if (text.trim() === '') throw new ApiError(400, 'The request body is empty. Send a JSON object.');
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError(400, 'The request body is not valid JSON.');
    }
    refuseUnstorableText(raw, labels.field);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(422, 'The request body must be a JSON object.');
  const r = schema.safeParse(raw);
  if (!r.success) {
    const p = zodProblem(r.error);
    throw new ApiError(zodStatus(r.error), `${labels.problemPrefix(r.error.issues[0]?.path ?? [])}${p.detail}`, { errors: p.errors });
  }
  return r.data;
}

/** Parses the JSON body with a schema: 400 unreadable (or a value that cannot exist), 415 not JSON, 422 the first problem. */
export const parseBody = <S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> => readBody(c, schema);

/** Parses query parameters with a schema (422 on the first problem). */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const query = c.req.query();
  refuseUnstorableText(query);
  return parseWith(schema, query);
}

/** Values already read (from a query, or part of a body) through a schema: 422 on the first problem. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    const p = zodProblem(r.error);
    throw new ApiError(422, p.detail, { errors: p.errors });
  }
  return r.data;
}
