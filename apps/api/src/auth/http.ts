// What the auth routes share: where the request came from, and a use case's refusal as the HTTP
// answer (status and words; a throttled request gets Retry-After).
import { AUTH_MESSAGES } from '@tradie/contracts';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/problem.ts';
import { clientIp } from '../security/clientIp.ts';
import { tooMany } from '../security/rateLimit.ts';
import type { Origin, Refusal } from './commands/shared.ts';
import { COMMON_PASSWORD_MESSAGE } from './passwordPolicy.ts';

export const originOf = (deps: Pick<AppDeps, 'config'>, c: Context): Origin => ({ ip: clientIp(c, deps.config.trustedProxies), userAgent: c.req.header('user-agent') });

const ANSWERS: Record<Exclude<Refusal['reason'], 'throttled'>, [ContentfulStatusCode, string]> = {
  common_password: [422, COMMON_PASSWORD_MESSAGE],
  email_taken: [409, AUTH_MESSAGES.emailTaken],
  incorrect_login: [401, AUTH_MESSAGES.incorrectLogin],
  session_ended: [401, AUTH_MESSAGES.sessionEnded],
  current_password_wrong: [422, AUTH_MESSAGES.currentPasswordWrong],
  same_password: [422, AUTH_MESSAGES.samePassword],
  reset_link_expired: [400, AUTH_MESSAGES.resetLinkExpired],
};

/** The error the route throws for a refusal. */
export function refused(r: Refusal): ApiError {
  if (r.reason === 'throttled') return tooMany(r.detail, r);
  const [status, detail] = ANSWERS[r.reason];
  return new ApiError(status, detail);
}
