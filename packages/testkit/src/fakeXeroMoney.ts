// Money the way Xero describes it, for the fake Xero — written from Xero's documentation of its
// invoices, never by calling the app's money functions, so a test comparing the two can fail:
//
// - a line's amount is Quantity × UnitAmount, rounded to the cent, half away from zero;
// - a line's tax, when the request gives none, is worked out per line and rounded to the cent,
//   half away from zero: Exclusive amount × rate, or Inclusive amount × rate / (1 + rate);
// - a TaxAmount given on the line wins (Xero lets a line's tax be set);
// - SubTotal, TotalTax and Total add up the lines (Inclusive lines hold their tax).
//
// Numbers are exact decimal text turned into integers of 10^-scale: no floats anywhere.

/** A decimal written as text: `units` × 10^-`scale`. */
export interface Exact {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export function parseExact(text: string): Exact | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  const units = BigInt(`${m[2]}${frac}`);
  return { units: m[1] === '-' ? -units : units, scale: frac.length };
}

/** Decimal places that matter ("1.2300" has 2). */
export function decimalPlaces(text: string): number {
  const m = DECIMAL.exec(text.trim());
  return m ? (m[3] ?? '').replace(/0+$/, '').length : 0;
}

/** `n / d` rounded to a whole number, halves away from zero (d > 0). */
export function divHalfAway(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divide by a positive number');
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (2n * a + d) / (2n * d);
  return neg ? -q : q;
}

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** An amount of at most 2 decimal places, in cents; null otherwise. */
export function toCentsExact(text: string): bigint | null {
  const e = parseExact(text);
  if (!e || decimalPlaces(text) > 2) return null;
  return e.scale <= 2 ? e.units * pow10(2 - e.scale) : e.units / pow10(e.scale - 2);
}

/** Quantity × UnitAmount to the cent, half away from zero. */
export function lineAmountCents(quantity: string, unitAmount: string): bigint {
  const q = parseExact(quantity);
  const u = parseExact(unitAmount);
  if (!q || !u) throw new RangeError('not a decimal');
  // q.units × u.units × 10^-(q.scale + u.scale) dollars = … × 10^(2 − q.scale − u.scale) cents.
  const scale = q.scale + u.scale;
  const product = q.units * u.units * 100n;
  return divHalfAway(product, pow10(scale));
}

/** A line's tax at `ratePercent` (e.g. "15"), per line, half away from zero. */
export function lineTaxCents(amountCents: bigint, ratePercent: string, inclusive: boolean): bigint {
  const r = parseExact(ratePercent);
  if (!r) throw new RangeError('not a rate');
  // rate = r.units / (100 × 10^r.scale)
  const rateDen = 100n * pow10(r.scale);
  if (r.units === 0n) return 0n;
  return inclusive ? divHalfAway(amountCents * r.units, rateDen + r.units) : divHalfAway(amountCents * r.units, rateDen);
}

/** Cents as the JSON number Xero answers with (3.83), from exact text. */
export function centsJson(cents: bigint): number {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  return Number(`${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`);
}
