// /api/v1/account: the tradie's own account — download my data, change email (and 'This wasn't
// me' from the notice to the current address), delete my account (Settings → Account). Each route reads its body, calls one use case (commands.ts) and answers
// its outcome. docs/api/account.md describes them; docs/decisions/0010-account-deletion.md says
// what deleting removes, and when.
import * as contracts from '@tradie/contracts';
import { ACCOUNT_MESSAGES } from '@tradie/contracts';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { originOf } from '../auth/http.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { attachment } from '../http/attachment.ts';
import type { AppEnv } from '../http/env.ts';
import { parseBody } from '../http/body.ts';
import { ApiError, statusOf } from '../http/problem.ts';
import { AppError, Invalid } from '../errors.ts';
import { describe } from '../openapi/describe.ts';
import { recordAudit } from '../security/audit.ts';
import { cancelEmailChange, confirmEmailChange, deleteAccount, requestEmailChange } from './commands.ts';
import { DATA_ZIP_LIMIT, DATA_ZIP_MAX_PDFS, dataZip } from './dataZip.ts';
import { exportFileName, streamAccountExport } from './export.ts';
import { cancelPage, confirmPage, type PageResult, resultPage } from './pages.ts';

const tag = 'Account';

export function accountRoutes(deps: AppDeps): Hono<AppEnv> {
  const signedIn = requireAuth(deps);
  const r = new Hono<AppEnv>();

  r.get('/export', signedIn, describe({
    tag, summary: 'Download my data: the whole account as one JSON file (the same document as `npm run export`), streamed as an attachment',
    response: { status: 200, contentType: 'application/json', description: 'tradie-quotes/account-export version 1: account, tables, events and the signature over them (Content-Disposition: attachment; filename=tradie-export-YYYY-MM-DD.json)' },
  }), async (c) => {
    const accountId = c.get('accountId');
    const now = deps.clock.now();
    const chunks = await streamAccountExport(deps.store, accountId, now, deps.secrets.exportKey);
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

  r.get('/export/zip', signedIn, describe({
    tag, summary: `Download my data as something to open: one ZIP of every quote, invoice and credit note as a PDF (at most ${DATA_ZIP_MAX_PDFS}), the accountant's CSVs over the whole history, and the complete JSON export above for a restore, with a README. ${DATA_ZIP_LIMIT.max} an hour`,
    response: { status: 200, contentType: 'application/zip', description: 'README.txt, tradie-export-YYYY-MM-DD.json, accountant/*.csv and accountant/README.txt, documents/*.pdf (Content-Disposition: attachment; filename=tradie-my-data-YYYY-MM-DD.zip)' },
    errors: [429, 503],
  }), async (c) => {
    const accountId = c.get('accountId');
    const zip = await dataZip(deps, accountId);
    if (!zip) throw new ApiError(401, contracts.AUTH_MESSAGES.sessionEnded);
    const origin = originOf(deps, c);
    await recordAudit(deps.store.db, { accountId, kind: 'data_exported', at: deps.clock.now(), ip: origin.ip, userAgent: origin.userAgent });
    return attachment(zip.body, 'application/zip', zip.fileName);
  });

  r.post('/delete', signedIn, describe({
    tag, summary: `Delete my account: type ${contracts.DELETE_CONFIRMATION_WORD} and the password. Cancels the subscription, disconnects Xero, ends every session and disables sign-in at once; the data is erased within ${contracts.ACCOUNT_PURGE_DAYS} days`,
    body: contracts.deleteAccountInput, response: { status: 200, schema: contracts.deleteAccountResult }, errors: [429, 502, 503],
  }), async (c) => {
    const out = await deleteAccount(deps, c.get('userId'), await parseBody(c, contracts.deleteAccountInput), originOf(deps, c));
    return c.json({ detail: ACCOUNT_MESSAGES.deleted, purge_after: out.purgeAfter.toISOString() });
  });

  r.post('/change-email', signedIn, describe({
    tag, summary: "Change the email address: the password, then a confirmation link goes to the new address (3 an hour) and a 'This wasn't me' link to the current one; the address changes when the first is opened. The answer says whether the email was delivered or only saved to the outbox",
    body: contracts.changeEmailInput, response: { status: 200, schema: contracts.changeEmailResult }, errors: [409, 429, 503],
  }), async (c) => {
    const out = await requestEmailChange(deps, c.get('userId'), await parseBody(c, contracts.changeEmailInput), originOf(deps, c));
    const delivered = out.outcome === 'delivered';
    return c.json({ detail: delivered ? ACCOUNT_MESSAGES.emailChangeSent(out.email) : ACCOUNT_MESSAGES.emailChangeSaved(out.email), outcome: out.outcome });
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
    const answer = await linkAnswer(c, contracts.confirmEmailChangeInput, ACCOUNT_MESSAGES.emailChangeLinkInvalid, (token) => confirmEmailChange(deps, token, originOf(deps, c)));
    const out = answer.out;
    if (answer.fromForm) return pageAnswer(c, deps, out.ok ? { result: 'changed', text: ACCOUNT_MESSAGES.emailChanged(out.value.email) } : { result: 'failed', text: out.error.detail, status: statusOf(out.error) });
    if (!out.ok) throw out.error;
    return c.json({ detail: ACCOUNT_MESSAGES.emailChanged(out.value.email), email: out.value.email });
  });

  // 'This wasn't me' in the notice to the current address: a page with one button, as above.
  r.get('/cancel-email-change', describe({
    tag, summary: "The page the 'This wasn't me' link opens: one button that cancels the pending email change and signs out every device", auth: false,
    query: z.object({ token: z.string().optional() }), response: { status: 200, contentType: 'text/html', description: 'An HTML page with a cancel button' },
  }), (c) => c.html(cancelPage(c.req.query('token') ?? '')));

  r.post('/cancel-email-change', describe({
    tag, summary: "Cancel the pending email change with the link in the notice to the current address, and sign out every device (single use, 7 days); JSON, or the page's form (answers a page)", auth: false,
    body: contracts.cancelEmailChangeInput, bodyNote: 'application/json, or application/x-www-form-urlencoded from the cancel page',
    response: { status: 200, schema: contracts.cancelEmailChangeResult },
  }), async (c) => {
    const answer = await linkAnswer(c, contracts.cancelEmailChangeInput, ACCOUNT_MESSAGES.cancelLinkInvalid, (token) => cancelEmailChange(deps, token, originOf(deps, c)));
    const out = answer.out;
    const text = out.ok ? ACCOUNT_MESSAGES.emailChangeCancelled(out.value.email, out.value.cancelled) : out.error.detail;
    if (answer.fromForm) return pageAnswer(c, deps, out.ok ? { result: 'cancelled', text } : { result: 'not-cancelled', text, status: statusOf(out.error) });
    if (!out.ok) throw out.error;
    return c.json({ detail: text, email: out.value.email });
  });

  return r;
}

/** A link's answer: its value, or the application error it was refused with (a page shows either). */
type LinkOutcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * A link's POST: the token from the page's form (answered with a page) or from JSON; a form
 * without a usable token is refused with `invalid`. Faults are not refusals: they go on up.
 */
async function linkAnswer<T>(
  c: Context<AppEnv>, schema: z.ZodType<{ token: string }>, invalid: string, act: (token: string) => Promise<T>,
): Promise<{ fromForm: boolean; out: LinkOutcome<T> }> {
  const fromForm = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
  const input = fromForm ? schema.safeParse(await c.req.parseBody()) : { success: true as const, data: await parseBody(c, schema) };
  if (!input.success) return { fromForm, out: { ok: false, error: new Invalid(invalid) } };
  try {
    return { fromForm, out: { ok: true, value: await act(input.data.token) } };
  } catch (e) {
    if (e instanceof AppError) return { fromForm, out: { ok: false, error: e } };
    throw e;
  }
}

function pageAnswer(c: Context<AppEnv>, deps: AppDeps, result: { result: PageResult; text: string; status?: ContentfulStatusCode }): Response {
  return c.html(resultPage(result.result, result.text, deps.config.appUrl), result.status ?? 200);
}
