// /api/v1 routes of this feature. Built by its engineer; registered in routes/index.ts.
import { Hono } from 'hono';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';

export function documentRoutes(_deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  return r;
}
