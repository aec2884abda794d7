// The account itself: signing up, and who the signed-in user is.
import { AUTH_MESSAGES, type CurrentUser, normaliseEmail, type registerInput } from '@tradie/contracts';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { hit } from '../../security/rateLimit.ts';
import { sendConfirmation } from '../emailConfirmation.ts';
import { isCommonPassword } from '../passwordPolicy.ts';
import { hashPassword } from '../passwords.ts';
import { AUTH_LIMITS_IN_DB, type Origin, type PasswordCost, perIp, refuse, throttled, type UserRow } from './shared.ts';

export type RegisterDeps = Pick<AppDeps, 'store' | 'clock' | 'ids' | 'config' | 'mailer' | 'log'> & PasswordCost;

export type RegisterInput = z.output<typeof registerInput>;

export interface Registered {
  user: { id: string; email: string; full_name: string; created_at: string };
}

/** A new account (its trial starts now); the confirmation email goes out without being waited for. */
export async function register(deps: RegisterDeps, input: RegisterInput, origin: Origin): Promise<Registered['user']> {
  if (isCommonPassword(input.password)) throw refuse('common_password');
  const email = normaliseEmail(input.email);
  const limit = await hit(deps.store.db, perIp(deps.config, AUTH_LIMITS_IN_DB.register), origin.ip, deps.clock.now());
  if (!limit.allowed) throw throttled(AUTH_MESSAGES.tooManyRegistrations, limit);
  const passwordHash = await hashPassword(input.password, deps.passwordCost);
  const id = deps.ids.uuid();
  const at = deps.clock.now().toISOString();
  const inserted = await deps.store.db.query(
    `INSERT INTO users (id, email, full_name, password_hash, created_at, trial_started_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [id, email, input.full_name, passwordHash, at],
  );
  if (inserted.length === 0) throw refuse('email_taken');
  // Not awaited: the sign-up answers at once; the address is confirmed from the emailed link (SMTP only).
  void sendConfirmation(deps, { id, email, full_name: input.full_name })
    .catch((e: unknown) => deps.log('error', 'confirmation email failed', { error: e instanceof Error ? e.message : String(e) }));
  return { id, email, full_name: input.full_name, created_at: at };
}

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The signed-in user as the API shows them; refused when the account no longer exists. */
export async function currentUser(deps: Pick<AppDeps, 'store'>, userId: string): Promise<CurrentUser> {
  const [user] = await deps.store.db.query<UserRow>('SELECT id, email, full_name, created_at, email_confirmed_at FROM users WHERE id = $1', [userId]);
  if (!user) throw refuse('session_ended');
  return { id: user.id, full_name: user.full_name, email: user.email, created_at: iso(user.created_at), email_confirmed: user.email_confirmed_at != null };
}
