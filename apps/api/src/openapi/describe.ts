// A route carries its own API description: `r.post('/', describe({...}), handler)`. The
// description is a pass-through middleware remembered here; the OpenAPI document is built by
// walking the app's registered routes (routesOf) and reading each one's description, so a route
// without one, or a description without a route, cannot exist.
import type { Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';

export interface RouteDoc {
  tag: string;
  summary: string;
  /** false for the few routes a guest may call. */
  auth?: boolean;
  body?: z.ZodType;
  /** Describes a non-JSON body. */
  bodyNote?: string;
  query?: z.ZodType;
  idempotent?: boolean;
  /** The success answer: a schema, or a description for non-JSON answers. */
  response: { status: number; schema?: z.ZodType; description?: string; contentType?: string };
  /** Error statuses this operation answers besides 401/422 (each body is {detail}). */
  errors?: number[];
}

export interface Operation extends RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI style, relative to the API prefix: /invoices/{id}. */
  path: string;
}

const described = new WeakMap<MiddlewareHandler, RouteDoc>();

/** The description of the route it is registered on; does nothing at request time. */
export function describe(doc: RouteDoc): MiddlewareHandler {
  const mw: MiddlewareHandler = (_c, next) => next();
  described.set(mw, doc);
  return mw;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * Every described route of an app, in registration order, with Hono's `:id` path parameters
 * written OpenAPI's way (`{id}`) and `prefix` taken off the front.
 */
export function routesOf(app: Hono<never> | Hono<any>, prefix = ''): Operation[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  const out: Operation[] = [];
  const seen = new Set<string>();
  for (const r of app.routes) {
    const doc = described.get(r.handler as MiddlewareHandler);
    const method = r.method.toLowerCase();
    if (!doc || !METHODS.has(method)) continue;
    const path = (r.path.startsWith(prefix) ? r.path.slice(prefix.length) : r.path).replace(/:(\w+)(\{[^}]*\})?/g, '{$1}') || '/';
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: method as Operation['method'], path, ...doc });
  }
  return out;
}
