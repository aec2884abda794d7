// The business's pricing (Settings → Pricing): each category's markup or margin and the labour
// rates. Read by the Settings tab and by the calculator, whose 'Price from cost' prices by it. Its
// key sits under the business settings' own, so a change of basis there refreshes it too.
import { queryOptions } from '@tanstack/react-query';
import type { PricingSettingsInput, PricingSettingsRecord } from '@tradie/contracts';
import type { PricingSettings } from '@tradie/domain';
import type { ApiClient } from '../../api/client.ts';
import { businessSettingsKey } from './queries.ts';

export const pricingKey = [...businessSettingsKey, 'pricing'] as const;

/** GET /business-settings/pricing. */
export const pricingQuery = (api: Pick<ApiClient, 'get'>) =>
  queryOptions({
    queryKey: pricingKey,
    queryFn: ({ signal }) => api.get<PricingSettingsRecord>('/business-settings/pricing', { signal }),
  });

/** PUT /business-settings/pricing → the saved pricing. */
export const savePricing = (api: Pick<ApiClient, 'put'>, body: PricingSettingsInput) => api.put<PricingSettingsRecord>('/business-settings/pricing', body);

/** The record as the domain's pricing functions take it. */
export const pricingOf = (r: PricingSettingsRecord): PricingSettings => ({
  basis: r.basis,
  categories: r.categories.map((c) => ({ id: c.id, name: c.name, percent: c.percent })),
  labour: { chargeOutRate: r.labour_charge_out_rate, costRate: r.labour_cost_rate },
});
