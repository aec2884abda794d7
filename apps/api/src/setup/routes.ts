// /api/v1/setup: the first-run set-up (docs/api/setup.md).
//
//   GET  /   the step reached, whether it was finished or skipped, the trade and default payment terms
//   PUT  /   saves the fields sent; answers like GET
//
// The business details the set-up asks for (name, GST, bank account, phone, email, logo) are saved
// through /business-settings, with the same checks as the Settings screen.
import { setupInput, setupRecord } from '@tradie/contracts';
import { Hono } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { describe } from '../openapi/describe.ts';
import { loadSetup, saveSetup } from './repository.ts';

export function setupRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);

  r.get('/', describe({ tag: 'Set-up', summary: 'Where the first-run set-up stands', response: { status: 200, schema: setupRecord } }), auth, async (c) =>
    c.json(await loadSetup(deps.store.db, c.get('accountId'))),
  );

  r.put('/', describe({ tag: 'Set-up', summary: 'Save the step reached, the outcome, the trade or the default payment terms', body: setupInput, response: { status: 200, schema: setupRecord }, errors: [422] }), auth, async (c) => {
    const patch = await parseBody(c, setupInput);
    const accountId = c.get('accountId');
    return c.json(await deps.store.db.tx((tx) => saveSetup(tx, accountId, patch, deps.clock.now())));
  });

  return r;
}
