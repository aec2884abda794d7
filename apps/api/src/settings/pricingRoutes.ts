// /api/v1/business-settings/pricing: how 'Price from cost' prices (docs/api/settings.md, "Pricing").
//
//   GET  /pricing   the basis, every category with its percentage (the five built in first), the labour rates
//   PUT  /pricing   saves the categories sent (the whole list) and the rates sent; 422 with a `detail`
//                   and nothing saved when a built-in category is missing, a name or percentage is
//                   wrong, or a percentage is more than the basis can price at
import { pricingSettingsInput, pricingSettingsRecord, type PricingSettingsRecord } from '@tradie/contracts';
import { BUILT_IN_CATEGORIES, type PricingSettings, categoriesFromInput, categoriesProblem } from '@tradie/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from '../http/body.ts';
import { ApiError } from '../http/problem.ts';
import { describe } from '../openapi/describe.ts';
import { loadPricing, savePricing } from './pricing.ts';

export const pricingRecordOf = (p: PricingSettings): PricingSettingsRecord => ({
  basis: p.basis,
  categories: p.categories.map((c) => ({ id: c.id, name: c.name, percent: c.percent, built_in: (BUILT_IN_CATEGORIES as readonly string[]).includes(c.id) })),
  labour_charge_out_rate: p.labour.chargeOutRate,
  labour_cost_rate: p.labour.costRate,
});

export function pricingRoutes(deps: AppDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const auth = requireAuth(deps);

  r.get('/pricing', describe({ tag: 'Business settings', summary: "How 'Price from cost' prices: each category's markup or margin and the labour rates", response: { status: 200, schema: pricingSettingsRecord } }), auth, async (c) =>
    c.json(pricingRecordOf(await loadPricing(deps.store.db, c.get('accountId')))),
  );

  r.put(
    '/pricing',
    describe({ tag: 'Business settings', summary: 'Save the categories (the whole list: rename, add, set each percentage) and the labour rates', body: pricingSettingsInput, response: { status: 200, schema: pricingSettingsRecord }, errors: [422] }),
    auth,
    async (c) => {
      const body = await parseBody(c, pricingSettingsInput);
      const accountId = c.get('accountId');
      const saved = await deps.store.db.tx(async (tx) => {
        const before = await loadPricing(tx, accountId);
        let categories = before.categories;
        if (body.categories !== undefined) {
          const made = categoriesFromInput(body.categories);
          if (typeof made === 'string') throw new ApiError(422, made);
          categories = made;
        }
        const problem = categoriesProblem(categories, before.basis);
        if (problem !== null) throw new ApiError(422, problem);
        const labour = {
          chargeOutRate: body.labour_charge_out_rate === undefined ? before.labour.chargeOutRate : body.labour_charge_out_rate,
          costRate: body.labour_cost_rate === undefined ? before.labour.costRate : body.labour_cost_rate,
        };
        await savePricing(tx, accountId, { categories, labour }, deps.clock.now());
        return { basis: before.basis, categories, labour };
      });
      return c.json(pricingRecordOf(saved));
    },
  );

  return r;
}
