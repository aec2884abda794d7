// The claim form's fields as the screen holds them (text), and the API body made from them.
import type { PaymentClaimInput, PaymentClaimRecord } from '@tradie/contracts';
import { formatNzDateLong, isLocalDate } from '@tradie/domain';

export interface ClaimFields {
  contract_reference: string;
  contract_date: string;
  site: string;
  work: string;
  period_from: string;
  period_to: string;
  retention_percent: string;
  payment_due_date: string;
  schedule_working_days: string;
  /**
   * Which due date for payment applies, when the Act's default and the invoice's own differ: the
   * invoice's ('invoice'), the Act's ('act'), or a date the contract sets ('contract', the date above);
   * '' while not chosen.
   */
  due: '' | 'invoice' | 'act' | 'contract';
}

/** The form's fields from the claim's details, and which due date they stand for when the screen asks. */
export const fieldsOf = (d: PaymentClaimRecord['details'], question: PaymentClaimRecord['due_date_question'] = null): ClaimFields => ({
  contract_reference: d.contract_reference,
  contract_date: d.contract_date ?? '',
  site: d.site,
  work: d.work,
  period_from: d.period_from ?? '',
  period_to: d.period_to ?? '',
  retention_percent: d.retention_percent === '0' ? '' : d.retention_percent,
  payment_due_date: d.payment_due_date ?? '',
  schedule_working_days: d.schedule_working_days === null ? '' : String(d.schedule_working_days),
  due: question ? (question.chosen ?? '') : '',
});

/** What is wrong with the due date's choice before saving: nothing, or the question unanswered. */
export function dueChoiceProblem(f: ClaimFields, question: PaymentClaimRecord['due_date_question']): string | null {
  if (!question) return null;
  if (f.due === '') return `${question.text} Choose one below.`;
  if (f.due === 'contract' && !f.payment_due_date) return 'Enter the due date the contract sets';
  return null;
}

/** The body for PUT /invoices/{id}/payment-claim. Blank stays blank: the server says what sending still needs. */
export function claimBody(f: ClaimFields, version: number | undefined): PaymentClaimInput {
  const days = f.schedule_working_days.trim();
  const chosen = f.due === 'invoice' || f.due === 'act' ? f.due : null;
  return {
    contract_reference: f.contract_reference,
    contract_date: f.contract_date || null,
    site: f.site,
    work: f.work,
    period_from: f.period_from || null,
    period_to: f.period_to || null,
    retention_percent: f.retention_percent.trim() === '' ? '0' : f.retention_percent.trim(),
    payment_due_date: chosen ? null : f.payment_due_date || null,
    due_date_choice: chosen,
    schedule_working_days: days === '' ? null : Number(days),
    ...(version === undefined ? {} : { version }),
  };
}

/** '3 June 2026', or '' for no date. */
export const longDate = (d: string | null): string => (d && isLocalDate(d) ? formatNzDateLong(d) : '');

/** Which of the form's fields a missing element points at (to mark it). */
export const MISSING_FIELD: Record<string, keyof ClaimFields | null> = {
  contract_reference: 'contract_reference',
  contract_date: 'contract_date',
  site: 'site',
  work: 'work',
  period: 'period_from',
  client: null,
  amount: null,
};
