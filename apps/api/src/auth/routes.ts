// /api/v1/auth: register, login, me, refresh, logout, logout-all, change-password,
// forgot-password and reset-password. Each route reads its body, calls one use case (commands/)
// and answers its outcome. Identity lives in ordinary tables, not in the event log. Every way in
// is counted in the database before any expensive or risky work (security/rateLimit.ts), and what
// matters for security is written to the account's audit log (security/audit.ts).
import * as contracts from '@tradie/contracts';
import { AUTH_MESSAGES } from '@tradie/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/env.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import { describe } from '../openapi/describe.ts';
import { currentUser, register } from './commands/account.ts';
import { changePassword, forgotPassword, resetPassword } from './commands/password.ts';
import { login, logout, logoutAll, refresh } from './commands/session.ts';
import { originOf } from './http.ts';
import { requireAuth } from './middleware.ts';
import { DEFAULT_PASSWORD_COST } from './passwords.ts';

export interface AuthOptions {
  /** log2 of scrypt's N; tests lower it. */
  passwordCost?: number;
}

const tag = 'Authentication';
const detail = z.object({ detail: z.string() });

export function authRoutes(deps: AppDeps, options: AuthOptions = {}): Hono<AppEnv> {
  const withCost = { ...deps, passwordCost: options.passwordCost ?? Number(deps.config.env.PASSWORD_COST ?? DEFAULT_PASSWORD_COST) };
  const signedIn = requireAuth(deps);
  const r = new Hono<AppEnv>();

  r.post('/register', describe({
    tag, summary: 'Create an account (starts the 14-day trial); at most 10 an hour per address', auth: false,
    body: contracts.registerInput, response: { status: 201, schema: contracts.currentUser }, errors: [409, 429],
  }), async (c) => {
    const out = await register(withCost, await parseBody(c, contracts.registerInput), originOf(deps, c));
    return c.json(out, 201);
  });

  r.post('/login', describe({
    tag, summary: 'Sign in (attempts counted per account and address before the password is checked)', auth: false,
    body: contracts.loginInput, response: { status: 200, schema: contracts.tokenPair }, errors: [429],
  }), async (c) => {
    const out = await login(withCost, await parseBody(c, contracts.loginInput), originOf(deps, c));
    return c.json(out);
  });

  r.post('/refresh', describe({
    tag, summary: 'Rotate the refresh token (a reuse after 30 s ends the session family; 90-day absolute lifetime)', auth: false,
    body: contracts.refreshInput, response: { status: 200, schema: contracts.tokenPair },
  }), async (c) => {
    const out = await refresh(deps, await parseBody(c, contracts.refreshInput), originOf(deps, c));
    return c.json(out);
  });

  r.post('/logout', signedIn, describe({
    tag, summary: "Sign out: revokes this device's refresh token and its family", body: contracts.logoutInput, response: { status: 200, schema: detail },
  }), async (c) => {
    await logout(deps, c.get('userId'), await parseBody(c, contracts.logoutInput), originOf(deps, c));
    return c.json({ detail: AUTH_MESSAGES.signedOut });
  });

  r.post('/logout-all', signedIn, describe({
    tag, summary: 'Sign out everywhere: revokes every refresh token of the user', response: { status: 200, schema: detail },
  }), async (c) => {
    await logoutAll(deps, c.get('userId'), originOf(deps, c));
    return c.json({ detail: AUTH_MESSAGES.signedOutEverywhere });
  });

  r.post('/change-password', signedIn, describe({
    tag, summary: 'Change the password (signs out every other session; answers a fresh pair for this device)',
    body: contracts.changePasswordInput, response: { status: 200, schema: contracts.tokenPair.extend({ detail: z.string() }) }, errors: [429],
  }), async (c) => {
    const out = await changePassword(withCost, c.get('userId'), await parseBody(c, contracts.changePasswordInput), originOf(deps, c));
    return c.json({ detail: AUTH_MESSAGES.passwordChanged, ...out });
  });

  r.get('/me', signedIn, describe({ tag, summary: 'The signed-in user', response: { status: 200, schema: contracts.currentUser } }), async (c) => {
    const out = await currentUser(deps, c.get('userId'));
    return c.json(out);
  });

  r.post('/forgot-password', describe({
    tag, summary: 'Email a reset link (same answer for unknown emails; 3 an hour per address)', auth: false,
    body: contracts.forgotPasswordInput, response: { status: 200, schema: contracts.forgotPasswordResult }, errors: [429],
  }), async (c) => {
    const out = await forgotPassword(deps, await parseBody(c, contracts.forgotPasswordInput), originOf(deps, c));
    // Nothing says sent unless a mail server takes it: a server with no mail server keeps the link in its outbox.
    const savedToOutbox = deps.mailer.kind === 'outbox';
    return c.json({ detail: savedToOutbox ? AUTH_MESSAGES.resetLinkSaved(out) : AUTH_MESSAGES.resetLinkComing(out), saved_to_outbox: savedToOutbox });
  });

  r.post('/reset-password', describe({
    tag, summary: 'Set a new password with a reset token (single use, one hour, only the newest link works)', auth: false,
    body: contracts.resetPasswordInput, response: { status: 200, schema: detail }, errors: [400, 429],
  }), async (c) => {
    await resetPassword(withCost, await parseBody(c, contracts.resetPasswordInput), originOf(deps, c));
    return c.json({ detail: 'Your password has been reset. You can sign in now.' });
  });

  return r;
}
