// Passwords: changing one while signed in, asking for a reset link, and setting a new one with it.
// Each ends the sessions of whoever knew the old password.
import { AUTH_MESSAGES, type changePasswordInput, type forgotPasswordInput, normaliseEmail, type resetPasswordInput, type TokenPair } from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { hit, windowWords } from '../../security/rateLimit.ts';
import { sendAccountMail } from '../accountMail.ts';
import { isCommonPassword } from '../passwordPolicy.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { newOpaqueToken, tokenHash } from '../tokens.ts';
import {
  AUTH_LIMITS_IN_DB, audit, issuePair, type Origin, type Outcome, type PairDeps, type PasswordCost, perIp, refuse, RESET_TOKEN_MINUTES, throttled, type UserRow,
} from './shared.ts';

export type ChangePasswordDeps = Pick<AppDeps, 'store' | 'ids'> & PairDeps & PasswordCost;

/** A new password for the signed-in user: every other session ends, this device gets a fresh pair. */
export async function changePassword(
  deps: ChangePasswordDeps, userId: string, input: z.output<typeof changePasswordInput>, origin: Origin,
): Promise<Outcome<{ pair: TokenPair }>> {
  const now = (): Date => deps.clock.now();
  const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE id = $1', [userId]);
  if (!user) return refuse('session_ended');
  // A stolen access token must not become a password-guessing oracle: the same limit as sign-in.
  const over = await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${user.email}|${origin.ip}`, now());
  if (!over.allowed) return throttled(AUTH_MESSAGES.throttled, over);
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    await audit(deps, deps.store.db, origin, userId, 'sign_in_failed', { during: 'password change' });
    return refuse('current_password_wrong');
  }
  if (input.new_password === input.current_password) return refuse('same_password');
  if (isCommonPassword(input.new_password)) return refuse('common_password');
  const passwordHash = await hashPassword(input.new_password, deps.passwordCost);
  const pair = await deps.store.db.tx(async (sql) => {
    await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
    // Whoever knew the old password is signed out everywhere; this device gets a fresh session.
    await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now().toISOString()]);
    await sql.query('UPDATE password_reset_tokens SET expires_at = $2 WHERE user_id = $1 AND used_at IS NULL AND expires_at > $2', [userId, now().toISOString()]);
    await audit(deps, sql, origin, userId, 'password_changed');
    return issuePair(deps, sql, userId, deps.ids.uuid());
  });
  return { ok: true, pair };
}

export type ForgotPasswordDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'mailer' | 'log'>;

/**
 * Emails a reset link when the address has an account; answers the same either way (`email` is
 * the normalised address the answer names). Only the newest link works.
 */
export async function forgotPassword(deps: ForgotPasswordDeps, input: z.output<typeof forgotPasswordInput>, origin: Origin): Promise<Outcome<{ email: string }>> {
  const now = (): Date => deps.clock.now();
  const email = normaliseEmail(input.email);
  // Counted per address whether or not it has an account, so the answer says nothing about that.
  const ip = await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.forgotIp), origin.ip, now());
  if (!ip.allowed) return throttled(AUTH_MESSAGES.tooManyResetRequests, ip);
  const perEmail = await hit(deps.store.db, AUTH_LIMITS_IN_DB.forgotEmail, email, now());
  if (!perEmail.allowed) {
    return throttled(
      `We've sent ${AUTH_LIMITS_IN_DB.forgotEmail.max} reset emails to ${email} in the last hour. Please check your inbox (and spam folder), or try again in ${windowWords(AUTH_LIMITS_IN_DB.forgotEmail.windowSeconds)}.`,
      perEmail,
    );
  }
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
      await audit(deps, sql, origin, user.id, 'password_reset_requested');
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
  return { ok: true, email };
}

export type ResetPasswordDeps = Pick<AppDeps, 'store' | 'clock' | 'config'> & PasswordCost;

/** A new password from a live reset link (single use): every session ends and the sign-in counts start again. */
export async function resetPassword(deps: ResetPasswordDeps, input: z.output<typeof resetPasswordInput>, origin: Origin): Promise<Outcome> {
  const now = (): Date => deps.clock.now();
  const limit = await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.resetIp), origin.ip, now());
  if (!limit.allowed) return throttled(AUTH_MESSAGES.tooManyResetAttempts, limit);
  const hash = tokenHash(input.token);
  const usable = async (sql: Sql, lock: boolean): Promise<{ user_id: string } | null> => {
    const [row] = await sql.query<{ user_id: string; expires_at: Date | string; used_at: unknown }>(
      `SELECT user_id, expires_at, used_at FROM password_reset_tokens WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [hash],
    );
    return row && row.used_at === null && new Date(row.expires_at).getTime() > now().getTime() ? row : null;
  };
  // The token first: a made-up or spent one is refused after one lookup, before any hashing,
  // so guessing costs the server nothing; only a live link pays for scrypt.
  if (!(await usable(deps.store.db, false))) return refuse('reset_link_expired');
  if (isCommonPassword(input.new_password)) return refuse('common_password');
  const passwordHash = await hashPassword(input.new_password, deps.passwordCost);
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
    await audit(deps, sql, origin, row.user_id, 'password_reset');
    return true;
  });
  return ok ? { ok: true } : refuse('reset_link_expired');
}
