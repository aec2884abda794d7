// The API's own tables (identity, settings, idempotency, integrations): ordinary tables, not
// domain history. Each feature keeps its list beside its code; this file orders them.
import { photoMigrations } from './documents/photos.ts';
import type { Migration } from '@tradie/store';
import { accountMigrations } from './account/migrations.ts';
import { xeroMigrations } from './integrations/xero/migrations.ts';
import { authMigrations } from './auth/migrations.ts';
import { billingMigrations } from './billing/migrations.ts';
import { clientLinkMigrations } from './clientLinks/migrations.ts';
import { paymentMigrations } from './payments/migrations.ts';
import { reactionMigrations } from './reactions/migrations.ts';
import { reminderMigrations } from './reminders/migrations.ts';
import { paymentClaimMigrations } from './paymentClaims/migrations.ts';
import { auditMigrations } from './security/audit.ts';
import { oneTimeTokenMigrations } from './security/oneTimeTokens.ts';
import { securityMigrations } from './security/rateLimit.ts';
import { settingsMigrations } from './settings/migrations.ts';
import { reportMigrations } from './reports/migrations.ts';
import { setupMigrations } from './setup/migrations.ts';
import { templateMigrations } from './templates/migrations.ts';
import { priceBookMigrations } from './priceBook/migrations.ts';
import { receiptMigrations } from './costs/receipts.ts';

export const coreMigrations: Migration[] = [
  {
    id: 'api-001-core',
    sql: `
CREATE TABLE IF NOT EXISTS app_secrets (
  name  text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id    text        NOT NULL,
  scope         text        NOT NULL,
  key           text        NOT NULL,
  request_hash  text        NOT NULL,
  status        integer,
  response      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, scope, key)
);
`,
  },
];

/** Every API migration, in order. */
export const allMigrations: Migration[] = [
  ...coreMigrations,
  ...authMigrations,
  ...settingsMigrations,
  ...reportMigrations,
  ...billingMigrations,
  ...xeroMigrations,
  ...securityMigrations,
  ...auditMigrations,
  ...reactionMigrations,
  ...accountMigrations,
  // After the tables it folds into one (auth's reset and confirmation links, account's change links).
  ...oneTimeTokenMigrations,
  ...templateMigrations,
  ...clientLinkMigrations,
  ...reminderMigrations,
  ...paymentMigrations,
  ...paymentClaimMigrations,
  ...priceBookMigrations,
  ...setupMigrations,
  ...receiptMigrations,
  ...photoMigrations,
];
