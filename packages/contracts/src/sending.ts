// Sending email from the app: confirming the account's email address, and the daily limits on
// how many people an account may email. Shared by the API (answers) and the screens (the codes
// they react to, and the same sentences).
import { z } from 'zod';

/** The 403 a send answers while the account's email address is not confirmed (`code` beside `detail`). */
export const EMAIL_UNCONFIRMED_CODE = 'email_unconfirmed';

export const SENDING_MESSAGES = {
  confirmLinkInvalid: 'This confirmation link is invalid or has expired.',
  emailConfirmed: 'Your email address is confirmed. You can send quotes and invoices now.',
  alreadyConfirmed: 'Your email address is already confirmed.',
  noConfirmationNeeded: "Your email address doesn't need confirming on this server.",
  confirmFirst: (email: string) => `Please confirm your email address before sending. We sent a link to ${email} — check your inbox, or resend it.`,
  confirmationSent: (email: string) => `We sent a new confirmation link to ${email}.`,
} as const;

/** POST /auth/confirm-email. */
export const confirmEmailInput = z.object({
  token: z.string({ error: SENDING_MESSAGES.confirmLinkInvalid }).min(1, { error: SENDING_MESSAGES.confirmLinkInvalid }).max(500, { error: SENDING_MESSAGES.confirmLinkInvalid }),
});
export type ConfirmEmailInput = z.input<typeof confirmEmailInput>;

/** POST /auth/confirm-email answer. */
export const confirmEmailResult = z.object({ detail: z.string(), email: z.string() });

/** GET /auth/sending-status: what stands between the account and sending an email. */
export const sendingStatus = z.object({
  email: z.string(),
  email_confirmed: z.boolean(),
  /** False when this server keeps emails in its outbox (nothing leaves the machine), so nothing needs confirming. */
  confirmation_required: z.boolean(),
  /** Recipients (To, CC and BCC) emailed in the current day window. */
  recipients_today: z.number(),
  daily_recipient_limit: z.number(),
  /** True while the account has no active paid subscription (the trial's lower daily limit applies). */
  trial: z.boolean(),
});
export type SendingStatus = z.infer<typeof sendingStatus>;
