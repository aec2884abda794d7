// Payment terms New Zealand businesses use, and the due date an invoice gets from them. Terms are
// kept as the words a tradie reads ('14 days', '20th of the month following', 'Due on receipt'),
// so the ones saved before any of this read as they always did. `dueDateFor` is the one function
// that works a due date out: the screens, the PDF, the client's page and the reminders show the
// date it gave, and `paymentTermsText` is how the terms and that date are said everywhere.
import { type LocalDate, addDays, formatNzDate, isLocalDate } from './dates.ts';

export const DUE_ON_RECEIPT = 'Due on receipt';
/** The 20th of the month after the invoice's month (a December invoice: the 20th of January). */
export const TWENTIETH_OF_NEXT_MONTH = '20th of the month following';
/** The most days a 'N days' term may give. */
export const MAX_TERM_DAYS = 365;

export type PaymentTerms = typeof DUE_ON_RECEIPT | typeof TWENTIETH_OF_NEXT_MONTH | '1 day' | `${number} days`;

/** The terms offered as choices, '7 days' the default; any number of days from 1 to 365 is accepted too. */
export const PAYMENT_TERMS = [DUE_ON_RECEIPT, '7 days', '14 days', TWENTIETH_OF_NEXT_MONTH, '30 days', '60 days'] as const satisfies readonly PaymentTerms[];
export const DEFAULT_PAYMENT_TERMS: PaymentTerms = '7 days';

/** What terms mean, for working a due date out. */
export type PaymentTermsRule = { kind: 'on_receipt' } | { kind: 'days'; days: number } | { kind: 'twentieth_following' };

const DAYS = /^([1-9]\d{0,2}) days?$/;

/** The rule written in `s`, or null when `s` is not payment terms ('0 days', '1 days', '400 days' and '7 Days' are not). */
export function parsePaymentTerms(s: unknown): PaymentTermsRule | null {
  if (s === DUE_ON_RECEIPT) return { kind: 'on_receipt' };
  if (s === TWENTIETH_OF_NEXT_MONTH) return { kind: 'twentieth_following' };
  if (typeof s !== 'string') return null;
  const m = DAYS.exec(s);
  if (!m) return null;
  const days = Number(m[1]);
  if (days > MAX_TERM_DAYS || s !== daysTerms(days)) return null;
  return { kind: 'days', days };
}

export const isPaymentTerms = (s: unknown): s is PaymentTerms => parsePaymentTerms(s) !== null;

/** 'N days' as it is written ('1 day', '21 days'). */
export const daysTerms = (days: number): PaymentTerms => (days === 1 ? '1 day' : `${days} days`);

/** What a refused value is told. */
export const PAYMENT_TERMS_MESSAGE = `Payment terms must be '${DUE_ON_RECEIPT}', a number of days from 1 to ${MAX_TERM_DAYS} ('14 days') or '${TWENTIETH_OF_NEXT_MONTH}'`;

/**
 * The due date an invoice issued on `issueDate` gets from `terms`: the issue date when due on
 * receipt, N calendar days later, or the 20th of the following month (December → 20 January).
 * Throws a RangeError on a day that is not a calendar day or terms that are not terms.
 */
export function dueDateFor(issueDate: LocalDate, terms: PaymentTerms): LocalDate {
  if (!isLocalDate(issueDate)) throw new RangeError(`Not a calendar day: ${JSON.stringify(issueDate)}`);
  const rule = parsePaymentTerms(terms);
  if (!rule) throw new RangeError(`Not payment terms: ${JSON.stringify(terms)}`);
  switch (rule.kind) {
    case 'on_receipt':
      return issueDate;
    case 'days':
      return addDays(issueDate, rule.days);
    case 'twentieth_following': {
      const [y, m] = issueDate.split('-').map(Number) as [number, number];
      const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
      return `${ny}-${String(nm).padStart(2, '0')}-20`;
    }
  }
}

/** The terms and the due date as every paper and screen says them: 'Due on receipt', '14 days — due 19/05/2026'. */
export function paymentTermsText(terms: PaymentTerms, dueDate: LocalDate): string {
  return terms === DUE_ON_RECEIPT ? DUE_ON_RECEIPT : `${terms} — due ${formatNzDate(dueDate)}`;
}

/** How long a quote stays open by default. */
export const QUOTE_VALID_DAYS = 30;
export const quoteValidUntil = (issueDate: LocalDate): LocalDate => addDays(issueDate, QUOTE_VALID_DAYS);
