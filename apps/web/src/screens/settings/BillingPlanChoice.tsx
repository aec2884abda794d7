// Monthly or Annual, chosen before Subscribe on the Billing & Trial tab. The prices are Stripe's
// (GET /billing/plans), shown excluding GST with '+ GST': GST is added at checkout. Without an
// annual price on the server there is nothing to choose and nothing is shown.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { BillingInterval, BillingPlan } from '@tradie/contracts';
import { formatNzd } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { billingPlansQuery } from './queries.ts';

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
  const plans = useQuery(billingPlansQuery(api));
  const offered = plans.data?.plans ?? [];
  if (offered.length < 2) return null;
  return (
    <RadioGroup
      look="list"
      name={`${id}-interval`}
      legendId={`${id}-legend`}
      legend="How often to pay"
      options={offered.map((plan) => ({ value: plan.interval, label: LABEL[plan.interval], detail: planPriceText(plan) }))}
      value={value}
      onChange={onChange}
      disabled={disabled}
    />
  );
}

/** On an active subscription: where the switch between monthly and annual is (when both are offered). */
export function SwitchPlanNote() {
  const plans = useQuery(billingPlansQuery(api));
  if ((plans.data?.plans.length ?? 0) < 2) return null;
  return <p className="billing-state__fine">To switch between monthly and annual billing, use Manage Subscription.</p>;
}
