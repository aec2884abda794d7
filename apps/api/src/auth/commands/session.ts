// Sessions: signing in, rotating the refresh token (with reuse detection, a short grace for two
// tabs and an absolute lifetime), and signing out of one device or all of them.
import { AUTH_MESSAGES, type loginInput, type logoutInput, normaliseEmail, type refreshInput, type TokenPair } from '@tradie/contracts';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { clear, hit } from '../../security/rateLimit.ts';
import { dummyHash, verifyPassword } from '../passwords.ts';
import { tokenHash } from '../tokens.ts';
import {
  AUTH_LIMITS_IN_DB, audit, issuePair, type Origin, type PairDeps, type PasswordCost, perIp, REFRESH_ABSOLUTE_DAYS, REFRESH_REUSE_GRACE_SECONDS, refuse, signOutEverywhere,
  throttled, type UserRow,
} from './shared.ts';

export type LoginDeps = Pick<AppDeps, 'store' | 'ids'> & PairDeps & PasswordCost;

/** Counted before the password is looked at; a right password clears this address's count for the account. */
export async function login(deps: LoginDeps, input: z.output<typeof loginInput>, origin: Origin): Promise<TokenPair> {
  const email = normaliseEmail(input.email);
  const ip = origin.ip;
  const at = deps.clock.now();
  // Counted before the password is looked at, one atomic upsert each: forty guesses sent at once
  // count 1..40 and only those within every limit are checked.
  const hits = [
    await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${email}|${ip}`, at),
    await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccount, email, at),
    await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.loginIp), ip, at),
  ];
  const over = hits.find((h) => !h.allowed);
  if (over) throw throttled(AUTH_MESSAGES.throttled, over);
  const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, password_hash, created_at FROM users WHERE email = $1', [email]);
  // Unknown emails verify against a dummy hash, so both answers take the same time.
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash(deps.passwordCost)));
  if (!user || !ok) {
    if (user) await audit(deps, deps.store.db, origin, user.id, 'sign_in_failed');
    throw refuse('incorrect_login');
  }
  const pair = await deps.store.db.tx(async (sql) => {
    // The owner got in from here: this address's count for the account starts again.
    await clear(sql, AUTH_LIMITS_IN_DB.loginAccountIp, `${email}|${ip}`, at);
    await audit(deps, sql, origin, user.id, 'signed_in');
    return issuePair(deps, sql, user.id, deps.ids.uuid());
  });
  return pair;
}

export type RefreshDeps = Pick<AppDeps, 'store'> & PairDeps;

/** A new pair for a live refresh token; a token used twice (after the grace) ends its whole family. */
export async function refresh(deps: RefreshDeps, input: z.output<typeof refreshInput>, origin: Origin): Promise<TokenPair> {
  const now = (): Date => deps.clock.now();
  const hash = tokenHash(input.refresh_token);
  // The verdict is decided inside the transaction and the refusal answered after it, so revoking a
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
        return issuePair(deps, sql, row.user_id, row.family_id, familyStartedAt);
      }
      // A token used twice means two holders: the stolen copy and the real one. End the whole family.
      await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id, now().toISOString()]);
      await audit(deps, sql, origin, row.user_id, 'session_reuse_detected');
      return 'reused';
    }
    await sql.query('UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1', [hash, now().toISOString()]);
    const [user] = await sql.query('SELECT 1 FROM users WHERE id = $1', [row.user_id]);
    if (!user) return 'invalid';
    return issuePair(deps, sql, row.user_id, row.family_id, familyStartedAt);
  });
  if (result === 'invalid' || result === 'reused') throw refuse('session_ended');
  return result;
}

export type LogoutDeps = Pick<AppDeps, 'store' | 'clock'>;

/** Ends this device's session: the refresh token's whole family, and only if it is this user's. */
export async function logout(deps: LogoutDeps, userId: string, input: z.output<typeof logoutInput>, origin: Origin): Promise<void> {
  await deps.store.db.tx(async (sql) => {
    if (input.refresh_token) {
      await sql.query(
        `UPDATE refresh_tokens SET revoked_at = $3 WHERE revoked_at IS NULL AND user_id = $2
           AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND user_id = $2)`,
        [tokenHash(input.refresh_token), userId, deps.clock.now().toISOString()],
      );
    }
    await audit(deps, sql, origin, userId, 'signed_out');
  });
}

/** Ends every session of the user, and every link a session could have asked for (a pending email change, reset and download links). */
export async function logoutAll(deps: LogoutDeps, userId: string, origin: Origin): Promise<void> {
  await deps.store.db.tx(async (sql) => {
    await signOutEverywhere(sql, userId, deps.clock.now());
    await audit(deps, sql, origin, userId, 'signed_out_everywhere');
  });
}
