// A deposit asked for on a quote: a percentage of it or an amount, due when the client accepts.
// Accepting through the link invoices it as the quote's first stage (a 'deposit' stage), so the
// figure the quote, its PDF and its page show is the figure the deposit invoice comes to: both
// are the same allocation (allocateStage) of the quote's lines with no stage before it.
import { z } from 'zod';
import { DomainError, invalid } from '../errors.ts';
import { type GstRounding, documentTotals } from '../gst/gst.ts';
import { formatNzd, wholeCentsOf } from '../money/money.ts';
import { parseExactDecimal } from '../money/rounding.ts';
import type { Line } from './lineValues.ts';
import { type StageRequest, allocateStage } from './stages.ts';

export const depositRequestSchema = z
  .union([
    z.object({ percent: z.string().describe('of the quote\'s total, GST included: more than 0 and at most 100, at most 2 decimal places ("30")') }).strict(),
    z.object({ amount: z.string().describe('dollars and cents, GST included ("500.00")') }).strict(),
  ])
  .meta({ title: 'DepositRequest', description: 'a deposit asked for on a quote, due on acceptance: a percentage of it or an amount' });
export type DepositRequest = z.infer<typeof depositRequestSchema>;

/** At most this many decimal places in a deposit's percentage (30, 33.33). */
export const DEPOSIT_PERCENT_DECIMALS = 2;

export const DEPOSIT_MESSAGES = {
  quotesOnly: 'Only a quote can ask for a deposit on acceptance. Invoice the deposit from the quote instead.',
  percent: 'The deposit must be a percentage more than 0 and at most 100, with at most 2 decimal places',
  amount: 'The deposit must be an amount in dollars and cents, more than $0.00',
  nothing: 'This deposit comes to $0.00: ask for a larger one, or none',
  overTotal: (total: bigint) => `The deposit can't be more than the quote's total (${formatNzd(total)})`,
} as const;

/** The request as the stage that invoices it asks for it (checked: see depositCentsOf). */
export const depositStageRequest = (deposit: DepositRequest): StageRequest => ({ kind: 'deposit', ...deposit });

/**
 * What the deposit comes to, GST included, in whole cents: the sum of what the deposit stage takes
 * of each line of a quote not invoiced yet. Throws a DomainError (VALIDATION) with words a tradie
 * reads for a percentage or an amount that can't be a deposit on these lines.
 */
export function depositCentsOf(lines: readonly Line[], rounding: GstRounding, deposit: DepositRequest): bigint {
  const total = documentTotals(lines, rounding).totalCents;
  if ('percent' in deposit) {
    const p = parseExactDecimal(deposit.percent.trim());
    if (!p || p.m <= 0n || p.scale > DEPOSIT_PERCENT_DECIMALS || p.m > 100n * 10n ** BigInt(p.scale)) throw invalid(DEPOSIT_MESSAGES.percent);
  } else {
    const cents = wholeCentsOf(deposit.amount.trim());
    if (cents === null || cents <= 0n) throw invalid(DEPOSIT_MESSAGES.amount);
    if (cents > total) throw invalid(DEPOSIT_MESSAGES.overTotal(total));
  }
  const request = 'percent' in deposit ? { percent: deposit.percent.trim() } : { amount: deposit.amount.trim() };
  try {
    return allocateStage(lines, rounding, [], depositStageRequest(request)).reduce((a, x) => a + x.amountCents, 0n);
  } catch (e) {
    // Checked above, the one refusal left on a quote with no stage yet: a share that rounds to nothing.
    if (e instanceof DomainError) throw invalid(DEPOSIT_MESSAGES.nothing);
    throw e;
  }
}

/** The request as it is kept: trimmed, checked against the lines, and only on a quote. */
export function checkedDeposit(type: 'quote' | 'invoice', lines: readonly Line[], rounding: GstRounding, deposit: DepositRequest | null | undefined): DepositRequest | null {
  if (deposit === null || deposit === undefined) return null;
  if (type !== 'quote') throw invalid(DEPOSIT_MESSAGES.quotesOnly);
  depositCentsOf(lines, rounding, deposit);
  return 'percent' in deposit ? { percent: deposit.percent.trim() } : { amount: deposit.amount.trim() };
}

/** How the deposit is said on the quote, its PDF and its page: 'A 30 % deposit ($1,234.50) is due on acceptance.' */
export function depositWording(deposit: DepositRequest, cents: bigint): string {
  return 'percent' in deposit ? `A ${deposit.percent} % deposit (${formatNzd(cents)}) is due on acceptance.` : `A deposit of ${formatNzd(cents)} is due on acceptance.`;
}
