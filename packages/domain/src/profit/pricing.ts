// 'Price from cost': each line with a cost gets the sell price its markup on cost or margin on
// price gives (its own percentage, else its category's), by the same per-line arithmetic as
// decision 0006 (the line's amount lands on the cent nearest cost × factor, prices to 4 decimals).
// It reads only the cost, never the sell price, and writes only the sell price, never the cost: so
// applying it twice changes nothing, and a line typed with only a sell price keeps it and keeps
// 'cost not recorded'. Markup and margin convert exactly (rationals): m ↦ m / (1 + m), g ↦ g / (1 − g).
import { DomainError } from '../errors.ts';
import type { Line, StoredLine } from '../documents/lineValues.ts';
import { GST_RATE } from '../gst/gst.ts';
import { MAX_MARGIN_PERCENT, type MarginBasis } from '../margin/margin.ts';
import { type Rational, rational } from '../money/rational.ts';
import { markedUpUnitPrice, parseExactDecimal } from '../money/rounding.ts';
import { type CostCategory, DEFAULT_CATEGORY, LABOUR_CATEGORY, type LabourRates, type PricingSettings } from './categories.ts';

/** A percentage's text ("32.5") as an exact fraction of one (13/40). */
export function percentFraction(percent: string): Rational {
  const p = parseExactDecimal(percent.trim());
  if (!p || p.m < 0n) throw new DomainError('VALIDATION', `'${percent}' is not a percentage`);
  return rational(p.m, 100n * 10n ** BigInt(p.scale));
}

/** A markup on cost as the margin on price it gives: m / (1 + m). */
export const marginFromMarkup = (m: Rational): Rational => rational(m.n, m.d + m.n);

/** A margin on price as the markup on cost it needs: g / (1 − g). Undefined for a margin of 100 % or more. */
export function markupFromMargin(g: Rational): Rational {
  if (g.n >= g.d) throw new RangeError('a margin of 100% of the price or more has no markup');
  return rational(g.n, g.d - g.n);
}

/** What cost is multiplied by for sell: 1 + m on the markup basis, 1 / (1 − g) on the margin basis. */
export function sellFactor(percent: string, basis: MarginBasis): Rational {
  const f = percentFraction(percent);
  if (basis === 'margin' && f.n * 100n > f.d * BigInt(MAX_MARGIN_PERCENT.margin)) {
    throw new DomainError('VALIDATION', `A margin on price can be at most ${MAX_MARGIN_PERCENT.margin}%`);
  }
  return basis === 'markup' ? rational(f.d + f.n, f.d) : rational(f.d, f.d - f.n);
}

/** The percentage a line is priced at: its own, else its category's, else 0. */
export function linePercent(line: Pick<Line, 'category' | 'markup'>, categories: readonly Pick<CostCategory, 'id' | 'percent'>[]): string {
  if (line.markup !== undefined && line.markup !== null) return line.markup;
  const id = line.category ?? DEFAULT_CATEGORY;
  return categories.find((c) => c.id === id)?.percent ?? '0';
}

export interface PricedFromCost<L> {
  lines: L[];
  /** Positions of lines priced from their cost. */
  priced: number[];
  /** Positions of lines left as typed: no cost recorded. */
  uncosted: number[];
  /** Positions of priced lines whose quantity is too large for a 4-decimal price to land on the exact cent (decision 0006). */
  inexact: number[];
}

/**
 * Every line with a cost priced from it: its sell unit price (excl. GST) from cost × factor. Lines
 * without a cost are left exactly as they are. Only `unit_price` (and `tax_included`, as the price
 * it writes is without GST) changes; the cost never does. With the business's labour rates, a
 * labour line with a cost and no percentage of its own is charged out at the charge-out rate per
 * hour (its quantity is the hours), as `labourLine` prices it.
 */
export function priceFromCost<L extends Line>(lines: readonly L[], pricing: Pick<PricingSettings, 'basis' | 'categories'> & { labour?: LabourRates }): PricedFromCost<L> {
  const out: PricedFromCost<L> = { lines: [], priced: [], uncosted: [], inexact: [] };
  lines.forEach((l, i) => {
    if (l.cost === undefined || l.cost === null) {
      out.lines.push(l);
      out.uncosted.push(i);
      return;
    }
    const chargeOut = pricing.labour?.chargeOutRate ?? null;
    if (chargeOut !== null && (l.category ?? DEFAULT_CATEGORY) === LABOUR_CATEGORY && (l.markup === undefined || l.markup === null)) {
      out.lines.push({ ...l, unit_price: chargeOut, tax_included: false });
      out.priced.push(i);
      return;
    }
    const p = markedUpUnitPrice(l.qty, l.cost, sellFactor(linePercent(l, pricing.categories), pricing.basis));
    out.lines.push({ ...l, unit_price: p.unitPrice, tax_included: false });
    out.priced.push(i);
    if (!p.exact) out.inexact.push(i);
  });
  return out;
}

/**
 * A labour line: `hours` at the business's charge-out rate, costing its cost rate per hour. With no
 * charge-out rate set, the sell price comes from the cost rate and the labour category's percentage.
 */
export function labourLine(hours: string, rates: LabourRates, pricing: Pick<PricingSettings, 'basis' | 'categories'>, description = 'Labour'): StoredLine {
  if (rates.chargeOutRate === null && rates.costRate === null) throw new DomainError('VALIDATION', 'Set your labour rates in Settings first');
  const line: StoredLine = {
    description,
    qty: hours,
    unit_price: rates.chargeOutRate ?? '0',
    tax_included: false,
    tax_rate: GST_RATE,
    cost: rates.costRate,
    category: LABOUR_CATEGORY,
    markup: null,
  };
  return rates.chargeOutRate === null ? priceFromCost([line], pricing).lines[0]! : line;
}
