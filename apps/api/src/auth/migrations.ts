import type { Migration } from '@tradie/store';

export const authMigrations: Migration[] = [
  {
    id: 'auth-001-identity',
    sql: `
CREATE TABLE IF NOT EXISTS users (
  id                text        PRIMARY KEY,
  email             text        NOT NULL,
  full_name         text        NOT NULL,
  password_hash     text        NOT NULL,
  created_at        timestamptz NOT NULL,
  trial_started_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_uq ON users (email);
CREATE TABLE IF NOT EXISTS refresh_tokens (
  token_hash  text        PRIMARY KEY,
  user_id     text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id   text        NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  revoked_at  timestamptz
);
CREATE INDEX IF NOT EXISTS refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX IF NOT EXISTS refresh_tokens_user ON refresh_tokens (user_id);
CREATE TABLE IF NOT EXISTS password_reset_tokens (
  token_hash  text        PRIMARY KEY,
  user_id     text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE TABLE IF NOT EXISTS login_failures (
  email  text        NOT NULL,
  at     timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS login_failures_email_at ON login_failures (email, at);
`,
  },
  {
    id: 'auth-002-refresh-family-start',
    // When the sign-in that began a refresh family happened: the family's absolute lifetime runs from it.
    sql: `ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS family_started_at timestamptz;`,
  },
  {
    // When the account's email address was confirmed (auth/emailConfirmation.ts). Everyone who
    // already uses the product counts as confirmed from the day they signed up: nobody is blocked.
    id: 'auth-003-email-confirmed-at',
    sql: `
ALTER TABLE users ADD COLUMN IF NOT EXISTS email_confirmed_at timestamptz;
UPDATE users SET email_confirmed_at = created_at WHERE email_confirmed_at IS NULL;
`,
  },
  {
    // The links in confirmation emails: stored only as SHA-256 hashes, single use, 7 days.
    id: 'auth-004-email-confirmation-tokens',
    sql: `
CREATE TABLE IF NOT EXISTS email_confirmation_tokens (
  token_hash  text        PRIMARY KEY,
  user_id     text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email       text        NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX IF NOT EXISTS email_confirmation_tokens_user ON email_confirmation_tokens (user_id);
`,
  },
];
