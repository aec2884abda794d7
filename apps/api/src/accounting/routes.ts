// /api/v1/integrations/xero/* — connect, status, disconnect, sync and push (spec §7 Accounting
// provider; docs/api/accounting.md). The callback and its close script are the only routes
// without a bearer token: Xero's redirect lands in the Connect window.
import { ACCOUNTING_MESSAGES, type AccountingStatus } from '@tradie/contracts';
import { Hono } from 'hono';
import { actorOf, requireAuth } from '../auth/middleware.ts';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/problem.ts';
import { readConnection } from './connections.ts';
import { completeAuthorization, disconnect, startAuthorization } from './oauth.ts';
import { CLOSE_SCRIPT, callbackPage } from './pages.ts';
import { pushInvoice, syncInvoice } from './xeroSync.ts';

async function statusOf(deps: AppDeps, accountId: string): Promise<AccountingStatus> {
  const row = await readConnection(deps.store.db, accountId);
  const connected = row !== null && !row.needs_reauth;
  return { connected, tenant_id: connected ? row.tenant_id : null, tenant_name: connected ? row.tenant_name : null, configured: Boolean(deps.accounting), needs_reauth: row?.needs_reauth ?? false };
}

export function accountingRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  // ---- public: where Xero sends the Connect window back -----------------------------------
  r.get('/xero/callback', async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    // The window arrives here from Xero (no opener policy). Keeping it in the app's browsing
    // context group lets the app see it close and lets window.close() work.
    c.header('Cross-Origin-Opener-Policy', 'unsafe-none');
    const provider = deps.accounting;
    if (!provider) return c.html(callbackPage(false, ACCOUNTING_MESSAGES.notConfigured), 503);
    const q = c.req.query();
    const outcome = await completeAuthorization({ ...deps, accounting: provider }, { state: q['state'], code: q['code'], error: q['error'] });
    return outcome.ok ? c.html(callbackPage(true)) : c.html(callbackPage(false, outcome.reason), 400);
  });
  r.get('/xero/close.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(CLOSE_SCRIPT);
  });

  // ---- signed in ------------------------------------------------------------------------------
  r.use('*', requireAuth(deps));

  r.get('/xero/authorize', async (c) => {
    const provider = deps.accounting;
    if (!provider) throw new ApiError(503, ACCOUNTING_MESSAGES.notConfigured);
    const url = await startAuthorization({ ...deps, accounting: provider }, c.get('accountId'));
    return c.json({ authorization_url: url });
  });

  r.get('/xero/status', async (c) => c.json(await statusOf(deps, c.get('accountId'))));

  r.delete('/xero/disconnect', async (c) => {
    await disconnect(deps, c.get('accountId'));
    return c.json(await statusOf(deps, c.get('accountId')));
  });

  r.post('/xero/sync/:id', async (c) => c.json(await syncInvoice(deps, actorOf(c), c.req.param('id'))));

  r.post('/xero/push/:id', async (c) => c.json(await pushInvoice(deps, c.get('accountId'), c.req.param('id'))));

  return r;
}
