// Checks every decision shares: the document exists and is the right kind, its lines, totals and dates are
// sound, a payment is well formed, and the business's GST registration agrees with the document.
import { type LocalDate, compareDates, formatNzDateLong, isLocalDate } from '../../dates/dates.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { type GstRounding, documentTotals } from '../../gst/gst.ts';
import { GST_REGISTRATION_MESSAGES, type GstRegistration, chargesGst } from '../../gst/registration.ts';
import { centsToString, formatNzd, requirePositiveCents, toCents } from '../../money/money.ts';
import { parseExactDecimal } from '../../money/rounding.ts';
import { CATEGORY_ID_PATTERN } from '../../profit/categories.ts';
import { accountingProviderName } from '../accountingProviders.ts';
import { type DocumentCommand, documentNoun } from '../commands.ts';
import type { AccountingSource, DocumentEvent, DocumentType, PaymentData, PaymentMethod } from '../events.ts';
import { documentFigures, timeOfSupply } from '../figures.ts';
import { LINE_LIMITS, MAX_DOCUMENT_TOTAL, type Line } from '../lineValues.ts';
import { TAX_RATE_MESSAGE, isNzGstRate } from '../lines.ts';
import type { DocumentView, DocumentState } from '../view.ts';

export function requireExisting(state: DocumentState): DocumentView {
  if (state.status === 'none' || state.status === 'deleted') throw notFound('Invoice or quote not found');
  return state;
}

export function requireInvoice(d: DocumentView, what: string): void {
  if (d.type !== 'invoice') throw conflict(`Quotes can't ${what}. Convert the quote to an invoice first.`);
}

export function requireNotVoid(d: DocumentView): void {
  if (d.status === 'void') throw conflict(`This ${documentNoun(d.type)} is void.`);
}

export const MAX_TOTAL_CENTS = toCents(MAX_DOCUMENT_TOTAL);

/**
 * A document comes to at most MAX_DOCUMENT_TOTAL, GST included, so every amount it shows is exact
 * as a JSON number. Every line is worth at least nothing, so no line, subtotal or GST is more.
 */
export function checkTotal(lines: readonly Line[], rounding: GstRounding, type: DocumentType): void {
  const { totalCents } = documentTotals(lines, rounding);
  if (totalCents > MAX_TOTAL_CENTS) {
    const noun = documentNoun(type);
    throw invalid(`${noun === 'invoice' ? 'An invoice' : 'A quote'} can come to at most ${formatNzd(MAX_TOTAL_CENTS)} (GST included), and this one comes to ${formatNzd(totalCents)}. Split the work over more than one ${noun}.`);
  }
}

/** A cost, where recorded, is a plain decimal of 0 or more; a category an id; a line's own markup a percentage. */
export function checkCosts(lines: readonly Line[]): void {
  const plain = (v: string) => {
    const p = parseExactDecimal(v);
    return p !== null && p.m >= 0n && p.scale <= LINE_LIMITS.maxDecimals;
  };
  for (const l of lines) {
    if (l.cost !== undefined && l.cost !== null && !plain(l.cost)) throw invalid(`${l.description}: the cost must be a number of 0 or more with at most ${LINE_LIMITS.maxDecimals} decimal places`);
    if (l.category !== undefined && !CATEGORY_ID_PATTERN.test(l.category)) throw invalid(`${l.description}: '${l.category}' is not a category`);
    if (l.markup !== undefined && l.markup !== null && !plain(l.markup)) throw invalid(`${l.description}: the markup must be a percentage of 0 or more`);
  }
}

export function checkLinesAndDates(lines: Line[], issueDate: LocalDate, dueDate: LocalDate, validUntil: LocalDate | null, rounding: GstRounding, type: DocumentType): void {
  if (lines.length === 0) throw invalid('Add at least one line item');
  if (lines.length > LINE_LIMITS.maxLines) throw invalid(`A document can have at most ${LINE_LIMITS.maxLines} line items`);
  if (lines.some((l) => l.description.trim() === '')) throw invalid('Each line needs a description');
  if (lines.some((l) => !isNzGstRate(l.tax_rate))) throw invalid(TAX_RATE_MESSAGE);
  checkTotal(lines, rounding, type);
  checkCosts(lines);
  if (!isLocalDate(issueDate)) throw invalid('The issue date is not a valid date');
  if (!isLocalDate(dueDate)) throw invalid('The due date is not a valid date');
  if (compareDates(dueDate, issueDate) < 0) throw invalid('The due date cannot be before the issue date');
  if (validUntil !== null) {
    if (!isLocalDate(validUntil)) throw invalid('The valid-until date is not a valid date');
    if (compareDates(validUntil, issueDate) < 0) throw invalid('A quote cannot expire before its issue date');
  }
}

export function paymentEvent(d: DocumentView, p: { paymentId: string; amount: string; date: LocalDate; method: PaymentMethod; reference: string; source?: AccountingSource | undefined }): DocumentEvent {
  requireInvoice(d, 'take payments');
  requireNotVoid(d);
  if (!isLocalDate(p.date)) throw invalid('The payment date is not a valid date');
  if (d.payments.some((x) => x.paymentId === p.paymentId)) throw conflict('This payment is already recorded');
  if (p.source && d.payments.some((x) => sameSource(x.source, p.source))) throw conflict(`This payment is already recorded from ${accountingProviderName(p.source.provider)}`);
  const cents = requirePositiveCents(p.amount, 'A payment');
  const { balanceCents } = documentFigures(d);
  if (balanceCents <= 0n) throw conflict('This invoice is already paid in full');
  if (cents > balanceCents) throw invalid(`This payment is more than the ${formatNzd(balanceCents)} still owing`);
  // Once issued, the invoice's GST period is set: an earlier payment would move it back into a
  // period that may be filed already. (A payment on a draft, a deposit, may be dated before it.)
  if (d.issuedOn !== null) {
    const supply = timeOfSupply(d);
    if (compareDates(p.date, supply) < 0) {
      throw invalid(`This invoice counts for GST from ${formatNzDateLong(supply)}, so a payment on it can't be dated before then: that would move the invoice into an earlier GST period. Please check the payment date.`);
    }
  }
  const data: PaymentData = { documentId: d.id, paymentId: p.paymentId, amount: centsToString(cents), date: p.date, method: p.method, reference: p.reference };
  return { type: 'PaymentRecorded', data: p.source ? { ...data, source: { provider: p.source.provider, externalId: p.source.externalId } } : data };
}

/** Whether two accounting sources name the same record there. */
export const sameSource = (a: AccountingSource | undefined, b: AccountingSource | undefined): boolean =>
  a !== undefined && b !== undefined && a.provider === b.provider && a.externalId === b.externalId;

/** The command of a given type. */
export type CommandOf<T extends DocumentCommand['type']> = Extract<DocumentCommand, { type: T }>;

// ---- GST registration ----------------------------------------------------------------------

/**
 * Nothing is given to the client (emailed, handed over, shared by link) while the business's GST
 * registration and the document disagree: a registered business's document needs its GST number
 * (a tax invoice must show it), and a draft saved under the other registration must be saved
 * again first, so its GST is what the business may charge. An issued document keeps the GST it
 * was issued with. `gst` is the business's registration now; left out, nothing is checked.
 */
export function requireGstReady(d: DocumentView, gst: GstRegistration | undefined): void {
  if (!gst) return;
  // Saved before registration was recorded: it charged GST as a registered business would.
  const saved = d.gstRegistered ?? (chargesGst(d.lines) ? true : gst.registered);
  const unissued = d.status === 'draft';
  if (unissued && saved !== gst.registered) {
    throw conflict(gst.registered ? GST_REGISTRATION_MESSAGES.registeredSince(documentNoun(d.type)) : GST_REGISTRATION_MESSAGES.notRegisteredSince(documentNoun(d.type)));
  }
  if (saved && gst.gstNumber.trim() === '') throw invalid(gst.registered ? GST_REGISTRATION_MESSAGES.noNumber : GST_REGISTRATION_MESSAGES.noNumberOnTaxInvoice);
}
