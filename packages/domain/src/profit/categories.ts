// What a line's cost is filed under, and how 'Price from cost' prices each category: the
// business's categories (five built in, which it can rename, and its own), each with its markup on
// cost or margin on price (the business's basis, one setting), and the labour rates. Lines store the
// category's id, so renaming a category renames it on every document without changing one.
import type { MarginBasis } from '../margin/margin.ts';
import { DEFAULT_MARGIN_BASIS, MAX_MARGIN_PERCENT } from '../margin/margin.ts';

export const BUILT_IN_CATEGORIES = ['materials', 'labour', 'subcontractor', 'equipment', 'other'] as const;
export type BuiltInCategory = (typeof BUILT_IN_CATEGORIES)[number];
/** A line typed without a category, and every line written before categories were kept. */
export const DEFAULT_CATEGORY: BuiltInCategory = 'other';
export const LABOUR_CATEGORY: BuiltInCategory = 'labour';
/** A category's id: lower-case letters, digits and dashes ('materials', 'hire-gear'). */
export const CATEGORY_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const CATEGORY_LIMITS = { maxCategories: 20, name: 40 } as const;
/** The highest markup or margin a category or a line can carry, in percent (a margin is capped lower by its basis). */
export const MAX_PERCENT_TEXT = '100';

export interface CostCategory {
  id: string;
  /** What the screens call it ('Materials'; the business can rename it). */
  name: string;
  /** Its markup on cost or margin on price, percent on the business's basis, decimal text ("20", "32.5"). */
  percent: string;
}

export interface LabourRates {
  /** What an hour is charged to the client at, excl. GST; null: not set. */
  chargeOutRate: string | null;
  /** What an hour costs the business (wages and on-costs), excl. GST; null: not set. */
  costRate: string | null;
}

/** The business's pricing: its basis (markup or margin, already a setting), categories and labour rates. */
export interface PricingSettings {
  basis: MarginBasis;
  categories: CostCategory[];
  labour: LabourRates;
}

const BUILT_IN_NAMES: Record<BuiltInCategory, string> = {
  materials: 'Materials',
  labour: 'Labour',
  subcontractor: 'Subcontractor',
  equipment: 'Equipment',
  other: 'Other',
};

export const DEFAULT_CATEGORY_PERCENT = '25';

export const DEFAULT_COST_CATEGORIES: readonly CostCategory[] = BUILT_IN_CATEGORIES.map((id) => ({ id, name: BUILT_IN_NAMES[id], percent: DEFAULT_CATEGORY_PERCENT }));

export const DEFAULT_PRICING: PricingSettings = {
  basis: DEFAULT_MARGIN_BASIS,
  categories: [...DEFAULT_COST_CATEGORIES],
  labour: { chargeOutRate: null, costRate: null },
};

/** A category's name: the business's own, the built-in one, or its id as words for one it no longer has. */
export function categoryName(categories: readonly Pick<CostCategory, 'id' | 'name'>[], id: string): string {
  const own = categories.find((c) => c.id === id);
  if (own) return own.name;
  if ((BUILT_IN_CATEGORIES as readonly string[]).includes(id)) return BUILT_IN_NAMES[id as BuiltInCategory];
  const words = id.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A category id for a new category's name ('Hire gear' → 'hire-gear'); null when the name has no letters or digits. */
export function categoryIdFor(name: string): string | null {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return CATEGORY_ID_PATTERN.test(id) ? id : null;
}

/**
 * What is wrong with a business's categories, in words, or null: every built-in category kept
 * (renaming is fine), ids unique, names 1–40 characters, at most 20, and each percentage one the
 * basis can price at (a margin on price below 100 %).
 */
export function categoriesProblem(categories: readonly CostCategory[], basis: MarginBasis): string | null {
  if (categories.length > CATEGORY_LIMITS.maxCategories) return `You can have at most ${CATEGORY_LIMITS.maxCategories} categories`;
  const seen = new Set<string>();
  for (const c of categories) {
    if (!CATEGORY_ID_PATTERN.test(c.id)) return `'${c.id}' is not a category id (lower-case letters, digits and dashes)`;
    if (seen.has(c.id)) return `The category '${c.name}' is there twice`;
    seen.add(c.id);
    if (c.name.trim() === '' || c.name.length > CATEGORY_LIMITS.name) return `A category's name must be 1 to ${CATEGORY_LIMITS.name} characters`;
    const p = Number(c.percent);
    if (!Number.isFinite(p) || p < 0) return `${c.name}: the percentage must be a number of 0 or more`;
    if (p > MAX_MARGIN_PERCENT[basis]) return `${c.name}: a ${basis === 'markup' ? 'markup on cost' : 'margin on price'} can be at most ${MAX_MARGIN_PERCENT[basis]}%`;
  }
  const missing = BUILT_IN_CATEGORIES.find((id) => !seen.has(id));
  if (missing) return `The category '${BUILT_IN_NAMES[missing]}' can be renamed but not removed`;
  return null;
}

/**
 * The categories to save from a list the business sent: each with an id keeps it, a new one (no
 * id) gets one made from its name, numbered on when taken ('hire-gear-2'). A name with no letter or
 * digit cannot make an id: the answer is then what is wrong, in words. The result still goes
 * through `categoriesProblem`.
 */
export function categoriesFromInput(input: readonly { id?: string | undefined; name: string; percent: string }[]): CostCategory[] | string {
  const taken = new Set(input.flatMap((c) => (c.id === undefined ? [] : [c.id])));
  const out: CostCategory[] = [];
  for (const c of input) {
    if (c.id !== undefined) {
      out.push({ id: c.id, name: c.name, percent: c.percent });
      continue;
    }
    const base = categoryIdFor(c.name);
    if (base === null) return `'${c.name}' needs a letter or a digit to be a category name`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 36)}-${n}`;
    taken.add(id);
    out.push({ id, name: c.name, percent: c.percent });
  }
  return out;
}

/** The saved categories in the screens' order, with any built-in one the business never saved at its default. */
export function withBuiltInCategories(saved: readonly CostCategory[]): CostCategory[] {
  const missing = DEFAULT_COST_CATEGORIES.filter((d) => !saved.some((c) => c.id === d.id));
  return [...saved, ...missing];
}

/** The categories whose percentage is too high for a margin on price (switching the basis to margin would leave them unpriceable). */
export const categoriesOverMargin = (categories: readonly CostCategory[]): CostCategory[] => categories.filter((c) => Number(c.percent) > MAX_MARGIN_PERCENT.margin);
