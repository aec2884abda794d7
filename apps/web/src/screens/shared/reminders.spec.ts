// The words the reminder screens use: when a step goes, and what a reminder sent now did.
import { describe, expect, it } from 'vitest';
import { daysOverdue, nzDateTime, sendOutcomeText, stepWhen } from './reminders.ts';

describe('reminder words', () => {
  it('says when a step goes', () => {
    expect(stepWhen(-3)).toBe('3 days before the due date');
    expect(stepWhen(-1)).toBe('1 day before the due date');
    expect(stepWhen(0)).toBe('On the due date');
    expect(stepWhen(1)).toBe('1 day overdue');
    expect(stepWhen(14)).toBe('14 days overdue');
    expect(daysOverdue(1)).toBe('1 day overdue');
  });

  it("says 'sent' only when a mail server took it", () => {
    expect(sendOutcomeText({ outcome: 'delivered', to: ['a@example.com', 'b@example.com'], detail: null })).toEqual({ text: 'Reminder sent to a@example.com, b@example.com', delivered: true });
    expect(sendOutcomeText({ outcome: 'saved_not_delivered', to: ['a@example.com'], detail: 'Kept in the outbox' })).toEqual({ text: 'Kept in the outbox', delivered: false });
    expect(sendOutcomeText({ outcome: 'saved_not_delivered', to: ['a@example.com'], detail: null }).text).not.toContain('sent');
  });

  it('shows an instant in New Zealand time', () => {
    // 20:00 UTC on 1 July is 8:00 am on 2 July in NZ (NZST, +12).
    expect(nzDateTime('2026-07-01T20:00:00.000Z')).toMatch(/Thu.*2 Jul.*8:00/);
  });
});
