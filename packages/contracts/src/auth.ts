// /api/v1/auth/* — shared by the API (validation) and the screens (the same messages).
import { z } from 'zod';
import { SEND_MESSAGES } from './invoices.ts';

export const AUTH_LIMITS = { registerPassword: 8, resetPassword: 8, maxPassword: 200, name: 200, email: 254 } as const;

export const AUTH_MESSAGES = {
  emailInvalid: 'Please enter a valid email address',
  nameRequired: 'Please enter your name',
  registerPasswordShort: 'Password must be at least 8 characters',
  resetPasswordShort: 'Password must be at least 8 characters',
  passwordTooLong: `Password can be at most ${AUTH_LIMITS.maxPassword} characters`,
  passwordsDontMatch: "Passwords don't match",
  resetPasswordsDontMatch: 'Passwords do not match',
  incorrectLogin: 'Incorrect email or password',
  emailTaken: 'An account with this email already exists. Sign in instead, or reset your password.',
  invalidResetLink: 'Invalid reset link',
  invalidResetLinkLong: 'Invalid reset link. Please request a new password reset.',
  resetLinkExpired: 'This reset link is invalid or has expired. Please request a new password reset.',
  throttled: 'Too many sign-in attempts for this email. Please wait 15 minutes and try again, or reset your password.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  tooManyRegistrations: 'Too many sign-ups from this network. Please try again later.',
  tooManyResetRequests: 'Too many password reset requests. Please check your inbox, or try again later.',
  tooManyResetAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  currentPasswordWrong: 'Your current password is incorrect',
  currentPasswordRequired: 'Please enter your current password',
  samePassword: 'Your new password must be different from your current one',
  signedOut: 'You have been signed out.',
  signedOutEverywhere: 'You have been signed out on every device.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  /** The answer to a reset request where a mail server will take the email (the same for any address). */
  resetLinkComing: (email: string) => `If an account exists for ${email}, you'll receive a password reset link shortly.`,
  /** The answer where no mail server is set up: the link goes to this server's outbox, not to anyone's inbox. */
  resetLinkSaved: (email: string) => `${SEND_MESSAGES.savedNotDelivered}. If an account exists for ${email}, its reset link was saved in this server's outbox folder, not sent to the inbox.`,
} as const;

/** Emails are compared trimmed and case-insensitively. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const email = z
  .string({ error: AUTH_MESSAGES.emailInvalid })
  .trim()
  .max(AUTH_LIMITS.email, { error: AUTH_MESSAGES.emailInvalid })
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }));

export const registerInput = z.object({
  email,
  password: z
    .string({ error: AUTH_MESSAGES.registerPasswordShort })
    .min(AUTH_LIMITS.registerPassword, { error: AUTH_MESSAGES.registerPasswordShort })
    .max(AUTH_LIMITS.maxPassword, { error: AUTH_MESSAGES.passwordTooLong }),
  full_name: z
    .string({ error: AUTH_MESSAGES.nameRequired })
    .trim()
    .min(1, { error: AUTH_MESSAGES.nameRequired })
    .max(AUTH_LIMITS.name, { error: `Your name can be at most ${AUTH_LIMITS.name} characters` }),
});

export const loginInput = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, { error: 'Email is required' }).max(AUTH_LIMITS.email, { error: AUTH_MESSAGES.incorrectLogin }),
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(AUTH_LIMITS.maxPassword, { error: AUTH_MESSAGES.incorrectLogin }),
});

export const refreshInput = z.object({
  refresh_token: z.string({ error: 'No refresh token' }).min(1, { error: 'No refresh token' }).max(500, { error: AUTH_MESSAGES.sessionEnded }),
});

export const forgotPasswordInput = z.object({ email });

/** POST /auth/forgot-password answer: the same for every address, known or not. */
export const forgotPasswordResult = z.object({
  detail: z.string(),
  /** True when no mail server is set up on this server: any reset link was only saved to its outbox, never sent. */
  saved_to_outbox: z.boolean(),
});
export type ForgotPasswordResult = z.infer<typeof forgotPasswordResult>;

export const resetPasswordInput = z.object({
  token: z.string({ error: AUTH_MESSAGES.invalidResetLink }).min(1, { error: AUTH_MESSAGES.invalidResetLink }).max(500, { error: AUTH_MESSAGES.invalidResetLink }),
  new_password: z
    .string({ error: AUTH_MESSAGES.resetPasswordShort })
    .min(AUTH_LIMITS.resetPassword, { error: AUTH_MESSAGES.resetPasswordShort })
    .max(AUTH_LIMITS.maxPassword, { error: AUTH_MESSAGES.passwordTooLong }),
});

export const changePasswordInput = z.object({
  current_password: z
    .string({ error: AUTH_MESSAGES.currentPasswordRequired })
    .min(1, { error: AUTH_MESSAGES.currentPasswordRequired })
    .max(AUTH_LIMITS.maxPassword, { error: AUTH_MESSAGES.currentPasswordWrong }),
  new_password: z
    .string({ error: AUTH_MESSAGES.resetPasswordShort })
    .min(AUTH_LIMITS.resetPassword, { error: AUTH_MESSAGES.resetPasswordShort })
    .max(AUTH_LIMITS.maxPassword, { error: AUTH_MESSAGES.passwordTooLong }),
});

/** Logout: the device's refresh token, whose whole family is revoked. Optional: without it only the access token's own session is trusted to expire. */
export const logoutInput = z.object({
  refresh_token: z.string().min(1).max(500).optional(),
});

export const tokenPair = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const currentUser = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  created_at: z.string(),
  /** Whether the address has been confirmed (only /auth/me says; with the outbox no confirmation is needed). */
  email_confirmed: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof currentUser>;
