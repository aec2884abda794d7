import { describe, expect, it } from 'vitest';
import { validateRegister } from './validate.ts';

const ok = { full_name: 'Ana Tane', email: 'ana@example.nz', password: 'secret-one', confirm: 'secret-one' };

describe('register validation', () => {
  it('accepts a complete form', () => {
    expect(validateRegister(ok)).toBeNull();
  });
  it("different passwords: 'Passwords don't match'", () => {
    expect(validateRegister({ ...ok, confirm: 'secret2' })).toBe("Passwords don't match");
  });
  it("a password under 8 characters: 'Password must be at least 8 characters'", () => {
    expect(validateRegister({ ...ok, password: 'abc1234', confirm: 'abc1234' })).toBe('Password must be at least 8 characters');
    expect(validateRegister({ ...ok, password: 'abc12345', confirm: 'abc12345' })).toBeNull();
  });
  it('a blank name or a malformed email: the same text the API gives', () => {
    expect(validateRegister({ ...ok, full_name: '   ' })).toBe('Please enter your name');
    expect(validateRegister({ ...ok, email: 'ana@' })).toBe('Please enter a valid email address');
  });
});
