// /api/v1/payments: clients paying invoices by card through the business's own Stripe account
// (Stripe Connect, Standard accounts, direct charges; docs/api/payments.md).
//
//   GET  /settings   signed in: whether card payments are available, the connection and the surcharge
//   PUT  /settings   signed in: the surcharge choice (off by default; 0–5 %)
//   POST /connect    signed in: the Stripe account is made once; a fresh onboarding address each time
//   GET  /issues     signed in: card payments to look at in Stripe (paid twice over, disputed), until done
//   POST /issues/{id}/done  signed in: the business has dealt with one
//   POST /webhook    Stripe only, no bearer: Connect events, verified with STRIPE_CONNECT_WEBHOOK_SECRET
import { connectOnboarding, onlinePaymentSettings, onlinePaymentSettingsInput, paymentIssues } from '@tradie/contracts';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { readBody } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { ApiError } from '../http/problem.ts';
import { stripeCall } from '../integrations/stripe/answer.ts';
import { describe } from '../openapi/describe.ts';
import { markPaymentIssueDone, openPaymentIssues } from './issues.ts';
import { cardPaymentsAvailable } from './offer.ts';
import { loadPaymentAccount, lockPaymentAccount, settingsView } from './repository.ts';
import { validSurchargePercent } from './surcharge.ts';
import { applyConnectEvent } from './webhook.ts';

export const PAYMENTS_MESSAGES = {
  notConfigured: 'Card payments are not set up on this server.',
  percentPlaces: 'The surcharge can have at most 2 decimal places',
  webhookRejected: 'Webhook signature verification failed.',
} as const;

/** Runs a Stripe call; its typed errors become {detail} answers, with Stripe's words in the log. */
export const providerCall = <T>(deps: Pick<AppDeps, 'log'>, what: string, fn: () => Promise<T>): Promise<T> => stripeCall(deps, 'payments', what, fn);

export function paymentRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);
  const settingsUrl = (query: string): string => `${deps.config.appUrl}/app/settings?tab=payments&${query}`;

  r.get('/settings', describe({ tag: 'Payments', summary: 'Card payments: available on this server, the Stripe connection and the surcharge', response: { status: 200, schema: onlinePaymentSettings } }), auth, async (c) => {
    const accountId = c.get('accountId');
    let account = await loadPaymentAccount(deps.store.db, accountId);
    // Back from onboarding before Stripe's account.updated arrived: ask Stripe once.
    if (deps.connect && account?.stripeAccountId && !account.chargesEnabled && !account.disconnectedAt) {
      try {
        const a = await deps.connect.retrieveAccount(account.stripeAccountId);
        if (a.chargesEnabled !== account.chargesEnabled || a.detailsSubmitted !== account.detailsSubmitted) {
          await deps.store.db.query('UPDATE payment_accounts SET charges_enabled = $2, details_submitted = $3, updated_at = $4 WHERE account_id = $1', [
            accountId, a.chargesEnabled, a.detailsSubmitted, deps.clock.now().toISOString(),
          ]);
          account = await loadPaymentAccount(deps.store.db, accountId);
        }
      } catch (e) {
        deps.log('info', 'payments: could not refresh the Stripe account', { accountId, message: e instanceof Error ? e.message : String(e) });
      }
    }
    return c.json(settingsView(account, cardPaymentsAvailable(deps)));
  });

  r.put('/settings', describe({ tag: 'Payments', summary: 'Pass the card fee on as a surcharge (disclosed before paying; off by default)', body: onlinePaymentSettingsInput, response: { status: 200, schema: onlinePaymentSettings } }), auth, async (c) => {
    const accountId = c.get('accountId');
    const input = await readBody(c, onlinePaymentSettingsInput);
    const percent = validSurchargePercent(input.surcharge_percent);
    if (!percent) throw new ApiError(422, PAYMENTS_MESSAGES.percentPlaces);
    const saved = await deps.store.db.tx(async (tx) => {
      const now = deps.clock.now();
      const before = await lockPaymentAccount(tx, accountId, now);
      const changed = before.surchargeEnabled !== input.surcharge_enabled || !percent.equals(before.surchargePercent);
      if (changed) {
        await tx.query('UPDATE payment_accounts SET surcharge_enabled = $2, surcharge_percent = $3::numeric, updated_at = $4 WHERE account_id = $1', [
          accountId, input.surcharge_enabled, percent.toFixed(2), now.toISOString(),
        ]);
        await tx.query(
          'INSERT INTO payment_surcharge_changes (account_id, user_id, surcharge_enabled, surcharge_percent, changed_at) VALUES ($1, $2, $3, $4::numeric, $5)',
          [accountId, c.get('userId'), input.surcharge_enabled, percent.toFixed(2), now.toISOString()],
        );
      }
      return loadPaymentAccount(tx, accountId);
    });
    return c.json(settingsView(saved, cardPaymentsAvailable(deps)));
  });

  r.post('/connect', describe({ tag: 'Payments', summary: "Connect the business's Stripe account: Stripe's hosted onboarding address", response: { status: 200, schema: connectOnboarding }, errors: [502, 503] }), auth, async (c) => {
    const accountId = c.get('accountId');
    const connect = deps.connect;
    if (!connect) throw new ApiError(503, PAYMENTS_MESSAGES.notConfigured);
    const stripeAccountId = await deps.store.db.tx(async (tx) => {
      const now = deps.clock.now();
      const a = await lockPaymentAccount(tx, accountId, now);
      if (a.stripeAccountId && !a.disconnectedAt) return a.stripeAccountId;
      const [user] = await tx.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [accountId]);
      if (!user) throw new ApiError(401, 'Your session has ended. Please sign in again.');
      // Made once (under the row's lock); after a disconnection, a new account.
      const created = await providerCall(deps, 'create account', () => connect.createAccount({ accountId, email: user.email }));
      await tx.query(
        'UPDATE payment_accounts SET stripe_account_id = $2, charges_enabled = $3, details_submitted = $4, disconnected_at = NULL, updated_at = $5 WHERE account_id = $1',
        [accountId, created.id, created.chargesEnabled, created.detailsSubmitted, now.toISOString()],
      );
      return created.id;
    });
    const link = await providerCall(deps, 'account link', () =>
      connect.createAccountLink({ connectedAccountId: stripeAccountId, refreshUrl: settingsUrl('connect=refresh'), returnUrl: settingsUrl('connect=done') }),
    );
    return c.json({ onboarding_url: link.url });
  });

  r.get('/issues', describe({ tag: 'Payments', summary: 'Card payments to look at in Stripe (paid while the invoice was settled another way, or disputed), newest first, until marked done', response: { status: 200, schema: paymentIssues } }), auth, async (c) =>
    c.json({ items: await openPaymentIssues(deps.store, c.get('accountId')) }),
  );

  r.post('/issues/:id/done', describe({ tag: 'Payments', summary: 'The business has dealt with a payment issue: it leaves the home screen', response: { status: 204, description: 'Marked done' }, errors: [404] }), auth, async (c) => {
    await markPaymentIssueDone(deps.store.db, c.get('accountId'), c.req.param('id'), deps.clock.now());
    return c.body(null, 204);
  });

  r.post('/webhook', describe({ tag: 'Payments', summary: 'Stripe Connect webhooks (verified by Stripe-Signature; each event applied once)', auth: false, bodyNote: 'the raw Stripe event JSON', response: { status: 200, schema: z.object({}).passthrough() }, errors: [400, 503] }), async (c) => {
    const connect = deps.connect;
    if (!connect) throw new ApiError(503, PAYMENTS_MESSAGES.notConfigured);
    // The signature covers the exact bytes: read them before anything parses the body.
    const raw = await c.req.text();
    const verified = connect.verifyWebhook(raw, c.req.header('stripe-signature'));
    if (!verified.ok) {
      deps.log('info', 'payments: webhook rejected', { reason: verified.error.reason, message: verified.error.message });
      throw new ApiError(400, PAYMENTS_MESSAGES.webhookRejected);
    }
    const result = await applyConnectEvent(deps, verified.event);
    return c.json({ received: true, outcome: result.outcome });
  });

  return r;
}
