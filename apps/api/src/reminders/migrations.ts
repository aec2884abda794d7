import type { Migration } from '@tradie/store';

/**
 * Payment reminders: the account's settings, the clients who asked for none, the queue of the
 * next reminder of each open invoice (what the scheduler decided and the sender claims with row
 * locks), and the emails a mail server refused for good (shown on the home screen until dismissed).
 * What was sent is history and lives in the document's events (ReminderSent, ReminderNotDelivered).
 */
export const reminderMigrations: Migration[] = [
  {
    id: 'reminders-001-tables',
    sql: `
CREATE TABLE IF NOT EXISTS reminder_settings (
  account_id             text        PRIMARY KEY,
  enabled                boolean     NOT NULL,
  steps                  jsonb       NOT NULL,
  minimum_balance_cents  bigint      NOT NULL DEFAULT 0,
  notice_pending         boolean     NOT NULL DEFAULT false,
  updated_at             timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS reminder_client_optouts (
  account_id  text        NOT NULL,
  client_id   text        NOT NULL,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, client_id)
);
CREATE TABLE IF NOT EXISTS reminder_queue (
  document_id    text        PRIMARY KEY,
  account_id     text        NOT NULL,
  step_id        text        NOT NULL,
  due_at         timestamptz NOT NULL,
  claimed_by     text,
  claimed_until  timestamptz,
  sending_since  timestamptz,
  attempts       integer     NOT NULL DEFAULT 0,
  last_error     text
);
CREATE INDEX IF NOT EXISTS reminder_queue_due ON reminder_queue (due_at);
CREATE INDEX IF NOT EXISTS reminder_queue_account ON reminder_queue (account_id);
CREATE TABLE IF NOT EXISTS delivery_failures (
  id            text        PRIMARY KEY,
  account_id    text        NOT NULL,
  document_id   text        NOT NULL,
  reference     text        NOT NULL,
  kind          text        NOT NULL,
  recipient     text        NOT NULL,
  detail        text        NOT NULL,
  at            timestamptz NOT NULL,
  dismissed_at  timestamptz
);
CREATE INDEX IF NOT EXISTS delivery_failures_account ON delivery_failures (account_id, at DESC);
`,
  },
  {
    id: 'reminders-002-manual-claims',
    sql: `
-- 'Send reminder now' at most once a day per invoice, across API processes: the last one's time,
-- taken with a compare-and-set before the mail goes (reminders/manual.ts) and given back when
-- nothing went.
CREATE TABLE IF NOT EXISTS reminder_manual_claims (
  document_id  text        PRIMARY KEY,
  account_id   text        NOT NULL,
  at           timestamptz NOT NULL
);
`,
  },
];
