import { describe, expect, it } from 'vitest';
import { claimBody, fieldsOf, longDate } from './claimForm.ts';

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
    expect(claimBody(f, 7)).toEqual({ ...details, retention_percent: '0', version: 7 });
  });

  it('sends the retention and the working days as typed', () => {
    expect(claimBody({ ...fieldsOf(details), retention_percent: ' 5 ', schedule_working_days: '10' }, undefined)).toMatchObject({ retention_percent: '5', schedule_working_days: 10 });
  });

  it('writes dates the long NZ way', () => {
    expect(longDate('2026-06-03')).toBe('3 June 2026');
    expect(longDate(null)).toBe('');
  });
});
