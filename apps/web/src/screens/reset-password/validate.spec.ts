import { describe, expect, it } from 'vitest';
import { validateReset } from './validate.ts';

describe('reset password validation', () => {
  it('accepts a token and two equal passwords of 8 or more characters', () => {
    expect(validateReset('t0k', 'eightchr', 'eightchr')).toBeNull();
  });
  it("no token: 'Invalid reset link'", () => {
    expect(validateReset(undefined, 'eightchr', 'eightchr')).toBe('Invalid reset link');
    expect(validateReset('', 'eightchr', 'eightchr')).toBe('Invalid reset link');
  });
  it("under 8 characters: 'Password must be at least 8 characters'", () => {
    expect(validateReset('t', 'seven77', 'seven77')).toBe('Password must be at least 8 characters');
  });
  it("different passwords: 'Passwords do not match'", () => {
    expect(validateReset('t', 'eightchr', 'eightchX')).toBe('Passwords do not match');
  });
});
