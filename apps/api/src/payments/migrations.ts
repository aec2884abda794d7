import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const paymentMigrations: Migration[] = [
  {
    id: 'payments-001-connect',
    sql: `
-- The business's own Stripe account (Connect, Standard), one per account, and its card surcharge
-- choice. Off by default; the percentage is what the business says Stripe charges it, at most 5.
CREATE TABLE IF NOT EXISTS payment_accounts (
  account_id          text        PRIMARY KEY,
  stripe_account_id   text        UNIQUE,
  charges_enabled     boolean     NOT NULL DEFAULT false,
  details_submitted   boolean     NOT NULL DEFAULT false,
  disconnected_at     timestamptz,
  surcharge_enabled   boolean     NOT NULL DEFAULT false,
  surcharge_percent   numeric(5,2) NOT NULL DEFAULT 0 CHECK (surcharge_percent >= 0 AND surcharge_percent <= 5),
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);
-- Every change of the surcharge choice: who, when, from what to what.
CREATE TABLE IF NOT EXISTS payment_surcharge_changes (
  id                  bigserial   PRIMARY KEY,
  account_id          text        NOT NULL,
  user_id             text        NOT NULL,
  surcharge_enabled   boolean     NOT NULL,
  surcharge_percent   numeric(5,2) NOT NULL,
  changed_at          timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_surcharge_changes_account ON payment_surcharge_changes (account_id, changed_at);
-- Checkout Sessions made on the business's Stripe account for an invoice. amount and surcharge
-- in cents; amount is the part that pays the invoice (the session charged amount + surcharge).
CREATE TABLE IF NOT EXISTS payment_checkout_sessions (
  id                  text        PRIMARY KEY,
  account_id          text        NOT NULL,
  document_id         text        NOT NULL,
  link_id             text        NOT NULL,
  stripe_account_id   text        NOT NULL,
  url                 text        NOT NULL,
  amount_cents        bigint      NOT NULL,
  surcharge_cents     bigint      NOT NULL,
  status              text        NOT NULL CHECK (status IN ('open', 'complete', 'expired')),
  payment_intent_id   text,
  created_at          timestamptz NOT NULL,
  expires_at          timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_checkout_sessions_document ON payment_checkout_sessions (account_id, document_id, status);
CREATE INDEX IF NOT EXISTS payment_checkout_sessions_intent ON payment_checkout_sessions (payment_intent_id) WHERE payment_intent_id IS NOT NULL;
-- Every verified Connect webhook event, by Stripe's id: a redelivery finds its row and changes nothing.
CREATE TABLE IF NOT EXISTS payment_webhook_events (
  event_id     text        PRIMARY KEY,
  type         text        NOT NULL,
  account_id   text,
  outcome      text        NOT NULL,
  received_at  timestamptz NOT NULL
);
-- Card payments that could not be applied in full (the invoice was paid some other way meanwhile),
-- and disputes: what the business must look at in its Stripe dashboard.
CREATE TABLE IF NOT EXISTS payment_issues (
  id                  bigserial   PRIMARY KEY,
  account_id          text        NOT NULL,
  document_id         text,
  kind                text        NOT NULL CHECK (kind IN ('overpaid', 'dispute')),
  stripe_object_id    text        NOT NULL,
  amount_cents        bigint      NOT NULL,
  detail              text        NOT NULL,
  created_at          timestamptz NOT NULL,
  UNIQUE (kind, stripe_object_id)
);
CREATE INDEX IF NOT EXISTS payment_issues_account ON payment_issues (account_id, created_at);
`,
  },
  {
    // A payment issue stays on the home screen until the business says it has dealt with it.
    id: 'payments-002-issue-done',
    sql: `ALTER TABLE payment_issues ADD COLUMN IF NOT EXISTS done_at timestamptz;`,
  },
];
