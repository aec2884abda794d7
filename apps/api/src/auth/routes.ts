// /api/v1/auth: register, login, me, refresh (rotating, with reuse detection), forgot-password
// and reset-password. Identity lives in ordinary tables, not in the event log.
import {
  AUTH_MESSAGES, forgotPasswordInput, loginInput, normaliseEmail, refreshInput, registerInput, resetPasswordInput, type TokenPair,
} from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import { ApiError } from '../http/problem.ts';
import { DEFAULT_PASSWORD_COST, dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { requireAuth } from './middleware.ts';
import { newOpaqueToken, signAccessToken, tokenHash } from './tokens.ts';

export const LOGIN_THROTTLE = { maxFailures: 10, windowMinutes: 15 } as const;
export const RESET_TOKEN_MINUTES = 60;

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
}

const iso = (d: Date | string): string => new Date(d).toISOString();

export function authRoutes(deps: AppDeps, options: AuthOptions = {}): Hono<AppEnv> {
  const cost = options.passwordCost ?? Number(deps.config.env.PASSWORD_COST ?? DEFAULT_PASSWORD_COST);
  const r = new Hono<AppEnv>();
  const now = (): Date => deps.clock.now();

  async function issuePair(sql: Sql, userId: string, familyId: string): Promise<TokenPair> {
    const refresh = newOpaqueToken();
    const at = now();
    const expires = new Date(at.getTime() + deps.config.refreshTokenTtlDays * 86_400_000);
    await sql.query('INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      tokenHash(refresh), userId, familyId, at.toISOString(), expires.toISOString(),
    ]);
    return {
      access_token: await signAccessToken(deps.secrets.jwtKey, userId, at, deps.config.accessTokenTtlSeconds),
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: deps.config.accessTokenTtlSeconds,
    };
  }

  r.post('/register', async (c) => {
    const body = await parseBody(c, registerInput);
    const email = normaliseEmail(body.email);
    const passwordHash = await hashPassword(body.password, cost);
    const id = deps.ids.uuid();
    const at = now().toISOString();
    const inserted = await deps.store.db.query(
      `INSERT INTO users (id, email, full_name, password_hash, created_at, trial_started_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [id, email, body.full_name, passwordHash, at],
    );
    if (inserted.length === 0) throw new ApiError(409, AUTH_MESSAGES.emailTaken);
    return c.json({ id, email, full_name: body.full_name, created_at: at }, 201);
  });

  r.post('/login', async (c) => {
    const body = await parseBody(c, loginInput);
    const email = normaliseEmail(body.email);
    const since = new Date(now().getTime() - LOGIN_THROTTLE.windowMinutes * 60_000).toISOString();
    const [failures] = await deps.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM login_failures WHERE email = $1 AND at > $2', [email, since]);
    if (Number(failures?.n ?? 0) >= LOGIN_THROTTLE.maxFailures) {
      throw new ApiError(429, AUTH_MESSAGES.throttled, undefined, { 'Retry-After': String(LOGIN_THROTTLE.windowMinutes * 60) });
    }
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE email = $1', [email]);
    // Unknown emails verify against a dummy hash, so both answers take the same time.
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash(cost)));
    if (!user || !ok) {
      await deps.store.db.query('INSERT INTO login_failures (email, at) VALUES ($1, $2)', [email, now().toISOString()]);
      throw new ApiError(401, AUTH_MESSAGES.incorrectLogin);
    }
    const pair = await deps.store.db.tx(async (sql) => {
      await sql.query('DELETE FROM login_failures WHERE email = $1', [email]);
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
      const [row] = await sql.query<{ user_id: string; family_id: string; expires_at: Date | string; used_at: unknown; revoked_at: unknown }>(
        'SELECT user_id, family_id, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE',
        [hash],
      );
      if (!row) return 'invalid';
      if (row.used_at !== null || row.revoked_at !== null) {
        // A token used twice means two holders: the stolen copy and the real one. End the whole family.
        await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id, now().toISOString()]);
        return 'reused';
      }
      if (new Date(row.expires_at).getTime() <= now().getTime()) return 'invalid';
      await sql.query('UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1', [hash, now().toISOString()]);
      const [user] = await sql.query('SELECT 1 FROM users WHERE id = $1', [row.user_id]);
      if (!user) return 'invalid';
      return issuePair(sql, row.user_id, row.family_id);
    });
    if (result === 'invalid' || result === 'reused') throw new ApiError(401, AUTH_MESSAGES.sessionEnded);
    return c.json(result);
  });

  r.get('/me', requireAuth(deps), async (c) => {
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, created_at FROM users WHERE id = $1', [c.get('userId')]);
    if (!user) throw new ApiError(401, AUTH_MESSAGES.sessionEnded);
    return c.json({ id: user.id, full_name: user.full_name, email: user.email, created_at: iso(user.created_at) });
  });

  r.post('/forgot-password', async (c) => {
    const body = await parseBody(c, forgotPasswordInput);
    const email = normaliseEmail(body.email);
    const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name FROM users WHERE email = $1', [email]);
    if (user) {
      const token = newOpaqueToken();
      const at = now();
      await deps.store.db.query('INSERT INTO password_reset_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        tokenHash(token), user.id, at.toISOString(), new Date(at.getTime() + RESET_TOKEN_MINUTES * 60_000).toISOString(),
      ]);
      const link = `${deps.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
      // Not awaited: a known and an unknown email answer alike and in the same time.
      void deps.mailer
        .send({
          from: { name: 'Tradie Quotes', address: deps.config.env.MAIL_FROM ?? 'no-reply@tradiequotes.nz' },
          to: [user.email],
          subject: 'Reset your Tradie Quotes password',
          text: [
            `Kia ora ${user.full_name},`,
            '',
            'Someone (hopefully you) asked to reset the password for your Tradie Quotes account.',
            `Open this link within ${RESET_TOKEN_MINUTES} minutes to choose a new password:`,
            '',
            link,
            '',
            "If you didn't ask for this, you can ignore this email — your password stays the same.",
            '',
            'Ngā mihi,',
            'Tradie Quotes',
          ].join('\n'),
        })
        .catch((e: unknown) => deps.log('error', 'password reset email failed', { error: e instanceof Error ? e.message : String(e) }));
    }
    return c.json({ detail: `If an account exists for ${email}, you'll receive a password reset link shortly.` });
  });

  r.post('/reset-password', async (c) => {
    const body = await parseBody(c, resetPasswordInput);
    const hash = tokenHash(body.token);
    const passwordHash = await hashPassword(body.new_password, cost);
    const ok = await deps.store.db.tx(async (sql) => {
      const [row] = await sql.query<{ user_id: string; expires_at: Date | string; used_at: unknown }>(
        'SELECT user_id, expires_at, used_at FROM password_reset_tokens WHERE token_hash = $1 FOR UPDATE',
        [hash],
      );
      if (!row || row.used_at !== null || new Date(row.expires_at).getTime() <= now().getTime()) return false;
      const at = now().toISOString();
      await sql.query('UPDATE password_reset_tokens SET used_at = $2 WHERE token_hash = $1', [hash, at]);
      await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [row.user_id, passwordHash]);
      // A reset ends every session: whoever knew the old password is signed out.
      await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [row.user_id, at]);
      await sql.query('DELETE FROM login_failures WHERE email = (SELECT email FROM users WHERE id = $1)', [row.user_id]);
      return true;
    });
    if (!ok) throw new ApiError(400, AUTH_MESSAGES.resetLinkExpired);
    return c.json({ detail: 'Your password has been reset. You can sign in now.' });
  });

  return r;
}
