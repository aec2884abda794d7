import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const xeroMigrations: Migration[] = [
  {
    id: 'accounting-001-xero',
    sql: `
-- An authorisation in progress: the state is single use and lives ten minutes. Only its SHA-256
-- is kept; the PKCE verifier is encrypted like the tokens.
CREATE TABLE IF NOT EXISTS xero_oauth_states (
  state_hash         text        PRIMARY KEY,
  account_id         text        NOT NULL,
  code_verifier_enc  text        NOT NULL,
  created_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS xero_oauth_states_expires ON xero_oauth_states (expires_at);

-- One Xero connection per account. Tokens are AES-256-GCM ciphertexts (accounting/secretBox.ts).
CREATE TABLE IF NOT EXISTS xero_connections (
  account_id         text        PRIMARY KEY,
  tenant_id          text        NOT NULL,
  tenant_name        text        NOT NULL,
  connection_id      text        NOT NULL,
  access_token_enc   text        NOT NULL,
  refresh_token_enc  text        NOT NULL,
  expires_at         timestamptz NOT NULL,
  scope              text        NOT NULL,
  auth_event_id      text,
  -- Xero refused the refresh token or the organisation: the user must connect again.
  needs_reauth       boolean     NOT NULL DEFAULT false,
  connected_at       timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);

-- What each invoice is in Xero and what was last pushed there. A row without xero_invoice_id is
-- a claim only (claimed_by / claimed_until serialise syncs and pushes of one document across
-- processes).
CREATE TABLE IF NOT EXISTS xero_sync (
  account_id           text        NOT NULL,
  document_id          text        NOT NULL,
  tenant_id            text,
  xero_invoice_id      text,
  xero_invoice_number  text,
  xero_contact_id      text,
  -- The Xero invoice's status as last seen (AUTHORISED, PAID, VOIDED).
  xero_status          text,
  -- What we last set: AUTHORISED or VOIDED, and whether SentToContact is set.
  pushed_status        text,
  pushed_sent          boolean     NOT NULL DEFAULT false,
  last_push_error      text,
  synced_at            timestamptz,
  pushed_at            timestamptz,
  claimed_by           text,
  claimed_until        timestamptz,
  created_at           timestamptz NOT NULL,
  PRIMARY KEY (account_id, document_id)
);

-- Payments recorded here that are in Xero (one row each, so each is pushed once).
CREATE TABLE IF NOT EXISTS xero_payments (
  account_id       text        NOT NULL,
  document_id      text        NOT NULL,
  payment_id       text        NOT NULL,
  xero_payment_id  text        NOT NULL,
  pushed_at        timestamptz NOT NULL,
  PRIMARY KEY (account_id, document_id, payment_id)
);
`,
  },
  {
    id: 'accounting-002-oauth-browser',
    sql: `
-- The browser that pressed Connect: the SHA-256 of a nonce given to it in a cookie scoped to the
-- callback path. The callback must bring that cookie, so a callback address opened in another
-- browser attaches nothing. States from before this column have none and are refused.
ALTER TABLE xero_oauth_states ADD COLUMN IF NOT EXISTS browser_hash text;
`,
  },
  {
    id: 'accounting-003-xero-credit-notes',
    sql: `
-- Credit notes of synced invoices that are in Xero (one row each, so each is sent once), and
-- whether their credit was allocated to the invoice there (allocated_cents: how much).
CREATE TABLE IF NOT EXISTS xero_credit_notes (
  account_id           text        NOT NULL,
  document_id          text        NOT NULL,
  credit_note_id       text        NOT NULL,
  xero_credit_note_id  text        NOT NULL,
  allocated            boolean     NOT NULL DEFAULT false,
  allocated_cents      bigint      NOT NULL DEFAULT 0,
  pushed_at            timestamptz NOT NULL,
  PRIMARY KEY (account_id, document_id, credit_note_id)
);
`,
  },
  {
    id: 'accounting-004-xero-credit-note-refunds',
    sql: `
-- Money paid back against an invoice's credit notes that Xero has as cash refunds of their
-- credit (payments on the Xero credit notes). A refund is paid out of the credit its own credit
-- note has left in Xero first, then the invoice's other credit notes': one row for each part
-- (refund, credit note it came out of), so each is sent once.
CREATE TABLE IF NOT EXISTS xero_credit_note_refunds (
  account_id       text        NOT NULL,
  document_id      text        NOT NULL,
  refund_id        text        NOT NULL,
  credit_note_id   text        NOT NULL,
  amount_cents     bigint      NOT NULL,
  xero_payment_id  text        NOT NULL,
  pushed_at        timestamptz NOT NULL,
  PRIMARY KEY (account_id, document_id, refund_id, credit_note_id)
);
`,
  },
  {
    id: 'accounting-005-xero-push-error-at',
    sql: `
-- When the last push failed (with last_push_error; both NULL once a push gets through), so the home
-- screen can list the account's invoices that Xero is behind on, newest failure first, without
-- reading every synced invoice of the account.
ALTER TABLE xero_sync ADD COLUMN IF NOT EXISTS last_push_error_at timestamptz;
UPDATE xero_sync SET last_push_error_at = COALESCE(pushed_at, synced_at, created_at) WHERE last_push_error IS NOT NULL AND last_push_error_at IS NULL;
CREATE INDEX IF NOT EXISTS xero_sync_push_errors ON xero_sync (account_id, last_push_error_at DESC) WHERE last_push_error IS NOT NULL;
`,
  },
  {
    id: 'accounting-006-xero-call-budget',
    sql: `
-- Each Xero organisation's call budget, shared by every API process: the calls made in the current
-- fixed minute and day (Xero's windows are fixed too), and when Xero last said to wait (429 with
-- Retry-After). xero/callBudget.ts takes a call in one statement before every Accounting API request.
CREATE TABLE IF NOT EXISTS xero_call_budget (
  tenant_id      text        PRIMARY KEY,
  minute_start   timestamptz NOT NULL,
  minute_calls   integer     NOT NULL,
  day_start      timestamptz NOT NULL,
  day_calls      integer     NOT NULL,
  blocked_until  timestamptz
);
-- The poll that catches what a missed webhook did not bring: for each connected account, the
-- instant its last poll began (the next asks Xero only for invoices changed since, If-Modified-Since).
CREATE TABLE IF NOT EXISTS xero_polls (
  account_id      text        PRIMARY KEY,
  modified_since  timestamptz NOT NULL,
  polled_at       timestamptz NOT NULL
);
-- When Xero's word on a synced invoice was last read (a webhook, the poll, or before a reminder):
-- a reminder does not read it again while it is only minutes old.
ALTER TABLE xero_sync ADD COLUMN IF NOT EXISTS pulled_at timestamptz;
`,
  },
  {
    id: 'accounting-007-xero-bills',
    sql: `
-- Costs sent to Xero as bills (integrations/xero/bills.ts): what it is there ('bill', or 'credit' for a
-- supplier's credit sent as a credit note), its id and status there, the cost's
-- version last put on it, the SHA-256 of the receipt file attached, the payment made there for a
-- cost paid here (and the date and amount it was for), and what last went wrong. The
-- claim columns hold one cost to one process while it is being sent.
CREATE TABLE IF NOT EXISTS xero_bills (
  account_id       text        NOT NULL,
  cost_id          text        NOT NULL,
  tenant_id        text,
  kind             text,
  xero_invoice_id  text,
  xero_status      text,
  pushed_version   integer,
  attached_sha256  text,
  xero_payment_id  text,
  paid_key         text,
  last_error       text,
  claimed_by       text,
  claimed_until    timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz,
  PRIMARY KEY (account_id, cost_id)
);
`,
  },
  {
    id: 'accounting-008-xero-pull-errors',
    sql: `
-- Why the last read of a synced invoice back from Xero failed (a webhook's or the poll's read that
-- Xero refused or could not answer), shown on the invoice and the home screen as a failed push is;
-- cleared by the next read that gets through.
ALTER TABLE xero_sync ADD COLUMN IF NOT EXISTS last_pull_error text;
ALTER TABLE xero_sync ADD COLUMN IF NOT EXISTS last_pull_error_at timestamptz;
CREATE INDEX IF NOT EXISTS xero_sync_pull_errors ON xero_sync (account_id, last_pull_error_at DESC) WHERE last_pull_error IS NOT NULL;
`,
  },
  {
    id: 'accounting-009-xero-bill-accounts',
    sql: `
-- The Xero account a cost category's bills are coded to, where the tradie (or their accountant)
-- chose one; a category with no row goes to the standard chart's account for it.
CREATE TABLE IF NOT EXISTS xero_bill_accounts (
  account_id  text        NOT NULL,
  category    text        NOT NULL,
  code        text        NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, category)
);
`,
  },
];
