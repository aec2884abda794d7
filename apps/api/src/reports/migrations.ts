import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const reportMigrations: Migration[] = [
  {
    // The GST reports on the invoice basis exported for the accountant (the GST CSV and the
    // accountant's ZIP), with the moment each file was made: an invoice issued afterwards that counts
    // in an exported range is carried to a later period (docs/decisions/0024-backdated-invoices-in-an-exported-period.md).
    id: 'reports-001-gst-exports',
    sql: `
CREATE TABLE IF NOT EXISTS gst_exports (
  id          bigserial   PRIMARY KEY,
  account_id  text        NOT NULL,
  kind        text        NOT NULL,
  start_date  date        NOT NULL,
  end_date    date        NOT NULL,
  exported_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS gst_exports_account ON gst_exports (account_id, exported_at);
`,
  },
];
