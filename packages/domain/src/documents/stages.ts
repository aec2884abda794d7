// Invoicing an accepted quote in stages: a deposit, progress invoices and the final invoice.
// Pure: what each stage invoices of each quote line, and what is left.
//
// Every line of the quote has a value: what the client pays for it, GST included. The values add
// up to the quote's total exactly (documentTotals): per-line rounding gives each line its own
// rounded GST; rounding on the total spreads the one rounded GST over the lines by the largest
// remainder. A stage invoices a share of each line's value, priced GST-inclusive on the stage
// invoice, so a stage invoice's total is the sum of its amounts and the stages' totals add up to
// the quote's total to the cent. Shares are cumulative: after stages with shares s1, s2, … of a
// line, what has been invoiced of it is round(value × (s1 + s2 + …)), each stage taking the
// difference; the final invoice takes what is left. No line goes past its whole value.
import { conflict, invalid } from '../errors.ts';
import { type GstRounding, documentTotals } from '../gst/gst.ts';
import { centsToString, formatNzd, requirePositiveCents, toCents } from '../money/money.ts';
import { type Rational, ZERO_R, add, rational } from '../money/rational.ts';
import { parseExactDecimal, roundHalfUp } from '../money/rounding.ts';
import { LINE_LIMITS, type Line, type StoredLine } from './lineValues.ts';

export const STAGE_KINDS = ['deposit', 'progress', 'final'] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

export const STAGE_LABELS: Record<StageKind, string> = { deposit: 'Deposit', progress: 'Progress', final: 'Final' };

/** What one stage invoiced of one quote line, as recorded on the quote (StageInvoiced). */
export interface StageLineAmount {
  lineIndex: number;
  /** GST-inclusive dollars and cents ("123.45"). */
  amount: string;
  /** The share of the line's value this stage took, an exact fraction "n/d". */
  share: string;
}

/** A stage invoice as the quote keeps it. */
export interface StageRecord {
  invoiceId: string;
  reference: string;
  kind: StageKind;
  lines: StageLineAmount[];
}

/**
 * Every stage invoiced from a quote, in order, withdrawn ones included (a voided or deleted stage
 * invoice): a payment claim served before a withdrawal went on stating it as claimed, and a
 * variation is placed among the stages by how many had been invoiced, withdrawn or not.
 */
export interface StageHistoryEntry {
  stage: StageRecord;
  withdrawn: boolean;
  /** When it was withdrawn (the event's time; null while it stands, or for an event without a time). */
  withdrawnAt: string | null;
}

/**
 * What a credit note on a stage invoice gave back to the quote (StageCredited): of each quote line,
 * GST-inclusive cents and the share of the line's value. Quoted / Invoiced / Remaining and the next
 * stages count the stage net of it.
 */
export interface StageCreditRecord {
  invoiceId: string;
  creditNoteId: string;
  creditNoteReference: string;
  lines: StageLineAmount[];
}

/** What a person asks a stage to invoice. Percentages are of the quote (or of a line), 0–100. */
export type StageRequest =
  | { kind: 'deposit' | 'progress'; percent: string }
  | { kind: 'deposit' | 'progress'; amount: string }
  /** Progress up to an overall percent complete: each line is taken up to that share of it. */
  | { kind: 'progress'; complete: string }
  | { kind: 'progress'; lines: { lineIndex: number; percent?: string; qty?: string }[] }
  /** Progress: whatever is left of each of these lines (a variation invoiced in full). */
  | { kind: 'progress'; remainderOf: number[] }
  | { kind: 'final' };

/** What a stage takes of one line: whole cents and the share of the line's value. */
export interface StageAllocation {
  lineIndex: number;
  amountCents: bigint;
  share: Rational;
}

const ONE: Rational = { n: 1n, d: 1n };
const sub = (a: Rational, b: Rational): Rational => rational(a.n * b.d - b.n * a.d, a.d * b.d);
const cmp = (a: Rational, b: Rational): number => {
  const x = a.n * b.d - b.n * a.d;
  return x > 0n ? 1 : x < 0n ? -1 : 0;
};
const timesCents = (cents: bigint, r: Rational): Rational => rational(cents * r.n, r.d);

export const shareToString = (r: Rational): string => `${r.n}/${r.d}`;
export function shareOf(text: string): Rational {
  const [n, d] = text.split('/');
  return rational(BigInt(n!), BigInt(d ?? '1'));
}

/** A decimal text (at most 4 places) as an exact rational; null when it is not one. */
function decimalRational(text: string): Rational | null {
  const e = parseExactDecimal(text.trim());
  if (!e || e.scale > LINE_LIMITS.maxDecimals || e.m < 0n) return null;
  return rational(e.m, 10n ** BigInt(e.scale));
}

/**
 * Each line's value, GST included, in whole cents; they add up to the quote's total exactly.
 * Per-line rounding: an exclusive line is its amount and its own rounded GST. On the total: each
 * line's exact GST-inclusive value rounded down, and the cents left of the total go one each to
 * the lines with the largest fractions left (ties to the earlier line).
 */
export function stageLineValues(lines: readonly Line[], rounding: GstRounding): bigint[] {
  const totals = documentTotals(lines, rounding);
  if (rounding === 'line') return totals.lines.map((l) => (l.taxIncluded ? l.amountCents : l.amountCents + l.taxCents));
  const exact = totals.lines.map((l) => (l.taxIncluded ? rational(l.amountCents) : add(rational(l.amountCents), l.exactTax)));
  return largestRemainder(exact, totals.totalCents);
}

/**
 * `exact` in whole cents adding up to `total`: each rounded down, then the cents left go one each
 * to those with the largest fractions left (ties to the earlier one).
 */
function largestRemainder(exact: readonly Rational[], total: bigint): bigint[] {
  const values = exact.map((x) => x.n / x.d);
  let left = total - values.reduce((a, b) => a + b, 0n);
  const order = exact
    .map((x, i) => ({ i, n: x.n - values[i]! * x.d, d: x.d }))
    .filter((r) => r.n !== 0n)
    .sort((a, b) => {
      const diff = b.n * a.d - a.n * b.d;
      return diff > 0n ? 1 : diff < 0n ? -1 : a.i - b.i;
    });
  for (const r of order) {
    if (left <= 0n) break;
    values[r.i] = values[r.i]! + 1n;
    left -= 1n;
  }
  return values;
}

/** What the stages so far took of each line: cents and the share of its value. */
export interface LineLedger {
  invoicedCents: bigint;
  share: Rational;
}

/** The stages' amounts and shares of each line, less what credit notes on stages that stand gave back. */
export function stageLedger(lineCount: number, stages: readonly StageRecord[], credits: readonly StageCreditRecord[] = []): LineLedger[] {
  const ledger: LineLedger[] = Array.from({ length: lineCount }, () => ({ invoicedCents: 0n, share: ZERO_R }));
  const take = (l: StageLineAmount, sign: 1n | -1n): void => {
    const at = ledger[l.lineIndex];
    if (!at) return;
    const share = shareOf(l.share);
    ledger[l.lineIndex] = { invoicedCents: at.invoicedCents + sign * toCents(l.amount), share: sign > 0n ? add(at.share, share) : sub(at.share, share) };
  };
  for (const s of stages) for (const l of s.lines) take(l, 1n);
  for (const c of creditsStanding(stages, credits)) for (const l of c.lines) take(l, -1n);
  return ledger;
}

/** The credits of stages that still stand (a withdrawn stage has left the ledger whole). */
const creditsStanding = (stages: readonly StageRecord[], credits: readonly StageCreditRecord[]): StageCreditRecord[] =>
  credits.filter((c) => stages.some((s) => s.invoiceId === c.invoiceId));

/** What credit notes gave back of a stage, in whole cents. */
export const stageCreditedCents = (stage: Pick<StageRecord, 'invoiceId'>, credits: readonly StageCreditRecord[]): bigint =>
  credits.filter((c) => c.invoiceId === stage.invoiceId).reduce((a, c) => a + c.lines.reduce((b, l) => b + toCents(l.amount), 0n), 0n);

/** The numbers for a Quoted / Invoiced / Remaining bar, in whole cents. */
export interface StageSummary {
  quotedCents: bigint;
  invoicedCents: bigint;
  remainingCents: bigint;
}

/** A stage invoice's total: its amounts (each priced GST-inclusive, so the total is their sum). */
export const stageTotalCents = (s: StageRecord): bigint => s.lines.reduce((a, l) => a + toCents(l.amount), 0n);

/** Invoiced is net of credit notes on the stage invoices: a credited stage gives its share back. */
export function stageSummary(lines: readonly Line[], rounding: GstRounding, stages: readonly StageRecord[], credits: readonly StageCreditRecord[] = []): StageSummary {
  return stageSummaryOn(plainStageBasis(lines, rounding), stages, credits);
}

/**
 * What a stage is worked out over: the quote's lines (for a varied quote, the signed lines and then
 * each variation's lines, in the order they were proposed: a line keeps its index for good), each
 * line's value GST included, and for each line that may not be invoiced the reason why (a variation
 * the client has not approved). A line that may not be invoiced has no value.
 */
export interface StageBasis {
  lines: readonly Line[];
  values: readonly bigint[];
  /** Per line: null when it may be invoiced, else the refusal a person reads. */
  closed: readonly (string | null)[];
}

/** A quote whose every line may be invoiced, valued as one document (stageLineValues). */
export const plainStageBasis = (lines: readonly Line[], rounding: GstRounding): StageBasis => ({ lines, values: stageLineValues(lines, rounding), closed: lines.map(() => null) });

/** Quoted is what may be invoiced (the values of the open lines), invoiced what the stages took less what credit notes gave back. */
export function stageSummaryOn(basis: StageBasis, stages: readonly StageRecord[], credits: readonly StageCreditRecord[] = []): StageSummary {
  const quotedCents = basis.values.reduce((a, v, i) => (basis.closed[i] === null ? a + v : a), 0n);
  const invoicedCents = stages.reduce((a, s) => a + stageTotalCents(s) - stageCreditedCents(s, credits), 0n);
  return { quotedCents, invoicedCents, remainingCents: quotedCents - invoicedCents };
}

const lineName = (i: number): string => `Line ${i + 1}`;
const percentText = (r: Rational): string => {
  const tenths = roundHalfUp(rational(r.n * 1000n, r.d));
  return `${tenths / 10n}${tenths % 10n === 0n ? '' : `.${tenths % 10n}`} %`;
};

/** The lines a stage may take, numbered among themselves, with each one's name in the quote. */
interface OpenLines {
  values: bigint[];
  ledger: LineLedger[];
  names: string[];
}

/**
 * Shares of lines to cents, cumulatively: round(value × (before + share)) − what was invoiced.
 * Refuses a share that takes a line past its whole value.
 */
function byShares({ values, ledger, names }: OpenLines, shares: Map<number, Rational>): StageAllocation[] {
  const out: StageAllocation[] = [];
  for (const [i, share] of shares) {
    if (share.n === 0n) continue;
    const after = add(ledger[i]!.share, share);
    if (cmp(after, ONE) > 0) {
      const left = sub(ONE, ledger[i]!.share);
      throw invalid(`${names[i]} would be invoiced past 100 %: ${percentText(ledger[i]!.share)} of it is invoiced already, so at most ${percentText(left)} is left. Add a variation to the quote for more work.`);
    }
    // A variation can move a cent of value between lines (rounding on the total): never below nothing.
    const cents = roundHalfUp(timesCents(values[i]!, after)) - ledger[i]!.invoicedCents;
    out.push({ lineIndex: i, amountCents: cents > 0n ? cents : 0n, share });
  }
  return out.sort((a, b) => a.lineIndex - b.lineIndex);
}

/** What is left of each line, never below nothing; a line over its value (a cent moved by a variation) is made up from the others. */
function remainders(values: bigint[], ledger: LineLedger[]): bigint[] {
  const rest = values.map((v, i) => v - ledger[i]!.invoicedCents);
  let owed = rest.filter((r) => r < 0n).reduce((a, r) => a - r, 0n);
  const out = rest.map((r) => (r < 0n ? 0n : r));
  for (const i of out.map((_, i) => i).sort((a, b) => (out[b]! > out[a]! ? 1 : out[b]! < out[a]! ? -1 : a - b))) {
    if (owed === 0n) break;
    const take = out[i]! < owed ? out[i]! : owed;
    out[i] = out[i]! - take;
    owed -= take;
  }
  return out;
}

/** A fixed amount spread over what is left of the lines in proportion (largest remainder). */
function byAmount({ values, ledger }: OpenLines, cents: bigint): StageAllocation[] {
  const rest = remainders(values, ledger);
  const left = rest.reduce((a, b) => a + b, 0n);
  if (cents > left) throw invalid(`${formatNzd(cents)} is more than the ${formatNzd(left)} left to invoice on this quote. Add a variation to the quote for more work.`);
  const shares = largestRemainder(rest.map((r) => rational(cents * r, left)), cents);
  return shares.flatMap((a, i) => (a === 0n ? [] : [{ lineIndex: i, amountCents: a, share: values[i]! === 0n ? ZERO_R : shareCapped(a, values[i]!, ledger[i]!.share) }]));
}

/** a / value as a share, capped at what is left of the line's share. */
function shareCapped(a: bigint, value: bigint, before: Rational): Rational {
  const s = rational(a, value);
  const left = sub(ONE, before);
  return cmp(s, left) > 0 ? left : s;
}

function percentShare(text: string, what: string): Rational {
  const r = decimalRational(text);
  if (r === null) throw invalid(`${what} must be a number from 0 to 100 with at most ${LINE_LIMITS.maxDecimals} decimal places`);
  if (r.n === 0n) throw invalid(`${what} must be more than 0`);
  if (cmp(r, rational(100n)) > 0) throw invalid(`${what} cannot be more than 100`);
  return rational(r.n, r.d * 100n);
}

/**
 * What a stage takes of each quote line (lines with nothing taken are left out). Throws a
 * DomainError (VALIDATION) for bad input, a stage past 100 % of a line or of the quote, or a
 * stage of nothing.
 */
export function allocateStage(lines: readonly Line[], rounding: GstRounding, stages: readonly StageRecord[], request: StageRequest, credits: readonly StageCreditRecord[] = []): StageAllocation[] {
  return allocateStageOn(plainStageBasis(lines, rounding), stages, request, credits);
}

/**
 * allocateStage over a basis: only the open lines are invoiced (a percent of the quote, percent
 * complete, an amount and the final invoice leave the closed ones alone), and a request that names
 * a closed line is refused (CONFLICT) with the basis's reason.
 */
export function allocateStageOn(basis: StageBasis, stages: readonly StageRecord[], request: StageRequest, credits: readonly StageCreditRecord[] = []): StageAllocation[] {
  const slots = basis.closed.flatMap((c, i) => (c === null ? [i] : []));
  const at = new Map(slots.map((slot, k) => [slot, k]));
  const all = stageLedger(basis.lines.length, stages, credits);
  const open: OpenLines = { values: slots.map((i) => basis.values[i]!), ledger: slots.map((i) => all[i]!), names: slots.map(lineName) };
  /** A line the request names, numbered among the open lines; refused when it is closed or missing. */
  const named = (lineIndex: number): number => {
    if (!Number.isInteger(lineIndex) || !basis.lines[lineIndex]) throw invalid(`The quote has no line ${lineIndex}`);
    const reason = basis.closed[lineIndex];
    if (reason) throw conflict(reason);
    return at.get(lineIndex)!;
  };
  const { values, ledger } = open;
  let out: StageAllocation[];
  if (request.kind === 'final') {
    const rest = remainders(values, ledger);
    out = rest.flatMap((cents, i) => {
      const share = sub(ONE, ledger[i]!.share);
      return cents === 0n && share.n <= 0n ? [] : [{ lineIndex: i, amountCents: cents, share: share.n < 0n ? ZERO_R : share }];
    });
  } else if ('percent' in request) {
    const share = percentShare(request.percent, 'The percentage');
    const over = ledger.findIndex((l) => cmp(add(l.share, share), ONE) > 0);
    if (over >= 0) {
      const most = ledger.reduce((m, l) => (cmp(l.share, m) > 0 ? l.share : m), ZERO_R);
      throw invalid(`This would invoice past 100 % of the quote: ${open.names[over]} is ${percentText(ledger[over]!.share)} invoiced already, so at most ${percentText(sub(ONE, most))} of the whole quote is left. Add a variation to the quote for more work.`);
    }
    out = byShares(open, new Map(values.map((_, i) => [i, share])));
  } else if ('complete' in request) {
    const complete = percentShare(request.complete, 'The percentage complete');
    const shares = new Map<number, Rational>();
    ledger.forEach((l, i) => {
      if (cmp(complete, l.share) > 0) shares.set(i, sub(complete, l.share));
    });
    out = byShares(open, shares);
  } else if ('amount' in request) {
    const cents = requirePositiveCents(request.amount, 'The amount');
    out = byAmount(open, cents);
  } else if ('remainderOf' in request) {
    const shares = new Map<number, Rational>();
    for (const lineIndex of request.remainderOf) {
      const i = named(lineIndex);
      const left = sub(ONE, ledger[i]!.share);
      if (left.n > 0n) shares.set(i, left);
    }
    out = byShares(open, shares);
  } else {
    if (request.lines.length === 0) throw invalid('Name at least one line to invoice');
    const shares = new Map<number, Rational>();
    for (const l of request.lines) {
      const i = named(l.lineIndex);
      const line = basis.lines[l.lineIndex]!;
      if (shares.has(i)) throw invalid(`${lineName(l.lineIndex)} is named twice`);
      if ((l.percent === undefined) === (l.qty === undefined)) throw invalid(`${lineName(l.lineIndex)}: give either a percentage or a quantity`);
      if (l.percent !== undefined) shares.set(i, percentShare(l.percent, `${lineName(l.lineIndex)}: the percentage`));
      else {
        const q = decimalRational(l.qty!);
        const whole = decimalRational(line.qty);
        if (q === null) throw invalid(`${lineName(l.lineIndex)}: the quantity must be a number with at most ${LINE_LIMITS.maxDecimals} decimal places`);
        if (q.n === 0n) throw invalid(`${lineName(l.lineIndex)}: the quantity must be more than 0`);
        if (!whole || whole.n === 0n) throw invalid(`${lineName(l.lineIndex)} has no quantity to invoice part of`);
        if (cmp(q, whole) > 0) throw invalid(`${lineName(l.lineIndex)}: the quantity cannot be more than the ${line.qty} quoted`);
        shares.set(i, rational(q.n * whole.d, q.d * whole.n));
      }
    }
    out = byShares(open, shares);
  }
  if (out.every((a) => a.amountCents === 0n)) throw invalid(request.kind === 'final' ? 'Everything on this quote is invoiced already: there is nothing left for a final invoice' : 'This stage comes to $0.00: there is nothing to invoice');
  // Back to the quote's own line numbers.
  return out.map((a) => ({ ...a, lineIndex: slots[a.lineIndex]! }));
}

/** The allocation as the quote records it. */
export const stageLinesOf = (allocation: readonly StageAllocation[]): StageLineAmount[] =>
  allocation.map((a) => ({ lineIndex: a.lineIndex, amount: centsToString(a.amountCents), share: shareToString(a.share) }));

/**
 * The stage invoice's lines: each line's amount as one GST-inclusive unit at the line's own GST
 * rate, named after the quote's line (lines of $0.00 are left out).
 */
export function stageInvoiceLines(quoteLines: readonly Line[], stage: Pick<StageRecord, 'kind' | 'lines'>, earlier: readonly Pick<StageRecord, 'lines'>[] = []): StoredLine[] {
  return stage.lines
    .filter((l) => toCents(l.amount) > 0n)
    .map((l) => {
      const q = quoteLines[l.lineIndex]!;
      const description = `${STAGE_LABELS[stage.kind]} (${percentText(shareOf(l.share))} of the line): ${q.description}`.slice(0, LINE_LIMITS.description);
      const before = earlier.reduce((a, s) => s.lines.filter((x) => x.lineIndex === l.lineIndex).reduce((b, x) => add(b, shareOf(x.share)), a), ZERO_R);
      return { description, qty: '1', unit_price: l.amount, tax_included: true, tax_rate: q.tax_rate, cost: stageCost(q, before, shareOf(l.share)), category: q.category ?? 'other', markup: q.markup ?? null };
    });
}

/**
 * A stage's share of a quote line's cost, in dollars and cents: cumulative as the amounts are —
 * round(cost × (earlier shares + this share)) − round(cost × earlier shares) — so the stages of a
 * line carry its whole cost to the cent once it is invoiced in full. Null: the line has no cost.
 */
export function stageCost(line: Pick<Line, 'qty' | 'cost'>, before: Rational, share: Rational): string | null {
  if (line.cost === undefined || line.cost === null) return null;
  const q = parseExactDecimal(line.qty);
  const c = parseExactDecimal(line.cost);
  if (!q || !c) return null;
  const whole = rational(q.m * c.m * 100n, 10n ** BigInt(q.scale + c.scale));
  const upTo = (r: Rational) => roundHalfUp(rational(whole.n * r.n, whole.d * r.d));
  return centsToString(upTo(add(before, share)) - upTo(before));
}

/**
 * The note a final invoice carries: the earlier stage invoices, for information (not deducted
 * lines), each with what credit notes gave back of it.
 */
export function finalInvoiceNote(earlier: readonly StageRecord[], credits: readonly StageCreditRecord[] = []): string {
  if (earlier.length === 0) return '';
  const rows = earlier.map((s) => {
    const own = credits.filter((c) => c.invoiceId === s.invoiceId);
    const credited = own.length === 0 ? '' : `, less ${formatNzd(stageCreditedCents(s, own))} credited (${own.map((c) => c.creditNoteReference).join(', ')})`;
    return `${s.reference} (${STAGE_LABELS[s.kind].toLowerCase()}): ${formatNzd(stageTotalCents(s))} incl. GST${credited}`;
  });
  return ['Invoiced earlier for this quote:', ...rows, 'This final invoice is for the remainder.'].join('\n');
}

/**
 * What a credit note of `creditCents` (GST included) on a stage invoice gives back to the quote, of
 * each line the stage took (`values`: each quote line's value, as the stages are worked over).
 * `weights` are the cents credited of each quote line when the credit names the stage invoice's
 * lines (each is one quote line's share); null for a credit of an amount, which is spread over what is left of the stage's lines in proportion (the largest
 * remainder). Never more than is left of the stage; the credit that takes the rest of it gives
 * back exactly its amounts and shares. A share given back is the cents ÷ the line's value, so
 * what is invoiced of a line stays within half a cent of its share, as the stages keep it.
 */
export function stageCreditLines(
  values: readonly bigint[],
  stage: StageRecord,
  earlier: readonly StageCreditRecord[],
  creditCents: bigint,
  weights: ReadonlyMap<number, bigint> | null,
): StageLineAmount[] {
  const given = new Map<number, { cents: bigint; share: Rational }>();
  for (const c of earlier) {
    if (c.invoiceId !== stage.invoiceId) continue;
    for (const l of c.lines) {
      const at = given.get(l.lineIndex) ?? { cents: 0n, share: ZERO_R };
      given.set(l.lineIndex, { cents: at.cents + toCents(l.amount), share: add(at.share, shareOf(l.share)) });
    }
  }
  const left = stage.lines.map((l) => {
    const g = given.get(l.lineIndex) ?? { cents: 0n, share: ZERO_R };
    return { lineIndex: l.lineIndex, cents: toCents(l.amount) - g.cents, share: sub(shareOf(l.share), g.share) };
  });
  const leftCents = left.reduce((a, l) => a + l.cents, 0n);
  if (creditCents <= 0n || leftCents <= 0n) return [];
  if (creditCents >= leftCents) {
    // The rest of the stage: all of it goes back.
    return left.filter((l) => l.cents > 0n || l.share.n > 0n).map((l) => ({ lineIndex: l.lineIndex, amount: centsToString(l.cents), share: shareToString(l.share.n < 0n ? ZERO_R : l.share) }));
  }
  const named = weights && left.every((l) => (weights.get(l.lineIndex) ?? 0n) <= l.cents) ? left.map((l) => weights.get(l.lineIndex) ?? 0n) : null;
  const basis = named && named.reduce((a, w) => a + w, 0n) > 0n ? named : left.map((l) => l.cents);
  const basisTotal = basis.reduce((a, w) => a + w, 0n);
  let cents = largestRemainder(basis.map((w) => rational(creditCents * w, basisTotal)), creditCents);
  // Proportions of what is named can overshoot a line by a cent: then spread over what is left instead.
  if (cents.some((c, i) => c > left[i]!.cents)) cents = largestRemainder(left.map((l) => rational(creditCents * l.cents, leftCents)), creditCents);
  return left.flatMap((l, i) => {
    const c = cents[i]!;
    if (c === 0n) return [];
    const value = values[l.lineIndex] ?? 0n;
    const share = value === 0n ? ZERO_R : rational(c, value);
    return [{ lineIndex: l.lineIndex, amount: centsToString(c), share: shareToString(cmp(share, l.share) > 0 ? l.share : share) }];
  });
}

/**
 * The cents a credit of lines takes of each quote line, when the stage invoice still has the lines
 * the stage gave it (one GST-inclusive unit per quote line taken, in order): its credited lines'
 * amounts by the quote line each stands for. Null when the lines are not the stage's (changed
 * while a draft) or the credit is of an amount.
 */
export function stageCreditWeights(
  quoteLines: readonly Line[],
  stage: StageRecord,
  invoiceLines: readonly Line[],
  credited: readonly { lineIndex: number; line: Line }[],
): Map<number, bigint> | null {
  if (credited.length === 0) return null;
  const own = stageInvoiceLines(quoteLines, stage);
  const taken = stage.lines.filter((l) => toCents(l.amount) > 0n);
  if (own.length !== invoiceLines.length || own.some((l, i) => l.unit_price !== invoiceLines[i]!.unit_price || l.tax_included !== invoiceLines[i]!.tax_included)) return null;
  const weights = new Map<number, bigint>();
  for (const c of credited) {
    const quoteLine = taken[c.lineIndex]?.lineIndex;
    if (quoteLine === undefined) return null;
    const cents = documentTotals([c.line], 'line').lines[0]!.amountCents;
    weights.set(quoteLine, (weights.get(quoteLine) ?? 0n) + cents);
  }
  return weights;
}
