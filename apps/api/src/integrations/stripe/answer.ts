// A Stripe call made for a request (the business's subscription, or a client paying by card):
// the adapter's typed errors become answers a person can read, and Stripe's own words go to the
// log only.
import type { AppDeps } from '../../deps.ts';
import { type AppError, BadRequest, RetryLater, UpstreamFailed } from '../../errors.ts';
import { BillingError, type BillingErrorCode } from './port.ts';

/** The application error for each of the adapter's errors. */
const REFUSAL: Record<BillingErrorCode, (detail: string) => AppError> = {
  // The server has no Stripe settings.
  BILLING_NOT_CONFIGURED: (detail) => new RetryLater(detail),
  // Stripe could not be reached or was down: try again shortly (Retry-After).
  BILLING_UNAVAILABLE: (detail) => new RetryLater(detail, undefined, 30),
  // Stripe refused what we asked.
  BILLING_REJECTED: (detail) => new UpstreamFailed(detail),
  WEBHOOK_REJECTED: (detail) => new BadRequest(detail),
};

/**
 * Runs `fn`; a BillingError becomes an application error (errors.ts) with its `detail`, logged as `{feature}: {what}
 * failed` (a server without Stripe settings as info: a setting, not a failure).
 */
export async function stripeCall<T>(deps: Pick<AppDeps, 'log'>, feature: 'billing' | 'payments', what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof BillingError)) throw e;
    deps.log(e.code === 'BILLING_NOT_CONFIGURED' ? 'info' : 'error', `${feature}: ${what} failed`, { code: e.code, message: e.message });
    throw REFUSAL[e.code](e.detail);
  }
}
