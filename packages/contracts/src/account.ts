// /api/v1/account/* — the account itself: download my data, change email, delete my account.
// Shared by the API (validation) and Settings → Account (the same words on screen).
import { z } from 'zod';
import { AUTH_LIMITS, AUTH_MESSAGES } from './auth.ts';
import { SEND_MESSAGES, sendOutcome } from './invoices.ts';

/** What the tradie types to confirm deleting their account (shown on screen as it must be typed). */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

/** Personal data of a deleted account is erased within this many days (account/purge.ts). */
export const ACCOUNT_PURGE_DAYS = 30;

/**
 * What every door that acts for a deleted business answers (410) until its purge: the client's
 * pages, PDFs, answers and Pay now, its signed logo and download links.
 */
export const ACCOUNT_CLOSED = 'This business has closed its account.';

export const ACCOUNT_MESSAGES = {
  confirmationWrong: `Please type ${DELETE_CONFIRMATION_WORD} (in capitals) to confirm deleting your account.`,
  passwordWrong: 'Your password is incorrect. Your account has not been deleted.',
  passwordRequired: 'Please enter your password',
  deleted: `Your account has been deleted and you have been signed out. Your personal data will be erased within ${ACCOUNT_PURGE_DAYS} days.`,
  billingUnavailable: "We couldn't cancel your subscription with the payment provider right now, so your account has not been deleted. Please try again in a few minutes.",
  emailChangePasswordWrong: 'Your password is incorrect. Your email address has not been changed.',
  sameEmail: 'That is already your email address.',
  emailChangeSent: (email: string) => `We've sent a confirmation link to ${email}. Your email address changes when you open it.`,
  /** The confirmation email only went to this server's outbox: nobody received it (the same words as a document's send). */
  emailChangeSaved: (email: string) => `${SEND_MESSAGES.savedNotDelivered}, so no confirmation link went to ${email}. Your email address changes only when that link is opened.`,
  tooManyEmailChanges: 'Too many email change requests. Please check your inbox, or try again in an hour.',
  emailChangeLinkInvalid: 'This link is invalid or has expired. Please ask for a new one in Settings → Account.',
  emailChanged: (email: string) => `Your email address is now ${email}. Use it to sign in.`,
  emailChangeCancelled: (email: string, cancelled: string) =>
    `The change of your email address${cancelled ? ` to ${cancelled}` : ''} is cancelled, and every device has been signed out. Your email address is still ${email}. Sign in and change your password now: whoever asked for the change knows it.`,
  cancelLinkInvalid: "This link no longer works: the change was already cancelled or made, or the link has expired. Sign in to see your account's email address; if you can't, please contact support.",
} as const;

const password = z
  .string({ error: ACCOUNT_MESSAGES.passwordRequired })
  .min(1, { error: ACCOUNT_MESSAGES.passwordRequired })
  .max(AUTH_LIMITS.maxPassword, { error: ACCOUNT_MESSAGES.passwordWrong });

export const deleteAccountInput = z.object({
  /** Must be DELETE_CONFIRMATION_WORD exactly; anything else is refused with a detail (and changes nothing). */
  confirm: z.string({ error: ACCOUNT_MESSAGES.confirmationWrong }).max(100, { error: ACCOUNT_MESSAGES.confirmationWrong }),
  password,
});

export const deleteAccountResult = z.object({
  detail: z.string(),
  /** When the account's data is erased at the latest (ISO 8601). */
  purge_after: z.string(),
});

export const changeEmailInput = z.object({
  new_email: z
    .string({ error: AUTH_MESSAGES.emailInvalid })
    .trim()
    .max(AUTH_LIMITS.email, { error: AUTH_MESSAGES.emailInvalid })
    .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid })),
  password,
});

export const confirmEmailChangeInput = z.object({
  token: z.string({ error: ACCOUNT_MESSAGES.emailChangeLinkInvalid }).min(1, { error: ACCOUNT_MESSAGES.emailChangeLinkInvalid }).max(500, { error: ACCOUNT_MESSAGES.emailChangeLinkInvalid }),
});

export const confirmEmailChangeResult = z.object({ detail: z.string(), email: z.string() });

/** POST /account/change-email answer: what happened to the confirmation email, as a send of a document says it. */
export const changeEmailResult = z.object({
  detail: z.string(),
  /** 'delivered': a mail server took it; 'saved_not_delivered': no mail server is set up, it is only in this server's outbox. */
  outcome: sendOutcome.exclude(['failed']),
});
export type ChangeEmailResult = z.infer<typeof changeEmailResult>;

/** POST /account/cancel-email-change ('This wasn't me' in the notice to the current address). */
export const cancelEmailChangeInput = z.object({
  token: z.string({ error: ACCOUNT_MESSAGES.cancelLinkInvalid }).min(1, { error: ACCOUNT_MESSAGES.cancelLinkInvalid }).max(500, { error: ACCOUNT_MESSAGES.cancelLinkInvalid }),
});

export const cancelEmailChangeResult = z.object({ detail: z.string(), email: z.string() });

export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;
