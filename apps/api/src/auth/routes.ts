// /api/v1/auth: register, login, me, refresh (rotating, with reuse detection, a short grace for two
// tabs and an absolute lifetime), logout, logout-all, change-password, forgot-password and
// reset-password. Identity lives in ordinary tables, not in the event log. Every way in is counted in
// the database before any expensive or risky work (security/rateLimit.ts), and what matters for
// security is written to the account's audit log (security/audit.ts).
import {
  AUTH_MESSAGES, changePasswordInput, forgotPasswordInput, loginInput, logoutInput, normaliseEmail, refreshInput, registerInput, resetPasswordInput,
  type TokenPair,
} from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import { ApiError } from '../http/problem.ts';
import { type AuditKind, recordAudit } from '../security/audit.ts';
import { clientIp } from '../security/clientIp.ts';
import { type Limit, clear, enforce, hit, tooMany, windowWords } from '../security/rateLimit.ts';
import { sendConfirmation } from './emailConfirmation.ts';
import { sendAccountMail } from './accountMail.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './passwordPolicy.ts';
import { DEFAULT_PASSWORD_COST, dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { requireAuth } from './middleware.ts';
import { newOpaqueToken, signAccessToken, tokenHash } from './tokens.ts';

export const LOGIN_THROTTLE = { maxFailures: 10, windowMinutes: 15 } as const;
export const RESET_TOKEN_MINUTES = 60;

/**
 * Every limit on the way in, counted in the database (shared by every API process) before the work
 * it protects. Sign-in attempts count per account from one IP (the guesser is stopped after 10),
 * per account from everywhere (a botnet is slowed, while the owner on another network waits at
 * most one window), and per IP across accounts (one address trying many accounts).
 */
export const AUTH_LIMITS_IN_DB = {
  loginAccountIp: { name: 'login:account-ip', max: LOGIN_THROTTLE.maxFailures, windowSeconds: LOGIN_THROTTLE.windowMinutes * 60 },
  loginAccount: { name: 'login:account', max: 100, windowSeconds: LOGIN_THROTTLE.windowMinutes * 60 },
  loginIp: { name: 'login:ip', max: 100, windowSeconds: LOGIN_THROTTLE.windowMinutes * 60 },
  register: { name: 'register:ip', max: 10, windowSeconds: 3600 },
  forgotEmail: { name: 'forgot:email', max: 3, windowSeconds: 3600 },
  forgotIp: { name: 'forgot:ip', max: 20, windowSeconds: 3600 },
  resetIp: { name: 'reset:ip', max: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, Limit>;

/** Refresh tokens live 30 days from their last use, and never past 90 days from the sign-in. */
export const REFRESH_ABSOLUTE_DAYS = 90;
/**
 * Two tabs (or a tab and the service worker) may refresh with the same token at the same moment.
 * Within this many seconds of its first use, a second use is taken as that race and answered with
 * a new pair in the same family; after it, a second use means a stolen copy and ends the family.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

export interface AuthOptions {
  /** log2 of scrypt's N; tests lower it. */
  passwordCost?: number;
}

interface UserRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  created_at: Date | string;
  email_confirmed_at?: Date | string | null;
}

const iso = (d: Date | string): string => new Date(d).toISOString();

export function authRoutes(deps: AppDeps, options: AuthOptions = {}): Hono<AppEnv> {
  const cost = options.passwordCost ?? Number(deps.config.env.PASSWORD_COST ?? DEFAULT_PASSWORD_COST);
  const r = new Hono<AppEnv>();
  const now = (): Date => deps.clock.now();

  /** Per-IP limits scaled for networks whose users share one address (IP_LIMIT_MULTIPLIER). */
  const perIp = (limit: Limit): Limit => ({ ...limit, max: limit.max * deps.config.env.IP_LIMIT_MULTIPLIER });
  const ipOf = (c: Parameters<typeof clientIp>[0]): string => clientIp(c, deps.config.trustedProxies);
  const audit = (sql: Sql, c: Parameters<typeof clientIp>[0], accountId: string, kind: AuditKind, detail?: Record<string, string | number | boolean | null>) =>
    recordAudit(sql, { accountId, kind, at: now(), ip: ipOf(c), userAgent: c.req.header('user-agent'), detail });

  /** A new password that passes the schema must also not be one of the most common. */
  const checkNewPassword = (password: string): void => {
    if (isCommonPassword(password)) throw new ApiError(422, COMMON_PASSWORD_MESSAGE);
  };

  /** A new pair; `familyStartedAt` is the sign-in that began the family (its absolute lifetime runs from there). */
  async function issuePair(sql: Sql, userId: string, familyId: string, familyStartedAt: Date = now()): Promise<TokenPair> {
    const refresh = newOpaqueToken();
    const at = now();
    const sliding = at.getTime() + deps.config.refreshTokenTtlDays * 86_400_000;
    const absolute = familyStartedAt.getTime() + REFRESH_ABSOLUTE_DAYS * 86_400_000;
    const expires = new Date(Math.min(sliding, absolute));
    await sql.query(
      'INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at, family_started_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [tokenHash(refresh), userId, familyId, at.toISOString(), expires.toISOString(), familyStartedAt.toISOString()],
    );
    return {
      access_token: await signAccessToken(deps.secrets.jwtKey, userId, at, deps.config.accessTokenTtlSeconds),
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: deps.config.accessTokenTtlSeconds,
    };
  }

  r.post('/register', async (c) => {
    const body = await parseBody(c, registerInput);
    checkNewPassword(body.password);
    const email = normaliseEmail(body.email);
    await enforce(deps.store.db, perIp(AUTH_LIMITS_IN_DB.register), ipOf(c), now(), AUTH_MESSAGES.tooManyRegistrations);
    const passwordHash = await hashPassword(body.password, cost);
    const id = deps.ids.uuid();
    const at = now().toISOString();
    const inserted = await deps.store.db.query(
      `INSERT INTO users (id, email, full_name, password_hash, created_at, trial_started_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [id, email, body.full_name, passwordHash, at],
    );
    if (inserted.length === 0) throw new ApiError(409, AUTH_MESSAGES.emailTaken);
    // Not awaited: the sign-up answers at once; the address is confirmed from the emailed link (SMTP only).
    void sendConfirmation(deps, { id, email, full_name: body.full_name })
      .catch((e: unknown) => deps.log('error', 'confirmation email failed', { error: e instanceof Error ? e.message : String(e) }));
    return c.json({ id, email, full_name: body.full_name, created_at: at }, 201);
  });

  r.post('/login', async (c) => {
    const body = await parseBody(c, loginInput);
    const email = normaliseEmail(body.email);
    const ip = ipOf(c);
    const at = now();
    // Counted before the password is looked at, one atomic upsert each: forty guesses sent at once
    // count 1..40 and only those within every limit are checked.
    const hits = [
      await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${email}|${ip}`, at),
      await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccount, email, at),
      await hit(deps.store.db, perIp(AUTH_LIMITS_IN_DB.loginIp), ip, at),
    ];
    const over = hits.find((h) => !h.allowed);
    if (over) throw tooMany(AUTH_MESSAGES.throttled, over);
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE email = $1', [email]);
    // Unknown emails verify against a dummy hash, so both answers take the same time.
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash(cost)));
    if (!user || !ok) {
      if (user) await audit(deps.store.db, c, user.id, 'sign_in_failed');
      throw new ApiError(401, AUTH_MESSAGES.incorrectLogin);
    }
    const pair = await deps.store.db.tx(async (sql) => {
      // The owner got in from here: this address's count for the account starts again.
      await clear(sql, AUTH_LIMITS_IN_DB.loginAccountIp, `${email}|${ip}`, at);
      await audit(sql, c, user.id, 'signed_in');
      return issuePair(sql, user.id, deps.ids.uuid());
    });
    return c.json(pair);
  });

  r.post('/refresh', async (c) => {
    const body = await parseBody(c, refreshInput);
    const hash = tokenHash(body.refresh_token);
    // The verdict is decided inside the transaction and the 401 thrown after it, so revoking a
    // reused token's family commits.
    const result = await deps.store.db.tx(async (sql): Promise<TokenPair | 'invalid' | 'reused'> => {
      const [row] = await sql.query<{
        user_id: string; family_id: string; created_at: Date | string; expires_at: Date | string; used_at: Date | string | null; revoked_at: unknown; family_started_at: Date | string | null;
      }>('SELECT user_id, family_id, created_at, expires_at, used_at, revoked_at, family_started_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE', [hash]);
      if (!row || row.revoked_at !== null) {
        // A revoked token (signed out, password changed, or already caught) is refused without more.
        return 'invalid';
      }
      const t = now().getTime();
      const familyStartedAt = new Date(row.family_started_at ?? row.created_at);
      if (new Date(row.expires_at).getTime() <= t || familyStartedAt.getTime() + REFRESH_ABSOLUTE_DAYS * 86_400_000 <= t) return 'invalid';
      if (row.used_at !== null) {
        if (t - new Date(row.used_at).getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000) {
          // Two tabs refreshing together: the second gets its own pair in the same family.
          return issuePair(sql, row.user_id, row.family_id, familyStartedAt);
        }
        // A token used twice means two holders: the stolen copy and the real one. End the whole family.
        await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id, now().toISOString()]);
        await audit(sql, c, row.user_id, 'session_reuse_detected');
        return 'reused';
      }
      await sql.query('UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1', [hash, now().toISOString()]);
      const [user] = await sql.query('SELECT 1 FROM users WHERE id = $1', [row.user_id]);
      if (!user) return 'invalid';
      return issuePair(sql, row.user_id, row.family_id, familyStartedAt);
    });
    if (result === 'invalid' || result === 'reused') throw new ApiError(401, AUTH_MESSAGES.sessionEnded);
    return c.json(result);
  });

  r.post('/logout', requireAuth(deps), async (c) => {
    const body = await parseBody(c, logoutInput);
    const userId = c.get('userId');
    await deps.store.db.tx(async (sql) => {
      if (body.refresh_token) {
        // This device's session: the token's whole family, and only if it is this user's.
        await sql.query(
          `UPDATE refresh_tokens SET revoked_at = $3 WHERE revoked_at IS NULL AND user_id = $2
             AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND user_id = $2)`,
          [tokenHash(body.refresh_token), userId, now().toISOString()],
        );
      }
      await audit(sql, c, userId, 'signed_out');
    });
    return c.json({ detail: AUTH_MESSAGES.signedOut });
  });

  r.post('/logout-all', requireAuth(deps), async (c) => {
    const userId = c.get('userId');
    await deps.store.db.tx(async (sql) => {
      await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now().toISOString()]);
      await audit(sql, c, userId, 'signed_out_everywhere');
    });
    return c.json({ detail: AUTH_MESSAGES.signedOutEverywhere });
  });

  r.post('/change-password', requireAuth(deps), async (c) => {
    const body = await parseBody(c, changePasswordInput);
    const userId = c.get('userId');
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE id = $1', [userId]);
    if (!user) throw new ApiError(401, AUTH_MESSAGES.sessionEnded);
    // A stolen access token must not become a password-guessing oracle: the same limit as sign-in.
    const over = await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${user.email}|${ipOf(c)}`, now());
    if (!over.allowed) throw tooMany(AUTH_MESSAGES.throttled, over);
    if (!(await verifyPassword(body.current_password, user.password_hash))) {
      await audit(deps.store.db, c, userId, 'sign_in_failed', { during: 'password change' });
      throw new ApiError(422, AUTH_MESSAGES.currentPasswordWrong);
    }
    if (body.new_password === body.current_password) throw new ApiError(422, AUTH_MESSAGES.samePassword);
    checkNewPassword(body.new_password);
    const passwordHash = await hashPassword(body.new_password, cost);
    const pair = await deps.store.db.tx(async (sql) => {
      await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
      // Whoever knew the old password is signed out everywhere; this device gets a fresh session.
      await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now().toISOString()]);
      await sql.query('UPDATE password_reset_tokens SET expires_at = $2 WHERE user_id = $1 AND used_at IS NULL AND expires_at > $2', [userId, now().toISOString()]);
      await audit(sql, c, userId, 'password_changed');
      return issuePair(sql, userId, deps.ids.uuid());
    });
    return c.json({ detail: AUTH_MESSAGES.passwordChanged, ...pair });
  });

  r.get('/me', requireAuth(deps), async (c) => {
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, created_at, email_confirmed_at FROM users WHERE id = $1', [c.get('userId')]);
    if (!user) throw new ApiError(401, AUTH_MESSAGES.sessionEnded);
    return c.json({ id: user.id, full_name: user.full_name, email: user.email, created_at: iso(user.created_at), email_confirmed: user.email_confirmed_at != null });
  });

  r.post('/forgot-password', async (c) => {
    const body = await parseBody(c, forgotPasswordInput);
    const email = normaliseEmail(body.email);
    // Counted per address whether or not it has an account, so the answer says nothing about that.
    const ip = await hit(deps.store.db, perIp(AUTH_LIMITS_IN_DB.forgotIp), ipOf(c), now());
    if (!ip.allowed) throw tooMany(AUTH_MESSAGES.tooManyResetRequests, ip);
    await enforce(
      deps.store.db, AUTH_LIMITS_IN_DB.forgotEmail, email, now(),
      `We've sent ${AUTH_LIMITS_IN_DB.forgotEmail.max} reset emails to ${email} in the last hour. Please check your inbox (and spam folder), or try again in ${windowWords(AUTH_LIMITS_IN_DB.forgotEmail.windowSeconds)}.`,
    );
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name FROM users WHERE email = $1', [email]);
    if (user) {
      const token = newOpaqueToken();
      const at = now();
      await deps.store.db.tx(async (sql) => {
        // A newer link makes the older ones useless: only the last email sent works.
        await sql.query('UPDATE password_reset_tokens SET expires_at = $2 WHERE user_id = $1 AND used_at IS NULL AND expires_at > $2', [user.id, at.toISOString()]);
        await sql.query('INSERT INTO password_reset_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
          tokenHash(token), user.id, at.toISOString(), new Date(at.getTime() + RESET_TOKEN_MINUTES * 60_000).toISOString(),
        ]);
        await audit(sql, c, user.id, 'password_reset_requested');
      });
      const link = `${deps.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
      // Not awaited: a known and an unknown email answer alike and in the same time.
      void sendAccountMail(deps, user, 'Reset your Tradie Quotes password', [
        'Someone (hopefully you) asked to reset the password for your Tradie Quotes account.',
        `Open this link within ${RESET_TOKEN_MINUTES} minutes to choose a new password:`,
        '',
        link,
        '',
        "If you didn't ask for this, you can ignore this email — your password stays the same.",
      ]).catch((e: unknown) => deps.log('error', 'password reset email failed', { error: e instanceof Error ? e.message : String(e) }));
    }
    return c.json({ detail: `If an account exists for ${email}, you'll receive a password reset link shortly.` });
  });

  r.post('/reset-password', async (c) => {
    const body = await parseBody(c, resetPasswordInput);
    await enforce(deps.store.db, perIp(AUTH_LIMITS_IN_DB.resetIp), ipOf(c), now(), AUTH_MESSAGES.tooManyResetAttempts);
    const hash = tokenHash(body.token);
    const usable = async (sql: Sql, lock: boolean): Promise<{ user_id: string } | null> => {
      const [row] = await sql.query<{ user_id: string; expires_at: Date | string; used_at: unknown }>(
        `SELECT user_id, expires_at, used_at FROM password_reset_tokens WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
        [hash],
      );
      return row && row.used_at === null && new Date(row.expires_at).getTime() > now().getTime() ? row : null;
    };
    // The token first: a made-up or spent one is refused after one lookup, before any hashing,
    // so guessing costs the server nothing; only a live link pays for scrypt.
    if (!(await usable(deps.store.db, false))) throw new ApiError(400, AUTH_MESSAGES.resetLinkExpired);
    checkNewPassword(body.new_password);
    const passwordHash = await hashPassword(body.new_password, cost);
    const ok = await deps.store.db.tx(async (sql) => {
      // Again under the row's lock: two tabs using one link at once, one wins.
      const row = await usable(sql, true);
      if (!row) return false;
      const at = now().toISOString();
      await sql.query('UPDATE password_reset_tokens SET used_at = $2 WHERE token_hash = $1', [hash, at]);
      await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [row.user_id, passwordHash]);
      // A reset ends every session: whoever knew the old password is signed out.
      await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [row.user_id, at]);
      // The owner proved who they are: their sign-in counts start again, from every address.
      await sql.query(
        `DELETE FROM rate_limits WHERE key = 'login:account:' || (SELECT email FROM users WHERE id = $1)
           OR starts_with(key, 'login:account-ip:' || (SELECT email FROM users WHERE id = $1) || '|')`,
        [row.user_id],
      );
      await audit(sql, c, row.user_id, 'password_reset');
      return true;
    });
    if (!ok) throw new ApiError(400, AUTH_MESSAGES.resetLinkExpired);
    return c.json({ detail: 'Your password has been reset. You can sign in now.' });
  });

  return r;
}
