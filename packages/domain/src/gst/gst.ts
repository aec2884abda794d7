// GST on quotes and invoices: 15% standard rate, per-line tax_rate (0 for
// zero-rated or no GST), GST-inclusive lines through the tax fraction r/(1+r) (3/23 at 15%),
// and the s 19O rounding applied either once on the document total (default) or per line.
import { Decimal, type DecimalValue } from '../money/decimal.ts';
import { type Rational, ZERO_R, add, fromDecimal, rational, sum } from '../money/rational.ts';
import { roundLineAmount, roundTaxS19O } from '../money/rounding.ts';

/** NZ standard rate since 1 October 2010. */
export const GST_RATE = '0.15';
export const GST_RATE_PERCENT = 15;

/** Per line (each line's tax rounded) or on the total (one rounding), fixed for a GST period. */
export type GstRounding = 'total' | 'line';
export const DEFAULT_GST_ROUNDING: GstRounding = 'total';

export interface LineForTotals {
  qty: DecimalValue;
  unit_price: DecimalValue;
  /** The unit price already includes GST. */
  tax_included?: boolean;
  /** 0.15 standard; 0 zero-rated or no GST. */
  tax_rate?: DecimalValue;
}

export interface LineTotals {
  /** qty × unit_price to the cent, as priced (GST-inclusive when tax_included). */
  amountCents: bigint;
  /** The line's exact GST, before any rounding. */
  exactTax: Rational;
  /** This line's GST rounded on its own (what per-line rounding shows). */
  taxCents: bigint;
  taxIncluded: boolean;
  taxRate: Decimal;
}

/** A document's (or a credit's) four sums in whole cents, as a GST return reads them. */
export interface CentsFigures {
  /** Excluding GST. */
  subtotalCents: bigint;
  gstCents: bigint;
  /** Including GST: subtotal + GST. */
  totalCents: bigint;
  /** GST-inclusive value of zero-rated lines (rate 0) — GST return Box 6. */
  zeroRatedCents: bigint;
}

export interface DocumentTotals extends CentsFigures {
  rounding: GstRounding;
  lines: LineTotals[];
}

/** GST-exclusive: C × r. GST-inclusive: C × r/(1+r). Exact. */
export function exactLineTax(amountCents: bigint, taxRate: Decimal, taxIncluded: boolean): Rational {
  if (taxRate.isZero()) return ZERO_R;
  return taxFraction(fromDecimal(taxRate), amountCents, taxIncluded);
}

const taxFraction = (r: Rational, amountCents: bigint, taxIncluded: boolean): Rational =>
  taxIncluded ? rational(amountCents * r.n, r.d + r.n) : rational(amountCents * r.n, r.d);

/** A handful of rates recur on every line ("0.15", "0"): parse each once. */
const rateCache = new Map<string, { rate: Decimal; fraction: Rational }>();
function rateOf(v: DecimalValue): { rate: Decimal; fraction: Rational } {
  const key = typeof v === 'string' ? v : null;
  const hit = key === null ? undefined : rateCache.get(key);
  if (hit) return hit;
  const rate = new Decimal(v);
  const entry = { rate, fraction: rate.isZero() ? ZERO_R : fromDecimal(rate) };
  if (key !== null && rateCache.size < 64) rateCache.set(key, entry);
  return entry;
}

export function lineTotals(line: LineForTotals): LineTotals {
  const amountCents = roundLineAmount(line.qty, line.unit_price);
  const { rate: taxRate, fraction } = rateOf(line.tax_rate ?? GST_RATE);
  const taxIncluded = line.tax_included ?? false;
  const exactTax = taxRate.isZero() ? ZERO_R : taxFraction(fraction, amountCents, taxIncluded);
  return { amountCents, exactTax, taxCents: roundTaxS19O(exactTax), taxIncluded, taxRate };
}

/**
 * Totals of a quote or invoice. One function for the calculator, the API, the PDF, the list,
 * the reports and the CSV, so they can never disagree.
 *
 * Per line: each line's tax is rounded; inclusive lines' excl amount is amount − tax.
 * On the total: the exact taxes are added and rounded once. The total is then what the client
 * pays: inclusive amounts as priced, plus exclusive amounts with their (once-rounded) GST, and
 * the subtotal is total − GST. With only exclusive lines that is subtotal = Σ amounts; with only
 * inclusive lines, total = Σ amounts.
 */
export function documentTotals(lines: readonly LineForTotals[], rounding: GstRounding = DEFAULT_GST_ROUNDING): DocumentTotals {
  const lt = lines.map(lineTotals);
  const zeroRatedCents = lt.filter((l) => l.taxRate.isZero()).reduce((a, l) => a + l.amountCents, 0n);
  if (rounding === 'line') {
    let subtotalCents = 0n;
    let gstCents = 0n;
    for (const l of lt) {
      gstCents += l.taxCents;
      subtotalCents += l.taxIncluded ? l.amountCents - l.taxCents : l.amountCents;
    }
    return { subtotalCents, gstCents, totalCents: subtotalCents + gstCents, zeroRatedCents, rounding, lines: lt };
  }
  const gstCents = roundTaxS19O(sum(lt.map((l) => l.exactTax)));
  let inclusiveCents = 0n;
  let exclusiveCents = 0n;
  let exclusiveTax = ZERO_R;
  for (const l of lt) {
    if (l.taxIncluded) inclusiveCents += l.amountCents;
    else {
      exclusiveCents += l.amountCents;
      exclusiveTax = add(exclusiveTax, l.exactTax);
    }
  }
  const totalCents = inclusiveCents + exclusiveCents + roundTaxS19O(exclusiveTax);
  return { subtotalCents: totalCents - gstCents, gstCents, totalCents, zeroRatedCents, rounding, lines: lt };
}

/**
 * The document's GST spread over its lines, for a system that takes each line's tax as given
 * (Xero): the line taxes add up to exactly `totals.gstCents`, so the other system's total is ours.
 *
 * Per-line rounding: each line's own rounded tax (they add up to the GST by definition).
 * On the total (largest remainder): each line first gets its exact tax rounded down; the cents
 * left over go one each to the lines with the largest fractions of a cent left, ties to the earlier
 * line. A zero-rated line has no fraction and gets nothing; no line moves more than a cent from its
 * exact tax. There are never more cents left than lines with a fraction, because the document's GST
 * is its exact total rounded once (down or up), and the fractions add up to more than the cents left.
 */
export function allocateGst(totals: DocumentTotals): bigint[] {
  if (totals.rounding === 'line') return totals.lines.map((l) => l.taxCents);
  const floorOf = (r: Rational): bigint => {
    const q = r.n / r.d;
    return r.n < 0n && q * r.d !== r.n ? q - 1n : q;
  };
  const shares = totals.lines.map((l) => floorOf(l.exactTax));
  // The fraction of a cent each line has left, as n/d with d > 0: compared by cross-multiplying.
  const rest = totals.lines.map((l, i) => ({ i, n: l.exactTax.n - shares[i]! * l.exactTax.d, d: l.exactTax.d }));
  let left = totals.gstCents - shares.reduce((a, b) => a + b, 0n);
  const order = rest.filter((r) => r.n !== 0n).sort((a, b) => {
    const diff = b.n * a.d - a.n * b.d;
    return diff > 0n ? 1 : diff < 0n ? -1 : a.i - b.i;
  });
  if (left < 0n || left > BigInt(order.length)) throw new RangeError(`GST of ${totals.gstCents} cents can't be spread over these lines`);
  for (const r of order) {
    if (left === 0n) break;
    shares[r.i] = shares[r.i]! + 1n;
    left -= 1n;
  }
  return shares;
}

/**
 * The calculator's 'Include GST (15%)' switch. Off: every line goes out with tax_rate 0, so the
 * stored document, PDF, list and reports carry no GST. On: lines keep their own rate.
 */
export function applyGstSwitch<L extends LineForTotals>(lines: readonly L[], includeGst: boolean): L[] {
  return lines.map((l) => (includeGst ? { ...l, tax_rate: l.tax_rate ?? GST_RATE } : { ...l, tax_rate: '0' }));
}
