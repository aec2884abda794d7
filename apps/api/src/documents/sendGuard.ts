// What stands between an account and an email leaving the server, so the app is never a free mail
// relay. Checked by POST /invoices/{id}/send before anything is mailed:
//
// - The account's email address must be confirmed (auth/emailConfirmation.ts) when mail really
//   leaves the machine (SMTP). With the outbox nothing leaves, so nothing needs confirming.
//   Refused: 403 with `code: 'email_unconfirmed'`, nothing sent, nothing recorded.
// - Recipients (To, CC and BCC, each address once) per account per day: TRIAL_DAILY_RECIPIENTS
//   (default 50) without an active paid subscription, SEND_DAILY_RECIPIENTS (default 1000) with one.
// - Sends per account in a burst: 30 in 10 minutes.
//
// Both limits are counters in the database (security/rateLimit.ts), so every API process shares
// them. A send is checked against them first without counting (a refused send uses up nothing),
// then counted atomically before the mail goes; if the count went over meanwhile (two sends at
// once), or the mail server took nothing, the count is given back.
import { EMAIL_UNCONFIRMED_CODE, SENDING_MESSAGES, type SendingStatus } from '@tradie/contracts';
import { loadAccountBilling } from '../billing/repository.ts';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../http/problem.ts';
import { subscriptionStatus } from '../integrations/stripe/index.ts';
import { type Hit, type Limit, hit, peek, tooMany, windowWords } from '../security/rateLimit.ts';

export const SEND_LIMITS = {
  /** Sends per account: at most 30 in 10 minutes. */
  burst: { name: 'send:burst', max: 30, windowSeconds: 10 * 60 },
  /** Recipients per account per day; the most depends on the plan (dailyRecipientLimit). */
  dailyRecipients: { name: 'send:recipients', windowSeconds: 86_400 },
} as const satisfies { burst: Limit; dailyRecipients: Omit<Limit, 'max'> };

type GuardDeps = Pick<AppDeps, 'store' | 'clock' | 'mailer' | 'config'>;

/** Confirmation is needed only when mail really leaves the machine. */
export const confirmationRequired = (deps: Pick<AppDeps, 'mailer'>): boolean => deps.mailer.kind === 'smtp';

/** True while the account has no active paid subscription (a running or ended trial, a lapsed subscription). */
export async function isTrialAccount(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string): Promise<boolean> {
  const billing = await loadAccountBilling(deps.store.db, accountId);
  if (!billing) return true;
  return !subscriptionStatus({ trialStartedAt: billing.trialStartedAt, subscription: billing.state.subscription, now: deps.clock.now() }).subscription_active;
}

/** The day's recipient limit for a trial or a paid account (TRIAL_DAILY_RECIPIENTS, SEND_DAILY_RECIPIENTS). */
export const dailyRecipientLimit = (deps: Pick<AppDeps, 'config'>, trial: boolean): Limit => ({
  ...SEND_LIMITS.dailyRecipients,
  max: trial ? deps.config.env.TRIAL_DAILY_RECIPIENTS : deps.config.env.SEND_DAILY_RECIPIENTS,
});

/** 403 `email_unconfirmed` when mail leaves the machine and the user's address is not confirmed yet. */
export async function requireConfirmedEmail(deps: GuardDeps, userId: string): Promise<void> {
  if (!confirmationRequired(deps)) return;
  const [user] = await deps.store.db.query<{ email: string; email_confirmed_at: unknown }>('SELECT email, email_confirmed_at FROM users WHERE id = $1', [userId]);
  if (user && user.email_confirmed_at === null) {
    throw new ApiError(403, SENDING_MESSAGES.confirmFirst(user.email), { code: EMAIL_UNCONFIRMED_CODE });
  }
}

/** Each address once, compared case-insensitively: what the mail server is asked to deliver to. */
export function recipientCount(mail: { to: readonly string[]; cc: readonly string[]; bcc: readonly string[] }): number {
  return new Set([...mail.to, ...mail.cc, ...mail.bcc].map((a) => a.trim().toLowerCase())).size;
}

function dailyDetail(limit: Limit, trial: boolean, used: number, wanted: number): string {
  const left = Math.max(0, limit.max - used);
  if (trial) {
    return left > 0
      ? `Trial accounts can email up to ${limit.max} recipients a day, and this email would go to ${wanted} — you have ${left} left today. Send it to fewer people, subscribe to send more, or try again tomorrow.`
      : `Trial accounts can email up to ${limit.max} recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.`;
  }
  return left > 0
    ? `You can email up to ${limit.max} recipients a day, and this email would go to ${wanted} — you have ${left} left today. Send it to fewer people, or try again tomorrow.`
    : `You can email up to ${limit.max} recipients a day. You've reached today's limit — please try again tomorrow.`;
}

const burstDetail = (h: Pick<Hit, 'retryAfter'>): string =>
  `You've sent a lot of emails in a short time. Please wait ${windowWords(h.retryAfter)} and try again.`;

/** A send counted against the limits; `failed` gives the count back when the mail server took nothing, then rethrows. */
export interface SendAllowance {
  failed(error: unknown): Promise<never>;
}

/** Nothing reached anyone: the server could not be reached or refused every recipient. */
function nothingDelivered(error: unknown): boolean {
  const e = error as { code?: unknown; delivered?: unknown } | null;
  return e?.code === 'MAIL_UNAVAILABLE' || (e?.code === 'MAIL_REJECTED' && e.delivered === false);
}

/**
 * Counts one send to `mail`'s recipients against the account's limits, or throws 429 with
 * Retry-After and a detail that says what to do. Call it right before the mail goes.
 */
export async function reserveSend(deps: GuardDeps, accountId: string, mail: { to: readonly string[]; cc: readonly string[]; bcc: readonly string[] }): Promise<SendAllowance> {
  const db = deps.store.db;
  const now = deps.clock.now();
  const trial = await isTrialAccount(deps, accountId);
  const daily = dailyRecipientLimit(deps, trial);
  const burst = SEND_LIMITS.burst;
  const wanted = recipientCount(mail);

  // Looked at first, without counting: a refused send uses up nothing.
  const seenBurst = await peek(db, burst, accountId, now);
  if (seenBurst.count + 1 > burst.max) throw tooMany(burstDetail(seenBurst), seenBurst);
  const seenDaily = await peek(db, daily, accountId, now);
  if (seenDaily.count + wanted > daily.max) throw tooMany(dailyDetail(daily, trial, seenDaily.count, wanted), seenDaily);

  // Counted atomically: two sends at once can't both take the last places.
  const countedBurst = await hit(db, burst, accountId, now, 1);
  const countedDaily = await hit(db, daily, accountId, now, wanted);
  const giveBack = async (): Promise<void> => {
    await hit(db, burst, accountId, now, -1);
    await hit(db, daily, accountId, now, -wanted);
  };
  if (!countedBurst.allowed || !countedDaily.allowed) {
    await giveBack();
    if (!countedBurst.allowed) throw tooMany(burstDetail(countedBurst), countedBurst);
    throw tooMany(dailyDetail(daily, trial, countedDaily.count - wanted, wanted), countedDaily);
  }
  return {
    async failed(error: unknown): Promise<never> {
      if (nothingDelivered(error)) await giveBack();
      throw error;
    },
  };
}

/** What GET /auth/sending-status answers: whether the account may send, and how much of today's limit is used. */
export async function sendingStatusOf(deps: GuardDeps, userId: string): Promise<SendingStatus | null> {
  const [user] = await deps.store.db.query<{ email: string; email_confirmed_at: unknown }>('SELECT email, email_confirmed_at FROM users WHERE id = $1', [userId]);
  if (!user) return null;
  const trial = await isTrialAccount(deps, userId);
  const daily = dailyRecipientLimit(deps, trial);
  const used = await peek(deps.store.db, daily, userId, deps.clock.now());
  return {
    email: user.email,
    email_confirmed: user.email_confirmed_at !== null,
    confirmation_required: confirmationRequired(deps),
    recipients_today: Math.max(0, used.count),
    daily_recipient_limit: daily.max,
    trial,
  };
}
