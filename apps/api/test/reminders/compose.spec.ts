// The reminder's own placeholders: the balance and due date as the client reads them, the days
// overdue, and the pay link's line (gone, with no gap left, when the invoice has no link).
import { describe, expect, it } from 'vitest';
import { fillReminderPlaceholders } from '../../src/reminders/compose.ts';

describe('fillReminderPlaceholders', () => {
  const text = 'Owing [Balance], due [Due Date] ([Days Overdue] days ago).\n\n[Pay Link]\n\nThanks';
  it('fills every placeholder, the link as a line to pay online', () => {
    expect(fillReminderPlaceholders(text, { balance: '$150.00', dueDate: '2026-05-12', daysOverdue: 7, payLink: 'https://app.test/i/abc' })).toBe(
      'Owing $150.00, due 12 May 2026 (7 days ago).\n\nView and pay the invoice online: https://app.test/i/abc\n\nThanks',
    );
  });
  it('leaves no gap where there is no link', () => {
    expect(fillReminderPlaceholders(text, { balance: '$1.00', dueDate: '2026-02-06', daysOverdue: 0, payLink: null })).toBe('Owing $1.00, due 6 February 2026 (0 days ago).\n\nThanks');
  });
});
