// When a job's actual costs pass what was quoted: per cost category and for the job as a whole,
// a warning in the tradesperson's words ('Materials are 18 % over the quote') once the actual cost
// is more than the quoted cost by more than the chosen percentage.
import { roundHalfUp } from '../money/rounding.ts';
import { rational } from '../money/rational.ts';
import { centsToString } from '../money/money.ts';

export interface CategoryCents {
  category: string;
  cents: bigint;
}

/** The percentage over a job may go before it is warned about, unless the business chooses another. */
export const DEFAULT_OVERRUN_PERCENT = 10;

/** How far `actual` is over `quoted`, in whole percent (half up); null when nothing was quoted. */
export function overPercent(actualCents: bigint, quotedCents: bigint): bigint | null {
  if (quotedCents <= 0n) return null;
  return roundHalfUp(rational((actualCents - quotedCents) * 100n, quotedCents));
}

/** Whether `actual` is more than `quoted` by more than `percent` % (exact, in whole cents). */
export const isOverrun = (actualCents: bigint, quotedCents: bigint, percent: number): boolean =>
  actualCents * 100n > quotedCents * (100n + BigInt(percent));

/**
 * The warnings for a job: each category (named by `nameOf`) whose actual cost is over its quoted
 * cost by more than `percent` %, then the whole job's. A category with costs that the quote did not
 * cost at all is said so, with what was spent.
 */
export function overrunWarnings(quoted: readonly CategoryCents[], actual: readonly CategoryCents[], percent: number, nameOf: (category: string) => string): string[] {
  const q = new Map(quoted.map((c) => [c.category, c.cents]));
  const out: string[] = [];
  for (const a of actual) {
    if (a.cents <= 0n) continue;
    const quotedCents = q.get(a.category) ?? 0n;
    const name = nameOf(a.category);
    if (quotedCents <= 0n) out.push(`${name}: $${centsToString(a.cents)} spent that the quote did not cost`);
    else if (isOverrun(a.cents, quotedCents, percent)) out.push(`${name} ${name.endsWith('s') ? 'are' : 'is'} ${overPercent(a.cents, quotedCents)} % over the quote`);
  }
  const quotedTotal = quoted.reduce((s, c) => s + c.cents, 0n);
  const actualTotal = actual.reduce((s, c) => s + c.cents, 0n);
  if (quotedTotal > 0n && isOverrun(actualTotal, quotedTotal, percent)) out.push(`The job's costs are ${overPercent(actualTotal, quotedTotal)} % over the quote`);
  return out;
}
