import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const accountMigrations: Migration[] = [
  {
    id: 'account-001-deletions-and-email-changes',
    sql: `
-- A deleted account waiting for its purge (account/purge.ts). Sign-in is disabled at once; at
-- purge_after every row of the account goes, this one last. The address the account had when it
-- was deleted is kept only to erase its traces (sign-in counts, throttles) at the purge.
CREATE TABLE IF NOT EXISTS account_deletions (
  account_id    text        PRIMARY KEY,
  email         text        NOT NULL,
  requested_at  timestamptz NOT NULL,
  purge_after   timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS account_deletions_purge_after ON account_deletions (purge_after);
-- The links in "confirm your new email address" emails: stored only as SHA-256 hashes, single
-- use, 7 days, only the newest works. The email changes when one is opened.
CREATE TABLE IF NOT EXISTS email_change_tokens (
  token_hash  text        PRIMARY KEY,
  user_id     text        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  new_email   text        NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX IF NOT EXISTS email_change_tokens_user ON email_change_tokens (user_id);
`,
  },
];
