// What the business spent: receipts, supplier bills and expenses, hours worked, and the purchases
// side of the GST return (Boxes 11–15) on the invoice basis (by the supplier's invoice date) and
// the payments basis (by the date paid). docs/decisions/0034-costs-and-purchases-gst.md.
import { type LocalDate, isLocalDate } from '../dates/dates.ts';
import { Decimal } from '../money/decimal.ts';
import { invalid } from '../errors.ts';
import { requirePositiveCents, toCents } from '../money/money.ts';
import { roundReturnGst, toCentsHalfUp } from '../money/rounding.ts';

export type CostKind = 'receipt' | 'bill' | 'expense';
export const COST_KINDS: readonly CostKind[] = ['receipt', 'bill', 'expense'];

/** 15 %: the purchase carries GST; none: it does not (exempt, zero-rated, or an unregistered supplier). */
export type CostGst = 'standard' | 'none';

/**
 * Above this, GST-inclusive, a claim needs the supplier's taxable supply information (name, GST
 * number, date, description, amounts); at or below it a receipt is enough. Exactly $200.00 is the
 * low band.
 */
export const SUPPLY_INFORMATION_THRESHOLD_CENTS = 20000n;

/** The largest single cost the app records (the same bound as other money a person types). */
export const MAX_COST_CENTS = 100_000_000_00n;

export interface CostEntry {
  kind: CostKind;
  supplier: string;
  /** The date on the supplier's invoice or receipt: the invoice basis counts it then. */
  date: LocalDate;
  /** When it was paid: the payments basis counts it then; null while unpaid. */
  paidDate: LocalDate | null;
  /** GST-inclusive, whole cents; negative only for a credit from a supplier. */
  amountCents: bigint;
  gst: CostGst;
  category: string;
  /** The accepted quote it was for; null for the business's own expenses. */
  jobId: string | null;
  /** The supplier's taxable supply information is held (a receipt is enough at $200 or less). */
  supplyInformationHeld: boolean;
  /** A credit from a supplier (supply correction information): reduces the purchases it corrects. */
  credit?: boolean;
  /**
   * A line of a GST period that takes this version of a cost back (it was changed or deleted after
   * the period it counted in was exported: costs/purchaseCarry.ts). Its amount counts negated; it is
   * not counted as a cost of its own.
   */
  reverses?: boolean;
}

/** A cost amount a person typed: whole cents, more than nothing, bounded. */
export function requireCostCents(amount: string): bigint {
  const cents = requirePositiveCents(amount, 'The amount');
  if (cents > MAX_COST_CENTS) throw invalid('The amount must be at most $100,000,000.00');
  return cents;
}

export type ClaimReason = 'claimable' | 'not_registered' | 'no_gst' | 'needs_supply_information';

/**
 * Whether the GST in a cost can be claimed, and why not: only a GST-registered business claims;
 * only a purchase that carries GST; above $200 incl. GST only with the supplier's taxable supply
 * information held (a till receipt is not enough). A credit follows the same rule, by its size.
 */
export function claimReason(entry: Pick<CostEntry, 'amountCents' | 'gst' | 'supplyInformationHeld'>, registered: boolean): ClaimReason {
  if (!registered) return 'not_registered';
  if (entry.gst === 'none') return 'no_gst';
  const size = entry.amountCents < 0n ? -entry.amountCents : entry.amountCents;
  if (size > SUPPLY_INFORMATION_THRESHOLD_CENTS && !entry.supplyInformationHeld) return 'needs_supply_information';
  return 'claimable';
}

/** Words for the tradesperson on why a cost's GST is not claimed. */
export const CLAIM_REASON_TEXT: Record<Exclude<ClaimReason, 'claimable'>, string> = {
  not_registered: 'Your business is not registered for GST, so GST on costs is not claimed.',
  no_gst: 'No GST was charged on this cost.',
  needs_supply_information:
    "Over $200 a till receipt is not enough: ask the supplier for a tax invoice showing their name, GST number, the date, what you bought and the amounts, then tick 'I have the tax invoice'.",
};

export const isClaimable = (entry: Pick<CostEntry, 'amountCents' | 'gst' | 'supplyInformationHeld'>, registered: boolean): boolean =>
  claimReason(entry, registered) === 'claimable';

// ── Hours ────────────────────────────────────────────────────────────────────

export interface HoursEntry {
  /** 'owner', or a worker's name. */
  who: string;
  date: LocalDate;
  /** Decimal hours as typed ("3", "1.25"). */
  hours: string;
  /** The cost of an hour of this person's time, excl. GST ("45.00"). */
  rate: string;
  jobId: string | null;
  note: string;
}

const HOURS = /^\d{1,3}(\.\d{1,2})?$/;
const RATE = /^\d{1,7}(\.\d{1,2})?$/;

/** Hours a person typed: more than 0, at most 24 in a day, to 2 decimal places. */
export function requireHours(hours: string): string {
  const text = hours.trim();
  if (!HOURS.test(text)) throw invalid('Hours must be a number like 3 or 1.5 (at most 2 decimal places)');
  const d = new Decimal(text);
  if (d.lte(0)) throw invalid('Hours must be more than 0');
  if (d.gt(24)) throw invalid('Hours must be at most 24 in a day');
  return text;
}

/** A cost rate a person typed: dollars and cents per hour, 0 allowed (the owner's own time), bounded. */
export function requireRate(rate: string): string {
  const text = rate.trim();
  if (!RATE.test(text)) throw invalid('The hourly cost must be in dollars and cents (at most 2 decimal places)');
  return text;
}

/** hours × rate, to the nearest cent, half away from zero. */
export function hoursCostCents(entry: Pick<HoursEntry, 'hours' | 'rate'>): bigint {
  return toCentsHalfUp(new Decimal(entry.hours).times(entry.rate));
}

// ── GST return: purchases (Boxes 11–14) ───────────────────────────────────────

export type PurchasesBasis = 'invoice' | 'payments';

/** What the purchases side of a period adds up to, in cents. */
export interface PurchaseSums {
  /** Box 11: claimable purchases and expenses, GST-inclusive, supplier credits netted. */
  claimableCents: bigint;
  /** Box 13: credit adjustments entered by hand (private-use reversals and the like). */
  creditAdjustmentsCents: bigint;
  /** Costs in the period whose GST is not claimed, and why (counted for the screen). */
  notClaimed: { count: number; amountCents: bigint; needsSupplyInformation: number };
  count: number;
}

export const NO_PURCHASES: PurchaseSums = { claimableCents: 0n, creditAdjustmentsCents: 0n, notClaimed: { count: 0, amountCents: 0n, needsSupplyInformation: 0 }, count: 0 };

/** The date a cost counts on for `basis`: its invoice date, or the date paid (null: not yet paid). */
export const countingDate = (entry: Pick<CostEntry, 'date' | 'paidDate'>, basis: PurchasesBasis): LocalDate | null =>
  basis === 'invoice' ? entry.date : entry.paidDate;

/** What a cost line adds to a period, GST included: negative for a supplier credit, negated when it takes a version back. */
export function signedCostCents(e: Pick<CostEntry, 'amountCents' | 'credit' | 'reverses'>): bigint {
  const own = e.credit === true && e.amountCents > 0n ? -e.amountCents : e.amountCents;
  return e.reverses === true ? -own : own;
}

/**
 * The purchases of a period: every cost counted on `basis` between start and end inclusive. A
 * supplier credit is a negative amount in the period of its own date and nets into Box 11, as a
 * credit note the business issues nets into Box 5.
 */
export function sumPurchases(
  entries: Iterable<CostEntry>,
  range: { start: LocalDate; end: LocalDate },
  basis: PurchasesBasis,
  registered: boolean,
  creditAdjustmentsCents = 0n,
): PurchaseSums {
  let claimable = 0n;
  let count = 0;
  const notClaimed = { count: 0, amountCents: 0n, needsSupplyInformation: 0 };
  for (const e of entries) {
    const d = countingDate(e, basis);
    if (d === null || d < range.start || d > range.end) continue;
    const signed = signedCostCents(e);
    const counted = e.reverses === true ? 0 : 1;
    count += counted;
    const reason = claimReason(e, registered);
    if (reason === 'claimable') claimable += signed;
    else {
      notClaimed.count += counted;
      notClaimed.amountCents += signed;
      if (reason === 'needs_supply_information') notClaimed.needsSupplyInformation += counted;
    }
  }
  return { claimableCents: claimable, creditAdjustmentsCents, notClaimed, count };
}

/** Boxes 11–15 in cents, from the purchase sums and Box 10. */
export function purchaseBoxesCents(p: PurchaseSums, box10Cents: bigint): { box11: bigint; box12: bigint; box13: bigint; box14: bigint; box15: bigint } {
  const box11 = p.claimableCents;
  const box12 = roundReturnGst(box11);
  const box13 = p.creditAdjustmentsCents;
  const box14 = box12 + box13;
  return { box11, box12, box13, box14, box15: box10Cents - box14 };
}

/**
 * A GST adjustment typed by hand (Box 9, debit adjustments such as the private use of something
 * whose GST was claimed; Box 13, credit adjustments): dollars and cents, 0 or more; empty is 0.
 */
export function requireAdjustmentCents(value: unknown, subject: string): bigint {
  if (value === undefined || value === null || value === '') return 0n;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) throw invalid(`${subject} must be an amount in dollars and cents, 0 or more`);
  const cents = toCents(text);
  if (cents > MAX_COST_CENTS) throw invalid(`${subject} must be at most $100,000,000.00`);
  return cents;
}

/** A date a person sent, checked. */
export function requireCostDate(value: unknown, subject: string): LocalDate {
  if (!isLocalDate(value)) throw invalid(`${subject} must be a real calendar day written as YYYY-MM-DD`);
  return value;
}

// ── The job's real profit ─────────────────────────────────────────────────────

export interface JobProfitInput {
  quotedSellCents: bigint;
  quotedCostCents: bigint;
  /** Invoiced to date, excl. GST, net of credit notes. */
  invoicedNetCents: bigint;
  costs: readonly Pick<CostEntry, 'amountCents' | 'gst' | 'category' | 'supplyInformationHeld' | 'credit'>[];
  hours: readonly Pick<HoursEntry, 'hours' | 'rate'>[];
  registered: boolean;
}

export interface JobProfit {
  quotedSellCents: bigint;
  quotedCostCents: bigint;
  /** Actual costs by category (excl. claimable GST); hours under 'Labour'. */
  byCategory: { category: string; cents: bigint }[];
  actualCostCents: bigint;
  invoicedNetCents: bigint;
  /** Invoiced (net of credits) − actual costs. */
  profitSoFarCents: bigint;
}

export const LABOUR = 'Labour';

/**
 * A cost's cost to the business: without its GST when that GST is claimed back (the GST is the tax
 * office's, not a cost), with it when it is not.
 */
export function costToBusinessCents(entry: Pick<CostEntry, 'amountCents' | 'gst' | 'supplyInformationHeld' | 'credit'>, registered: boolean): bigint {
  const signed = entry.credit === true && entry.amountCents > 0n ? -entry.amountCents : entry.amountCents;
  return isClaimable(entry, registered) ? signed - roundReturnGst(signed) : signed;
}

export function jobProfit(input: JobProfitInput): JobProfit {
  const byCategory = new Map<string, bigint>();
  const add = (category: string, cents: bigint): void => void byCategory.set(category, (byCategory.get(category) ?? 0n) + cents);
  for (const c of input.costs) add(c.category, costToBusinessCents(c, input.registered));
  for (const h of input.hours) add(LABOUR, hoursCostCents(h));
  const rows = [...byCategory.entries()].map(([category, cents]) => ({ category, cents })).sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  const actual = rows.reduce((s, r) => s + r.cents, 0n);
  return {
    quotedSellCents: input.quotedSellCents,
    quotedCostCents: input.quotedCostCents,
    byCategory: rows,
    actualCostCents: actual,
    invoicedNetCents: input.invoicedNetCents,
    profitSoFarCents: input.invoicedNetCents - actual,
  };
}
