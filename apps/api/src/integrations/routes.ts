// /api/v1/integrations: one sub-app per connected service, each in its own folder.
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import { xeroRoutes } from './xero/routes.ts';

export function integrationRoutes(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .route('/xero', xeroRoutes(deps))
    // Any other address under /integrations asks for a sign-in first, as the signed-in routes do
    // (a route above answers before this runs).
    .use('*', requireAuth(deps));
}
