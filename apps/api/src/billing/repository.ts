// An account's billing: its trial start (users), its subscription state (billing_accounts, built
// by the pure webhook reducer) and the webhook events already applied (billing_webhook_events).
import type { SubscriptionStatusResponse } from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import { isAccountClosed } from '../account/liveness.ts';
import {
  accountRefOf,
  applyBillingEvent,
  initialBillingState,
  subscriptionStatus,
  trialEndsAt,
  type BillingEvent,
  type BillingProvider,
  type BillingState,
} from '../integrations/stripe/index.ts';

export interface AccountBilling {
  email: string;
  trialStartedAt: Date;
  state: BillingState;
}

/** The account's user row and billing state, or null when the account does not exist. */
export async function loadAccountBilling(sql: Sql, accountId: string): Promise<AccountBilling | null> {
  const [user] = await sql.query<{ email: string; trial_started_at: Date | string }>('SELECT email, trial_started_at FROM users WHERE id = $1', [accountId]);
  if (!user) return null;
  const [row] = await sql.query<{ state: BillingState | string | null }>('SELECT state FROM billing_accounts WHERE account_id = $1', [accountId]);
  return { email: user.email, trialStartedAt: new Date(user.trial_started_at), state: stateOf(row?.state) };
}

const stateOf = (raw: BillingState | string | null | undefined): BillingState =>
  raw == null ? initialBillingState : typeof raw === 'string' ? (JSON.parse(raw) as BillingState) : raw;

const isoOfUnix = (s: number | null | undefined): string | null => (s == null ? null : new Date(s * 1000).toISOString());

export function statusResponse(billing: AccountBilling, now: Date, configured: boolean): SubscriptionStatusResponse {
  const { state } = billing;
  const sub = state.subscription;
  return {
    ...subscriptionStatus({ trialStartedAt: billing.trialStartedAt, subscription: sub, now }),
    trial_ends_at: trialEndsAt(billing.trialStartedAt).toISOString(),
    subscription_status: sub?.status ?? null,
    current_period_end: isoOfUnix(sub?.currentPeriodEnd),
    cancel_at_period_end: sub?.cancelAtPeriodEnd ?? false,
    payment_failed: state.lastInvoice?.outcome === 'payment_failed',
    billing_configured: configured,
  };
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'unmatched' | 'account_closed';

/**
 * Records and applies one verified event in one transaction: the event id is claimed first (a
 * redelivery, even a concurrent one, finds it and changes nothing), then the account's state row
 * is locked, folded with the pure reducer and written back. Only after the commit may the caller
 * answer 2xx. An event for no known account is recorded as 'unmatched' and otherwise ignored; one
 * for an account that was deleted (account/liveness.ts) as 'account_closed', and changes nothing.
 */
export async function applyWebhookEvent(tx: Sql, event: BillingEvent, now: Date): Promise<{ outcome: WebhookOutcome; accountId: string | null }> {
  const type = event.type === 'ignored' ? event.stripeType : event.type;
  const claimed = await tx.query(
    `INSERT INTO billing_webhook_events (event_id, type, outcome, created, received_at) VALUES ($1, $2, 'pending', $3, $4)
     ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
    [event.id, type, event.created, now.toISOString()],
  );
  if (claimed.length === 0) return { outcome: 'duplicate', accountId: null };

  const finish = async (outcome: WebhookOutcome, accountId: string | null) => {
    await tx.query('UPDATE billing_webhook_events SET outcome = $2, account_id = $3 WHERE event_id = $1', [event.id, outcome, accountId]);
    return { outcome, accountId };
  };
  if (event.type === 'ignored') return finish('ignored', null);

  const accountId = await accountFor(tx, accountRefOf(event));
  if (!accountId) return finish('unmatched', null);
  if (await isAccountClosed(tx, accountId)) return finish('account_closed', accountId);

  await tx.query(`INSERT INTO billing_accounts (account_id, state, updated_at) VALUES ($1, $2::jsonb, $3) ON CONFLICT (account_id) DO NOTHING`, [
    accountId, initialBillingState, now.toISOString(),
  ]);
  const [row] = await tx.query<{ state: BillingState | string }>('SELECT state FROM billing_accounts WHERE account_id = $1 FOR UPDATE', [accountId]);
  const next = applyBillingEvent(stateOf(row?.state), event);
  await tx.query(
    `UPDATE billing_accounts SET customer_id = $2, subscription_id = $3, status = $4, current_period_end = $5, state = $6::jsonb, updated_at = $7
     WHERE account_id = $1`,
    [accountId, next.customerId, next.subscription?.id ?? null, next.subscription?.status ?? null, isoOfUnix(next.subscription?.currentPeriodEnd), next, now.toISOString()],
  );
  return finish('applied', accountId);
}

/** Our account id from the event (client_reference_id / metadata), else through the customer it names. */
async function accountFor(tx: Sql, ref: { accountId: string | null; customerId: string | null }): Promise<string | null> {
  if (ref.accountId) {
    const [user] = await tx.query<{ id: string }>('SELECT id FROM users WHERE id = $1', [ref.accountId]);
    if (user) return user.id;
  }
  if (ref.customerId) {
    const [row] = await tx.query<{ account_id: string }>('SELECT account_id FROM billing_accounts WHERE customer_id = $1 ORDER BY updated_at DESC LIMIT 1', [ref.customerId]);
    if (row) return row.account_id;
  }
  return null;
}

/**
 * Something this server made in the payment provider once and reuses (billing_provider_settings):
 * the stored value for `key`, else `create()`'s, stored. Two servers creating it at once: the
 * first row stored wins (the provider's idempotency key makes both creations the same anyway).
 */
async function remembered(sql: Sql, key: string, create: () => Promise<string>, now: Date): Promise<string> {
  const read = async () => (await sql.query<{ value: string }>('SELECT value FROM billing_provider_settings WHERE key = $1', [key]))[0]?.value;
  const known = await read();
  if (known) return known;
  const created = await create();
  await sql.query('INSERT INTO billing_provider_settings (key, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, created, now.toISOString()]);
  return (await read()) ?? created;
}

/**
 * The NZ GST tax rate checkouts carry: `configured` (STRIPE_TAX_RATE_ID) when set, else the one
 * this server created in Stripe before, else a new one, created once and remembered.
 */
export async function gstTaxRateId(
  sql: Sql,
  provider: Pick<BillingProvider, 'mode' | 'createGstTaxRate'>,
  configured: string | undefined,
  now: Date,
): Promise<string> {
  if (configured) return configured;
  return remembered(sql, `stripe_gst_tax_rate_${provider.mode}`, () => provider.createGstTaxRate(), now);
}

/**
 * The billing portal configuration in which a customer switches between `priceIds` (monthly and
 * annual): created once per set of prices (Stripe lists switchable prices under their product)
 * and remembered.
 */
export async function portalConfigurationId(
  sql: Sql,
  provider: Pick<BillingProvider, 'mode' | 'retrievePrice' | 'createPortalConfiguration'>,
  priceIds: readonly (string | undefined)[],
  now: Date,
): Promise<string> {
  const prices = await Promise.all(priceIds.map((id) => provider.retrievePrice(id)));
  const byProduct = new Map<string, string[]>();
  for (const p of prices) byProduct.set(p.product, [...(byProduct.get(p.product) ?? []), p.priceId]);
  const products = [...byProduct].map(([product, ids]) => ({ product, prices: ids }));
  return remembered(sql, `stripe_portal_configuration_${provider.mode}_${prices.map((p) => p.priceId).join('_')}`, () => provider.createPortalConfiguration(products), now);
}
