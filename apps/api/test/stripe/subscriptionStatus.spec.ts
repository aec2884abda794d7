import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriptionStatus, trialDaysLeft, trialEndsAt, TRIAL_DAYS } from '../../src/integrations/stripe/subscriptionStatus.ts';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatusName } from '../../src/integrations/stripe/port.ts';

// 10 May 2026, 9 am in Auckland (NZST, UTC+12).
const signUp = new Date('2026-05-09T21:00:00Z');
const status = (now: string, subscription: { status: SubscriptionStatusName } | null = null) => subscriptionStatus({ trialStartedAt: signUp, subscription, now: new Date(now) });

describe('subscriptionStatus: the 14-day trial in NZ calendar days', () => {
  it('shows 14 days all through the sign-up day', () => {
    expect(status('2026-05-09T21:00:00Z')).toEqual({ is_trial_active: true, trial_days_left: 14, trial_ended: false, subscription_active: false });
    expect(status('2026-05-10T11:59:59Z').trial_days_left).toBe(14); // 23:59:59 on 10 May in Auckland
  });

  it('drops to 13 at midnight in Auckland, not at midnight UTC', () => {
    expect(status('2026-05-10T11:59:59Z').trial_days_left).toBe(14);
    expect(status('2026-05-10T12:00:00Z').trial_days_left).toBe(13); // 00:00 on 11 May NZST
  });

  it('shows 1 on the 14th day and ends at midnight after it', () => {
    expect(status('2026-05-23T11:59:59Z')).toMatchObject({ trial_days_left: 1, is_trial_active: true, trial_ended: false }); // 23 May 23:59:59
    expect(status('2026-05-23T12:00:00Z')).toEqual({ is_trial_active: false, trial_days_left: 0, trial_ended: true, subscription_active: false }); // 24 May 00:00
    expect(status('2027-01-01T00:00:00Z').trial_days_left).toBe(0);
  });

  it('counts the NZ date of sign-up even when UTC is still on the day before', () => {
    // 10 May 2026 01:30 in Auckland is 9 May in UTC.
    const lateUtc = new Date('2026-05-09T13:30:00Z');
    expect(trialDaysLeft(lateUtc, new Date('2026-05-23T11:59:59Z'))).toBe(1);
    expect(trialDaysLeft(lateUtc, new Date('2026-05-23T12:00:00Z'))).toBe(0);
  });

  it('counts calendar days across the start of daylight saving (27 Sep 2026)', () => {
    const start = new Date('2026-09-20T00:00:00Z'); // 20 Sep, noon NZST
    expect(trialDaysLeft(start, new Date('2026-10-03T10:59:59Z'))).toBe(1); // 3 Oct 23:59:59 NZDT
    expect(trialDaysLeft(start, new Date('2026-10-03T11:00:00Z'))).toBe(0); // 4 Oct 00:00 NZDT
    expect(trialEndsAt(start).toISOString()).toBe('2026-10-03T11:00:00.000Z');
  });

  it('never shows more than 14 days when the clock is behind the sign-up time', () => {
    expect(trialDaysLeft(signUp, new Date('2026-05-01T00:00:00Z'))).toBe(TRIAL_DAYS);
  });

  it('reports the subscription separately from the trial clock', () => {
    expect(status('2026-05-11T00:00:00Z', { status: 'trialing' })).toMatchObject({ is_trial_active: true, subscription_active: true });
    expect(status('2026-06-30T00:00:00Z', { status: 'active' })).toEqual({ is_trial_active: false, trial_days_left: 0, trial_ended: true, subscription_active: true });
    const access: Record<SubscriptionStatusName, boolean> = {
      incomplete: false,
      trialing: true,
      active: true,
      past_due: true,
      unpaid: false,
      paused: false,
      incomplete_expired: false,
      canceled: false,
    };
    for (const s of SUBSCRIPTION_STATUSES) expect(status('2026-06-30T00:00:00Z', { status: s }).subscription_active, s).toBe(access[s]);
  });

  describe('properties', () => {
    const instant = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });

    it('days left stay in 0..14 and never go up as time passes', () => {
      fc.assert(
        fc.property(instant, fc.integer({ min: -2 * 86_400_000, max: 20 * 86_400_000 }), fc.integer({ min: 0, max: 3 * 86_400_000 }), (start, a, step) => {
          const t1 = new Date(start.getTime() + a);
          const t2 = new Date(t1.getTime() + step);
          const d1 = trialDaysLeft(start, t1);
          const d2 = trialDaysLeft(start, t2);
          expect(d1).toBeGreaterThanOrEqual(0);
          expect(d1).toBeLessThanOrEqual(TRIAL_DAYS);
          expect(d2).toBeLessThanOrEqual(d1);
        }),
      );
    });

    it('trialEndsAt is the first instant with 0 days left, and the instant before shows 1', () => {
      fc.assert(
        fc.property(instant, (start) => {
          const end = trialEndsAt(start);
          expect(trialDaysLeft(start, end)).toBe(0);
          expect(trialDaysLeft(start, new Date(end.getTime() - 1))).toBe(1);
          expect(subscriptionStatus({ trialStartedAt: start, subscription: null, now: start }).trial_days_left).toBe(14);
        }),
      );
    });
  });
});
