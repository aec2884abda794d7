// Passwords: changing one while signed in, asking for a reset link, and setting a new one with it.
// Each ends the sessions of whoever knew the old password, and the links they could have asked for
// (signOutEverywhere: a pending email change, reset and download links).
import { AUTH_MESSAGES, type changePasswordInput, type forgotPasswordInput, normaliseEmail, type resetPasswordInput, type TokenPair } from '@tradie/contracts';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { consumeToken, issueToken, peekToken } from '../../security/oneTimeTokens.ts';
import { hit, windowWords } from '../../security/rateLimit.ts';
import { sendAccountMail } from '../accountMail.ts';
import { isCommonPassword } from '../passwordPolicy.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import {
  AUTH_LIMITS_IN_DB, audit, issuePair, type Origin, type PairDeps, type PasswordCost, perIp, refuse, RESET_TOKEN_MINUTES, signOutEverywhere, throttled, type UserRow,
} from './shared.ts';

export type ChangePasswordDeps = Pick<AppDeps, 'store' | 'ids'> & PairDeps & PasswordCost;

/** A new password for the signed-in user: every other session ends, this device gets a fresh pair. */
export async function changePassword(
  deps: ChangePasswordDeps, userId: string, input: z.output<typeof changePasswordInput>, origin: Origin,
): Promise<TokenPair> {
  const now = (): Date => deps.clock.now();
  const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE id = $1', [userId]);
  if (!user) throw refuse('session_ended');
  // A stolen access token must not become a password-guessing oracle: the same limit as sign-in.
  const over = await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${user.email}|${origin.ip}`, now());
  if (!over.allowed) throw throttled(AUTH_MESSAGES.throttled, over);
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    await audit(deps, deps.store.db, origin, userId, 'sign_in_failed', { during: 'password change' });
    throw refuse('current_password_wrong');
  }
  if (input.new_password === input.current_password) throw refuse('same_password');
  if (isCommonPassword(input.new_password)) throw refuse('common_password');
  const passwordHash = await hashPassword(input.new_password, deps.passwordCost);
  const pair = await deps.store.db.tx(async (sql) => {
    await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
    // Whoever knew the old password is signed out everywhere, and the email change or reset they
    // may have asked for is cancelled; this device gets a fresh session.
    await signOutEverywhere(sql, userId, now());
    await audit(deps, sql, origin, userId, 'password_changed');
    return issuePair(deps, sql, userId, deps.ids.uuid());
  });
  return pair;
}

export type ForgotPasswordDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'mailer' | 'log'>;

/**
 * Emails a reset link when the address has an account; answers the same either way (`email` is
 * the normalised address the answer names). Only the newest link works.
 */
export async function forgotPassword(deps: ForgotPasswordDeps, input: z.output<typeof forgotPasswordInput>, origin: Origin): Promise<string> {
  const now = (): Date => deps.clock.now();
  const email = normaliseEmail(input.email);
  // Counted per address whether or not it has an account, so the answer says nothing about that.
  const ip = await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.forgotIp), origin.ip, now());
  if (!ip.allowed) throw throttled(AUTH_MESSAGES.tooManyResetRequests, ip);
  const perEmail = await hit(deps.store.db, AUTH_LIMITS_IN_DB.forgotEmail, email, now());
  if (!perEmail.allowed) {
    throw throttled(
      `We've sent ${AUTH_LIMITS_IN_DB.forgotEmail.max} reset emails to ${email} in the last hour. Please check your inbox (and spam folder), or try again in ${windowWords(AUTH_LIMITS_IN_DB.forgotEmail.windowSeconds)}.`,
      perEmail,
    );
  }
  const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name FROM users WHERE email = $1', [email]);
  if (user) {
    const token = await deps.store.db.tx(async (sql) => {
      // A newer link makes the older ones useless: only the last email sent works.
      const issued = await issueToken(sql, { accountId: user.id, kind: 'password_reset', now: now() });
      await audit(deps, sql, origin, user.id, 'password_reset_requested');
      return issued.token;
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
  return email;
}

export type ResetPasswordDeps = Pick<AppDeps, 'store' | 'clock' | 'config'> & PasswordCost;

/** A new password from a live reset link (single use): every session ends and the sign-in counts start again. */
export async function resetPassword(deps: ResetPasswordDeps, input: z.output<typeof resetPasswordInput>, origin: Origin): Promise<void> {
  const now = (): Date => deps.clock.now();
  const limit = await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.resetIp), origin.ip, now());
  if (!limit.allowed) throw throttled(AUTH_MESSAGES.tooManyResetAttempts, limit);
  // The token first: a made-up or spent one is refused after one lookup, before any hashing,
  // so guessing costs the server nothing; only a live link pays for scrypt.
  if (!(await peekToken(deps.store.db, input.token, 'password_reset', now())).ok) throw refuse('reset_link_expired');
  if (isCommonPassword(input.new_password)) throw refuse('common_password');
  const passwordHash = await hashPassword(input.new_password, deps.passwordCost);
  // Again under the row's lock (consumeToken): two tabs using one link at once, one wins.
  const used = await consumeToken(deps.store.db, input.token, 'password_reset', now(), async (sql, link) => {
    await sql.query('UPDATE users SET password_hash = $2 WHERE id = $1', [link.accountId, passwordHash]);
    // A reset ends every session and every link: whoever knew the old password is shut out.
    await signOutEverywhere(sql, link.accountId, now());
    // The owner proved who they are: their sign-in counts start again, from every address.
    await sql.query(
      `DELETE FROM rate_limits WHERE key = 'login:account:' || (SELECT email FROM users WHERE id = $1)
         OR starts_with(key, 'login:account-ip:' || (SELECT email FROM users WHERE id = $1) || '|')`,
      [link.accountId],
    );
    await audit(deps, sql, origin, link.accountId, 'password_reset');
  });
  if (!used.ok) throw refuse('reset_link_expired');
}
