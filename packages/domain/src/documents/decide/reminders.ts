// Payment reminders: recorded as sent or not delivered, paused and resumed.
import { conflict, invalid } from '../../errors.ts';
import { wholeCentsOf } from '../../money/money.ts';
import type { DocumentEvent } from '../events.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, requireInvoice, requireNotVoid, type CommandOf } from './guards.ts';

/** Reminders are for an invoice given to the client, not voided. */
export function requireRemindable(state: DocumentState): DocumentView {
  const d = requireExisting(state);
  requireInvoice(d, 'have payment reminders');
  requireNotVoid(d);
  if (d.status === 'draft') throw conflict('A draft invoice has not been given to the client, so it cannot be reminded');
  return d;
}

export function decideRecordReminder(command: CommandOf<'RecordReminder'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  const { outcome, detail, balance, ...r } = command.data;
  if (outcome === 'delivered') {
    if (wholeCentsOf(balance) === null) throw invalid('The balance must be in dollars and cents');
    return [{ type: 'ReminderSent', data: { documentId: d.id, ...r, balance } }];
  }
  return [{ type: 'ReminderNotDelivered', data: { documentId: d.id, ...r, outcome, detail: detail ?? '' } }];
}

export function decidePauseReminders(_command: CommandOf<'PauseReminders'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  return d.remindersPaused ? [] : [{ type: 'RemindersPaused', data: { documentId: d.id } }];
}

export function decideResumeReminders(_command: CommandOf<'ResumeReminders'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  return d.remindersPaused ? [{ type: 'RemindersResumed', data: { documentId: d.id } }] : [];
}
