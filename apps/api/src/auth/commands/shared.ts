// What the auth use cases share: the limits counted on the way in, the errors they refuse with
// (named application errors, mapped to problem answers once in http/), the audit entry and the
// issuing of a token pair.
import { AUTH_MESSAGES, type TokenPair } from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../../deps.ts';
import { type AuditKind, recordAudit, type RequestOrigin } from '../../security/audit.ts';
import { revokeTokens, SIGNED_OUT_EVERYWHERE, TOKEN_POLICIES } from '../../security/oneTimeTokens.ts';
import { type Hit, type Limit, tooMany } from '../../security/rateLimit.ts';
import { type AppError, BadRequest, Conflict, Invalid, Unauthenticated } from '../../errors.ts';
import { COMMON_PASSWORD_MESSAGE } from '../passwordPolicy.ts';
import { newOpaqueToken, signAccessToken, tokenHash } from '../tokens.ts';

export const LOGIN_THROTTLE = { maxFailures: 10, windowMinutes: 15 } as const;
export const RESET_TOKEN_MINUTES = TOKEN_POLICIES.password_reset.lifetimeMs / 60_000;

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

/** Where a request came from (security/audit.ts), under the name the auth use cases know it by. */
export type { RequestOrigin as Origin } from '../../security/audit.ts';

/** Why a use case said no: each reason is its error, which http/ turns into the problem answer once. */
const REFUSALS = {
  common_password: () => new Invalid(COMMON_PASSWORD_MESSAGE),
  email_taken: () => new Conflict(AUTH_MESSAGES.emailTaken),
  incorrect_login: () => new Unauthenticated(AUTH_MESSAGES.incorrectLogin),
  session_ended: () => new Unauthenticated(AUTH_MESSAGES.sessionEnded),
  current_password_wrong: () => new Invalid(AUTH_MESSAGES.currentPasswordWrong),
  same_password: () => new Invalid(AUTH_MESSAGES.samePassword),
  reset_link_expired: () => new BadRequest(AUTH_MESSAGES.resetLinkExpired),
} as const satisfies Record<string, () => AppError>;

/** The error a use case throws for `reason` (what it wrote before refusing is already committed: refusals come outside transactions). */
export const refuse = (reason: keyof typeof REFUSALS): AppError => REFUSALS[reason]();
/** A limit was reached: 429 with Retry-After. */
export const throttled = (detail: string, h: Pick<Hit, 'retryAfter'>): AppError => tooMany(detail, h);

/** scrypt's cost (log2 of N) for the use cases that hash or verify a password. */
export interface PasswordCost {
  passwordCost: number;
}

/** A per-IP limit scaled for networks whose users share one address (IP_LIMIT_MULTIPLIER). */
export const perIp = (config: AppDeps['config'], limit: Limit): Limit => ({ ...limit, max: limit.max * config.env.IP_LIMIT_MULTIPLIER });

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  created_at: Date | string;
  email_confirmed_at?: Date | string | null;
}

export function audit(
  deps: Pick<AppDeps, 'clock'>, sql: Sql, origin: RequestOrigin, accountId: string, kind: AuditKind, detail?: Record<string, string | number | boolean | null>,
): Promise<void> {
  return recordAudit(sql, { accountId, kind, at: deps.clock.now(), ip: origin.ip, userAgent: origin.userAgent, detail });
}

export type PairDeps = Pick<AppDeps, 'clock' | 'config' | 'secrets'>;

/** A new pair; `familyStartedAt` is the sign-in that began the family (its absolute lifetime runs from there). */
export async function issuePair(deps: PairDeps, sql: Sql, userId: string, familyId: string, familyStartedAt: Date = deps.clock.now()): Promise<TokenPair> {
  const refresh = newOpaqueToken();
  const at = deps.clock.now();
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

/**
 * Shuts out whoever may know the password or hold a session, in the caller's transaction: every
 * refresh token of the account, and every link that acts without a sign-in and must not outlive
 * that (SIGNED_OUT_EVERYWHERE: a pending email change, reset links, download links). The one
 * function every door that signs out everywhere goes through — a password change, a password
 * reset, 'Sign out everywhere' and 'This wasn't me' — so none of them can leave a pending email
 * change behind (docs/reliability.md).
 */
export async function signOutEverywhere(sql: Sql, accountId: string, now: Date): Promise<void> {
  await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [accountId, now.toISOString()]);
  await revokeTokens(sql, accountId, SIGNED_OUT_EVERYWHERE, now);
}
