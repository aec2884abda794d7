// The calculator's profit panel: Your Costs, Profit, Charge Client, and 'Apply margin'.
//
// Two ways to work out a price from costs, chosen per account:
// - markup on cost (the default, and the product's original arithmetic): Charge = Costs × (1 + m);
// - margin on price: Charge = Costs ÷ (1 − m), so that m of the price is profit.
// 25 % markup is a 20 % margin; a tradie who means a 25 % margin and enters it as markup
// under-prices, so the panel always shows the other figure beside the one entered.
//
// Charge Client is exactly what 'Apply margin' produces: the sum of each line's marked-up amount
// (markedUpUnitPrice), so the figure shown before applying is the subtotal after it, to the cent.
// Profit is Charge − Costs. Nothing here rounds unit prices to the cent (see docs/decisions/0006).
import type { DecimalValue } from '../money/decimal.ts';
import { type Rational, rational } from '../money/rational.ts';
import { markedUpUnitPrice, percentTenths, roundLineAmount } from '../money/rounding.ts';

export type MarginBasis = 'markup' | 'margin';
export const MARGIN_BASES: readonly MarginBasis[] = ['markup', 'margin'];
export const DEFAULT_MARGIN_BASIS: MarginBasis = 'markup';
export const MARGIN_BASIS_LABELS: Record<MarginBasis, string> = { markup: 'Markup on cost', margin: 'Margin on price' };

export const DEFAULT_MARGIN_PERCENT = 25;
export const MIN_MARGIN_PERCENT = 0;
/** Markup can be 100 % (double the cost). A margin of 100 % of the price would need an infinite price. */
export const MAX_MARGIN_PERCENT: Record<MarginBasis, number> = { markup: 100, margin: 95 };
export const MARGIN_HINT = 'Typical range: 20-30%';

/**
 * What the panel calls its number in each way of working: a markup is on cost, a margin is on the
 * price, and every label, notice and warning names the one the tradie chose (never 'margin' for a
 * markup). `short` is the chip beside the panel's title ('25% markup').
 */
export const MARGIN_WORDS: Record<MarginBasis, { field: string; short: string; apply: string; lowWarning: string }> = {
  markup: {
    field: 'Markup on cost %',
    short: 'markup',
    apply: 'Apply markup',
    lowWarning: 'Your markup is quite low. Most tradies aim for 20-30% to cover all business costs.',
  },
  margin: {
    field: 'Margin on price %',
    short: 'margin',
    apply: 'Apply margin',
    lowWarning: 'Your margin is quite low. Most tradies aim for 20-30% to cover all business costs.',
  },
};
/** The margin panel's low-number warning on the margin basis (kept for callers that have no basis). */
export const LOW_MARGIN_WARNING = MARGIN_WORDS.margin.lowWarning;

/** A margin typed into the input: whole percent within the basis's range; empty or invalid input becomes 0. */
export function parseMarginInput(input: unknown, basis: MarginBasis = DEFAULT_MARGIN_BASIS): number {
  const n = typeof input === 'number' ? input : Number(String(input ?? '').trim() || 'NaN');
  if (!Number.isFinite(n)) return 0;
  return Math.min(MAX_MARGIN_PERCENT[basis], Math.max(MIN_MARGIN_PERCENT, Math.round(n)));
}

/** Above 0 and below 15. */
export const isLowMargin = (marginPercent: number): boolean => marginPercent > 0 && marginPercent < 15;

/** What the costs are multiplied by: (100 + m)/100 for markup, 100/(100 − m) for margin. */
export function chargeFactor(marginPercent: number, basis: MarginBasis = DEFAULT_MARGIN_BASIS): Rational {
  const m = BigInt(parseMarginInput(marginPercent, basis));
  return basis === 'markup' ? rational(100n + m, 100n) : rational(100n, 100n - m);
}

/** The lines the margin works on: quantity and unit price as exact decimal text. */
export interface PricedLine {
  qty: string;
  unit_price: string;
}

export interface MarginFigures {
  /** Your Costs: the lines' amounts as they stand (the subtotal, GST-exclusive). */
  costsCents: bigint;
  /** Charge − Costs. */
  profitCents: bigint;
  /** Charge Client: the subtotal the lines will have after 'Apply margin'. */
  chargeClientCents: bigint;
  lowMargin: boolean;
  /** The other way of saying it, in tenths of a percent: the margin on the price (markup basis) or the markup on cost (margin basis). */
  otherPercentTenths: bigint | null;
  /** Positions of lines whose quantity is too large for any 4-decimal price to land on the exact cent. */
  inexactLines: number[];
}

/** Each line's new unit price and amount under 'Apply margin'. */
export function marginedLines(lines: readonly PricedLine[], marginPercent: number, basis: MarginBasis = DEFAULT_MARGIN_BASIS) {
  const factor = chargeFactor(marginPercent, basis);
  return lines.map((l) => markedUpUnitPrice(l.qty, l.unit_price, factor));
}

export function marginFigures(lines: readonly PricedLine[], marginPercent: number, basis: MarginBasis = DEFAULT_MARGIN_BASIS): MarginFigures {
  const costsCents = lines.reduce((a, l) => a + roundLineAmount(l.qty, l.unit_price), 0n);
  const applied = marginedLines(lines, marginPercent, basis);
  const chargeClientCents = applied.reduce((a, l) => a + l.amountCents, 0n);
  const profitCents = chargeClientCents - costsCents;
  const otherPercentTenths = chargeClientCents === 0n || costsCents === 0n ? null : percentTenths(profitCents, basis === 'markup' ? chargeClientCents : costsCents);
  return {
    costsCents,
    profitCents,
    chargeClientCents,
    lowMargin: isLowMargin(marginPercent),
    otherPercentTenths,
    inexactLines: applied.flatMap((l, i) => (l.exact ? [] : [i])),
  };
}

/**
 * 'Apply margin': every line's unit price marked up so the line's amount is its cost × the factor,
 * to the nearest cent (prices to 4 decimal places). The client then sees only final prices, never a markup.
 */
export function applyMargin<L extends { qty: DecimalValue; unit_price: DecimalValue }>(
  lines: readonly L[],
  marginPercent: number,
  basis: MarginBasis = DEFAULT_MARGIN_BASIS,
): (Omit<L, 'unit_price'> & { unit_price: string })[] {
  const applied = marginedLines(lines.map((l) => ({ qty: String(l.qty), unit_price: String(l.unit_price) })), marginPercent, basis);
  return lines.map((l, i) => ({ ...l, unit_price: applied[i]!.unitPrice }));
}

/** '20.0' from 200 tenths. */
export const formatTenths = (tenths: bigint): string => {
  const abs = tenths < 0n ? -tenths : tenths;
  return `${tenths < 0n ? '-' : ''}${abs / 10n}.${abs % 10n}`;
};

/** The line under the figures that says what the entered percentage means the other way. */
export function otherPercentText(figures: Pick<MarginFigures, 'otherPercentTenths'>, basis: MarginBasis): string | null {
  if (figures.otherPercentTenths === null) return null;
  return basis === 'markup' ? `That is a ${formatTenths(figures.otherPercentTenths)}% margin on the price` : `That is a ${formatTenths(figures.otherPercentTenths)}% markup on cost`;
}

/** The notice after applying, naming the number as the panel does: 'Applied 25% markup on cost to all line items!…'. */
export const appliedMarginNotice = (marginPercent: number, basis: MarginBasis = DEFAULT_MARGIN_BASIS): string =>
  `Applied ${marginPercent}% ${MARGIN_BASIS_LABELS[basis].toLowerCase()} to all line items! The client will see the final prices without any "profit" or "markup" labels.`;
