// Every resource under /api/v1, one sub-app each. Add a feature here.
import type { Hono } from 'hono';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';

export function featureRoutes(_deps: AppDeps): [string, Hono<AppEnv>][] {
  return [];
}
