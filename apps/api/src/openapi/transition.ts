// TRANSITION — delete this file, with operations.ts, once every route carries describe().
// Until then the operations of the routes not yet described come from the old hand-written table
// (operations.ts): an entry is used only when no route describes its method and path, and the
// list keeps the order the app registers its routes in, as it will have without this file.
import type { Hono } from 'hono';
import type { Operation } from './describe.ts';
import { operations as table } from './operations.ts';

const keyOf = (o: { method: string; path: string }): string => `${o.method} ${o.path}`;

/** `described`, plus the table's entries for the routes that do not describe themselves yet. */
export function withTableFallback(app: Hono<any>, prefix: string, described: Operation[]): Operation[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  const have = new Set(described.map(keyOf));
  const missing = table.filter((o) => !have.has(keyOf(o)));
  if (missing.length === 0) return described;
  const order = new Map<string, number>();
  for (const r of app.routes) {
    if (!r.path.startsWith(prefix)) continue;
    const key = keyOf({ method: r.method.toLowerCase(), path: r.path.slice(prefix.length).replace(/:(\w+)(\{[^}]*\})?/g, '{$1}') || '/' });
    if (!order.has(key)) order.set(key, order.size);
  }
  const rank = (o: Operation): number => order.get(keyOf(o)) ?? Number.MAX_SAFE_INTEGER;
  return [...described, ...missing].sort((a, b) => rank(a) - rank(b));
}
