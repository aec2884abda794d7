// Confirming the account's email address: until it is confirmed, a server that really sends mail
// (SMTP) sends no quotes or invoices for the account (documents/sendGuard.ts), so a made-up sign-up
// can't use the app as a free mail relay. With the outbox nothing leaves the machine and nothing
// needs confirming: no confirmation email is sent and nothing is marked.
//
// Links: one-time tokens of kind 'email_confirmation' (security/oneTimeTokens.ts: stored only as
// SHA-256, single use, 7 days; a newer link makes the older ones useless; a changed address ends
// them). Mounted at /api/v1/auth beside authRoutes (routes/index.ts):
//
//   POST /auth/confirm-email {token}  no sign-in: marks the address confirmed (audit 'email_confirmed')
//   POST /auth/resend-confirmation    signed in: a new link, at most 3 an hour per account
//   GET  /auth/sending-status         signed in: confirmation state and today's recipients
import { AUTH_MESSAGES, confirmEmailInput, confirmEmailResult, SENDING_MESSAGES, sendingStatus } from '@tradie/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import type { AppDeps } from '../deps.ts';
import { confirmationRequired, sendingStatusOf } from '../documents/sendGuard.ts';
import { parseBody } from '../http/body.ts';
import { describe } from '../openapi/describe.ts';
import { recordAudit } from '../security/audit.ts';
import { clientIp } from '../security/clientIp.ts';
import { type Limit, hit, peek, tooMany, windowWords } from '../security/rateLimit.ts';
import { consumeToken, issueToken, peekToken, TOKEN_POLICIES } from '../security/oneTimeTokens.ts';
import { requireAuth } from './middleware.ts';
import { sendAccountMail } from './accountMail.ts';
import type { AppError} from '../errors.ts';
import { BadRequest, Invalid, RetryLater, Unauthenticated } from '../errors.ts';

export const CONFIRM_TOKEN_DAYS = TOKEN_POLICIES.email_confirmation.lifetimeMs / 86_400_000;

/** New confirmation links per account: 3 an hour. */
export const RESEND_CONFIRMATION_LIMIT = { name: 'confirm:resend', max: 3, windowSeconds: 3600 } as const satisfies Limit;

export interface ConfirmationUser {
  id: string;
  email: string;
  full_name: string;
}

type ConfirmationDeps = Pick<AppDeps, 'store' | 'clock' | 'mailer' | 'config'>;

/**
 * Emails `user` a link that confirms their address, when mail really leaves the machine (SMTP);
 * with the outbox it does nothing. A newer link makes the older ones useless. Mail errors are the
 * caller's (the mailer's MailError).
 */
export async function sendConfirmation(deps: ConfirmationDeps, user: ConfirmationUser): Promise<void> {
  if (!confirmationRequired(deps)) return;
  const { token } = await deps.store.db.tx((sql) => issueToken(sql, { accountId: user.id, kind: 'email_confirmation', data: { email: user.email }, now: deps.clock.now() }));
  const link = `${deps.config.appUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  await sendAccountMail(deps, user, 'Confirm your email address for Tradie Quotes', [
    'Thanks for signing up to Tradie Quotes. Please confirm this is your email address,',
    'so you can send quotes and invoices to your clients:',
    '',
    link,
    '',
    `The link works for ${CONFIRM_TOKEN_DAYS} days. If it has run out, open the app and choose 'Resend confirmation email'.`,
    '',
    "If you didn't sign up, you can ignore this email — nothing is sent from this account until the address is confirmed.",
  ]);
}

/** A mail error as the API answers it: 503 when the server couldn't be reached, 422 when it refused. */
function mailProblem(e: unknown): AppError | null {
  const m = e as { code?: unknown; detail?: unknown } | null;
  if (m?.code === 'MAIL_UNAVAILABLE') {
    return new RetryLater(typeof m.detail === 'string' ? m.detail : "We couldn't send the email right now. Please try again in a few minutes.", undefined, 60);
  }
  if (m?.code === 'MAIL_REJECTED' && typeof m.detail === 'string') return new Invalid(m.detail);
  return null;
}

const tag = 'Authentication';

export function emailConfirmationRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const now = (): Date => deps.clock.now();

  r.post('/confirm-email', describe({
    tag, summary: 'Confirm the email address with the emailed link (single use, 7 days, only the newest link works)', auth: false,
    body: confirmEmailInput, response: { status: 200, schema: confirmEmailResult }, errors: [400],
  }), async (c) => {
    const body = await parseBody(c, confirmEmailInput);
    // One lookup first: a made-up or spent link is refused without a transaction or a lock.
    if (!(await peekToken(deps.store.db, body.token, 'email_confirmation', now())).ok) throw new BadRequest(SENDING_MESSAGES.confirmLinkInvalid);
    const used = await consumeToken(deps.store.db, body.token, 'email_confirmation', now(), async (sql, link) => {
      const [user] = await sql.query<{ email: string; email_confirmed_at: unknown }>('SELECT email, email_confirmed_at FROM users WHERE id = $1 FOR UPDATE', [link.accountId]);
      // A link confirms the address it was sent to, and only while the account still has it.
      if (!user || user.email !== link.data.email) return null;
      if (user.email_confirmed_at === null) {
        const at = now();
        await sql.query('UPDATE users SET email_confirmed_at = $2 WHERE id = $1', [link.accountId, at.toISOString()]);
        await recordAudit(sql, {
          accountId: link.accountId, kind: 'email_confirmed', at, ip: clientIp(c, deps.config.trustedProxies), userAgent: c.req.header('user-agent'), detail: { email: user.email },
        });
      }
      return { email: user.email };
    });
    const confirmed = used.ok ? used.value : null;
    if (!confirmed) throw new BadRequest(SENDING_MESSAGES.confirmLinkInvalid);
    return c.json({ detail: SENDING_MESSAGES.emailConfirmed, email: confirmed.email });
  });

  r.post('/resend-confirmation', requireAuth(deps), describe({
    tag, summary: 'Email a new confirmation link (3 an hour per account)', response: { status: 200, schema: z.object({ detail: z.string() }) }, errors: [429, 503],
  }), async (c) => {
    const userId = c.get('userId');
    const [user] = await deps.store.db.query<{ id: string; email: string; full_name: string; email_confirmed_at: unknown }>(
      'SELECT id, email, full_name, email_confirmed_at FROM users WHERE id = $1',
      [userId],
    );
    if (!user) throw new Unauthenticated(AUTH_MESSAGES.sessionEnded);
    if (user.email_confirmed_at !== null) return c.json({ detail: SENDING_MESSAGES.alreadyConfirmed });
    if (!confirmationRequired(deps)) return c.json({ detail: SENDING_MESSAGES.noConfirmationNeeded });
    const at = now();
    const tooManyDetail = (retryAfter: number) =>
      `We've already sent you ${RESEND_CONFIRMATION_LIMIT.max} confirmation links this hour. Please check your inbox (and spam folder), or try again in ${windowWords(retryAfter)}.`;
    // Looked at first (a refused request counts nothing), then counted atomically.
    const seen = await peek(deps.store.db, RESEND_CONFIRMATION_LIMIT, userId, at);
    if (!seen.allowed) throw tooMany(tooManyDetail(seen.retryAfter), seen);
    const counted = await hit(deps.store.db, RESEND_CONFIRMATION_LIMIT, userId, at);
    if (!counted.allowed) throw tooMany(tooManyDetail(counted.retryAfter), counted);
    try {
      await sendConfirmation(deps, user);
    } catch (e) {
      const problem = mailProblem(e);
      if (!problem) throw e;
      // Nothing was sent: the attempt doesn't count.
      await hit(deps.store.db, RESEND_CONFIRMATION_LIMIT, userId, at, -1);
      throw problem;
    }
    return c.json({ detail: SENDING_MESSAGES.confirmationSent(user.email) });
  });

  r.get('/sending-status', requireAuth(deps), describe({
    tag, summary: "Whether the account may send: email confirmed (needed when mail really leaves the server) and today's recipients against the daily limit",
    response: { status: 200, schema: sendingStatus },
  }), async (c) => {
    const status = await sendingStatusOf(deps, c.get('userId'));
    if (!status) throw new Unauthenticated(AUTH_MESSAGES.sessionEnded);
    return c.json(status);
  });

  return r;
}
