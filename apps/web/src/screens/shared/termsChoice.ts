// Payment terms as a form offers them: the usual ones in a list (due on receipt, 7 and 14 days, the
// 20th of the month following, 30 and 60 days), or any other number of days typed, and the due date
// they give an invoice issued today, worked out by the domain's dueDateFor (as the invoice will be).
import { daysTerms, dueDateFor, formatNzDateLong, MAX_TERM_DAYS, PAYMENT_TERMS, type LocalDate, type PaymentTerms } from '@tradie/domain';

/** The list's entry for a number of days not in it. */
export const OTHER_DAYS = 'other-days';
export type TermsChoice = (typeof PAYMENT_TERMS)[number] | typeof OTHER_DAYS;

export const TERMS_TEXT = {
  otherDays: 'Another number of days…',
  daysLabel: 'Days to pay',
  daysInvalid: `Type a whole number of days from 1 to ${MAX_TERM_DAYS}`,
} as const;

const listed = (terms: string): terms is (typeof PAYMENT_TERMS)[number] => (PAYMENT_TERMS as readonly string[]).includes(terms);

/** Which list entry shows these terms: their own, or 'another number of days' for e.g. '21 days'. */
export const choiceOfTerms = (terms: PaymentTerms): TermsChoice => (listed(terms) ? terms : OTHER_DAYS);

/** The days typed as terms ('21' → '21 days', '1' → '1 day'), or null when they are not 1 to 365 whole days. */
export function termsFromDays(text: string): PaymentTerms | null {
  const t = text.trim();
  if (!/^\d{1,3}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= MAX_TERM_DAYS ? daysTerms(n) : null;
}

/** The days of 'N days' terms as the box shows them ('' for other terms). */
export const daysOfTerms = (terms: PaymentTerms): string => /^(\d+) days?$/.exec(terms)?.[1] ?? '';

/** 'An invoice issued today (28 November 2026) is due 20 December 2026.' */
export function dueDateLine(terms: PaymentTerms, today: LocalDate): string {
  const due = dueDateFor(today, terms);
  return due === today
    ? `An invoice issued today (${formatNzDateLong(today)}) is due the same day.`
    : `An invoice issued today (${formatNzDateLong(today)}) is due ${formatNzDateLong(due)}.`;
}
