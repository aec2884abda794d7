import { describe, expect, it } from 'vitest';
import { claimBody, dueChoiceProblem, fieldsOf, longDate } from './claimForm.ts';

const details = {
  contract_reference: 'GB-7',
  contract_date: '2026-04-20',
  site: '1 Main Road',
  work: 'Framing',
  period_from: null,
  period_to: '2026-05-04',
  retention_percent: '0',
  payment_due_date: null,
  schedule_working_days: null,
};

describe('the claim form', () => {
  it('round-trips the details, blank where nothing was given', () => {
    const f = fieldsOf(details);
    expect(f).toMatchObject({ period_from: '', retention_percent: '', schedule_working_days: '' });
    expect(claimBody(f, 7)).toEqual({ ...details, retention_percent: '0', due_date_choice: null, version: 7 });
  });

  it('sends the retention and the working days as typed', () => {
    expect(claimBody({ ...fieldsOf(details), retention_percent: ' 5 ', schedule_working_days: '10' }, undefined)).toMatchObject({ retention_percent: '5', schedule_working_days: 10 });
  });

  it("asks which due date applies when the Act's default and the invoice's own differ, and sends the choice", () => {
    const question = { act_due: '2027-01-07', invoice_due: '2026-12-12', text: "The Construction Contracts Act due date is 7 January 2027; the invoice's own terms say 12 December 2026 — which applies?", chosen: null };
    const f = fieldsOf(details, question);
    expect(f.due).toBe('');
    expect(dueChoiceProblem(f, question)).toBe(`${question.text} Choose one below.`);
    expect(claimBody({ ...f, due: 'invoice' }, undefined)).toMatchObject({ payment_due_date: null, due_date_choice: 'invoice' });
    expect(claimBody({ ...f, due: 'act' }, undefined)).toMatchObject({ payment_due_date: null, due_date_choice: 'act' });
    expect(dueChoiceProblem({ ...f, due: 'contract' }, question)).toBe('Enter the due date the contract sets');
    expect(claimBody({ ...f, due: 'contract', payment_due_date: '2026-12-20' }, undefined)).toMatchObject({ payment_due_date: '2026-12-20', due_date_choice: null });
    expect(fieldsOf(details, { ...question, chosen: 'invoice' }).due).toBe('invoice');
    expect(dueChoiceProblem(fieldsOf(details), null)).toBeNull();
  });

  it('writes dates the long NZ way', () => {
    expect(longDate('2026-06-03')).toBe('3 June 2026');
    expect(longDate(null)).toBe('');
  });
});
