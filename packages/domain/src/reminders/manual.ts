// 'Send reminder now': whether a reminder sent by hand may go, and which step's words it uses.
// Pure, like the schedule (schedule.ts): the invoice's facts and the clock come in.
//
// May it go? The tradie's own choices hold for it as for the automatic ones: not while the
// invoice's reminders are paused, not to a client set to 'No reminders', and at most one a day: not
// within 24 hours of another reminder of the invoice, sent by hand or on schedule (whatever came
// of it: a reminder the mail server refused still counts, so refusals cannot be used to send more).
//
// Which words? The steps escalate ('…is overdue', 'Second reminder…', 'Final reminder…'), so a
// reminder sent by hand takes the next step of that escalation, not the latest step the calendar
// has reached: the first reminder of an invoice 44 days overdue reads '…is overdue', not 'Final
// reminder'. Precisely, with the steps in order of their day:
// - the step after the latest one sent on schedule (the first step when none was), moved on by one
//   for each reminder sent by hand since (their words were the steps in between);
// - once the invoice is overdue, never a step meant for before or on the due date ('…is due
//   today'): at least the first overdue step; on the due date, at least the due date's step;
// - never past the latest step whose day has come (a reminder 10 days overdue does not say 'Final
//   reminder'), except to that first step of where the invoice is now;
// - before any step's day has come, the first step.
import { REMINDER_MIN_GAP_MS, type ReminderStep } from './schedule.ts';

/** The step id a reminder sent by hand is recorded with. */
export const MANUAL_REMINDER_STEP_ID = 'manual';

export interface ReminderSoFar {
  /** The step it was, or MANUAL_REMINDER_STEP_ID. */
  stepId: string;
  /** When it was recorded (ISO); null for an event without a time (never in practice). */
  at: string | null;
  /** Whether a mail server took it (ReminderSent); a reminder not delivered never reached the client. */
  delivered: boolean;
}

export interface InvoiceForManualReminder {
  paused: boolean;
  clientOptedOut: boolean;
  /** Every reminder recorded on the invoice, in the order recorded. */
  reminders: readonly ReminderSoFar[];
}

export type ManualReminderRefusal = { reason: 'paused' } | { reason: 'opted_out' } | { reason: 'too_soon'; notBefore: string };

/** Why a reminder may not be sent by hand now, or null when it may. */
export function manualReminderRefusal(invoice: InvoiceForManualReminder, now: Date): ManualReminderRefusal | null {
  if (invoice.paused) return { reason: 'paused' };
  if (invoice.clientOptedOut) return { reason: 'opted_out' };
  let last = -Infinity;
  for (const r of invoice.reminders) if (r.at !== null) last = Math.max(last, Date.parse(r.at));
  if (now.getTime() < last + REMINDER_MIN_GAP_MS) return { reason: 'too_soon', notBefore: new Date(last + REMINDER_MIN_GAP_MS).toISOString() };
  return null;
}

/**
 * The step whose words a reminder sent by hand uses (see the rules above), given the account's
 * steps (at least one), the reminders the client received so far and how many days past its due
 * date the invoice is today (negative before it).
 */
export function manualReminderStep<S extends ReminderStep>(steps: readonly S[], reminders: readonly ReminderSoFar[], daysPastDue: number): S {
  const sorted = [...steps].sort((a, b) => a.offsetDays - b.offsetDays);
  if (sorted.length === 0) throw new Error('manualReminderStep needs at least one step');
  const indexOf = new Map(sorted.map((s, i) => [s.id, i]));
  const received = reminders.filter((r) => r.delivered && r.at !== null);
  // The latest step sent on schedule, and the reminders sent by hand after it.
  let lastScheduled = -1;
  let lastScheduledAt = -Infinity;
  for (const r of received) {
    const i = indexOf.get(r.stepId);
    if (i === undefined || r.stepId === MANUAL_REMINDER_STEP_ID) continue;
    const t = Date.parse(r.at!);
    if (t >= lastScheduledAt) {
      lastScheduledAt = t;
      lastScheduled = i;
    }
  }
  const byHandSince = received.filter((r) => r.stepId === MANUAL_REMINDER_STEP_ID && Date.parse(r.at!) > lastScheduledAt).length;

  // Where the invoice is now: overdue, due today, or not due yet. The first step meant for that.
  const phaseStart = daysPastDue > 0 ? sorted.findIndex((s) => s.offsetDays > 0) : daysPastDue === 0 ? sorted.findIndex((s) => s.offsetDays === 0) : 0;
  const floor = Math.max(0, phaseStart);
  const reached = sorted.reduce((last, s, i) => (s.offsetDays <= daysPastDue ? i : last), -1);
  const ceiling = Math.max(reached, floor);
  const next = Math.max(lastScheduled + 1, floor) + byHandSince;
  return sorted[Math.min(next, ceiling)]!;
}
