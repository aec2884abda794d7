// Credit notes (supply correction information): what a credit against an issued invoice holds and
// how much it is. Pure helpers the invoice decider (document.ts) uses; kept apart so the rules
// read on their own. A credit note is numbered on its own sequence (CN-0001) and recorded on the
// invoice's stream (docs/decisions/0014-credit-notes.md).
//
// Money: the credited lines' totals are the domain's documentTotals with the invoice's GST
// rounding, so a credit of lines rounds exactly as the invoice did. The credit that brings what is
// credited to the invoice's whole total carries what is left of each figure (subtotal, GST,
// zero-rated), so all credit notes of a fully credited invoice add up to the invoice to the cent.
import { type LocalDate, compareDates, formatNzDateLong, isLocalDate } from '../dates/dates.ts';
import { invalid } from '../errors.ts';
import { type CentsFigures, type GstRounding, documentTotals } from '../gst/gst.ts';
import { Decimal } from '../money/decimal.ts';
import { centsToString, formatNzd, requirePositiveCents, toCents } from '../money/money.ts';
import { apportionCumulative } from '../money/rounding.ts';
import type { CreditNoteIssuedData, PaymentMethod } from './events.ts';
import { LINE_LIMITS, type Line, canonicalDecimal } from './lineValues.ts';

/** Money paid back to the client against a credit note (CreditNoteRefunded). */
export interface CreditNoteRefund {
  refundId: string;
  amount: string;
  date: LocalDate;
  method: PaymentMethod;
  reference: string;
  recordedAt: string | null;
}

/** An attempt to email a credit note to the client, with what happened to it (CreditNoteEmailed). */
export interface CreditNoteSend {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  at: string | null;
  outcome: 'delivered' | 'saved_not_delivered' | 'failed';
  detail: string | null;
}

/** A credit note as the invoice holds it: what it was issued with, the refunds against it and its emails. */
export interface CreditNote extends Omit<CreditNoteIssuedData, 'documentId'> {
  issuedAt: string | null;
  refunds: CreditNoteRefund[];
  sends: CreditNoteSend[];
}

/** What the business asks to credit: some lines (all or part of their quantity), or an amount (GST-inclusive). */
export type CreditRequest = { kind: 'lines'; lines: { lineIndex: number; qty?: string | undefined }[] } | { kind: 'amount'; amount: string };

/** The credit worked out: the lines credited (or the amount) and the correction's figures in cents. */
export interface CreditFigures extends CentsFigures {
  lines: { lineIndex: number; line: Line }[];
  amount: string | null;
}

export const creditNoteCents = (n: Pick<CreditNote, 'total'>): bigint => toCents(n.total);

/** What all the credit notes credited, GST-inclusive. */
export const creditedCents = (notes: readonly CreditNote[]): bigint => notes.reduce((a, n) => a + toCents(n.total), 0n);

/** What was paid back to the client against the credit notes. */
export const creditRefundedCents = (notes: readonly CreditNote[]): bigint =>
  notes.reduce((a, n) => a + n.refunds.reduce((b, r) => b + toCents(r.amount), 0n), 0n);

/** What was paid back against one credit note. */
export const refundedOn = (n: CreditNote): bigint => n.refunds.reduce((a, r) => a + toCents(r.amount), 0n);

/** The quantity of each invoice line credited so far by earlier credits of lines. */
function creditedQuantities(notes: readonly CreditNote[]): Map<number, Decimal> {
  const q = new Map<number, Decimal>();
  for (const n of notes) for (const l of n.lines) q.set(l.lineIndex, (q.get(l.lineIndex) ?? new Decimal(0)).plus(l.line.qty));
  return q;
}

const sum = (notes: readonly CreditNote[], pick: (n: CreditNote) => string): bigint => notes.reduce((a, n) => a + toCents(pick(n)), 0n);

/**
 * The credit `request` makes on an invoice of `lines` (rounded as `rounding`) that earlier credit
 * notes `previous` already credited: throws a validation error for a request that names no line,
 * a line twice or one that is not there, a quantity that is not a positive number of at most four
 * places or more than is left of the line, an amount that is not whole cents, or a credit of more
 * than the invoice's total less what is already credited.
 */
export function creditFigures(invoice: { lines: readonly Line[]; gstRounding: GstRounding }, previous: readonly CreditNote[], request: CreditRequest): CreditFigures {
  const invoiceTotals = documentTotals(invoice.lines, invoice.gstRounding);
  const before = {
    total: sum(previous, (n) => n.total),
    gst: sum(previous, (n) => n.gst),
    subtotal: sum(previous, (n) => n.subtotal),
    zero: sum(previous, (n) => n.zeroRated),
  };
  const left = invoiceTotals.totalCents - before.total;
  if (left <= 0n) throw invalid('This invoice is already fully credited');
  const remainder = (): Omit<CreditFigures, 'lines' | 'amount'> => ({
    subtotalCents: invoiceTotals.subtotalCents - before.subtotal,
    gstCents: invoiceTotals.gstCents - before.gst,
    totalCents: left,
    zeroRatedCents: invoiceTotals.zeroRatedCents - before.zero,
  });
  const overCredit = (cents: bigint): never => {
    throw invalid(`This credit of ${formatNzd(cents)} is more than the ${formatNzd(left)} left to credit on the invoice`);
  };

  if (request.kind === 'amount') {
    const cents = requirePositiveCents(request.amount, 'A credit');
    if (cents > left) overCredit(cents);
    if (cents === left) return { lines: [], amount: centsToString(cents), ...remainder() };
    // The GST in an amount is the invoice's GST in the same proportion, apportioned over what was
    // credited before so the credits of a whole invoice carry exactly its GST.
    const gstCents = apportionCumulative(invoiceTotals.gstCents, invoiceTotals.totalCents, before.total, cents);
    const zeroRatedCents = apportionCumulative(invoiceTotals.zeroRatedCents, invoiceTotals.totalCents, before.total, cents);
    return { lines: [], amount: centsToString(cents), subtotalCents: cents - gstCents, gstCents, totalCents: cents, zeroRatedCents };
  }

  if (request.lines.length === 0) throw invalid('Choose at least one line to credit');
  const seen = new Set<number>();
  const already = creditedQuantities(previous);
  const credited: { lineIndex: number; line: Line }[] = [];
  for (const r of request.lines) {
    if (!Number.isInteger(r.lineIndex) || r.lineIndex < 0 || r.lineIndex >= invoice.lines.length) throw invalid(`The invoice has no line ${r.lineIndex + 1}`);
    if (seen.has(r.lineIndex)) throw invalid(`Line ${r.lineIndex + 1} is named twice`);
    seen.add(r.lineIndex);
    const line = invoice.lines[r.lineIndex]!;
    const lineQty = new Decimal(line.qty);
    if (lineQty.isZero()) throw invalid(`Line ${r.lineIndex + 1} has nothing to credit`);
    // A line of a negative quantity (a discount) is credited in negative quantities.
    const sign = lineQty.isNegative() ? -1 : 1;
    const leftQty = lineQty.minus(already.get(r.lineIndex) ?? 0);
    let qty: Decimal;
    try {
      qty = r.qty === undefined ? leftQty : new Decimal(r.qty);
    } catch {
      throw invalid(`The quantity to credit on line ${r.lineIndex + 1} must be a number`);
    }
    if (!qty.isFinite() || qty.decimalPlaces() > LINE_LIMITS.maxDecimals) throw invalid(`The quantity to credit on line ${r.lineIndex + 1} must be a number with at most ${LINE_LIMITS.maxDecimals} decimal places`);
    if (leftQty.times(sign).lte(0)) throw invalid(`Line ${r.lineIndex + 1} is already fully credited`);
    if (qty.times(sign).lte(0)) throw invalid(`The quantity to credit on line ${r.lineIndex + 1} must be ${sign > 0 ? 'more than 0' : 'below 0, as the line is'}`);
    if (qty.times(sign).gt(leftQty.times(sign))) throw invalid(`Line ${r.lineIndex + 1} has only ${canonicalDecimal(leftQty)} left to credit`);
    credited.push({ lineIndex: r.lineIndex, line: { ...line, qty: canonicalDecimal(qty) } });
  }
  credited.sort((a, b) => a.lineIndex - b.lineIndex);
  // Every line with a quantity credited in full by lines now, and nothing by an amount before:
  // this credit closes the invoice and carries what is left of each figure.
  const allLinesDone =
    previous.every((n) => n.amount === null) &&
    invoice.lines.every((l, i) => {
      if (new Decimal(l.qty).isZero()) return true;
      const now = credited.find((c) => c.lineIndex === i)?.line.qty ?? 0;
      return (already.get(i) ?? new Decimal(0)).plus(now).eq(l.qty);
    });
  if (allLinesDone) return { lines: credited, amount: null, ...remainder() };
  const t = documentTotals(credited.map((c) => c.line), invoice.gstRounding);
  if (t.totalCents > left) overCredit(t.totalCents);
  if (t.totalCents <= 0n) throw invalid('A credit must be more than $0.00');
  if (t.totalCents === left) return { lines: credited, amount: null, ...remainder() };
  return { lines: credited, amount: null, subtotalCents: t.subtotalCents, gstCents: t.gstCents, totalCents: t.totalCents, zeroRatedCents: t.zeroRatedCents };
}

/** A refund against a credit note: dated on or after it, whole cents, more than nothing, at most `owedBackCents` and what is left of the note. */
export function checkCreditRefund(note: CreditNote, amount: string, date: string, owedBackCents: bigint): bigint {
  if (!isLocalDate(date)) throw invalid('The refund date is not a valid date');
  // Money is paid back on a credit note once it is issued: an earlier date would put the refund
  // in a period before the credit, one that may be filed already.
  if (compareDates(date, note.date) < 0) throw invalid(`A refund can't be dated before its credit note: ${note.reference} is dated ${formatNzDateLong(note.date)}`);
  const cents = requirePositiveCents(amount, 'A refund');
  const leftOnNote = toCents(note.total) - refundedOn(note);
  const most = owedBackCents < leftOnNote ? owedBackCents : leftOnNote;
  if (most <= 0n) throw invalid('Nothing is owed back to the client on this credit note');
  if (cents > most) throw invalid(`This refund is more than the ${formatNzd(most)} owed back to the client`);
  return cents;
}
