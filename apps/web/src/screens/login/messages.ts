/**
 * What the auth screens show for a failed call (login and account). Pure, so each case is a unit
 * test (messages.spec.ts).
 */
import { ApiError } from '../../api/client.ts';

export const LOGIN_MESSAGES = {
  incorrect: 'Invalid email or password. Please check and try again.',
  notVerified: 'Please verify your email before logging in. Check your inbox for the verification link.',
  locked: 'Your account has been locked. Please contact support.',
  fallback: 'Login failed. Please try again.',
} as const;

export const ACCOUNT_MESSAGES = {
  registerFailed: 'Registration failed. Please try again.',
  forgotFailed: 'Failed to send reset email',
  resetFailed: 'Failed to reset password. The link may have expired.',
  network: 'Network error. Please try again.',
} as const;

/** The server's `detail` text, when the answer carried one. */
export function serverDetail(e: unknown): string | undefined {
  if (!(e instanceof ApiError)) return undefined;
  const body = e.body;
  if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string' && body.detail !== '') return body.detail;
  return undefined;
}

const messageOf = (e: unknown): string | undefined => (e instanceof Error && e.message !== '' ? e.message : undefined);

const isNetworkFailure = (e: unknown): boolean => e instanceof ApiError && e.status === 0 && serverDetail(e) === undefined;

/** Login: matched on the server's detail text; anything else 'Error: ' + the detail or message. */
export function loginErrorMessage(e: unknown): string {
  const detail = serverDetail(e);
  if (detail?.includes('Incorrect email or password')) return LOGIN_MESSAGES.incorrect;
  if (detail?.includes('not verified')) return LOGIN_MESSAGES.notVerified;
  if (detail?.includes('locked')) return LOGIN_MESSAGES.locked;
  const text = detail ?? messageOf(e);
  return text ? `Error: ${text}` : LOGIN_MESSAGES.fallback;
}

/** Register: the detail, or 'Registration failed. Please try again.' */
export function registerErrorMessage(e: unknown): string {
  return serverDetail(e) ?? ACCOUNT_MESSAGES.registerFailed;
}

/** Forgot password: the detail, 'Network error. Please try again.', or 'Failed to send reset email'. */
export function forgotErrorMessage(e: unknown): string {
  return serverDetail(e) ?? (isNetworkFailure(e) ? ACCOUNT_MESSAGES.network : ACCOUNT_MESSAGES.forgotFailed);
}

/** Reset password: the detail, 'Network error. Please try again.', or the expired-link text. */
export function resetErrorMessage(e: unknown): string {
  return serverDetail(e) ?? (isNetworkFailure(e) ? ACCOUNT_MESSAGES.network : ACCOUNT_MESSAGES.resetFailed);
}
