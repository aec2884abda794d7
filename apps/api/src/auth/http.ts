// What the auth routes share: where the request came from, and a use case's refusal as the HTTP
// answer (status and words; a throttled request gets Retry-After).
import { AUTH_MESSAGES } from '@tradie/contracts';
import type { Context } from 'hono';
import type { AppDeps } from '../deps.ts';
import { type AppError, Conflict, Invalid, BadRequest, Unauthenticated } from '../errors.ts';
import { clientIp } from '../security/clientIp.ts';
import { tooMany } from '../security/rateLimit.ts';
import type { Origin, Refusal } from './commands/shared.ts';
import { COMMON_PASSWORD_MESSAGE } from './passwordPolicy.ts';

export const originOf = (deps: Pick<AppDeps, 'config'>, c: Context): Origin => ({ ip: clientIp(c, deps.config.trustedProxies), userAgent: c.req.header('user-agent') });

const ANSWERS: Record<Exclude<Refusal['reason'], 'throttled'>, () => AppError> = {
  common_password: () => new Invalid(COMMON_PASSWORD_MESSAGE),
  email_taken: () => new Conflict(AUTH_MESSAGES.emailTaken),
  incorrect_login: () => new Unauthenticated(AUTH_MESSAGES.incorrectLogin),
  session_ended: () => new Unauthenticated(AUTH_MESSAGES.sessionEnded),
  current_password_wrong: () => new Invalid(AUTH_MESSAGES.currentPasswordWrong),
  same_password: () => new Invalid(AUTH_MESSAGES.samePassword),
  reset_link_expired: () => new BadRequest(AUTH_MESSAGES.resetLinkExpired),
};

/** The error the route throws for a refusal. */
export function refused(r: Refusal): AppError {
  if (r.reason === 'throttled') return tooMany(r.detail, r);
  return ANSWERS[r.reason]();
}
