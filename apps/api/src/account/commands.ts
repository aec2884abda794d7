// The account's own use cases: deleting it, and changing its email address (and cancelling a
// change from the notice sent to the old address). Each answers its value or throws a named
// application error (http/ makes it the problem answer; the link pages make it a page). What they decide is in docs/decisions/0010-account-deletion.md,
// docs/decisions/0019-one-time-tokens.md and docs/api/account.md.
import {
  ACCOUNT_MESSAGES, ACCOUNT_PURGE_DAYS, API_PREFIX, AUTH_MESSAGES, DELETE_CONFIRMATION_WORD, normaliseEmail, type ChangeEmailInput, type DeleteAccountInput,
} from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import { sendAccountMail } from '../auth/accountMail.ts';
import { CONFIRM_TOKEN_DAYS } from '../auth/emailConfirmation.ts';
import { AUTH_LIMITS_IN_DB, type Origin, signOutEverywhere } from '../auth/commands/shared.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { AppDeps } from '../deps.ts';
import { AppError, Conflict, Invalid, LimitReached, RetryLater, Unauthenticated, UpstreamFailed } from '../errors.ts';
import { BillingError, BillingRejectedError } from '../integrations/stripe/index.ts';
import type { SentMail } from '../mail/index.ts';
import { type AuditKind, recordAudit } from '../security/audit.ts';
import { ALL_TOKEN_KINDS, consumeToken, EMAIL_CHANGED, issueToken, revokeTokens } from '../security/oneTimeTokens.ts';
import { hit, type Limit } from '../security/rateLimit.ts';
import { settleReactions } from '../reactions/outbox.ts';
import { closeAccountIn } from './close.ts';
import { accountStreamId, isAccountClosed } from './liveness.ts';

const DAY = 86_400_000;

/** Change-email links: at most 3 an hour per account, like the other account mail. */
export const EMAIL_CHANGE_LIMIT: Limit = { name: 'email-change:account', max: 3, windowSeconds: 3600 };

/** What a deleted account's password hash becomes: no password verifies against it. */
export const DELETED_PASSWORD = 'deleted$account';
/** A deleted account's address until the purge: unique, never deliverable, frees the real one at once. */
export const deletedEmail = (accountId: string): string => `deleted-${accountId}@deleted.invalid`;

/**
 * What an account use case refuses with, by status: the named application errors, which http/
 * turns into the problem answer (and the link pages into a page) once.
 */
const no = (status: 401 | 409 | 422 | 429 | 502 | 503, detail: string, retryAfter?: number): AppError => {
  switch (status) {
    case 401: return new Unauthenticated(detail);
    case 409: return new Conflict(detail);
    case 422: return new Invalid(detail);
    case 429: return new LimitReached(detail, undefined, retryAfter ?? 60);
    case 502: return new UpstreamFailed(detail);
    case 503: return new RetryLater(detail, undefined, retryAfter);
  }
};

/** This feature's audit kinds (their words: AUDIT_DESCRIPTIONS in the contracts). */
type AccountAuditKind = Extract<AuditKind, 'account_deleted' | 'email_change_requested' | 'email_changed' | 'email_change_cancelled'>;

function audit(deps: Pick<AppDeps, 'clock'>, sql: Sql, origin: Origin, accountId: string, kind: AccountAuditKind | AuditKind, detail?: Record<string, string | number | boolean | null>): Promise<void> {
  return recordAudit(sql, { accountId, kind, at: deps.clock.now(), ip: origin.ip, userAgent: origin.userAgent, detail });
}

interface AccountUser {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
}

/** The signed-in user, unless the account is gone or closed (liveness.ts). */
async function liveUser(sql: Sql, userId: string): Promise<AccountUser | null> {
  const [user] = await sql.query<AccountUser>('SELECT id, email, full_name, password_hash FROM users WHERE id = $1', [userId]);
  return user && !(await isAccountClosed(sql, userId)) ? user : null;
}

/** The password check both use cases share: counted like sign-in first (no guessing oracle), a wrong one audited. */
async function checkPassword(deps: Pick<AppDeps, 'store' | 'clock'>, user: AccountUser, password: string, origin: Origin, during: string, wrong: string): Promise<void> {
  const over = await hit(deps.store.db, AUTH_LIMITS_IN_DB.loginAccountIp, `${user.email}|${origin.ip}`, deps.clock.now());
  if (!over.allowed) throw no(429, AUTH_MESSAGES.throttled, over.retryAfter);
  if (await verifyPassword(password, user.password_hash)) return;
  // Written outside any transaction, so the refusal that follows leaves it in place.
  await audit(deps, deps.store.db, origin, user.id, 'sign_in_failed', { during });
  throw no(422, wrong);
}

export type DeleteAccountDeps = Pick<AppDeps, 'config' | 'store' | 'clock' | 'ids' | 'mailer' | 'log' | 'secrets' | 'accounting' | 'billing' | 'connect'>;

/**
 * Deletes the signed-in account: the typed word and the password first (a wrong one changes
 * nothing), then the Stripe subscription is cancelled (if that cannot be done now, nothing else is
 * either: the tradie must not be charged for an account that is gone), and in one transaction
 * sign-in is disabled (the address is freed and no password verifies), every session and emailed
 * link ends, the purge is scheduled ACCOUNT_PURGE_DAYS ahead, the audit entry written and the
 * account wound down (close.ts: client links withdrawn, card payments and reminders stopped, the
 * outbox rows that expire open Checkout Sessions and disconnect Xero). From that commit the account
 * is closed at every door (liveness.ts); the outbox rows are run before the answer goes.
 */
export async function deleteAccount(deps: DeleteAccountDeps, userId: string, input: DeleteAccountInput, origin: Origin): Promise<{ purgeAfter: Date }> {
  const user = await liveUser(deps.store.db, userId);
  if (!user) throw no(401, AUTH_MESSAGES.sessionEnded);
  if (input.confirm.trim() !== DELETE_CONFIRMATION_WORD) throw no(422, ACCOUNT_MESSAGES.confirmationWrong);
  await checkPassword(deps, user, input.password, origin, 'account deletion', ACCOUNT_MESSAGES.passwordWrong);
  await cancelSubscription(deps, userId);

  const now = deps.clock.now();
  const purgeAfter = new Date(now.getTime() + ACCOUNT_PURGE_DAYS * DAY);
  const at = now.toISOString();
  await deps.store.db.tx(async (sql) => {
    await sql.query('INSERT INTO account_deletions (account_id, email, requested_at, purge_after) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id) DO NOTHING', [
      userId, user.email, at, purgeAfter.toISOString(),
    ]);
    // Sign-in answers as for an unknown address (the same words and time as a wrong password), and a
    // reset link cannot be asked for: the address no longer finds the account.
    await sql.query('UPDATE users SET email = $2, password_hash = $3 WHERE id = $1', [userId, deletedEmail(userId), DELETED_PASSWORD]);
    await sql.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, at]);
    await revokeTokens(sql, userId, ALL_TOKEN_KINDS, now);
    await audit(deps, sql, origin, userId, 'account_deleted', { purge_after: purgeAfter.toISOString() });
    await closeAccountIn(sql, deps, userId, origin, at);
  });
  // Stripe's open sessions expired and Xero disconnected now; what fails is tried again by the sweep.
  await settleReactions(deps, userId, accountStreamId(userId));
  deps.log('info', 'account deleted; purge scheduled', { accountId: userId, purgeAfter: purgeAfter.toISOString() });
  return { purgeAfter };
}

const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired']);

/** Ends the account's live Stripe subscription, if any; refused when it could not be done now. */
async function cancelSubscription(deps: DeleteAccountDeps, accountId: string): Promise<void> {
  const [row] = await deps.store.db.query<{ subscription_id: string | null; status: string | null }>(
    'SELECT subscription_id, status FROM billing_accounts WHERE account_id = $1',
    [accountId],
  );
  if (!row?.subscription_id || ENDED_STATUSES.has(row.status ?? '')) return;
  if (!deps.billing?.configured) {
    // Without Stripe settings this server cannot reach the subscription; the operator must end it.
    deps.log('info', 'account deleted with a subscription this server cannot cancel (billing not configured)', { accountId, subscriptionId: row.subscription_id });
    return;
  }
  try {
    await deps.billing.cancelSubscription(row.subscription_id);
  } catch (e) {
    // Already gone at Stripe: nothing left to cancel.
    if (e instanceof BillingRejectedError && e.providerCode === 'resource_missing') return;
    deps.log('error', 'cancelling the subscription failed; the account was not deleted', { accountId, error: e instanceof Error ? e.message : String(e) });
    if (e instanceof BillingError) throw no(e instanceof BillingRejectedError ? 502 : 503, ACCOUNT_MESSAGES.billingUnavailable);
    throw e;
  }
}

export type ChangeEmailDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'mailer' | 'log'>;

const mailRefusal = (e: unknown): AppError | null => {
  const m = e as { code?: unknown; detail?: unknown } | null;
  if (m?.code === 'MAIL_UNAVAILABLE') return no(503, typeof m.detail === 'string' ? m.detail : "We couldn't send the email right now. Please try again in a few minutes.", 60);
  if (m?.code === 'MAIL_REJECTED' && typeof m.detail === 'string') return no(422, m.detail);
  return null;
};

/**
 * Emails a confirmation link to the new address (the password first; 3 an hour per account). The
 * address changes only when the link is opened (confirmEmailChange); only the newest link works.
 * The current address is told, with a link that cancels the change and signs out every device
 * (cancelEmailChange). The outcome says what happened to the confirmation email: delivered, or
 * only saved to this server's outbox (no mail server is set up), as a send of a document does.
 */
export async function requestEmailChange(
  deps: ChangeEmailDeps, userId: string, input: ChangeEmailInput, origin: Origin,
): Promise<{ email: string; outcome: 'delivered' | 'saved_not_delivered' }> {
  const user = await liveUser(deps.store.db, userId);
  if (!user) throw no(401, AUTH_MESSAGES.sessionEnded);
  const newEmail = normaliseEmail(input.new_email);
  if (newEmail === user.email) throw no(422, ACCOUNT_MESSAGES.sameEmail);
  await checkPassword(deps, user, input.password, origin, 'email change', ACCOUNT_MESSAGES.emailChangePasswordWrong);
  const at = deps.clock.now();
  const limit = await hit(deps.store.db, EMAIL_CHANGE_LIMIT, userId, at);
  if (!limit.allowed) throw no(429, ACCOUNT_MESSAGES.tooManyEmailChanges, limit.retryAfter);
  const [taken] = await deps.store.db.query('SELECT 1 FROM users WHERE email = $1', [newEmail]);
  if (taken) throw no(409, AUTH_MESSAGES.emailTaken);

  const { change, cancel } = await deps.store.db.tx(async (sql) => {
    // A newer change link makes the older ones useless; every cancel link cancels whichever is pending.
    const changeLink = await issueToken(sql, { accountId: userId, kind: 'email_change', data: { new_email: newEmail }, now: at });
    const cancelLink = await issueToken(sql, { accountId: userId, kind: 'email_change_cancel', data: { new_email: newEmail }, now: at });
    await audit(deps, sql, origin, userId, 'email_change_requested', { new_email: newEmail });
    return { change: changeLink.token, cancel: cancelLink.token };
  });
  const link = `${deps.config.appUrl}${API_PREFIX}/account/confirm-email-change?token=${encodeURIComponent(change)}`;
  let sent: SentMail;
  try {
    sent = await sendAccountMail(deps, { email: newEmail, full_name: user.full_name }, 'Confirm your new email address for Tradie Quotes', [
      `You asked to change the email address of your Tradie Quotes account from ${user.email} to this one.`,
      'Open this link to confirm it:',
      '',
      link,
      '',
      `The link works for ${CONFIRM_TOKEN_DAYS} days. Until you open it, you keep signing in with ${user.email}.`,
      '',
      "If you didn't ask for this, you can ignore this email — nothing changes.",
    ]);
  } catch (e) {
    const refusal = mailRefusal(e);
    if (!refusal) throw e;
    // Nothing was sent: the attempt doesn't count.
    await hit(deps.store.db, EMAIL_CHANGE_LIMIT, userId, at, -1);
    throw refusal;
  }
  // The current address hears about it too (not awaited), with a one-tap way out: a stolen
  // password or session cannot quietly take the account.
  const cancelLink = `${deps.config.appUrl}${API_PREFIX}/account/cancel-email-change?token=${encodeURIComponent(cancel)}`;
  void sendAccountMail(deps, user, 'Your Tradie Quotes email address is being changed', [
    `Someone signed in to your account asked to change its email address to ${newEmail}.`,
    'Nothing changes until a link sent to that address is opened.',
    '',
    "If this wasn't you, open this link to cancel the change and sign out every device:",
    '',
    cancelLink,
    '',
    'Then sign in and change your password: whoever asked for the change knows it.',
  ]).catch((e: unknown) => deps.log('error', 'email change notice failed', { error: e instanceof Error ? e.message : String(e) }));
  return { email: newEmail, outcome: sent.notDelivered === 'outbox' ? 'saved_not_delivered' : 'delivered' };
}

/**
 * Follows an emailed change link: single use, within its 7 days, the newest only and not cancelled
 * (a password change or reset, 'Sign out everywhere' and 'This wasn't me' cancel it), for an account
 * that still exists and an address nobody else has taken meanwhile. The address is then the new
 * one (confirmed: the link proved it); every link tied to the old address ends with it (reset and
 * confirmation links, other pending changes: EMAIL_CHANGED), and the audit says so.
 */
export async function confirmEmailChange(deps: ChangeEmailDeps, token: string, origin: Origin): Promise<{ email: string }> {
  const now = deps.clock.now();
  // A link refused for what it asks (the address taken meanwhile) is spent all the same: the
  // refusal is returned out of the transaction that marks it used, and thrown once that commits.
  const used = await consumeToken(deps.store.db, token, 'email_change', now, async (sql, link): Promise<{ email: string; old: AccountUser } | AppError> => {
    const user = await liveUser(sql, link.accountId);
    const newEmail = typeof link.data.new_email === 'string' ? link.data.new_email : '';
    if (!user || newEmail === '') return no(422, ACCOUNT_MESSAGES.emailChangeLinkInvalid);
    const [taken] = await sql.query('SELECT 1 FROM users WHERE email = $1 AND id <> $2', [newEmail, link.accountId]);
    if (taken) return no(409, AUTH_MESSAGES.emailTaken);
    await sql.query('UPDATE users SET email = $2, email_confirmed_at = $3 WHERE id = $1', [link.accountId, newEmail, now.toISOString()]);
    await revokeTokens(sql, link.accountId, EMAIL_CHANGED, now);
    await audit(deps, sql, origin, link.accountId, 'email_changed', { from: user.email, to: newEmail });
    return { email: newEmail, old: user };
  });
  if (!used.ok) throw no(422, ACCOUNT_MESSAGES.emailChangeLinkInvalid);
  const result = used.value;
  if (result instanceof AppError) throw result;
  void sendAccountMail(deps, result.old, 'Your Tradie Quotes email address has changed', [
    `The email address of your Tradie Quotes account is now ${result.email}. Sign in with it from now on.`,
    '',
    "If this wasn't you, please contact support straight away.",
  ]).catch((e: unknown) => deps.log('error', 'email changed notice failed', { error: e instanceof Error ? e.message : String(e) }));
  return { email: result.email };
}

/**
 * 'This wasn't me' from the notice sent to the current address: cancels the pending change (every
 * change link ends) and signs out every device (signOutEverywhere, as a password change does), in
 * one transaction. The address stays what it was. Answers it, and the address the change was to.
 */
export async function cancelEmailChange(deps: ChangeEmailDeps, token: string, origin: Origin): Promise<{ email: string; cancelled: string }> {
  const now = deps.clock.now();
  const used = await consumeToken(deps.store.db, token, 'email_change_cancel', now, async (sql, link) => {
    const user = await liveUser(sql, link.accountId);
    if (!user) return null;
    const cancelled = typeof link.data.new_email === 'string' ? link.data.new_email : '';
    await signOutEverywhere(sql, link.accountId, now);
    await audit(deps, sql, origin, link.accountId, 'email_change_cancelled', { new_email: cancelled });
    return { email: user.email, cancelled };
  });
  if (!used.ok || !used.value) throw no(422, ACCOUNT_MESSAGES.cancelLinkInvalid);
  return used.value;
}
