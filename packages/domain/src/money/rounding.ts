// Every rounding step in the product, named, in one place. Nothing else in the code base
// rounds money. Amounts are exact decimals (decimal.js) or exact rationals of integer cents
// (BigInt) until one of these functions turns them into whole cents.
import { Decimal, ROUND_HALF_UP, type DecimalValue } from './decimal.ts';
import { type Rational, rational } from './rational.ts';

/**
 * Tax shown on taxable supply information, GST Act s 19O (since 1 April 2023): a fraction of
 * a cent of half a cent or less may be disregarded; more than half a cent is shown as a cent.
 * Half-down on the magnitude — on an exact tie (only possible on the GST-exclusive path, e.g.
 * 15% of $0.10 = 1.5 c) the half cent is dropped. The sign is restored (credits mirror charges).
 */
export function roundTaxS19O(tax: Rational): bigint {
  const negative = tax.n < 0n;
  const n = negative ? -tax.n : tax.n;
  const q = n / tax.d;
  const r = n % tax.d;
  const cents = 2n * r > tax.d ? q + 1n : q;
  return negative ? -cents : cents;
}

/** A line's amount, qty × unit price, to the cent: commercial rounding, half away from zero. */
export function roundLineAmount(qty: DecimalValue, unitPrice: DecimalValue): bigint {
  // Decimal strings (how lines are stored) take an exact integer path; the result is identical.
  const q = typeof qty === 'string' ? parseExactDecimal(qty) : null;
  const p = q && typeof unitPrice === 'string' ? parseExactDecimal(unitPrice) : null;
  if (q && p) return roundHalfUp({ n: q.m * p.m * 100n, d: POW10[q.scale + p.scale]! });
  return toCentsHalfUp(new Decimal(qty).times(unitPrice));
}

const POW10 = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));
const PLAIN_DECIMAL = /^(-?)(\d{1,20})(?:\.(\d{1,12}))?$/;

/** A plain decimal string ("2.75", "-0.5") as an exact integer and a scale; null for anything else. */
export function parseExactDecimal(s: string): { m: bigint; scale: number } | null {
  const match = PLAIN_DECIMAL.exec(s);
  if (!match) return null;
  const frac = match[3] ?? '';
  const m = BigInt(`${match[2]}${frac}`);
  return { m: match[1] ? -m : m, scale: frac.length };
}

/** Unit prices carry at most 4 decimal places (what the API and Xero take). */
const PRICE_SCALE = 10_000n;

/**
 * 'Apply margin' on one line: the unit price (to 4 decimal places) that makes the line's amount
 * (qty × price, rounded as every line is) the nearest cent to the line's own amount × `factor`
 * (1 + markup, or 1 / (1 − margin)). Of the prices that hit that cent, a whole-cent price when
 * there is one, else any 4-decimal price; of those, the one nearest the exactly marked-up price.
 * For a quantity of 100 or less one always exists (a price step moves the amount by a cent or
 * less); for larger quantities, when none does, the price whose amount comes
 * nearest to the target is taken and `exact` is false. Quantity 0: the price is simply marked up.
 */
export function markedUpUnitPrice(qty: string, unitPrice: string, factor: Rational): { unitPrice: string; amountCents: bigint; exact: boolean } {
  const q = parseExactDecimal(qty);
  const p = parseExactDecimal(unitPrice);
  if (!q || !p || q.m < 0n || p.m < 0n) throw new RangeError('qty and unit price must be plain decimals ≥ 0');
  const priceText = (k: bigint): string => {
    const whole = k / PRICE_SCALE;
    const frac = (k % PRICE_SCALE).toString().padStart(4, '0').replace(/0+$/, '');
    return frac === '' ? whole.toString() : `${whole}.${frac}`;
  };
  // The exactly marked-up unit price, in ten-thousandths of a dollar.
  const exactK = rational(p.m * PRICE_SCALE * factor.n, POW10[p.scale]! * factor.d);
  if (q.m === 0n) return { unitPrice: priceText(roundHalfUp(exactK)), amountCents: 0n, exact: true };
  // amount(k) = qty × k/10⁴ dollars in cents = q.m × k / (10^q.scale × 100), rounded half up.
  const D = POW10[q.scale]! * 100n;
  const amountOf = (k: bigint): bigint => roundHalfUp(rational(q.m * k, D));
  const target = rational(roundLineAmount(qty, unitPrice) * factor.n, factor.d);
  const cents = roundHalfUp(target);
  // amount(k) = cents ⟺ (2·cents − 1)·D/(2·q) ≤ k < (2·cents + 1)·D/(2·q).
  const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : -((-a) / b));
  const lo = ceilDiv((2n * cents - 1n) * D, 2n * q.m);
  const hi = ceilDiv((2n * cents + 1n) * D, 2n * q.m) - 1n;
  const nearest = roundHalfUp(exactK);
  if (lo <= hi && hi >= 0n) {
    const clamp = (k: bigint): bigint => {
      const c = k < lo ? lo : k > hi ? hi : k;
      return c < 0n ? 0n : c;
    };
    // A whole-cent price when one lands on the cent (the one nearest the exact price): the client
    // reads $231.88, not $231.875, for the same line amount. Finer prices only where none does.
    const CENT = PRICE_SCALE / 100n;
    const firstCent = ceilDiv(lo < 0n ? 0n : lo, CENT) * CENT;
    if (firstCent <= hi) {
      const nearestCent = roundHalfUp(rational(exactK.n, exactK.d * CENT)) * CENT;
      const k = nearestCent < firstCent ? firstCent : nearestCent > hi ? hi - (hi % CENT) : nearestCent;
      return { unitPrice: priceText(k), amountCents: amountOf(k), exact: amountOf(k) === cents };
    }
    const kk = clamp(nearest);
    return { unitPrice: priceText(kk), amountCents: amountOf(kk), exact: amountOf(kk) === cents };
  }
  // No 4-decimal price lands on that cent: the price either side of the exact one, whichever comes nearer.
  const below = exactK.n / exactK.d;
  const distance = (k: bigint): Rational => {
    const diff = rational(amountOf(k) * target.d - target.n, target.d);
    return diff.n < 0n ? rational(-diff.n, diff.d) : diff;
  };
  const a = distance(below);
  const b = distance(below + 1n);
  const k = a.n * b.d <= b.n * a.d ? below : below + 1n;
  return { unitPrice: priceText(k), amountCents: amountOf(k), exact: false };
}

/** A share as a percentage to one decimal place (`part / whole × 100`), half away from zero; in tenths of a percent. */
export function percentTenths(part: bigint, whole: bigint): bigint {
  if (whole === 0n) return 0n;
  return roundHalfUp(rational(part * 1000n, whole));
}

/**
 * A share of whole cents: `total × part / whole`, half up. Used cumulatively (see
 * apportionCumulative) so that shares of a whole always add back to the whole.
 */
export function roundShare(totalCents: bigint, part: bigint, whole: bigint): bigint {
  if (whole === 0n) return 0n;
  return roundHalfUp(rational(totalCents * part, whole));
}

/**
 * The GST portion of a payment on the payments basis. Each payment's GST is the difference of
 * the rounded cumulative shares, so the payments of an invoice, once it is paid in full, carry
 * exactly the invoice's GST: no cent is lost or invented however it is split.
 */
export function apportionCumulative(totalGstCents: bigint, invoiceTotalCents: bigint, paidBeforeCents: bigint, paymentCents: bigint): bigint {
  const before = roundShare(totalGstCents, paidBeforeCents, invoiceTotalCents);
  const after = roundShare(totalGstCents, paidBeforeCents + paymentCents, invoiceTotalCents);
  return after - before;
}

/**
 * GST return Box 8: Box 7 × 3/23, to the nearest cent. s 19O does not cover return boxes;
 * myIR computes them itself. For integer cents 3/23 never lands on an exact half cent.
 */
export function roundReturnGst(box7Cents: bigint): bigint {
  return roundHalfUp(rational(box7Cents * 3n, 23n));
}

/** Half away from zero for an exact rational number of cents. */
export function roundHalfUp(x: Rational): bigint {
  const negative = x.n < 0n;
  const n = negative ? -x.n : x.n;
  const q = n / x.d;
  const r = n % x.d;
  const cents = 2n * r >= x.d ? q + 1n : q;
  return negative ? -cents : cents;
}

/** An exact decimal number of dollars to whole cents, half away from zero. */
export function toCentsHalfUp(dollars: Decimal): bigint {
  return BigInt(dollars.times(100).toDecimalPlaces(0, ROUND_HALF_UP).toFixed(0));
}
