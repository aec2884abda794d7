import { type LocalDate, addDays } from './dates.ts';

/** Clients' payment-terms options, '7 days' the default. */
export const PAYMENT_TERMS = ['Due on receipt', '7 days', '14 days', '30 days', '60 days'] as const;
export type PaymentTerms = (typeof PAYMENT_TERMS)[number];
export const DEFAULT_PAYMENT_TERMS: PaymentTerms = '7 days';

export const isPaymentTerms = (s: unknown): s is PaymentTerms => typeof s === 'string' && (PAYMENT_TERMS as readonly string[]).includes(s);

const TERM_DAYS: Record<PaymentTerms, number> = { 'Due on receipt': 0, '7 days': 7, '14 days': 14, '30 days': 30, '60 days': 60 };

/** The due date an invoice gets from its issue date and the client's terms. */
export const dueDateFor = (issueDate: LocalDate, terms: PaymentTerms): LocalDate => addDays(issueDate, TERM_DAYS[terms]);

/** How long a quote stays open by default. */
export const QUOTE_VALID_DAYS = 30;
export const quoteValidUntil = (issueDate: LocalDate): LocalDate => addDays(issueDate, QUOTE_VALID_DAYS);
