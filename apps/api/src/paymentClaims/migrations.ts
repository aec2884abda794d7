import type { Migration } from '@tradie/store';

/**
 * Payment claims: the clients whose new invoices start as claims under the Construction Contracts
 * Act 2002 (construction clients). The claims themselves are in the invoices' events.
 */
export const paymentClaimMigrations: Migration[] = [
  {
    id: 'payment-claims-001-clients',
    sql: `
CREATE TABLE IF NOT EXISTS payment_claim_clients (
  account_id  text        NOT NULL,
  client_id   text        NOT NULL,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (account_id, client_id)
);
`,
  },
];
