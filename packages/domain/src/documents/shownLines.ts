// How a document's lines are shown, on every surface (the tradie's screen, the client's page, the
// PDF, a credit note): in the same basis as the subtotal under them, GST-exclusive, so the amounts
// shown add up to the subtotal shown, to the cent (docs/decisions/0022-lines-add-up-to-the-subtotal.md).
//
// A line priced GST-exclusive (or with no GST) shows its price and amount as stored. A line priced
// GST-inclusive (a stage invoice's share of a quote line, a price typed with GST in) shows its
// amount without GST: per-line rounding takes off the line's own rounded GST; rounding on the total
// spreads the one rounded figure over the inclusive lines by the largest remainder, as the GST is
// spread for Xero. Its unit price is then the amount ÷ quantity when that is a price of at most four
// decimal places (always, for a quantity of 1), so quantity × price is the amount shown; when it is
// not, the price is shown as charged and marked as including GST. Nothing is rounded for show.
import type { DocumentTotals } from '../gst/gst.ts';
import { formatNzd, formatNzdPrice } from '../money/money.ts';
import { type Rational, rational } from '../money/rational.ts';
import { parseExactDecimal } from '../money/rounding.ts';
import { LINE_LIMITS, type Line } from './lineValues.ts';

export interface ShownLine {
  /** The line's amount excluding GST, in whole cents: the lines' amounts add up to the subtotal. */
  amountCents: bigint;
  /** The unit price shown beside it, decimal text ("543.75"). */
  unitPrice: string;
  /** The unit price shown includes GST (its price without GST is not a 4-decimal price). */
  unitPriceInclGst: boolean;
}

const floorOf = (r: Rational): bigint => {
  const q = r.n / r.d;
  return r.n < 0n && q * r.d !== r.n ? q - 1n : q;
};

/**
 * `exact` in whole cents adding up to `target`: each rounded down, then the cents missing go one
 * each to the largest fractions left (ties to the earlier line), round and round if more are
 * missing than there are lines; cents too many come off the smallest fractions first.
 */
function spread(exact: readonly Rational[], target: bigint): bigint[] {
  const out = exact.map(floorOf);
  const rest = exact.map((x, i) => ({ i, n: x.n - out[i]! * x.d, d: x.d }));
  let left = target - out.reduce((a, b) => a + b, 0n);
  if (out.length === 0 || left === 0n) return out;
  const byFraction = [...rest].sort((a, b) => {
    const diff = b.n * a.d - a.n * b.d;
    return diff > 0n ? 1 : diff < 0n ? -1 : a.i - b.i;
  });
  const order = left > 0n ? byFraction : byFraction.reverse();
  const step = left > 0n ? 1n : -1n;
  for (let k = 0; left !== 0n; k = (k + 1) % order.length) {
    const i = order[k]!.i;
    out[i] = out[i]! + step;
    left -= step;
  }
  return out;
}

const PRICE_SCALE = 10n ** BigInt(LINE_LIMITS.maxDecimals);

/** `cents` ÷ `qty` as a price of at most four decimal places, or null when it is not one. */
function exactPrice(cents: bigint, qty: string): string | null {
  const q = parseExactDecimal(qty);
  if (!q || q.m <= 0n) return null;
  // price = cents / 100 / (q.m / 10^scale) dollars; in ten-thousandths of a dollar:
  const num = cents * 10n ** BigInt(q.scale) * (PRICE_SCALE / 100n);
  if (num % q.m !== 0n) return null;
  const k = num / q.m;
  const negative = k < 0n;
  const abs = negative ? -k : k;
  const frac = (abs % PRICE_SCALE).toString().padStart(LINE_LIMITS.maxDecimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / PRICE_SCALE}${frac === '' ? '' : `.${frac}`}`;
}

/**
 * Each line as shown under a subtotal of `subtotalCents` (the document's own by default; a credit
 * note passes the subtotal it carries, which may differ by a cent from its lines' own when it closes
 * an invoice). `totals` are documentTotals of the same lines.
 */
export function shownLines(lines: readonly Line[], totals: DocumentTotals, subtotalCents: bigint = totals.subtotalCents): ShownLine[] {
  const exact = totals.lines.map((l): Rational => {
    if (!l.taxIncluded || l.taxRate.isZero()) return rational(l.amountCents);
    if (totals.rounding === 'line') return rational(l.amountCents - l.taxCents);
    return rational(l.amountCents * l.exactTax.d - l.exactTax.n, l.exactTax.d);
  });
  const amounts = spread(exact, subtotalCents);
  return lines.map((line, i) => {
    const lt = totals.lines[i]!;
    const amountCents = amounts[i]!;
    if (!lt.taxIncluded || lt.taxRate.isZero()) return { amountCents, unitPrice: line.unit_price, unitPriceInclGst: false };
    const price = exactPrice(amountCents, line.qty);
    return price === null ? { amountCents, unitPrice: line.unit_price, unitPriceInclGst: true } : { amountCents, unitPrice: price, unitPriceInclGst: false };
  });
}

/** The line's price and amount as text, the same on the screens and the PDF: '$543.75' and '$543.75'; '$10.00 incl. GST' for a price shown as charged. */
export const shownLineText = (s: ShownLine): { unitPrice: string; amount: string } => ({
  unitPrice: `${formatNzdPrice(s.unitPrice)}${s.unitPriceInclGst ? ' incl. GST' : ''}`,
  amount: formatNzd(s.amountCents),
});
