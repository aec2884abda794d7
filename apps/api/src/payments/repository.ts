// The payments feature's rows: the business's Stripe account and surcharge choice, the Checkout
// Sessions made for its invoices, the Connect events applied, and issues to look at. Every query
// names the account it is for.
import type { OnlinePaymentSettings } from '@tradie/contracts';
import type { Sql } from '@tradie/store';

export interface PaymentAccount {
  accountId: string;
  stripeAccountId: string | null;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  disconnectedAt: Date | null;
  surchargeEnabled: boolean;
  /** As stored: a decimal string, 0–5. */
  surchargePercent: string;
}

interface PaymentAccountRow {
  account_id: string;
  stripe_account_id: string | null;
  charges_enabled: boolean;
  details_submitted: boolean;
  disconnected_at: Date | string | null;
  surcharge_enabled: boolean;
  surcharge_percent: string;
}

const SELECT_ACCOUNT = `SELECT account_id, stripe_account_id, charges_enabled, details_submitted, disconnected_at, surcharge_enabled, surcharge_percent::text AS surcharge_percent
  FROM payment_accounts`;

const accountOf = (r: PaymentAccountRow): PaymentAccount => ({
  accountId: r.account_id,
  stripeAccountId: r.stripe_account_id,
  chargesEnabled: r.charges_enabled,
  detailsSubmitted: r.details_submitted,
  disconnectedAt: r.disconnected_at === null ? null : new Date(r.disconnected_at),
  surchargeEnabled: r.surcharge_enabled,
  surchargePercent: r.surcharge_percent,
});

export async function loadPaymentAccount(sql: Sql, accountId: string, options: { forUpdate?: boolean } = {}): Promise<PaymentAccount | null> {
  const [row] = await sql.query<PaymentAccountRow>(`${SELECT_ACCOUNT} WHERE account_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [accountId]);
  return row ? accountOf(row) : null;
}

export async function paymentAccountByStripeId(sql: Sql, stripeAccountId: string): Promise<PaymentAccount | null> {
  const [row] = await sql.query<PaymentAccountRow>(`${SELECT_ACCOUNT} WHERE stripe_account_id = $1`, [stripeAccountId]);
  return row ? accountOf(row) : null;
}

/**
 * Whose Stripe account `stripeAccountId` is: the account connected to it now, or the one whose
 * checkout sessions were made on it (a business that connected again later has a new one).
 */
export async function accountOfStripeAccount(sql: Sql, stripeAccountId: string): Promise<string | null> {
  const [row] = await sql.query<{ account_id: string }>(
    `SELECT account_id FROM payment_accounts WHERE stripe_account_id = $1
     UNION ALL (SELECT account_id FROM payment_checkout_sessions WHERE stripe_account_id = $1 LIMIT 1) LIMIT 1`,
    [stripeAccountId],
  );
  return row?.account_id ?? null;
}

/** The account's row, made (empty: no Stripe account, no surcharge) when it has none, and locked. */
export async function lockPaymentAccount(sql: Sql, accountId: string, now: Date): Promise<PaymentAccount> {
  await sql.query('INSERT INTO payment_accounts (account_id, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (account_id) DO NOTHING', [accountId, now.toISOString()]);
  const found = await loadPaymentAccount(sql, accountId, { forUpdate: true });
  if (!found) throw new Error(`payment_accounts row for ${accountId} vanished`);
  return found;
}

export type PaymentStatus = OnlinePaymentSettings['status'];

export function connectStatus(a: PaymentAccount | null): PaymentStatus {
  if (!a?.stripeAccountId) return 'none';
  if (a.disconnectedAt) return 'disconnected';
  return a.chargesEnabled ? 'enabled' : 'onboarding';
}

export function settingsView(a: PaymentAccount | null, available: boolean): OnlinePaymentSettings {
  return {
    available,
    status: connectStatus(a),
    surcharge_enabled: a?.surchargeEnabled ?? false,
    surcharge_percent: Number(a?.surchargePercent ?? 0),
  };
}

// ---- checkout sessions ---------------------------------------------------------------------

export interface CheckoutSessionRow {
  id: string;
  account_id: string;
  document_id: string;
  link_id: string;
  stripe_account_id: string;
  url: string;
  amount_cents: string;
  surcharge_cents: string;
  status: 'open' | 'complete' | 'expired';
  payment_intent_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

const SESSION_COLUMNS = `id, account_id, document_id, link_id, stripe_account_id, url, amount_cents::text AS amount_cents, surcharge_cents::text AS surcharge_cents,
  status, payment_intent_id, created_at, expires_at`;

export async function openSessionsOf(sql: Sql, accountId: string, documentId: string): Promise<CheckoutSessionRow[]> {
  return sql.query<CheckoutSessionRow>(`SELECT ${SESSION_COLUMNS} FROM payment_checkout_sessions WHERE account_id = $1 AND document_id = $2 AND status = 'open' ORDER BY created_at`, [accountId, documentId]);
}

/** The account's invoices with a Checkout Session still open. */
export async function documentsWithOpenSessions(sql: Sql, accountId: string): Promise<string[]> {
  const rows = await sql.query<{ document_id: string }>("SELECT DISTINCT document_id FROM payment_checkout_sessions WHERE account_id = $1 AND status = 'open' ORDER BY document_id", [accountId]);
  return rows.map((r) => r.document_id);
}

export async function sessionById(sql: Sql, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await sql.query<CheckoutSessionRow>(`SELECT ${SESSION_COLUMNS} FROM payment_checkout_sessions WHERE id = $1`, [id]);
  return row ?? null;
}

export async function sessionByPaymentIntent(sql: Sql, paymentIntentId: string): Promise<CheckoutSessionRow | null> {
  const [row] = await sql.query<CheckoutSessionRow>(`SELECT ${SESSION_COLUMNS} FROM payment_checkout_sessions WHERE payment_intent_id = $1`, [paymentIntentId]);
  return row ?? null;
}

export async function insertSession(
  sql: Sql,
  s: { id: string; accountId: string; documentId: string; linkId: string; stripeAccountId: string; url: string; amountCents: bigint; surchargeCents: bigint; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO payment_checkout_sessions (id, account_id, document_id, link_id, stripe_account_id, url, amount_cents, surcharge_cents, status, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::bigint, $8::bigint, 'open', $9, $10) ON CONFLICT (id) DO NOTHING`,
    [s.id, s.accountId, s.documentId, s.linkId, s.stripeAccountId, s.url, s.amountCents.toString(), s.surchargeCents.toString(), s.createdAt.toISOString(), s.expiresAt.toISOString()],
  );
}

export async function markSession(sql: Sql, id: string, status: 'complete' | 'expired', paymentIntentId?: string | null): Promise<void> {
  await sql.query(
    `UPDATE payment_checkout_sessions SET status = CASE WHEN status = 'complete' THEN status ELSE $2 END, payment_intent_id = COALESCE($3, payment_intent_id) WHERE id = $1`,
    [id, status, paymentIntentId ?? null],
  );
}

// ---- webhook events and issues -------------------------------------------------------------

/** Claims Stripe's event id; false when it was applied already (a redelivery). */
export async function claimEvent(sql: Sql, e: { id: string; type: string }, now: Date): Promise<boolean> {
  const rows = await sql.query('INSERT INTO payment_webhook_events (event_id, type, outcome, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO NOTHING RETURNING event_id', [
    e.id, e.type, 'pending', now.toISOString(),
  ]);
  return rows.length === 1;
}

export async function settleEvent(sql: Sql, id: string, accountId: string | null, outcome: string): Promise<void> {
  await sql.query('UPDATE payment_webhook_events SET account_id = $2, outcome = $3 WHERE event_id = $1', [id, accountId, outcome]);
}

export async function recordIssue(
  sql: Sql,
  i: { accountId: string; documentId: string | null; kind: 'overpaid' | 'dispute'; stripeObjectId: string; amountCents: bigint; detail: string; at: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO payment_issues (account_id, document_id, kind, stripe_object_id, amount_cents, detail, created_at) VALUES ($1, $2, $3, $4, $5::bigint, $6, $7)
     ON CONFLICT (kind, stripe_object_id) DO NOTHING`,
    [i.accountId, i.documentId, i.kind, i.stripeObjectId, i.amountCents.toString(), i.detail, i.at.toISOString()],
  );
}
