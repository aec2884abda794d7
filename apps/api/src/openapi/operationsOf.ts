// The operations an app serves, read from its routes' descriptions (describe.ts): the OpenAPI
// document (document.ts) is built from this list, and the tests drive every operation from it.
import type { Hono } from 'hono';
import { routesOf, type Operation } from './describe.ts';

/**
 * Every described route of `app` under `prefix`, in registration order, with paths written
 * OpenAPI's way relative to `prefix`: the /api/v1 sub-app itself (prefix ''), or the whole app with
 * the API prefix.
 */
export function operationsOf(app: Hono<any>, prefix = ''): Operation[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  return routesOf(app, prefix);
}
