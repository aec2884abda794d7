// The price book: the things a tradie buys and sells again, each with what it costs the business
// (excl. GST, to 4 decimal places, as a supplier's price list gives it), an optional sell price that
// overrides the worked-out one, the supplier and the supplier's code, and the GST rate it is sold at.
//
// Picking an item fills a calculator line through ONE function, `lineFromPriceBookItem`: the
// description is the item's name, the unit price is the sell override or the cost priced by
// 'Price from cost' itself (`priceFromCost`: the line's category's markup on cost or margin on
// price from Settings, a labour item at the charge-out rate), so a picked line and a line typed
// with the same cost and category then priced from cost come out at the same price to the cent.
// Exact decimal throughout.
import { Decimal } from '../money/decimal.ts';
import { markedUpUnitPrice } from '../money/rounding.ts';
import { type MarginBasis, chargeFactor } from '../margin/margin.ts';
import { BUILT_IN_CATEGORIES, CATEGORY_ID_PATTERN, type LabourRates, type PricingSettings } from '../profit/categories.ts';
import { priceFromCost } from '../profit/pricing.ts';
import { LINE_LIMITS, canonicalDecimal, parseDecimalInput, type Line } from '../documents/lineValues.ts';
import type { NZ_GST_RATES } from '../documents/lines.ts';

export const PRICE_BOOK_LIMITS = {
  name: 200,
  description: 1000,
  unit: 20,
  category: 40,
  supplier: 100,
  supplierCode: 60,
  /** Items per account. */
  perAccount: 50_000,
  /** Cost and sell, in dollars. */
  maxPrice: LINE_LIMITS.maxUnitPrice,
  maxDecimals: LINE_LIMITS.maxDecimals,
} as const;

/** The categories a new account starts with (the tradie can use others). */
export const PRICE_BOOK_CATEGORIES = ['materials', 'labour', 'subcontractor', 'equipment', 'other'] as const;
export const DEFAULT_PRICE_BOOK_CATEGORY = 'materials';

/** An item as the domain works with it: money as canonical decimal strings, dollars excl. GST. */
export interface PriceBookItem {
  id: string;
  name: string;
  description: string;
  unit: string;
  category: string;
  /** What it costs the business, excl. GST. */
  cost: string;
  /** The price to charge, excl. GST, when set by hand; null: worked out from the cost. */
  sell: string | null;
  supplier: string;
  supplier_code: string;
  /** '0.15' or '0'. */
  gst_rate: (typeof NZ_GST_RATES)[number];
}

/** How a cost becomes a price: the business's basis and the percentage in use. */
export interface PricingRule {
  basis: MarginBasis;
  percent: number;
}

/**
 * A money amount typed or imported: a plain decimal ≥ 0 with at most 4 places and at most
 * 100,000,000; '$', spaces and thousands commas are allowed around it. The canonical string, or the
 * reason it is refused.
 */
export function parseMoneyText(input: string, label: string): { ok: true; value: string } | { ok: false; reason: string } {
  const text = input.trim().replace(/^\$\s*/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  if (text === '') return { ok: false, reason: `${label} is empty` };
  const d = parseDecimalInput(text);
  if (!d) return { ok: false, reason: `${label} is not a number: "${clip(input)}"` };
  if (d.isNegative() && !d.isZero()) return { ok: false, reason: `${label} cannot be negative` };
  if (d.decimalPlaces() > PRICE_BOOK_LIMITS.maxDecimals) return { ok: false, reason: `${label} can have at most ${PRICE_BOOK_LIMITS.maxDecimals} decimal places` };
  if (d.greaterThan(PRICE_BOOK_LIMITS.maxPrice)) return { ok: false, reason: `${label} is too large` };
  return { ok: true, value: canonicalDecimal(d.abs()) };
}

/** At most 40 characters of a hostile value, for a message. */
export const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** The unit price worked out from a cost: cost × the charge factor, to 4 places, as 'Apply margin' prices a line of 1. */
export const unitPriceFromCost = (cost: string, rule: PricingRule): string => markedUpUnitPrice('1', cost, chargeFactor(rule.percent, rule.basis)).unitPrice;

/** What the item sells for, excl. GST: its sell override, or its cost priced by the rule. */
export const itemSellPrice = (item: Pick<PriceBookItem, 'cost' | 'sell'>, rule: PricingRule): string => item.sell ?? unitPriceFromCost(item.cost, rule);

/** A calculator line from a price book item, and where it came from. */
export interface PriceBookLine extends Line {
  /** The item the line was priced from (a quote keeps it to say when the price book moved since). */
  price_book_item_id: string;
  /** The item's cost when the line was priced, excl. GST. */
  cost: string;
  /** The line's cost category: the item's, where it names one (e.g. 'Labour' → labour), else materials. */
  category: string;
}

/**
 * A line's cost category for an item's category as typed or imported ('Materials', 'sub contractor',
 * 'equipment'): the id it names when it is one, otherwise materials — what a merchant's price list holds.
 */
export function lineCategoryOf(itemCategory: string): string {
  const id = itemCategory.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (id === 'sub-contractor' || id === 'subcontractors') return 'subcontractor';
  if ((BUILT_IN_CATEGORIES as readonly string[]).includes(id)) return id;
  return CATEGORY_ID_PATTERN.test(id) && BUILT_IN_CATEGORIES.some((b) => id === `${b}s`) ? id.slice(0, -1) : 'materials';
}

/** How 'Price from cost' prices: the business's basis, each category's percentage, and the labour rates when set. */
export type LinePricing = Pick<PricingSettings, 'basis' | 'categories'> & { labour?: LabourRates };

/**
 * The one way a price book item becomes a line: quantity 1, the item's name as the description,
 * excl. GST the item's sell override or else its cost priced by `priceFromCost` at the line's
 * category's percentage (exactly what 'Price from cost' gives that line), and the item's GST rate.
 */
export function lineFromPriceBookItem(item: PriceBookItem, pricing: LinePricing): PriceBookLine {
  const line: PriceBookLine = {
    description: item.name,
    qty: '1',
    unit_price: item.sell ?? '0',
    tax_included: false,
    tax_rate: item.gst_rate,
    price_book_item_id: item.id,
    cost: item.cost,
    category: lineCategoryOf(item.category),
  };
  return item.sell === null ? priceFromCost([line], pricing).lines[0]! : line;
}

/**
 * The words an item is found by as the tradie types: each run of letters and digits of its name and
 * code, lower case, accents taken off. The query's words are split the same way; an item matches when
 * every query word starts one of its words.
 */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * What the book is sorted by: the name lower-cased with accents off ('Ōtaki tap' sits with the o's),
 * compared byte by byte (the C collation), so PGlite and PostgreSQL give the same order.
 */
export const sortName = (name: string): string => name.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** The words an item is indexed by (at most 24, each at most 40 characters), without repeats. */
export function itemSearchWords(item: Pick<PriceBookItem, 'name' | 'supplier_code'>): string[] {
  const words = [...searchWords(item.name), ...searchWords(item.supplier_code)];
  return [...new Set(words.map((w) => w.slice(0, 40)))].slice(0, 24);
}

/** A query's words, longest first (the longest narrows the search most), at most 6. */
export const queryWords = (query: string): string[] => [...new Set(searchWords(query).map((w) => w.slice(0, 40)))].sort((a, b) => b.length - a.length).slice(0, 6);

/** The GST-exclusive amount of a GST-inclusive price at 15 %, to 4 places (half up). */
export const excludeGst = (price: string, rate: string = '0.15'): string =>
  canonicalDecimal(new Decimal(price).div(new Decimal(1).plus(rate)).toDecimalPlaces(PRICE_BOOK_LIMITS.maxDecimals, Decimal.ROUND_HALF_UP));
