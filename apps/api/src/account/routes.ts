// /api/v1/account: the tradie's own account — download my data, change email, delete my account
// (Settings → Account). Each route reads its body, calls one use case (commands.ts) and answers
// its outcome. docs/api/account.md describes them; docs/decisions/0010-account-deletion.md says
// what deleting removes, and when.
import * as contracts from '@tradie/contracts';
import { ACCOUNT_MESSAGES } from '@tradie/contracts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { originOf } from '../auth/http.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { attachment } from '../http/attachment.ts';
import type { AppEnv } from '../http/env.ts';
import { parseBody } from '../http/body.ts';
import { ApiError } from '../http/problem.ts';
import { describe } from '../openapi/describe.ts';
import { recordAudit } from '../security/audit.ts';
import { tooMany } from '../security/rateLimit.ts';
import { confirmEmailChange, deleteAccount, requestEmailChange, type AccountRefusal } from './commands.ts';
import { exportFileName, streamAccountExport } from './export.ts';
import { confirmPage, resultPage } from './pages.ts';

const tag = 'Account';
const detail = z.object({ detail: z.string() });

const refused = (r: AccountRefusal): ApiError => (r.status === 429 ? tooMany(r.detail, { retryAfter: r.retryAfter ?? 60 }) : new ApiError(r.status, r.detail));

export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const signedIn = requireAuth(deps);
  const r = new Hono<AppEnv>();

  r.get('/export', signedIn, describe({
    tag, summary: 'Download my data: the whole account as one JSON file (the same document as `npm run export`), streamed as an attachment',
    response: { status: 200, contentType: 'application/json', description: 'tradie-quotes/account-export version 1: account, tables, events (Content-Disposition: attachment; filename=tradie-export-YYYY-MM-DD.json)' },
  }), async (c) => {
    const accountId = c.get('accountId');
    const now = deps.clock.now();
    const chunks = await streamAccountExport(deps.store, accountId, now);
    if (!chunks) throw new ApiError(401, contracts.AUTH_MESSAGES.sessionEnded);
    const origin = originOf(deps, c);
    await recordAudit(deps.store.db, { accountId, kind: 'data_exported', at: now, ip: origin.ip, userAgent: origin.userAgent });
    // A section at a time, as the client reads: a large account is never one string in memory.
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return attachment(body, 'application/json; charset=utf-8', exportFileName(now));
  });

  r.post('/delete', signedIn, describe({
    tag, summary: `Delete my account: type ${contracts.DELETE_CONFIRMATION_WORD} and the password. Cancels the subscription, disconnects Xero, ends every session and disables sign-in at once; the data is erased within ${contracts.ACCOUNT_PURGE_DAYS} days`,
    body: contracts.deleteAccountInput, response: { status: 200, schema: contracts.deleteAccountResult }, errors: [429, 502, 503],
  }), async (c) => {
    const out = await deleteAccount(deps, c.get('userId'), await parseBody(c, contracts.deleteAccountInput), originOf(deps, c));
    if (!out.ok) throw refused(out);
    return c.json({ detail: ACCOUNT_MESSAGES.deleted, purge_after: out.purgeAfter.toISOString() });
  });

  r.post('/change-email', signedIn, describe({
    tag, summary: 'Change the email address: the password, then a confirmation link goes to the new address (3 an hour); the address changes when it is opened',
    body: contracts.changeEmailInput, response: { status: 200, schema: detail }, errors: [409, 429, 503],
  }), async (c) => {
    const out = await requestEmailChange(deps, c.get('userId'), await parseBody(c, contracts.changeEmailInput), originOf(deps, c));
    if (!out.ok) throw refused(out);
    return c.json({ detail: ACCOUNT_MESSAGES.emailChangeSent(out.email) });
  });

  // The emailed link opens a page with one button: a mail scanner fetching the link changes nothing.
  r.get('/confirm-email-change', describe({
    tag, summary: 'The page an email-change link opens: one button that confirms the new address', auth: false,
    query: z.object({ token: z.string().optional() }), response: { status: 200, contentType: 'text/html', description: 'An HTML page with a confirm button' },
  }), (c) => c.html(confirmPage(c.req.query('token') ?? '')));

  r.post('/confirm-email-change', describe({
    tag, summary: 'Confirm the new email address with the emailed link (single use, 7 days, only the newest link works); JSON, or the page\'s form (answers a page)', auth: false,
    body: contracts.confirmEmailChangeInput, bodyNote: 'application/json, or application/x-www-form-urlencoded from the confirm page',
    response: { status: 200, schema: contracts.confirmEmailChangeResult }, errors: [409],
  }), async (c) => {
    const fromForm = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
    const input = fromForm ? contracts.confirmEmailChangeInput.safeParse(await c.req.parseBody()) : { success: true as const, data: await parseBody(c, contracts.confirmEmailChangeInput) };
    const out = input.success ? await confirmEmailChange(deps, input.data.token, originOf(deps, c)) : { ok: false as const, status: 422 as const, detail: ACCOUNT_MESSAGES.emailChangeLinkInvalid };
    if (fromForm) return pageAnswer(c, deps, out.ok ? { ok: true, text: ACCOUNT_MESSAGES.emailChanged(out.email) } : { ok: false, text: out.detail, status: out.status });
    if (!out.ok) throw refused(out);
    return c.json({ detail: ACCOUNT_MESSAGES.emailChanged(out.email), email: out.email });
  });

  return r;
}

function pageAnswer(c: Context<AppEnv>, deps: AppDeps, result: { ok: boolean; text: string; status?: 401 | 409 | 422 | 429 | 502 | 503 }): Response {
  return c.html(resultPage(result.ok, result.text, deps.config.appUrl), result.ok ? 200 : (result.status ?? 422));
}
