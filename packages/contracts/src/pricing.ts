// /api/v1/business-settings/pricing — how 'Price from cost' prices a line: each category's markup on
// cost or margin on price (on the business's basis, `margin_basis` of the business settings), the
// labour charge-out rate and the cost of an hour. Shared by the API (validation) and the screens.
// Money and percentages travel as decimal strings, never floats.
import { z } from 'zod';
import { CATEGORY_ID_PATTERN, CATEGORY_LIMITS, MARGIN_BASES, parseDecimalInput, parseMoneyText } from '@tradie/domain';

export const PRICING_MESSAGES = {
  categoryName: `A category's name must be 1 to ${CATEGORY_LIMITS.name} characters`,
  percent: (name: string) => `${name}: the percentage must be a number of 0 or more, with at most 2 decimal places`,
  categoryId: "A category's id is lower-case letters, digits and dashes",
  newCategoryName: (name: string) => `'${name}' needs a letter or a digit to be a category name`,
  basisTooHigh: (names: string) =>
    `A margin on price can be at most 95%: lower ${names} in Settings → Pricing first, then switch to margin on price.`,
} as const;

const percent = z.union([z.string(), z.number()], { error: 'A percentage must be a number' });

const rate = (label: string) =>
  z
    .union([z.string(), z.number()], { error: `${label} must be an amount` })
    .nullable()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
      const r = parseMoneyText(String(v), label);
      if (r.ok) return r.value;
      ctx.addIssue({ code: 'custom', message: r.reason });
      return z.NEVER;
    });

/** One category as PUT takes it: a new one has no id (it is made from its name). */
export const costCategoryInput = z
  .object({
    id: z.string({ error: PRICING_MESSAGES.categoryId }).regex(CATEGORY_ID_PATTERN, { error: PRICING_MESSAGES.categoryId }).optional(),
    name: z.string({ error: PRICING_MESSAGES.categoryName }).trim().min(1, { error: PRICING_MESSAGES.categoryName }).max(CATEGORY_LIMITS.name, { error: PRICING_MESSAGES.categoryName }),
    percent,
  })
  .transform((c, ctx) => {
    const d = parseDecimalInput(c.percent);
    if (!d || d.isNegative() || d.decimalPlaces() > 2) {
      ctx.addIssue({ code: 'custom', message: PRICING_MESSAGES.percent(c.name) });
      return z.NEVER;
    }
    return { id: c.id, name: c.name, percent: d.toFixed() };
  });

/**
 * PUT /business-settings/pricing body. `categories`, when sent, is the whole list in order: the
 * five built-in ones must stay (renamed if wished), a category without an id is a new one. A rate
 * left out keeps its saved value; `null` or '' clears it.
 */
export const pricingSettingsInput = z.object({
  categories: z.array(costCategoryInput, { error: 'categories must be a list' }).max(CATEGORY_LIMITS.maxCategories, { error: `You can have at most ${CATEGORY_LIMITS.maxCategories} categories` }).optional(),
  labour_charge_out_rate: rate('The charge-out rate'),
  labour_cost_rate: rate('The cost per hour'),
});
export type PricingSettingsInput = z.input<typeof pricingSettingsInput>;

export const costCategoryRecord = z.object({
  id: z.string(),
  name: z.string(),
  /** Markup on cost or margin on price (the basis), percent as decimal text ("20", "32.5"). */
  percent: z.string(),
  /** One of the five every business has: it can be renamed, not removed. */
  built_in: z.boolean(),
});
export type CostCategoryRecord = z.infer<typeof costCategoryRecord>;

/** GET (and PUT) /business-settings/pricing answer. */
export const pricingSettingsRecord = z.object({
  /** The business's basis (the business settings' `margin_basis`): what every percentage is. */
  basis: z.enum(MARGIN_BASES),
  categories: z.array(costCategoryRecord),
  /** What an hour of labour is charged at, excl. GST, decimal text; null: not set. */
  labour_charge_out_rate: z.string().nullable(),
  /** What an hour costs the business (wages and on-costs), excl. GST; null: not set. */
  labour_cost_rate: z.string().nullable(),
});
export type PricingSettingsRecord = z.infer<typeof pricingSettingsRecord>;
