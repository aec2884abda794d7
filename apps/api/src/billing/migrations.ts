import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const billingMigrations: Migration[] = [
  {
    id: 'billing-001-subscriptions',
    sql: `
-- One row per account that has heard from Stripe: the webhook reducer's state (jsonb) and, beside
-- it for queries, the customer, the governing subscription, its status and period end.
CREATE TABLE IF NOT EXISTS billing_accounts (
  account_id          text        PRIMARY KEY,
  customer_id         text,
  subscription_id     text,
  status              text,
  current_period_end  timestamptz,
  state               jsonb       NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS billing_accounts_customer ON billing_accounts (customer_id) WHERE customer_id IS NOT NULL;
-- Every verified webhook event, by Stripe's id: a redelivery finds its row and changes nothing.
CREATE TABLE IF NOT EXISTS billing_webhook_events (
  event_id     text        PRIMARY KEY,
  type         text        NOT NULL,
  account_id   text,
  outcome      text        NOT NULL,
  created      bigint      NOT NULL,
  received_at  timestamptz NOT NULL
);
`,
  },
  {
    id: 'billing-002-provider-settings',
    sql: `
-- What the billing feature made in the payment provider and must reuse, by key: the NZ GST tax
-- rate created when STRIPE_TAX_RATE_ID is not set ('stripe_gst_tax_rate_test' / '_live') and the billing
-- portal configuration listing the monthly and annual prices ('stripe_portal_configuration_...').
CREATE TABLE IF NOT EXISTS billing_provider_settings (
  key         text        PRIMARY KEY,
  value       text        NOT NULL,
  created_at  timestamptz NOT NULL
);
`,
  },
];
