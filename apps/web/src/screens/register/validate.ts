import { AUTH_MESSAGES, registerInput } from '@tradie/contracts';

export interface RegisterValues {
  full_name: string;
  email: string;
  password: string;
  confirm: string;
}

/**
 * Register: the passwords must match ('Passwords don't match'), then be at least 8
 * characters; then the same schema the API checks (name, email). Returns the first problem or null.
 */
export function validateRegister(v: RegisterValues): string | null {
  if (v.password !== v.confirm) return AUTH_MESSAGES.passwordsDontMatch;
  const parsed = registerInput.safeParse({ full_name: v.full_name, email: v.email, password: v.password });
  if (parsed.success) return null;
  const issues = parsed.error.issues;
  return (issues.find((i) => i.path[0] === 'password') ?? issues[0])?.message ?? null;
}
