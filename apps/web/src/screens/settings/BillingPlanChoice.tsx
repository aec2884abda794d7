// Monthly or Annual, chosen before Subscribe on the Billing & Trial tab. The prices are Stripe's
// (GET /billing/plans), shown excluding GST with '+ GST': GST is added at checkout. Without an
// annual price on the server there is nothing to choose and nothing is shown.
import './choiceList.css';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { BillingInterval, BillingPlan, BillingPlansResponse } from '@tradie/contracts';
import { formatNzd } from '@tradie/domain';
import { api } from '../../api/client.ts';

export const billingPlansKey = ['billing', 'plans'] as const;

/** GET /billing/plans: the prices on offer, excluding GST. */
export const billingPlansQuery = () => ({
  queryKey: billingPlansKey,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<BillingPlansResponse>('/billing/plans', { signal }),
  staleTime: 60 * 60 * 1000,
});

const LABEL: Record<BillingInterval, string> = { month: 'Monthly', year: 'Annual' };
const PER: Record<BillingInterval, string> = { month: 'a month', year: 'a year' };

/** '$7.50 a month + GST' (NZD; other currencies by their code). */
export function planPriceText(plan: BillingPlan): string {
  const amount = formatNzd(BigInt(plan.unit_amount));
  const money = plan.currency.toLowerCase() === 'nzd' ? amount : `${plan.currency.toUpperCase()} ${amount.slice(1)}`;
  return `${money} ${PER[plan.interval]} + GST`;
}

export function BillingPlanChoice({ value, onChange, disabled }: { value: BillingInterval; onChange: (interval: BillingInterval) => void; disabled?: boolean }) {
  const id = useId();
  const plans = useQuery(billingPlansQuery());
  const offered = plans.data?.plans ?? [];
  if (offered.length < 2) return null;
  return (
    <fieldset className="choice-group choice-list" role="radiogroup" aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`} className="field__label">
        How often to pay
      </legend>
      <div className="choice-list__options">
        {offered.map((plan) => (
          <label key={plan.interval} className="choice">
            <input type="radio" name={`${id}-interval`} value={plan.interval} checked={value === plan.interval} onChange={() => onChange(plan.interval)} disabled={disabled} />
            <span className="choice-list__text">
              <span>{LABEL[plan.interval]}</span>
              <span className="choice-list__detail">{planPriceText(plan)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** On an active subscription: where the switch between monthly and annual is (when both are offered). */
export function SwitchPlanNote() {
  const plans = useQuery(billingPlansQuery());
  if ((plans.data?.plans.length ?? 0) < 2) return null;
  return <p className="billing-state__fine">To switch between monthly and annual billing, use Manage Subscription.</p>;
}
