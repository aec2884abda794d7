import type { Migration } from '@tradie/store';

/**
 * Saved quote and invoice templates. They are settings-like (a starting point the tradie keeps and
 * edits), not business history: a plain table, changed in place, not domain events. Nothing in the
 * reports, GST or accounting depends on them.
 */
export const templateMigrations: Migration[] = [
  {
    id: 'templates-001-templates',
    sql: `
CREATE TABLE IF NOT EXISTS templates (
  account_id  text        NOT NULL,
  id          text        NOT NULL,
  name        text        NOT NULL,
  body        jsonb       NOT NULL,
  version     integer     NOT NULL DEFAULT 1,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX IF NOT EXISTS templates_account_created ON templates (account_id, created_at, id);
`,
  },
];
