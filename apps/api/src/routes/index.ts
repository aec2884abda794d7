// Every resource under /api/v1, one sub-app each. Add a feature here.
import type { Hono } from 'hono';
import type { AppEnv } from '../app.ts';
import { authRoutes } from '../auth/routes.ts';
import type { AppDeps } from '../deps.ts';

export function featureRoutes(deps: AppDeps): [string, Hono<AppEnv>][] {
  return [
    ['/auth', authRoutes(deps)],
  ];
}
