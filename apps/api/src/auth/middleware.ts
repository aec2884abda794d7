// Every signed-in route reads the account from the bearer token. Missing, expired, forged or
// otherwise unusable → 401 {detail}. The account is the signed-in user's business. An account
// being deleted is signed out at once: an access token issued before the deletion (they live up to
// 15 minutes) is refused like an expired one (account/liveness.ts says which accounts are closed).
import type { MiddlewareHandler } from 'hono';
import { isAccountClosed } from '../account/liveness.ts';
import type { AppEnv } from '../http/env.ts';
import type { AppDeps } from '../deps.ts';
import { Unauthenticated } from '../errors.ts';
import { verificationKeys } from '../appKeys.ts';
import { verifyAccessToken } from './tokens.ts';

export const NOT_SIGNED_IN = 'Please sign in to continue.';
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export function requireAuth(deps: Pick<AppDeps, 'secrets' | 'clock' | 'store'>): MiddlewareHandler<AppEnv> {
  return async function requireAuth(c, next) {
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m?.[1]) throw new Unauthenticated(NOT_SIGNED_IN, { challenge: 'Bearer' });
    const userId = await verifyAccessToken(verificationKeys(deps.secrets, 'jwtKey'), m[1], deps.clock.now());
    if (!userId) throw new Unauthenticated(SESSION_EXPIRED, { challenge: 'Bearer error="invalid_token"' });
    if (await isAccountClosed(deps.store.db, userId)) throw new Unauthenticated(SESSION_EXPIRED, { challenge: 'Bearer error="invalid_token"' });
    c.set('userId', userId);
    c.set('accountId', userId);
    await next();
  };
}

/** The signed-in actor for commands. */
export const actorOf = (c: { get(k: 'accountId' | 'userId' | 'requestId'): string }) => ({
  accountId: c.get('accountId'),
  userId: c.get('userId'),
  requestId: c.get('requestId'),
});
