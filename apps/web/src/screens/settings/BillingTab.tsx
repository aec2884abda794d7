// Billing & Trial: the subscription machine's state (machines/subscription.ts) and 'What You Get'.
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { BILLING_MESSAGES, type BillingInterval, type SubscriptionStatusResponse } from '@tradie/contracts';
import { formatNzDate, nzDateOf } from '@tradie/domain';
import { SUBSCRIPTION_TEXT, type SubscriptionMachine } from '../../machines/subscription.ts';
import { Card } from '../../ui/Card.tsx';
import { BillingPlanChoice, SwitchPlanNote } from './BillingPlanChoice.tsx';
import { LoadingLine } from '../../ui/Status.tsx';
import { CheckList } from '../../ui/CheckList.tsx';

/** What a subscription gives. */
export const WHAT_YOU_GET = [
  'Unlimited invoices and quotes',
  'Unlimited clients',
  'PDF generation and email sending',
  'Invoice templates',
  'Profit calculator',
  'Xero accounting integration',
  'Priority support',
] as const;

export const PLAN_PRICE = 'Full Access is $7.50/month (excl. GST), billed monthly or annually.';

const dateOf = (iso: string | null): string | null => (iso ? formatNzDate(nzDateOf(iso)) : null);

/** When the subscription next changes: its end, the first payment after a trial, or the renewal. */
function PeriodNote({ status }: { status: SubscriptionStatusResponse }) {
  const end = dateOf(status.current_period_end);
  if (!end) return null;
  if (status.cancel_at_period_end) return <p>Your subscription ends on {end}.</p>;
  if (status.subscription_status === 'trialing') return <p>First payment on {end}, when your free trial ends.</p>;
  return <p>Next renewal: {end}.</p>;
}

export function BillingTab({ actor }: { actor: ActorRefFrom<SubscriptionMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const { status, checkoutReturn } = snapshot.context;
  const busy = snapshot.matches('checkout') || snapshot.matches('portal') || snapshot.matches('redirecting');
  // Monthly or annual: chosen here, sent with Subscribe (GST is added at checkout).
  const [interval, setBillingInterval] = useState<BillingInterval>(snapshot.context.interval);
  const subscribe = () => actor.send({ type: 'SUBSCRIBE', interval });
  const view = snapshot.matches({ ready: 'active' })
    ? 'active'
    : snapshot.matches({ ready: 'trialActive' })
      ? 'trialActive'
      : snapshot.matches({ ready: 'trialExpired' })
        ? 'trialExpired'
        : busy && status
          ? status.subscription_active
            ? 'active'
            : status.is_trial_active
              ? 'trialActive'
              : 'trialExpired'
          : null;

  return (
    <>
      <Card titleId="billing-title" title="Subscription" className="billing-card" hiddenTitle aria-busy={busy || snapshot.matches('loading')}>
        {snapshot.matches('loading') && !status && (
          <LoadingLine>{SUBSCRIPTION_TEXT.loading}</LoadingLine>
        )}
        {(snapshot.matches('confirming') || (snapshot.matches('loading') && status && checkoutReturn === 'success')) && (
          <LoadingLine>Payment received. Switching on your subscription...</LoadingLine>
        )}
        {snapshot.matches('unavailable') && (
          <div className="billing-state">
            <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'RETRY' })}>
              Check subscription status again
            </button>
          </div>
        )}

        {view === 'trialActive' && status && (
          <div className="billing-state billing-state--trial">
            <h3 className="billing-state__title">Free Trial Active</h3>
            <p>Your 14-day trial is active. {status.trial_days_left} days remaining.</p>
            <p className="billing-state__fine">{PLAN_PRICE} No card is needed until you subscribe.</p>
            <BillingPlanChoice value={interval} onChange={setBillingInterval} disabled={busy} />
            <button type="button" className="button button--accent billing-state__action" onClick={subscribe} disabled={busy} aria-busy={busy}>
              Subscribe
            </button>
          </div>
        )}

        {view === 'trialExpired' && status && (
          <div className="billing-state billing-state--expired">
            <h3 className="billing-state__title">Trial Expired</h3>
            <p>Your free trial has ended. Subscribe to continue using the product.</p>
            {status.subscription_status !== null && <p>Your last subscription has ended too.</p>}
            <p>
              Your quotes, invoices and clients are kept safe until you subscribe. You can still open, download and export them; creating and sending new
              quotes and invoices needs a subscription.
            </p>
            <p className="billing-state__fine">{PLAN_PRICE}</p>
            <BillingPlanChoice value={interval} onChange={setBillingInterval} disabled={busy} />
            <button type="button" className="button button--accent billing-state__action" onClick={subscribe} disabled={busy} aria-busy={busy}>
              Subscribe Now
            </button>
          </div>
        )}

        {view === 'active' && status && (
          <div className="billing-state billing-state--active">
            <h3 className="billing-state__title">Active Subscription</h3>
            <p>{PLAN_PRICE} Thanks for being with us.</p>
            <PeriodNote status={status} />
            <SwitchPlanNote />
            {status.payment_failed && <p className="callout callout--warning billing-state__warning">Your last payment didn't go through. Update your card in Manage Subscription.</p>}
            <button type="button" className="button button--secondary billing-state__action" onClick={() => actor.send({ type: 'MANAGE' })} disabled={busy} aria-busy={busy}>
              Manage Subscription
            </button>
          </div>
        )}

        {view && status && !status.billing_configured && <p className="callout billing-state__note">{BILLING_MESSAGES.notConfigured}</p>}
        {view && view !== 'active' && checkoutReturn === 'cancelled' && <p className="callout billing-state__note">Checkout was cancelled. Nothing was charged.</p>}
        {view && view !== 'active' && checkoutReturn === 'success' && (
          <p className="callout billing-state__note">Your payment went through. Your subscription will show here once the payment provider confirms it; reload this page in a minute.</p>
        )}
      </Card>

      <Card titleId="billing-get-title" title="What You Get">
        <CheckList items={WHAT_YOU_GET} className="billing-get" />
      </Card>
    </>
  );
}
