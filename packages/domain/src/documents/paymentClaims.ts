// Payment claims under the Construction Contracts Act 2002. Pure: what a claim must carry before it
// may be served (s 20(2)), its dates (the due date for payment and the payment schedule's deadline,
// both 20 working days after service unless the contract says otherwise), how its amount was
// calculated (contract sum, variations, percent complete per line, previously claimed, retention,
// this claim), the payer's payment schedule and the retention held. docs/cca-payment-claims.md
// says the rules in words.
import { type LocalDate, compareDates, formatNzDateLong, isLocalDate } from '../dates/dates.ts';
import { addWorkingDays } from '../dates/nzHolidays.ts';
import { conflict, invalid } from '../errors.ts';
import { type GstRounding, documentTotals } from '../gst/gst.ts';
import { formatNzd, requirePositiveCents, toCents, wholeCentsOf } from '../money/money.ts';
import { type Rational, ZERO_R, add, rational } from '../money/rational.ts';
import { parseExactDecimal, roundHalfUp } from '../money/rounding.ts';
import type { Line } from './lineValues.ts';
import { type StageHistoryEntry, shareOf, stageLineValues, stageTotalCents } from './stages.ts';
import { type VariedQuote, isAgreed, quoteLines, quoteStageBasis } from './variations.ts';

/** Working days the Act gives when the contract is silent: for the payment schedule and for payment. */
export const CCA_DEFAULT_WORKING_DAYS = 20;

/** The statement s 20(2)(f) requires, word for word on the PDF and in the email. */
export const CCA_STATEMENT = 'This is a payment claim made under the Construction Contracts Act 2002.';

/** What the business fills in to make an invoice a payment claim (PaymentClaimSet). */
export interface PaymentClaimDetails {
  /** Identifies the construction contract: its reference or name. */
  contractReference: string;
  /** The day the contract was made (the quote's acceptance, a signed contract). */
  contractDate: LocalDate | null;
  /** Where the work is done. */
  site: string;
  /** The construction work the claim relates to. */
  work: string;
  periodFrom: LocalDate | null;
  periodTo: LocalDate | null;
  /** Retention the payer withholds under a commercial contract, percent of this claim (0 for none). */
  retentionPercent: string;
  /** The contract's own due date for payment; null: 20 working days after service. */
  paymentDueDate: LocalDate | null;
  /** Working days the contract gives for a payment schedule; null: 20. */
  scheduleWorkingDays: number | null;
}

/** The payer's reply (s 21), as the business recorded it. */
export interface PaymentScheduleRecord {
  receivedOn: LocalDate;
  scheduledAmount: string;
  reasons: string;
  recordedAt: string | null;
}

export interface RetentionRelease {
  releaseId: string;
  amount: string;
  date: LocalDate;
  recordedAt: string | null;
}

/** A payment claim as the invoice keeps it. */
export interface PaymentClaim extends PaymentClaimDetails {
  /** The Form 1 text version it carries (CCA_FORM_1.version when it was set). */
  form1Version: string;
  /** The NZ day it was served: first emailed or marked issued (handed over). */
  servedOn: LocalDate | null;
  /** When it was served (the event's time; null before, or for an event without a time). */
  servedAt: string | null;
  schedules: PaymentScheduleRecord[];
  retentionReleases: RetentionRelease[];
}

/** Dates a claim states; worked out as if served `today` until it has been served. */
export interface ClaimDates {
  servedOn: LocalDate;
  served: boolean;
  paymentDue: LocalDate;
  scheduleDueBy: LocalDate;
}

export function claimDates(claim: Pick<PaymentClaim, 'servedOn' | 'paymentDueDate' | 'scheduleWorkingDays'>, today: LocalDate): ClaimDates {
  const servedOn = claim.servedOn ?? today;
  return {
    servedOn,
    served: claim.servedOn !== null,
    paymentDue: claim.paymentDueDate ?? addWorkingDays(servedOn, CCA_DEFAULT_WORKING_DAYS),
    scheduleDueBy: addWorkingDays(servedOn, claim.scheduleWorkingDays ?? CCA_DEFAULT_WORKING_DAYS),
  };
}

/** Which due date for payment applies when the contract sets none: the invoice's own, or the Act's default. */
export type DueDateChoice = 'invoice' | 'act';

/** The Act's default and the invoice's own due date disagree: the question the business answers before the claim is saved. */
export interface DueDateQuestion {
  /** 20 working days after service (as if served on `servedOn`). */
  actDue: LocalDate;
  /** The due date the invoice was given (its payment terms, or a date typed on it). */
  invoiceDue: LocalDate;
  text: string;
}

/** The question when the Act's default due date is not the invoice's own; null when they are the same day. */
export function dueDateQuestion(invoiceDue: LocalDate, servedOn: LocalDate): DueDateQuestion | null {
  const actDue = addWorkingDays(servedOn, CCA_DEFAULT_WORKING_DAYS);
  if (actDue === invoiceDue) return null;
  return { actDue, invoiceDue, text: `The Construction Contracts Act due date is ${formatNzDateLong(actDue)}; the invoice's own terms say ${formatNzDateLong(invoiceDue)} — which applies?` };
}

/** Which due date a claim's details stand for: the Act's default (no date), the invoice's own, or another the contract sets. */
export function dueDateChosen(paymentDueDate: LocalDate | null, invoiceDue: LocalDate): DueDateChoice | 'contract' {
  if (paymentDueDate === null) return 'act';
  return paymentDueDate === invoiceDue ? 'invoice' : 'contract';
}

/**
 * The claim's due date for payment as it will be saved: the invoice's own when that was chosen, none
 * (the Act's default) when that was. A claim never moves the invoice's due date without being told:
 * with no date and no choice, when the two differ, it is refused with the question.
 */
export function chosenPaymentDueDate(c: Pick<PaymentClaimDetails, 'paymentDueDate'>, choice: DueDateChoice | null, invoiceDue: LocalDate, servedOn: LocalDate): LocalDate | null {
  if (choice === 'invoice') return invoiceDue;
  if (choice === 'act') return null;
  if (c.paymentDueDate !== null) return c.paymentDueDate;
  const question = dueDateQuestion(invoiceDue, servedOn);
  if (question) throw invalid(question.text);
  return null;
}

/** A site address on one line, its lines kept apart: '48 Rata Road, Hillcrest, Hamilton 3216'. */
export function siteOnOneLine(site: string): string {
  return site
    .split(/\r?\n/)
    .map((part) => part.trim().replace(/,+$/, '').trim())
    .filter((part) => part !== '')
    .join(', ');
}

const PERCENT = /^(?:100(?:\.0{1,2})?|\d{1,2}(?:\.\d{1,2})?)$/;

/** Checks what a person typed for a claim; refuses with the first thing wrong. */
export function checkClaimDetails(c: PaymentClaimDetails, issueDate: LocalDate): void {
  const text = (v: string, name: string, max: number): void => {
    if (v.length > max) throw invalid(`${name} can be at most ${max} characters`);
  };
  text(c.contractReference, 'The contract reference', 200);
  text(c.site, 'The site', 300);
  text(c.work, 'The description of the work', 1000);
  for (const [d, name] of [
    [c.contractDate, 'The contract date'],
    [c.periodFrom, 'The start of the claim period'],
    [c.periodTo, 'The end of the claim period'],
    [c.paymentDueDate, 'The due date for payment'],
  ] as const) {
    if (d !== null && !isLocalDate(d)) throw invalid(`${name} is not a valid date`);
  }
  if (c.periodFrom && c.periodTo && compareDates(c.periodTo, c.periodFrom) < 0) throw invalid('The claim period cannot end before it starts');
  if (c.paymentDueDate && compareDates(c.paymentDueDate, issueDate) < 0) throw invalid('The due date for payment cannot be before the invoice date');
  if (!PERCENT.test(c.retentionPercent) || Number(c.retentionPercent) > 100) throw invalid('Retention must be a percentage from 0 to 100, with at most 2 decimal places');
  if (c.scheduleWorkingDays !== null && (!Number.isInteger(c.scheduleWorkingDays) || c.scheduleWorkingDays < 1 || c.scheduleWorkingDays > 100)) {
    throw invalid('The working days for a payment schedule must be a whole number from 1 to 100');
  }
}

/** One element s 20 requires that the claim does not have yet, in words a tradie can act on. */
export interface MissingElement {
  field: 'contract_reference' | 'contract_date' | 'site' | 'work' | 'period' | 'client' | 'amount';
  message: string;
}

/**
 * What stops the claim from being served: each element s 20(2) requires that the business has to
 * supply (the calculation, the due date, the statement and the Form 1 notice are produced by the
 * app). The payer's name is not in s 20, but a tax invoice over $1,000 must name the buyer.
 */
export function missingClaimElements(claim: PaymentClaimDetails, doc: { clientName: string; totalCents: bigint }): MissingElement[] {
  const out: MissingElement[] = [];
  if (claim.contractReference.trim() === '') out.push({ field: 'contract_reference', message: "The construction contract's reference" });
  if (claim.contractDate === null) out.push({ field: 'contract_date', message: 'The date of the contract' });
  if (claim.site.trim() === '') out.push({ field: 'site', message: 'The site address' });
  if (claim.work.trim() === '') out.push({ field: 'work', message: 'The construction work the claim is for' });
  if (claim.periodFrom === null || claim.periodTo === null) out.push({ field: 'period', message: 'The period the claim relates to (from and to)' });
  if (doc.clientName.trim() === '') out.push({ field: 'client', message: 'The client (the payer) it is made to' });
  if (doc.totalCents <= 0n) out.push({ field: 'amount', message: 'A claimed amount above $0.00' });
  return out;
}

/** The refusal when a claim would be served with elements missing. */
export function claimNotReady(missing: readonly MissingElement[]): never {
  throw invalid(`This payment claim can't be sent yet. Add: ${missing.map((m) => m.message.charAt(0).toLowerCase() + m.message.slice(1)).join('; ')}.`);
}

/** Retention on an amount: percent of it, rounded half up to the cent. */
export function retentionCents(amountCents: bigint, percent: string): bigint {
  const p = parseExactDecimal(percent);
  if (p === null) throw invalid('Retention must be a percentage');
  return roundHalfUp(rational(amountCents * p.m, 10n ** BigInt(p.scale) * 100n));
}

/** One line of the calculation: a quote line's value, how much of it is done, and what is claimed. */
export interface ClaimCalculationLine {
  description: string;
  /** The line's value, GST included. */
  valueCents: bigint;
  /** Percent complete to date, this claim included ("62.5"); null when the claim is not from a quote's stages. */
  percentToDate: string | null;
  toDateCents: bigint;
  previousCents: bigint;
  thisClaimCents: bigint;
  variation: boolean;
}

/** How the claimed amount was worked out (s 20(2)(e)). All GST-inclusive cents. */
export interface ClaimCalculation {
  contractSumCents: bigint;
  variationsCents: bigint;
  lines: ClaimCalculationLine[];
  toDateCents: bigint;
  previouslyClaimedCents: bigint;
  thisClaimCents: bigint;
  retentionPercent: string;
  retentionCents: bigint;
  /** This claim less the retention withheld: the claimed amount. */
  claimedCents: bigint;
  /** The earlier claims on the same contract (stage invoices before this one). */
  earlier: { reference: string; totalCents: bigint }[];
}

const percentOf = (r: Rational): string => {
  const hundredths = roundHalfUp(rational(r.n * 10_000n, r.d));
  const whole = hundredths / 100n;
  const frac = (hundredths % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
};

/**
 * The calculation for a claim that is a stage invoice of a quote: every quote line with its value,
 * percent complete after this claim, what was claimed before and in this claim. A served claim
 * never changes: the stages it counted stay counted when one is withdrawn after `servedAt` (a
 * stage invoice voided later), and variations approved after its stage was invoiced are not part
 * of it (nor is a variation not approved). Before it is served (`servedAt` null) it counts the
 * stages that stand now.
 */
export function stageClaimCalculation(
  quote: VariedQuote & { stageHistory: readonly StageHistoryEntry[] },
  invoiceId: string,
  retentionPercent: string,
  servedAt: string | null,
): ClaimCalculation | null {
  const counts = (h: StageHistoryEntry): boolean =>
    !h.withdrawn || (servedAt !== null && h.withdrawnAt !== null && Date.parse(h.withdrawnAt) > Date.parse(servedAt));
  const at = quote.stageHistory.findIndex((h) => h.stage.invoiceId === invoiceId);
  if (at < 0 || !counts(quote.stageHistory[at]!)) return null;
  const stages = quote.stageHistory.slice(0, at + 1).filter(counts).map((h) => h.stage);
  const own = stages.length - 1;
  const basis = quoteStageBasis(quote);
  const { lines: all, variationOf } = quoteLines(quote);
  const lines: ClaimCalculationLine[] = [];
  all.forEach((l, i) => {
    const v = variationOf[i];
    // A variation not approved, or approved after this claim's stage was invoiced, is not part of it.
    if (v && (!isAgreed(v) || (v.approvedAfterStages ?? 0) > at)) return;
    let previous = 0n;
    let share: Rational = ZERO_R;
    let thisClaim = 0n;
    stages.forEach((s, k) => {
      for (const x of s.lines) {
        if (x.lineIndex !== i) continue;
        share = add(share, shareOf(x.share));
        if (k === own) thisClaim += toCents(x.amount);
        else previous += toCents(x.amount);
      }
    });
    lines.push({ description: l.description, valueCents: basis.values[i]!, percentToDate: percentOf(share), toDateCents: previous + thisClaim, previousCents: previous, thisClaimCents: thisClaim, variation: v !== null });
  });
  const thisClaimCents = stageTotalCents(stages[own]!);
  const retention = retentionCents(thisClaimCents, retentionPercent);
  const earlier = stages.slice(0, own).map((s) => ({ reference: s.reference, totalCents: stageTotalCents(s) }));
  const variationsCents = lines.filter((l) => l.variation).reduce((a, l) => a + l.valueCents, 0n);
  return {
    contractSumCents: lines.reduce((a, l) => a + l.valueCents, 0n) - variationsCents,
    variationsCents,
    lines,
    toDateCents: lines.reduce((a, l) => a + l.toDateCents, 0n),
    previouslyClaimedCents: earlier.reduce((a, e) => a + e.totalCents, 0n),
    thisClaimCents,
    retentionPercent,
    retentionCents: retention,
    claimedCents: thisClaimCents - retention,
    earlier,
  };
}

/** The calculation for a claim that is an ordinary invoice: its own lines, all of them claimed now. */
export function invoiceClaimCalculation(invoice: { lines: readonly Line[]; gstRounding: GstRounding }, retentionPercent: string): ClaimCalculation {
  const values = stageLineValues(invoice.lines, invoice.gstRounding);
  const total = documentTotals(invoice.lines, invoice.gstRounding).totalCents;
  const retention = retentionCents(total, retentionPercent);
  return {
    contractSumCents: total,
    variationsCents: 0n,
    lines: invoice.lines.map((l, i) => ({ description: l.description, valueCents: values[i]!, percentToDate: null, toDateCents: values[i]!, previousCents: 0n, thisClaimCents: values[i]!, variation: false })),
    toDateCents: total,
    previouslyClaimedCents: 0n,
    thisClaimCents: total,
    retentionPercent,
    retentionCents: retention,
    claimedCents: total - retention,
    earlier: [],
  };
}

/** The payment schedule the business recorded last (a corrected one replaces the earlier). */
export const latestSchedule = (claim: Pick<PaymentClaim, 'schedules'>): PaymentScheduleRecord | null => claim.schedules.at(-1) ?? null;

/** Checks a payment schedule received: an amount from $0 to the claimed amount; reasons when it is less. */
export function checkSchedule(input: { receivedOn: string; scheduledAmount: string; reasons: string }, claim: Pick<PaymentClaim, 'servedOn'>, claimedCents: bigint): bigint {
  if (claim.servedOn === null) throw conflict("This payment claim hasn't been served yet: send it or mark it issued first.");
  if (!isLocalDate(input.receivedOn)) throw invalid('The date the payment schedule was received is not a valid date');
  if (compareDates(input.receivedOn, claim.servedOn) < 0) throw invalid('A payment schedule cannot be received before the claim was served');
  const cents = wholeCentsOf(input.scheduledAmount);
  if (cents === null) throw invalid('The scheduled amount must be in dollars and cents (at most 2 decimal places)');
  if (cents < 0n) throw invalid('The scheduled amount cannot be negative');
  if (cents > claimedCents) throw invalid(`The scheduled amount cannot be more than the ${formatNzd(claimedCents)} claimed`);
  if (cents < claimedCents && input.reasons.trim() === '') throw invalid('A payment schedule for less than the claimed amount gives reasons: record them');
  return cents;
}

/** Retention withheld and not yet released on a claim. */
export function retentionHeldCents(claim: Pick<PaymentClaim, 'retentionReleases'>, withheldCents: bigint): bigint {
  const released = claim.retentionReleases.reduce((a, r) => a + toCents(r.amount), 0n);
  return withheldCents - released;
}

export function checkRetentionRelease(amount: string, date: string, heldCents: bigint): bigint {
  if (!isLocalDate(date)) throw invalid('The release date is not a valid date');
  const cents = requirePositiveCents(amount, 'The amount released');
  if (heldCents <= 0n) throw conflict('No retention is held on this claim');
  if (cents > heldCents) throw invalid(`Only ${formatNzd(heldCents)} of retention is held on this claim`);
  return cents;
}

