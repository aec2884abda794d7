// The calculator's profit margin panel (spec §2 Calculator, §9 Profit margin).
import { Decimal, type DecimalValue } from '../money/decimal.ts';
import { roundMarkedUpPrice, roundProfit } from '../money/rounding.ts';

export const DEFAULT_MARGIN_PERCENT = 25;
export const MIN_MARGIN_PERCENT = 0;
export const MAX_MARGIN_PERCENT = 100;
export const MARGIN_HINT = 'Typical range: 20-30%';
export const LOW_MARGIN_WARNING = 'Your margin is quite low. Most tradies aim for 20-30% to cover all business costs.';

/** A margin typed into the input: 0–100, whole percent; empty or invalid input becomes 0. */
export function parseMarginInput(input: unknown): number {
  const n = typeof input === 'number' ? input : Number(String(input ?? '').trim() || 'NaN');
  if (!Number.isFinite(n)) return 0;
  return Math.min(MAX_MARGIN_PERCENT, Math.max(MIN_MARGIN_PERCENT, Math.round(n)));
}

/** Above 0 and below 15. */
export const isLowMargin = (marginPercent: number): boolean => marginPercent > 0 && marginPercent < 15;

export interface MarginFigures {
  /** Your Costs: the subtotal (GST-exclusive). */
  costsCents: bigint;
  /** Profit = subtotal × margin %. */
  profitCents: bigint;
  /** Charge Client = cost + profit. */
  chargeClientCents: bigint;
  lowMargin: boolean;
}

export function marginFigures(subtotalCents: bigint, marginPercent: number): MarginFigures {
  const profitCents = roundProfit(subtotalCents, marginPercent);
  return { costsCents: subtotalCents, profitCents, chargeClientCents: subtotalCents + profitCents, lowMargin: isLowMargin(marginPercent) };
}

/**
 * 'Apply margin': every line's unit_price × (1 + m/100), rounded to the cent. The client then
 * sees only final prices, never a markup.
 */
export function applyMargin<L extends { unit_price: DecimalValue }>(lines: readonly L[], marginPercent: number): (Omit<L, 'unit_price'> & { unit_price: string })[] {
  return lines.map((l) => ({ ...l, unit_price: roundMarkedUpPrice(l.unit_price, marginPercent).toFixed(2) }));
}

export const appliedMarginNotice = (marginPercent: number): string =>
  `Applied ${marginPercent}% margin to all line items! The client will see the final prices without any "profit" or "markup" labels.`;

export const toDecimal = (v: DecimalValue): Decimal => new Decimal(v);
