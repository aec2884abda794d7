import type { Migration } from '@tradie/store';

/** The first-run set-up: one row per account once it has started (setup/repository.ts). */
export const setupMigrations: Migration[] = [
  {
    id: 'setup-001-business-setup',
    sql: `
CREATE TABLE IF NOT EXISTS business_setup (
  account_id             text        PRIMARY KEY,
  step                   text        NOT NULL DEFAULT 'business',
  finished               text        CHECK (finished IN ('done', 'skipped')),
  trade                  text        NOT NULL DEFAULT '',
  default_payment_terms  text,
  updated_at             timestamptz NOT NULL
);
-- Accounts made before the set-up existed have done without it: they are not walked through it.
INSERT INTO business_setup (account_id, step, finished, updated_at) SELECT id, 'business', 'done', now() FROM users ON CONFLICT (account_id) DO NOTHING;
`,
  },
];
