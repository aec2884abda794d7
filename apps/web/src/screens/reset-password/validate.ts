import { AUTH_LIMITS, AUTH_MESSAGES } from '@tradie/contracts';

/**
 * Reset password: a token is required ('Invalid reset link'), the password at least 8
 * characters, and the two must match ('Passwords do not match'). Returns the first problem or null.
 */
export function validateReset(token: string | undefined, password: string, confirm: string): string | null {
  if (!token) return AUTH_MESSAGES.invalidResetLink;
  if (password.length < AUTH_LIMITS.resetPassword) return AUTH_MESSAGES.resetPasswordShort;
  if (password.length > AUTH_LIMITS.maxPassword) return AUTH_MESSAGES.passwordTooLong;
  if (password !== confirm) return AUTH_MESSAGES.resetPasswordsDontMatch;
  return null;
}
