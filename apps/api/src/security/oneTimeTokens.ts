// One-time tokens: the links that act without a sign-in — a password reset, an email confirmation,
// an email change and the 'This wasn't me' link that cancels it, and the download links of the
// report exports. One table (one_time_tokens) and one way to issue, consume and revoke every kind,
// so a rule about them (what a link may still do, what ends it) holds for all of them at once
// (docs/decisions/0019-one-time-tokens.md).
//
// - Issued: 32 random bytes (base64url), handed out once; only the SHA-256 is kept
//   (security/secrets.ts), with the account, the kind, what the token is for (`data`) and its
//   expiry. A kind that allows one link at a time ends the account's older ones as it issues.
// - Consumed: in one transaction, the row locked (FOR UPDATE): found by its digest, checked for its
//   kind, expiry, use and revocation, marked used, and the caller's change made in the same
//   transaction. Two tabs opening one link at once: one wins.
// - Revoked: revokeTokens(sql, accountId, kinds, now) ends every outstanding token of those kinds.
//   The moments that must end some name them from the sets below (SIGNED_OUT_EVERYWHERE: a password
//   change or reset, 'Sign out everywhere', 'This wasn't me'; EMAIL_CHANGED; ALL_TOKEN_KINDS: the
//   account's deletion).
import type { Db, Migration, Sql } from '@tradie/store';
import { randomSecret, secretDigest } from './secrets.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Every kind, with its lifetime, whether a newer one ends the older ones (only the last email sent
 * works), and whether it may be opened again until it expires (a browser may fetch a download
 * twice; every other kind is single use).
 */
export const TOKEN_POLICIES = {
  password_reset: { lifetimeMs: 60 * MINUTE, onlyNewest: true, reusable: false },
  email_confirmation: { lifetimeMs: 7 * DAY, onlyNewest: true, reusable: false },
  email_change: { lifetimeMs: 7 * DAY, onlyNewest: true, reusable: false },
  // Every notice of a pending change carries one; each cancels whatever change is pending.
  email_change_cancel: { lifetimeMs: 7 * DAY, onlyNewest: false, reusable: false },
  report_export: { lifetimeMs: 5 * MINUTE, onlyNewest: false, reusable: true },
} as const satisfies Record<string, { lifetimeMs: number; onlyNewest: boolean; reusable: boolean }>;

export type TokenKind = keyof typeof TOKEN_POLICIES;

export const ALL_TOKEN_KINDS = Object.keys(TOKEN_POLICIES) as TokenKind[];

/**
 * What ends when the account shuts out whoever may know its password or hold a session: a password
 * change or reset, 'Sign out everywhere', and 'This wasn't me'. A pending email change (and its
 * cancel links: nothing is left to cancel), a reset link and every download link.
 */
export const SIGNED_OUT_EVERYWHERE: readonly TokenKind[] = ['password_reset', 'email_change', 'email_change_cancel', 'report_export'];

/**
 * What ends when the account's address changes: reset links (they went to the old address),
 * confirmation links (they confirm the old one), and the other pending changes and their cancel links.
 */
export const EMAIL_CHANGED: readonly TokenKind[] = ['password_reset', 'email_confirmation', 'email_change', 'email_change_cancel'];

/** What a token is for: the address it confirms, the new address, the export and its query… */
export type TokenData = Record<string, unknown>;

export interface LiveToken {
  accountId: string;
  kind: TokenKind;
  data: TokenData;
  expiresAt: Date;
}

/** Why a token was refused. A token of another kind is 'unknown': the answer says nothing of it. */
export type TokenRefusal = 'unknown' | 'expired' | 'used' | 'revoked';

export type Consumed<T> = { ok: true; value: T } | { ok: false; reason: TokenRefusal };

export const oneTimeTokenMigrations: Migration[] = [
  {
    // The three token tables become one. Every row moves with its digest, expiry and use, so a link
    // emailed before the upgrade works after it, until it would have expired anyway.
    id: 'security-004-one-time-tokens',
    sql: `
CREATE TABLE IF NOT EXISTS one_time_tokens (
  token_hash  text        PRIMARY KEY,
  account_id  text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        text        NOT NULL,
  data        jsonb       NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz
);
CREATE INDEX IF NOT EXISTS one_time_tokens_account_kind ON one_time_tokens (account_id, kind);
INSERT INTO one_time_tokens (token_hash, account_id, kind, data, created_at, expires_at, used_at)
  SELECT token_hash, user_id, 'password_reset', '{}'::jsonb, created_at, expires_at, used_at FROM password_reset_tokens
  ON CONFLICT (token_hash) DO NOTHING;
INSERT INTO one_time_tokens (token_hash, account_id, kind, data, created_at, expires_at, used_at)
  SELECT token_hash, user_id, 'email_confirmation', jsonb_build_object('email', email), created_at, expires_at, used_at FROM email_confirmation_tokens
  ON CONFLICT (token_hash) DO NOTHING;
INSERT INTO one_time_tokens (token_hash, account_id, kind, data, created_at, expires_at, used_at)
  SELECT token_hash, user_id, 'email_change', jsonb_build_object('new_email', new_email), created_at, expires_at, used_at FROM email_change_tokens
  ON CONFLICT (token_hash) DO NOTHING;
DROP TABLE password_reset_tokens;
DROP TABLE email_confirmation_tokens;
DROP TABLE email_change_tokens;
`,
  },
];

const isKind = (k: string): k is TokenKind => Object.hasOwn(TOKEN_POLICIES, k);

/** `IN ($n, $n+1, …)` for a list of kinds, and its parameters. */
function kindList(kinds: readonly TokenKind[], first: number): { sql: string; params: string[] } {
  const known = [...new Set(kinds)].filter(isKind);
  if (known.length === 0) throw new Error('revokeTokens: no kinds named');
  return { sql: `(${known.map((_, i) => `$${first + i}`).join(', ')})`, params: known };
}

const REUSABLE = ALL_TOKEN_KINDS.filter((k) => TOKEN_POLICIES[k].reusable);

/**
 * Ends the account's outstanding tokens of these kinds (not yet expired, not revoked, and unused
 * unless the kind may be opened again); answers how many. In the caller's transaction, so the
 * revocation commits with the change that calls for it.
 */
export async function revokeTokens(sql: Sql, accountId: string, kinds: readonly TokenKind[], now: Date): Promise<number> {
  const list = kindList(kinds, 3);
  const reusable = REUSABLE.length > 0 ? ` OR kind IN (${REUSABLE.map((k) => `'${k}'`).join(', ')})` : '';
  const rows = await sql.query(
    `UPDATE one_time_tokens SET revoked_at = $2
      WHERE account_id = $1 AND kind IN ${list.sql} AND revoked_at IS NULL AND expires_at > $2 AND (used_at IS NULL${reusable})
      RETURNING 1`,
    [accountId, now.toISOString(), ...list.params],
  );
  return rows.length;
}

/**
 * A new token of `kind` for the account, valid for the kind's lifetime; the token itself is
 * answered once and never stored. A kind that allows one at a time ends the older ones first.
 */
export async function issueToken(sql: Sql, input: { accountId: string; kind: TokenKind; data?: TokenData; now: Date }): Promise<{ token: string; expiresAt: Date }> {
  const policy = TOKEN_POLICIES[input.kind];
  if (policy.onlyNewest) await revokeTokens(sql, input.accountId, [input.kind], input.now);
  const token = randomSecret(32);
  const expiresAt = new Date(input.now.getTime() + policy.lifetimeMs);
  await sql.query('INSERT INTO one_time_tokens (token_hash, account_id, kind, data, created_at, expires_at) VALUES ($1, $2, $3, $4::text::jsonb, $5, $6)', [
    secretDigest(token), input.accountId, input.kind, JSON.stringify(input.data ?? {}), input.now.toISOString(), expiresAt.toISOString(),
  ]);
  return { token, expiresAt };
}

interface TokenRow {
  account_id: string;
  kind: string;
  data: TokenData | string | null;
  expires_at: Date | string;
  used_at: Date | string | null;
  revoked_at: Date | string | null;
}

/** The row's verdict for `kind` at `now`. */
function verdict(row: TokenRow | undefined, kind: TokenKind, now: Date): Consumed<LiveToken> {
  if (!row || row.kind !== kind) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (row.used_at !== null && !TOKEN_POLICIES[kind].reusable) return { ok: false, reason: 'used' };
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as TokenData) : (row.data ?? {});
  return { ok: true, value: { accountId: String(row.account_id), kind, data, expiresAt } };
}

const SELECT = 'SELECT account_id, kind, data, expires_at, used_at, revoked_at FROM one_time_tokens WHERE token_hash = $1';

/**
 * Whether `token` is a live token of `kind`, without a transaction or a lock: one lookup, so a
 * made-up or spent token is refused before any expensive work (the caller then consumes it).
 */
export async function peekToken(sql: Sql, token: string, kind: TokenKind, now: Date): Promise<Consumed<LiveToken>> {
  const [row] = await sql.query<TokenRow>(SELECT, [secretDigest(token)]);
  return verdict(row, kind, now);
}

/**
 * Uses `token` as a token of `kind`: in one transaction, the row locked, it is checked (kind,
 * expiry, use, revocation), marked used, and `use` makes the change it grants with the same
 * transaction. A refused token changes nothing; when `use` throws, nothing is marked either.
 *
 * Locks in one order with every other change to an account: its `users` row first, then its
 * links. A password change (users, then every link of the account) racing the confirmation of an
 * email change (the link, then users) otherwise waits on each other's rows and PostgreSQL aborts
 * one of them as a deadlock, a 500. The token's account is read without a lock to find the row.
 */
export async function consumeToken<T>(
  db: Pick<Db, 'tx'>,
  token: string,
  kind: TokenKind,
  now: Date,
  use: (sql: Sql, live: LiveToken) => Promise<T>,
): Promise<Consumed<T>> {
  const hash = secretDigest(token);
  return db.tx(async (sql): Promise<Consumed<T>> => {
    const [owner] = await sql.query<{ account_id: string }>('SELECT account_id FROM one_time_tokens WHERE token_hash = $1', [hash]);
    if (owner) await sql.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [owner.account_id]);
    const [row] = await sql.query<TokenRow>(`${SELECT} FOR UPDATE`, [hash]);
    const seen = verdict(row, kind, now);
    if (!seen.ok) return seen;
    await sql.query('UPDATE one_time_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL', [hash, now.toISOString()]);
    return { ok: true, value: await use(sql, seen.value) };
  });
}
