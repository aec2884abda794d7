// What an expired trial blocks (docs/decisions/0004-expired-trial.md): creating and sending new
// work needs a trial that is still running or a subscription that grants access. Reading,
// downloading and exporting never do, and neither do the routes that look after what the tradie
// already has. A feature mounts `requireActiveSubscription(deps)` on the routes that make new work,
// after `requireAuth`:
//
//   r.post('/', requireAuth(deps), requireActiveSubscription(deps), async (c) => { ... })
//
// Safe methods (GET, HEAD, OPTIONS) always pass, so `r.use('*', ...)` is also fine. On a server
// with no payment provider set up nobody could subscribe, so nothing is blocked there.
import { BILLING_MESSAGES, SUBSCRIPTION_REQUIRED_CODE } from '@tradie/contracts';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env.ts';
import type { AppDeps } from '../deps.ts';
import { subscriptionStatus } from '../integrations/stripe/index.ts';
import { loadAccountBilling } from './repository.ts';
import { PaymentNeeded } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireActiveSubscription(deps: Pick<AppDeps, 'store' | 'clock' | 'billing'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || !deps.billing?.configured) return next();
    const billing = await loadAccountBilling(deps.store.db, c.get('accountId'));
    if (!billing) return next(); // requireAuth already answered for a missing account
    const status = subscriptionStatus({ trialStartedAt: billing.trialStartedAt, subscription: billing.state.subscription, now: deps.clock.now() });
    if (status.subscription_active || status.is_trial_active) return next();
    const hadSubscription = billing.state.subscription !== null;
    throw new PaymentNeeded(hadSubscription ? BILLING_MESSAGES.subscriptionEnded : BILLING_MESSAGES.trialEnded, { code: SUBSCRIPTION_REQUIRED_CODE });
  };
}
