import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@tradie/contracts';
import { ApiError } from '../../api/client.ts';
import { forgotErrorMessage, loginErrorMessage, registerErrorMessage, resetErrorMessage } from './messages.ts';

const server = (status: number, detail: string) => new ApiError(status, detail, { detail });
const network = new ApiError(0, 'Network Error');
const timeout = new ApiError(0, 'timeout exceeded');
const noDetail = new ApiError(502, 'Request failed with status code 502', '<html>Bad gateway</html>');

describe('login error text (matched on the detail)', () => {
  it.each([
    [server(401, AUTH_MESSAGES.incorrectLogin), 'Invalid email or password. Please check and try again.'],
    [server(403, 'Email not verified'), 'Please verify your email before logging in. Check your inbox for the verification link.'],
    [server(403, 'Account locked'), 'Your account has been locked. Please contact support.'],
    [server(429, AUTH_MESSAGES.throttled), `Error: ${AUTH_MESSAGES.throttled}`],
    [server(422, 'Email is required'), 'Error: Email is required'],
    [network, 'Error: Network Error'],
    [timeout, 'Error: timeout exceeded'],
    [noDetail, 'Error: Request failed with status code 502'],
    [new Error(''), 'Login failed. Please try again.'],
    ['weird', 'Login failed. Please try again.'],
  ])('%s → %s', (error, shown) => {
    expect(loginErrorMessage(error)).toBe(shown);
  });
});

describe('account error text', () => {
  it('register: the detail, or the fallback', () => {
    expect(registerErrorMessage(server(409, AUTH_MESSAGES.emailTaken))).toBe(AUTH_MESSAGES.emailTaken);
    expect(registerErrorMessage(noDetail)).toBe('Registration failed. Please try again.');
    expect(registerErrorMessage(network)).toBe('Registration failed. Please try again.');
  });

  it('forgot password: the detail, the network text, or the fallback', () => {
    expect(forgotErrorMessage(server(422, AUTH_MESSAGES.emailInvalid))).toBe(AUTH_MESSAGES.emailInvalid);
    expect(forgotErrorMessage(network)).toBe('Network error. Please try again.');
    expect(forgotErrorMessage(timeout)).toBe('Network error. Please try again.');
    expect(forgotErrorMessage(noDetail)).toBe('Failed to send reset email');
  });

  it('reset password: the detail, the network text, or the fallback', () => {
    expect(resetErrorMessage(server(400, AUTH_MESSAGES.resetLinkExpired))).toBe(AUTH_MESSAGES.resetLinkExpired);
    expect(resetErrorMessage(network)).toBe('Network error. Please try again.');
    expect(resetErrorMessage(noDetail)).toBe('Failed to reset password. The link may have expired.');
  });
});
