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

/** The calculator's Profit figure: subtotal × margin %, to the cent, half away from zero. */
export function roundProfit(subtotalCents: bigint, marginPercent: DecimalValue): bigint {
  return toCentsHalfUp(new Decimal(subtotalCents.toString()).div(100).times(marginPercent).div(100));
}

/** 'Apply margin': a unit price × (1 + m/100), to the cent, half away from zero, so screen, PDF and list agree. */
export function roundMarkedUpPrice(unitPrice: DecimalValue, marginPercent: DecimalValue): Decimal {
  return new Decimal(unitPrice).times(new Decimal(marginPercent).div(100).plus(1)).toDecimalPlaces(2, ROUND_HALF_UP);
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
