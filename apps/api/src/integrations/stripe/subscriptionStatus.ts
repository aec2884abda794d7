// What `GET /billing/subscription-status` answers, as a pure function of the account's trial
// start, its subscription state and the clock.
//
// The trial is 14 New Zealand calendar days, counting the sign-up day as day 1:
//   trial_days_left = 14 − (NZ calendar days since the sign-up day), never below 0 or above 14.
// So a person sees 14 all through the day they sign up, 13 the next day, 1 on the 14th day, and
// the trial ends at midnight in Pacific/Auckland at the end of that 14th day (NZST or NZDT, as the
// date falls). Whole calendar days, not 24-hour blocks, because that is how a person counts
// "days remaining" and it never shows 14 one minute and 13 the next for reasons of UTC offset.
// The cost: someone who signs up at 11 pm gets 13 days and an hour of wall-clock time.
//
// `is_trial_active`, `trial_days_left` and `trial_ended` are facts about the clock only;
// `subscription_active` is the subscription's own. A screen picks its state in that order:
// subscription_active → 'Active Subscription'; else is_trial_active → 'Free Trial Active';
// else 'Trial Expired'.
import { addDays, daysBetween, nzDateOf, NZ_TIME_ZONE } from '@tradie/domain';
import { grantsAccess, type SubscriptionStatusName } from './port.ts';

export const TRIAL_DAYS = 14;

export interface SubscriptionStatusInput {
  /** When the account signed up (the trial's first instant). */
  trialStartedAt: Date | string;
  /** The account's current subscription (BillingState.subscription), or null when it never subscribed. */
  subscription: { status: SubscriptionStatusName } | null;
  now: Date;
}

export interface SubscriptionStatus {
  is_trial_active: boolean;
  trial_days_left: number;
  trial_ended: boolean;
  subscription_active: boolean;
}

export function trialDaysLeft(trialStartedAt: Date | string, now: Date): number {
  const elapsed = daysBetween(nzDateOf(trialStartedAt), nzDateOf(now));
  // A clock behind the sign-up time (elapsed < 0) still shows a full trial, never more.
  return Math.min(TRIAL_DAYS, Math.max(0, TRIAL_DAYS - elapsed));
}

export function subscriptionStatus({ trialStartedAt, subscription, now }: SubscriptionStatusInput): SubscriptionStatus {
  const left = trialDaysLeft(trialStartedAt, now);
  return {
    is_trial_active: left > 0,
    trial_days_left: left,
    trial_ended: left === 0,
    subscription_active: subscription !== null && grantsAccess(subscription.status),
  };
}

/**
 * The instant the trial ends: midnight in Pacific/Auckland at the start of the 15th NZ
 * calendar day after sign-up. What `CheckoutRequest.trialEndsAt` should carry, so Stripe's
 * trial ends when ours does.
 */
export function trialEndsAt(trialStartedAt: Date | string): Date {
  const endDate = addDays(nzDateOf(trialStartedAt), TRIAL_DAYS);
  const utcMidnight = Date.parse(`${endDate}T00:00:00Z`);
  // NZ midnight is 13 h (NZDT) or 12 h (NZST) before UTC midnight; daylight saving changes at
  // 2-3 am, so exactly one of the two is the first instant of endDate.
  for (const hours of [13, 12]) {
    const t = utcMidnight - hours * 3_600_000;
    if (nzDateOf(new Date(t)) === endDate && nzDateOf(new Date(t - 1)) !== endDate) return new Date(t);
  }
  throw new Error(`No midnight found in ${NZ_TIME_ZONE} for ${endDate}`);
}
