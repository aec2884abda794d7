// What stands between an account and an email leaving the server, so the app is never a free mail
// relay. Every email the product sends on an account's behalf — a quote or invoice (with a payment
// claim), a payment reminder (automatic or 'Send reminder now'), a notice to the tradie of a
// client's answer through a link — leaves through sendForAccount and nothing else: no other code
// calls the mailer (test/security/mailDoors.spec.ts reads the source to hold that). The emails about
// the user's own account (confirmation, password reset, email change) go through
// auth/accountMail.ts instead, under their own per-account and per-address limits: a tradie who
// has used up today's recipients can still reset their password.
//
// - The account must be trading: a business that deleted its account sends nothing more, whoever
//   asks (account/liveness.ts). Refused: 410 ACCOUNT_CLOSED, nothing sent, nothing counted.
// - The account's email address must be confirmed (auth/emailConfirmation.ts) when mail really
//   leaves the machine (SMTP). With the outbox nothing leaves, so nothing needs confirming.
//   Refused: 403 with `code: 'email_unconfirmed'`, nothing sent, nothing recorded.
// - Recipients (To, CC and BCC, each address once) per account per day: TRIAL_DAILY_RECIPIENTS
//   (default 50) without an active paid subscription, SEND_DAILY_RECIPIENTS (default 1000) with one.
// - Emails per account in a burst: 30 in 10 minutes.
// - An email that gives the client a document (a quote or invoice, a variation of the quote, a
//   credit note of the invoice, a reminder of it) names it (`gives`): refused while the business's
//   GST registration and the document disagree, or a registered business has no GST number
//   (the domain's requireGstReady), 409 or 422 with the reason, nothing sent, nothing recorded.
//
// Both limits are counters in the database (security/rateLimit.ts), so every API process shares
// them. An email is checked against them first without counting (a refused one uses up nothing),
// then counted atomically before it goes; if the count went over meanwhile (two at once), or the
// mail server took nothing, the count is given back.
import { ACCOUNT_CLOSED, EMAIL_UNCONFIRMED_CODE, SENDING_MESSAGES, type SendingStatus } from '@tradie/contracts';
import { DomainError, type DocumentView, requireGstReady } from '@tradie/domain';
import { isAccountClosed } from '../account/liveness.ts';
import { AppError, Conflict, Forbidden, Gone, Invalid } from '../errors.ts';
import { loadAccountBilling } from '../billing/repository.ts';
import type { AppDeps } from '../deps.ts';
import { subscriptionStatus } from '../integrations/stripe/index.ts';
import { addressOf, type OutgoingMail, type SentMail } from '../mail/index.ts';
import { type Hit, type Limit, hit, peek, tooMany, windowWords } from '../security/rateLimit.ts';
import { gstRegistrationOf, loadBusinessSettings } from '../settings/repository.ts';

export const SEND_LIMITS = {
  /** Emails per account: at most 30 in 10 minutes. */
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

/**
 * 403 `email_unconfirmed` when mail leaves the machine and the user's address is not confirmed yet.
 * An account's owner is the user of the same id (auth/middleware.ts), so an account id serves too.
 */
export async function requireConfirmedEmail(deps: GuardDeps, userId: string): Promise<void> {
  if (!confirmationRequired(deps)) return;
  const [user] = await deps.store.db.query<{ email: string; email_confirmed_at: unknown }>('SELECT email, email_confirmed_at FROM users WHERE id = $1', [userId]);
  if (user && user.email_confirmed_at === null) {
    throw new Forbidden(SENDING_MESSAGES.confirmFirst(user.email), { code: EMAIL_UNCONFIRMED_CODE });
  }
}

/**
 * Why `d` may not go to the client now under the business's GST registration (requireGstReady):
 * 409 when the draft was saved under the other registration, 422 when a registered business has
 * no GST number; null when it may go.
 */
export async function gstRefusal(deps: Pick<AppDeps, 'store'>, accountId: string, d: DocumentView): Promise<AppError | null> {
  try {
    requireGstReady(d, gstRegistrationOf(await loadBusinessSettings(deps.store.db, accountId)));
    return null;
  } catch (e) {
    if (e instanceof DomainError) return (e.code === 'VALIDATION' ? new Invalid(e.detail) : new Conflict(e.detail));
    throw e;
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
interface SendAllowance {
  failed(error: unknown): Promise<never>;
}

/** Nothing reached anyone: the server could not be reached or refused every recipient. */
function nothingDelivered(error: unknown): boolean {
  const e = error as { code?: unknown; delivered?: unknown } | null;
  return e?.code === 'MAIL_UNAVAILABLE' || (e?.code === 'MAIL_REJECTED' && e.delivered === false);
}

/**
 * The refusal an email to `wanted` recipients would get now — 410 for a closed account, 409/422
 * when the document it gives the client may not go under the business's GST registration
 * (gstRefusal), 403 for an unconfirmed address, 429 with Retry-After for the burst or the day's
 * recipients — or null. Counts nothing: a caller may ask first to spare work (a PDF) that would be
 * refused anyway; sendForAccount asks again.
 */
export async function refusalNow(deps: GuardDeps, accountId: string, wanted: number, gives?: DocumentView): Promise<AppError | null> {
  if (await isAccountClosed(deps.store.db, accountId)) return new Gone(ACCOUNT_CLOSED);
  if (gives) {
    const gst = await gstRefusal(deps, accountId, gives);
    if (gst) return gst;
  }
  try {
    await requireConfirmedEmail(deps, accountId);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  const db = deps.store.db;
  const now = deps.clock.now();
  const seenBurst = await peek(db, SEND_LIMITS.burst, accountId, now);
  if (seenBurst.count + 1 > SEND_LIMITS.burst.max) return tooMany(burstDetail(seenBurst), seenBurst);
  const trial = await isTrialAccount(deps, accountId);
  const daily = dailyRecipientLimit(deps, trial);
  const seenDaily = await peek(db, daily, accountId, now);
  if (seenDaily.count + wanted > daily.max) return tooMany(dailyDetail(daily, trial, seenDaily.count, wanted), seenDaily);
  return null;
}

/**
 * Counts one send to `wanted` recipients against the account's limits, or throws 429 with
 * Retry-After and a detail that says what to do. Called right before the mail goes.
 */
async function reserveSend(deps: GuardDeps, accountId: string, wanted: number): Promise<SendAllowance> {
  const db = deps.store.db;
  const now = deps.clock.now();
  const trial = await isTrialAccount(deps, accountId);
  const daily = dailyRecipientLimit(deps, trial);
  const burst = SEND_LIMITS.burst;
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

/**
 * The one door for an email on an account's behalf: a trading account (410), the document it
 * gives the client, under the business's GST registration (`gives`; 409/422), the confirmed
 * address (403), the burst and the day's recipients (429 with Retry-After) — looked at first
 * without counting, so a refused email uses up nothing — then counted, then the mailer. When the
 * mail server took nothing (could not be reached, or refused every recipient) the count is given
 * back and the mailer's error rethrown; a Cc the server refused still counts (the others got it).
 */
export async function sendForAccount(deps: GuardDeps, accountId: string, mail: OutgoingMail, gives?: DocumentView): Promise<SentMail> {
  const wanted = recipientCount({ to: mail.to.map(addressOf), cc: (mail.cc ?? []).map(addressOf), bcc: (mail.bcc ?? []).map(addressOf) });
  const refused = await refusalNow(deps, accountId, wanted, gives);
  if (refused) throw refused;
  const allowance = await reserveSend(deps, accountId, wanted);
  try {
    return await deps.mailer.send(mail);
  } catch (e) {
    return allowance.failed(e);
  }
}

/**
 * Why an email to `recipients` people on the account's behalf would be refused now, in the words
 * sendForAccount would answer with; null when it may go. Counts nothing: for a screen that says
 * why a button is off before it is pressed.
 */
export async function sendRefusal(deps: GuardDeps, accountId: string, recipients = 1, gives?: DocumentView): Promise<string | null> {
  return (await refusalNow(deps, accountId, recipients, gives))?.detail ?? null;
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
