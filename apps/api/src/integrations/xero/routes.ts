// /api/v1/integrations/xero/* — connect, status, disconnect, sync, push and Xero's webhooks
// (docs/api/accounting.md). The callback and its close script are the only routes without a
// bearer token: Xero's redirect lands in the Connect window.
import {
  ACCOUNTING_MESSAGES, accountingAuthorization, accountingBillResult, accountingPullResult, accountingPushFailures, accountingPushResult, accountingPushStatus, accountingStatus, accountingSyncResult, type AccountingStatus, xeroBillAccountInput, xeroBillAccounts,
} from '@tradie/contracts';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { actorOf, requireAuth } from '../../auth/middleware.ts';
import type { AppEnv } from '../../http/env.ts';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/problem.ts';
import { requireActiveSubscription } from '../../billing/access.ts';
import { describe } from '../../openapi/describe.ts';
import type { RequestOrigin } from '../../security/audit.ts';
import { clientIp } from '../../security/clientIp.ts';
import { readConnection } from './connections.ts';
import { XERO_CALLBACK_PATH } from './fromConfig.ts';
import { completeAuthorization, CONNECT_COOKIE, disconnect, OAUTH_STATE_TTL_MS, startAuthorization } from './oauth.ts';
import { CLOSE_SCRIPT, callbackPage } from './pages.ts';
import { pushFailuresOf, pushStatusOf } from './pushStatus.ts';
import { pullInvoiceNow, pushInvoice, sendOursToXero, syncInvoice } from './sync.ts';
import { sendCostToXero } from './bills.ts';
import { billAccountsOf, chooseBillAccount } from './billAccounts.ts';
import { readBody } from '../../http/body.ts';
import { handleXeroWebhook, XERO_WEBHOOK_MAX_BYTES, type XeroWebhook, xeroSignatureValid, xeroWebhookSchema } from './webhook.ts';
import { limitBody } from '../../http/refusedBodies.ts';

async function statusOf(deps: AppDeps, accountId: string): Promise<AccountingStatus> {
  const row = await readConnection(deps.store.db, accountId);
  const connected = row !== null && !row.needs_reauth;
  return { connected, tenant_id: connected ? row.tenant_id : null, tenant_name: connected ? row.tenant_name : null, configured: Boolean(deps.accounting), needs_reauth: row?.needs_reauth ?? false };
}

type CookieOptions = NonNullable<Parameters<typeof setCookie>[3]>;

/**
 * The Connect cookie (oauth.ts): sent back only to the callback (the path of the redirect URI
 * Xero uses), only over HTTPS when the app is served so, never readable by scripts, and with the
 * top-level navigation Xero's redirect is (SameSite=Lax).
 */
function connectCookieOptions(config: AppDeps['config']): CookieOptions {
  let path = XERO_CALLBACK_PATH;
  try {
    if (config.env.XERO_REDIRECT_URI) path = new URL(config.env.XERO_REDIRECT_URI).pathname;
  } catch {
    // Not a URL: the adapter will fail on it anyway; the default path stands.
  }
  return { path, httpOnly: true, sameSite: 'Lax', secure: config.appUrl.startsWith('https://') };
}

const originOf = (deps: AppDeps, c: Context<AppEnv>): RequestOrigin => ({ ip: clientIp(c, deps.config.trustedProxies), userAgent: c.req.header('user-agent') });

const tag = 'Xero';

/** Mounted at /integrations/xero (integrations/routes.ts). */
export function xeroRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const cookieOptions = connectCookieOptions(deps.config);
  const signedIn = requireAuth(deps);

  // ---- public: where Xero sends the Connect window back -----------------------------------
  r.get('/callback', describe({
    tag, summary: 'Where Xero sends the Connect window back; needs the xero_connect cookie of the browser that pressed Connect; stores the tokens encrypted', auth: false,
    response: { status: 200, contentType: 'text/html', description: 'A page that closes the window' }, errors: [400, 503],
  }), async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    // The window arrives here from Xero (no opener policy). Keeping it in the app's browsing
    // context group lets the app see it close and lets window.close() work.
    c.header('Cross-Origin-Opener-Policy', 'unsafe-none');
    // The nonce is read, then cleared whatever the outcome: it served this one Connect.
    const nonce = getCookie(c, CONNECT_COOKIE);
    if (nonce !== undefined) deleteCookie(c, CONNECT_COOKIE, cookieOptions);
    const provider = deps.accounting;
    if (!provider) return c.html(callbackPage(false, ACCOUNTING_MESSAGES.notConfigured), 503);
    const q = c.req.query();
    const outcome = await completeAuthorization({ ...deps, accounting: provider }, { state: q['state'], code: q['code'], error: q['error'] }, { nonce, origin: originOf(deps, c) });
    return outcome.ok ? c.html(callbackPage(true)) : c.html(callbackPage(false, outcome.reason), 400);
  });
  r.get('/close.js', describe({
    tag, summary: "The callback page's closing script", auth: false, response: { status: 200, contentType: 'text/javascript', description: 'Script' },
  }), (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(CLOSE_SCRIPT);
  });

  // ---- public: Xero's webhooks, refused unread unless signed with the app's webhook key ---------
  r.post('/webhook', limitBody(XERO_WEBHOOK_MAX_BYTES, 'The request is too large.'), describe({
    tag, summary: "Xero's webhooks (invoices): verified by x-xero-signature (base64 HMAC-SHA256 of the raw body with the webhook key) before anything is read; 401 with an empty body otherwise, as Xero's Intent to Receive expects; a read of each synced invoice named is queued once per event (the outbox reads it back from Xero after the answer)", auth: false,
    bodyNote: "Xero's delivery JSON, exactly as sent", response: { status: 200, description: 'Empty' }, errors: [400, 401, 413],
  }), async (c) => {
    // The signature covers the exact bytes: checked before anything parses them.
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const key = deps.config.env.XERO_WEBHOOK_KEY ?? '';
    if (!xeroSignatureValid(raw, c.req.header('x-xero-signature'), key)) {
      deps.log('info', 'xero webhook: refused (signature)', { configured: key !== '' });
      return c.body(null, 401);
    }
    let delivery: XeroWebhook;
    try {
      delivery = xeroWebhookSchema.parse(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)));
    } catch {
      throw new ApiError(400, 'This is not a Xero webhook delivery.');
    }
    if (delivery.events.length > 0 && deps.accounting) {
      const outcome = await handleXeroWebhook(deps, delivery);
      deps.log('info', 'xero webhook', { events: delivery.events.length, ...outcome });
    }
    return c.body(null, 200);
  });

  // ---- signed in ------------------------------------------------------------------------------
  r.get('/authorize', signedIn, describe({
    tag, summary: 'The Xero sign-in address for the Connect window (PKCE + state); sets the xero_connect cookie that binds the callback to this browser',
    response: { status: 200, schema: accountingAuthorization }, errors: [503],
  }), async (c) => {
    const provider = deps.accounting;
    if (!provider) throw new ApiError(503, ACCOUNTING_MESSAGES.notConfigured);
    const { url, browserNonce } = await startAuthorization({ ...deps, accounting: provider }, c.get('accountId'));
    // This browser's half of the Connect: the callback will want it back (oauth.ts).
    setCookie(c, CONNECT_COOKIE, browserNonce, { ...cookieOptions, maxAge: Math.floor(OAUTH_STATE_TTL_MS / 1000) });
    return c.json({ authorization_url: url });
  });

  r.get('/status', signedIn, describe({ tag, summary: 'Connection status', response: { status: 200, schema: accountingStatus } }), async (c) => c.json(await statusOf(deps, c.get('accountId'))));

  r.delete('/disconnect', signedIn, describe({ tag, summary: 'Revoke and forget the connection; answers the status after it', response: { status: 200, schema: accountingStatus } }), async (c) => {
    await disconnect(deps, c.get('accountId'), originOf(deps, c));
    return c.json(await statusOf(deps, c.get('accountId')));
  });

  // Syncing is new work (docs/decisions/0004-expired-trial.md): 402 once the trial has ended
  // without a subscription. Push only keeps an invoice already in Xero up to date, so it stays open.
  r.post('/sync/:id', signedIn, requireActiveSubscription(deps), describe({
    tag, summary: 'Sync an invoice to Xero once (a second sync creates nothing)', response: { status: 200, schema: accountingSyncResult }, errors: [400, 402, 404, 409, 429, 503],
  }), async (c) => c.json(await syncInvoice(deps, actorOf(c), c.req.param('id'))));

  r.post('/bills/:costId', signedIn, requireActiveSubscription(deps), describe({
    tag, summary: "Send a cost (receipt, bill or expense) to Xero as a bill, with its receipt attached; a second send makes nothing more (changes since are put on the bill)", response: { status: 200, schema: accountingBillResult }, errors: [400, 402, 404, 409, 422, 429, 503],
  }), async (c) => c.json(await sendCostToXero(deps, c.get('accountId'), c.req.param('costId'))));

  r.get('/bill-accounts', signedIn, describe({
    tag, summary: "Where each cost category's bills go in Xero (chosen, or the standard chart's account), and the organisation's expense accounts to choose from", response: { status: 200, schema: xeroBillAccounts }, errors: [400, 429, 503],
  }), async (c) => c.json(await billAccountsOf(deps, c.get('accountId'))));

  r.put('/bill-accounts', signedIn, describe({
    tag, summary: "Code a cost category's bills to one of the organisation's expense accounts (null: back to the standard chart's); bills already in Xero stay as they are", body: xeroBillAccountInput, response: { status: 200, schema: xeroBillAccounts }, errors: [400, 422, 429, 503],
  }), async (c) => {
    const input = await readBody(c, xeroBillAccountInput);
    return c.json(await chooseBillAccount(deps, c.get('accountId'), input.category, input.code));
  });

  r.post('/pull/:id', signedIn, describe({
    tag, summary: "Read a synced invoice back from Xero now (payments, voids and credit notes made there), as a webhook's read does: 'Try again' after a read that failed", response: { status: 200, schema: accountingPullResult }, errors: [400, 404, 409, 429, 503],
  }), async (c) => {
    const r = await pullInvoiceNow(deps, c.get('accountId'), c.req.param('id'));
    return c.json({ recorded: r.recorded, removed: r.removed, credited: r.credited, voided_there: r.voidedThere });
  });

  r.get('/push', signedIn, describe({
    tag, summary: "The synced invoices whose latest changes Xero does not have (the last push failed), newest first, at most 20", response: { status: 200, schema: accountingPushFailures },
  }), async (c) => c.json(await pushFailuresOf(deps, c.get('accountId'))));

  r.get('/push/:id', signedIn, describe({
    tag, summary: 'Whether Xero has the latest changes to a synced invoice: why the last push failed, and when it is tried again', response: { status: 200, schema: accountingPushStatus }, errors: [404],
  }), async (c) => c.json(await pushStatusOf(deps, c.get('accountId'), c.req.param('id'))));

  r.post('/push/:id', signedIn, describe({
    tag, summary: "Push a synced invoice's payments, sent flag and void to Xero", response: { status: 200, schema: accountingPushResult }, errors: [400, 404, 429, 503],
  }), async (c) => c.json(await pushInvoice(deps, c.get('accountId'), c.req.param('id'))));

  r.post('/send-ours/:id', signedIn, describe({
    tag, summary: "Send ours to Xero: put the invoice's lines back on Xero's copy after it was edited there (refused while Xero has it voided or money applied)", response: { status: 200, schema: accountingPushResult }, errors: [400, 404, 409, 429, 503],
  }), async (c) => c.json(await sendOursToXero(deps, actorOf(c), c.req.param('id'))));

  return r;
}
