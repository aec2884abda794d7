// Exact fractions of whole cents. GST on a GST-inclusive amount is 3/23 of it, which no
// binary or decimal float holds exactly; a rational does, and is rounded once (rounding.ts).
import { Decimal } from './decimal.ts';

export interface Rational {
  /** numerator, in cents */
  readonly n: bigint;
  /** denominator, always > 0 */
  readonly d: bigint;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function rational(n: bigint, d: bigint = 1n): Rational {
  if (d === 0n) throw new RangeError('denominator is zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

export const ZERO_R: Rational = { n: 0n, d: 1n };

export const add = (a: Rational, b: Rational): Rational => rational(a.n * b.d + b.n * a.d, a.d * b.d);

export const mul = (a: Rational, b: Rational): Rational => rational(a.n * b.n, a.d * b.d);

export const sum = (xs: Iterable<Rational>): Rational => {
  let acc = ZERO_R;
  for (const x of xs) acc = add(acc, x);
  return acc;
};

/** A finite decimal (a tax rate such as 0.15) as an exact fraction (3/20). */
export function fromDecimal(v: Decimal): Rational {
  const dp = v.decimalPlaces();
  const scale = 10n ** BigInt(dp);
  return rational(BigInt(v.times(new Decimal(10).pow(dp)).toFixed(0)), scale);
}

export const equals = (a: Rational, b: Rational): boolean => a.n * b.d === b.n * a.d;
