import type { Migration } from '@tradie/store';

/** Business settings: one row per account; a missing row means every default. */
export const settingsMigrations: Migration[] = [
  {
    id: 'settings-001-business-settings',
    sql: `
CREATE TABLE IF NOT EXISTS business_settings (
  account_id             text        PRIMARY KEY,
  business_name          text        NOT NULL DEFAULT '',
  trading_as             text        NOT NULL DEFAULT '',
  abn                    text        NOT NULL DEFAULT '',
  nzbn                   text        NOT NULL DEFAULT '',
  gst_number             text        NOT NULL DEFAULT '',
  phone                  text        NOT NULL DEFAULT '',
  email                  text        NOT NULL DEFAULT '',
  website                text        NOT NULL DEFAULT '',
  address                text        NOT NULL DEFAULT '',
  city                   text        NOT NULL DEFAULT '',
  postcode               text        NOT NULL DEFAULT '',
  bank_name              text        NOT NULL DEFAULT '',
  bank_account_name      text        NOT NULL DEFAULT '',
  bank_account_number    text        NOT NULL DEFAULT '',
  email_signature        text        NOT NULL DEFAULT '',
  default_email_subject  text,
  default_email_message  text,
  cc_email               text        NOT NULL DEFAULT '',
  bcc_email              text        NOT NULL DEFAULT '',
  default_currency       text        NOT NULL DEFAULT 'NZD',
  enable_multi_currency  boolean     NOT NULL DEFAULT false,
  gst_rounding           text        NOT NULL DEFAULT 'total',
  updated_at             timestamptz
);
CREATE TABLE IF NOT EXISTS business_logos (
  account_id    text        PRIMARY KEY,
  kind          text        NOT NULL,
  content_type  text        NOT NULL,
  bytes         bytea       NOT NULL,
  sha256        text        NOT NULL,
  updated_at    timestamptz NOT NULL
);
`,
  },
  {
    // The calculator's markup-or-margin choice, remembered per account.
    id: 'settings-003-margin-basis',
    sql: `
ALTER TABLE business_settings ADD COLUMN IF NOT EXISTS margin_basis text NOT NULL DEFAULT 'markup';
`,
  },
  {
    // Logos are re-encoded at upload (settings/logoPrepare.ts). A row stored before that is
    // 'unchecked' until a PDF first needs it: then it is re-encoded in place ('ready') or, when it
    // cannot be read, left out of PDFs ('unreadable') and the settings say so.
    id: 'settings-002-logo-state',
    sql: `
ALTER TABLE business_logos ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'unchecked';
`,
  },
  {
    // The terms a client ticks before accepting a quote through its link ('' for none).
    id: 'settings-004-quote-terms',
    sql: `
ALTER TABLE business_settings ADD COLUMN IF NOT EXISTS quote_terms text NOT NULL DEFAULT '';
`,
  },
  {
    // Whether the business is registered for GST. NULL on rows saved before it was asked: read as
    // registered when the business has a GST number or has charged GST on a document, and written
    // down the next time the settings are saved (docs/decisions/0023-gst-registration.md).
    id: 'settings-005-gst-registered',
    sql: `
ALTER TABLE business_settings ADD COLUMN IF NOT EXISTS gst_registered boolean;
`,
  },
  {
    // How 'Price from cost' prices: the business's categories with their percentages (jsonb, in
    // order: [{id, name, percent}]) and the labour rates, exact decimal text. No row: the defaults.
    id: 'settings-006-pricing',
    sql: `
CREATE TABLE IF NOT EXISTS pricing_settings (
  account_id              text        PRIMARY KEY,
  categories              jsonb       NOT NULL,
  labour_charge_out_rate  text,
  labour_cost_rate        text,
  updated_at              timestamptz NOT NULL
);
`,
  },
];
