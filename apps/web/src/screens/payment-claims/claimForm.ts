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
}

export const fieldsOf = (d: PaymentClaimRecord['details']): ClaimFields => ({
  contract_reference: d.contract_reference,
  contract_date: d.contract_date ?? '',
  site: d.site,
  work: d.work,
  period_from: d.period_from ?? '',
  period_to: d.period_to ?? '',
  retention_percent: d.retention_percent === '0' ? '' : d.retention_percent,
  payment_due_date: d.payment_due_date ?? '',
  schedule_working_days: d.schedule_working_days === null ? '' : String(d.schedule_working_days),
});

/** The body for PUT /invoices/{id}/payment-claim. Blank stays blank: the server says what sending still needs. */
export function claimBody(f: ClaimFields, version: number | undefined): PaymentClaimInput {
  const days = f.schedule_working_days.trim();
  return {
    contract_reference: f.contract_reference,
    contract_date: f.contract_date || null,
    site: f.site,
    work: f.work,
    period_from: f.period_from || null,
    period_to: f.period_to || null,
    retention_percent: f.retention_percent.trim() === '' ? '0' : f.retention_percent.trim(),
    payment_due_date: f.payment_due_date || null,
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
