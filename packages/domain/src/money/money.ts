// Money at the edges: cents ↔ decimal strings ↔ the numbers the API shows, and NZD text.
// Amounts are whole cents (bigint) inside computations and "123.45" strings in events.
import { Decimal, type DecimalValue } from './decimal.ts';
import { parseExactDecimal } from './rounding.ts';
import { invalid } from '../errors.ts';

/** Whole cents to a 2-dp decimal string: 123450n → "1234.50". */
export function centsToString(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Whole cents to the JSON number the API shows (rounded to cents by construction). */
export const centsToNumber = (cents: bigint): number => Number(centsToString(cents));

/**
 * A typed amount ("12.3", "12.30", "12", "12.500") to whole cents; null for anything that is not a
 * plain decimal or carries a fraction of a cent. Never throws: for checking what a person sent.
 */
export function wholeCentsOf(text: string): bigint | null {
  const exact = parseExactDecimal(text.trim());
  if (!exact) return null;
  if (exact.scale <= 2) return exact.m * 10n ** BigInt(2 - exact.scale);
  const drop = 10n ** BigInt(exact.scale - 2);
  return exact.m % drop === 0n ? exact.m / drop : null;
}

/**
 * A sum of money a person sent that must be whole cents and more than nothing (a payment, a refund,
 * a credit, a stage's amount, a retention release), as cents; otherwise the domain's 422 with
 * `subject` leading the sentence: 'A refund must be more than $0.00'.
 */
export function requirePositiveCents(amount: string, subject: string): bigint {
  const cents = wholeCentsOf(amount);
  if (cents === null) throw invalid(`${subject} must be in dollars and cents (at most 2 decimal places)`);
  if (cents <= 0n) throw invalid(`${subject} must be more than $0.00`);
  return cents;
}

/** An amount that is already whole cents ("12.3", 12.30, "12") to cents. Throws on a fraction of a cent. */
export function toCents(amount: DecimalValue): bigint {
  const d = new Decimal(amount);
  if (!d.isFinite()) throw new RangeError('amount is not a finite number');
  const scaled = d.times(100);
  if (!scaled.isInteger()) throw new RangeError('amount has a fraction of a cent');
  return BigInt(scaled.toFixed(0));
}

const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * NZD for people: `$1,234.50`, `-$1,234.50`. Formatted from exact cents — never through Intl,
 * which rounds half away from zero on its own and would disagree with s 19O on ties.
 */
export function formatNzd(cents: bigint): string {
  const s = centsToString(cents);
  const negative = s.startsWith('-');
  const [whole = '0', frac = '00'] = (negative ? s.slice(1) : s).split('.');
  return `${negative ? '-' : ''}$${groupThousands(whole)}.${frac}`;
}

/**
 * A unit price for people, as money: to the cent when it is whole cents (`$1,234.50`, `$231.88`),
 * otherwise with all four decimal places a price can carry (`$0.0055`, `$16.6625`, `$231.8750`) —
 * never three. A price is not rounded for show, so quantity × the price shown is the line's amount
 * (docs/decisions/0006).
 */
export function formatNzdPrice(price: DecimalValue): string {
  const d = new Decimal(price);
  if (!d.isFinite()) throw new RangeError('price is not a finite number');
  const text = d.abs().toFixed(d.decimalPlaces() <= 2 ? 2 : Math.max(4, d.decimalPlaces()));
  const [whole = '0', frac = '00'] = text.split('.');
  return `${d.isNegative() && !d.isZero() ? '-' : ''}$${groupThousands(whole)}.${frac}`;
}
