// A Stripe call made for a request (the business's subscription, or a client paying by card):
// the adapter's typed errors become answers a person can read, and Stripe's own words go to the
// log only.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/problem.ts';
import { BillingError, type BillingErrorCode } from './port.ts';

/** The answer's status for each of the adapter's errors. */
const STATUS: Record<BillingErrorCode, ContentfulStatusCode> = {
  // The server has no Stripe settings.
  BILLING_NOT_CONFIGURED: 503,
  // Stripe could not be reached or was down: try again shortly (Retry-After).
  BILLING_UNAVAILABLE: 503,
  // Stripe refused what we asked.
  BILLING_REJECTED: 502,
  WEBHOOK_REJECTED: 400,
};

/**
 * Runs `fn`; a BillingError becomes an ApiError with its `detail`, logged as `{feature}: {what}
 * failed` (a server without Stripe settings as info: a setting, not a failure).
 */
export async function stripeCall<T>(deps: Pick<AppDeps, 'log'>, feature: 'billing' | 'payments', what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof BillingError)) throw e;
    deps.log(e.code === 'BILLING_NOT_CONFIGURED' ? 'info' : 'error', `${feature}: ${what} failed`, { code: e.code, message: e.message });
    throw new ApiError(STATUS[e.code], e.detail, undefined, e.code === 'BILLING_UNAVAILABLE' ? { 'Retry-After': '30' } : undefined);
  }
}
