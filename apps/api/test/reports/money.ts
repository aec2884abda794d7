// Money in the report tests, by plain string and bigint arithmetic (not the domain's money code,
// which these tests check): whole cents to the API's "12.34", and report figures back to cents.

/** Whole cents (0 or more) as the decimal text the API takes: 1234n → '12.34'. */
export const dollars = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/** Decimal text with at most two places ('-12.3', '5', '0.07') as whole cents. */
export const cents = (s: string): bigint => {
  const negative = s.startsWith('-');
  const [w, f = ''] = (negative ? s.slice(1) : s).split('.');
  const c = BigInt(w!) * 100n + BigInt(f.padEnd(2, '0'));
  return negative ? -c : c;
};

/** A report's money number (already rounded to cents) as whole cents. */
export const toCents = (n: number): bigint => cents(n.toFixed(2));
