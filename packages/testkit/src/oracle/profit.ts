// An independent oracle for cost and profit: written from the rules in
// docs/decisions/0030-cost-and-profit.md with integer cents and exact fractions, importing nothing
// of the product (only the money oracle beside it). Sell is each line's value without GST, the
// cents spread so that the lines add up to the subtotal (largest remainder, ties to the earlier
// line); cost is quantity × unit cost to the nearest cent, half away from zero; a line without a
// cost is counted apart, never as costing nothing.
import { type OracleLine, type OracleRounding, oracleLineValuesExclusive, oracleTotals } from './oracle.ts';

export interface OracleCostedLine extends OracleLine {
  /** Unit cost excl. GST; null: not recorded. */
  cost: string | null;
  category: string;
}

export interface OracleProfit {
  sell: bigint;
  costedSell: bigint;
  cost: bigint;
  grossProfit: bigint;
  costedLines: number;
  uncostedLines: number;
  uncostedSell: bigint;
}

const ZERO: OracleProfit = { sell: 0n, costedSell: 0n, cost: 0n, grossProfit: 0n, costedLines: 0, uncostedLines: 0, uncostedSell: 0n };

/** Decimal text as integer and power of ten. */
function digits(text: string): { n: bigint; scale: bigint } {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`oracle: '${text}' is not a plain decimal ≥ 0`);
  return { n: BigInt(`${m[1]}${m[2] ?? ''}`), scale: 10n ** BigInt((m[2] ?? '').length) };
}

/** qty × cost in cents, to the nearest cent, an exact half up (both ≥ 0). */
export function oracleLineCost(qty: string, cost: string): bigint {
  const q = digits(qty);
  const c = digits(cost);
  const num = q.n * c.n * 100n;
  const den = q.scale * c.scale;
  return (2n * num + den) / (2n * den);
}

/** Each line's sell without GST in cents, adding up to the subtotal. */
export function oracleSell(lines: readonly OracleLine[], rounding: OracleRounding, subtotal = oracleTotals(lines, rounding).subtotal): bigint[] {
  const exact = oracleLineValuesExclusive(lines, rounding);
  const floors = exact.map((x) => {
    const q = x.n / x.d;
    return x.n < 0n && q * x.d !== x.n ? q - 1n : q;
  });
  const out = [...floors];
  let missing = subtotal - floors.reduce((a, b) => a + b, 0n);
  // Fractions left, biggest first; on a tie the earlier line.
  const order = exact
    .map((x, i) => ({ i, rest: { n: x.n - floors[i]! * x.d, d: x.d } }))
    .sort((a, b) => {
      const left = b.rest.n * a.rest.d;
      const right = a.rest.n * b.rest.d;
      return left > right ? 1 : left < right ? -1 : a.i - b.i;
    });
  if (missing < 0n) order.reverse();
  for (let k = 0; missing !== 0n && order.length > 0; k = (k + 1) % order.length) {
    const step = missing > 0n ? 1n : -1n;
    out[order[k]!.i]! += step;
    missing -= step;
  }
  return out;
}

/** A document's profit figures and per category. */
export function oracleProfit(lines: readonly OracleCostedLine[], rounding: OracleRounding): { total: OracleProfit; byCategory: Map<string, OracleProfit> } {
  const sells = oracleSell(lines, rounding);
  const byCategory = new Map<string, OracleProfit>();
  let total = ZERO;
  const plus = (a: OracleProfit, b: OracleProfit): OracleProfit => ({
    sell: a.sell + b.sell,
    costedSell: a.costedSell + b.costedSell,
    cost: a.cost + b.cost,
    grossProfit: a.grossProfit + b.grossProfit,
    costedLines: a.costedLines + b.costedLines,
    uncostedLines: a.uncostedLines + b.uncostedLines,
    uncostedSell: a.uncostedSell + b.uncostedSell,
  });
  lines.forEach((l, i) => {
    const sell = sells[i]!;
    const one: OracleProfit =
      l.cost === null
        ? { ...ZERO, sell, uncostedLines: 1, uncostedSell: sell }
        : { ...ZERO, sell, costedSell: sell, cost: oracleLineCost(l.qty, l.cost), grossProfit: sell - oracleLineCost(l.qty, l.cost), costedLines: 1 };
    total = plus(total, one);
    byCategory.set(l.category, plus(byCategory.get(l.category) ?? ZERO, one));
  });
  return { total, byCategory };
}

/** A percentage to one decimal (tenths), half away from zero: part / whole × 100. */
export function oraclePercentTenths(part: bigint, whole: bigint): bigint | null {
  if (whole === 0n) return null;
  const negative = part < 0n !== whole < 0n && part !== 0n;
  const p = part < 0n ? -part : part;
  const w = whole < 0n ? -whole : whole;
  const t = (2n * p * 1000n + w) / (2n * w);
  return negative ? -t : t;
}
