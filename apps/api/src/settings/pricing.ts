// How 'Price from cost' prices, one row per account (pricing_settings; no row: the defaults): the
// business's categories with their percentages, and the labour rates. The basis the percentages
// are on is the business settings' margin_basis. Every feature that prices from cost reads it here.
import { type CostCategory, type PricingSettings, DEFAULT_PRICING, withBuiltInCategories } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { loadBusinessSettings } from './repository.ts';

interface PricingRow {
  categories: CostCategory[];
  labour_charge_out_rate: string | null;
  labour_cost_rate: string | null;
}

export async function loadPricing(sql: Sql, accountId: string): Promise<PricingSettings> {
  const [row] = await sql.query<PricingRow>('SELECT categories, labour_charge_out_rate, labour_cost_rate FROM pricing_settings WHERE account_id = $1', [accountId]);
  const { margin_basis: basis } = await loadBusinessSettings(sql, accountId);
  if (!row) return { ...DEFAULT_PRICING, basis };
  return {
    basis,
    categories: withBuiltInCategories(row.categories.map((c) => ({ id: c.id, name: c.name, percent: c.percent }))),
    labour: { chargeOutRate: row.labour_charge_out_rate, costRate: row.labour_cost_rate },
  };
}

/** Writes the whole pricing (categories already checked by categoriesProblem). Run it inside a transaction. */
export async function savePricing(tx: Sql, accountId: string, p: Omit<PricingSettings, 'basis'>, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO pricing_settings (account_id, categories, labour_charge_out_rate, labour_cost_rate, updated_at) VALUES ($1, $2::jsonb, $3, $4, $5)
     ON CONFLICT (account_id) DO UPDATE SET categories = EXCLUDED.categories, labour_charge_out_rate = EXCLUDED.labour_charge_out_rate,
       labour_cost_rate = EXCLUDED.labour_cost_rate, updated_at = EXCLUDED.updated_at`,
    [accountId, JSON.stringify(p.categories), p.labour.chargeOutRate, p.labour.costRate, now.toISOString()],
  );
}
