// When an overdue invoice's next payment reminder may go, decided from the invoice, the account's
// reminder policy and the clock (passed in, never read here). Pure: the scheduler in the API asks
// this for every open invoice and sends what it answers 'send' for.
//
// The rules:
// - Only an issued invoice that was emailed, with a balance of at least the policy's minimum, not
//   voided, not paused and whose client has not opted out, gets reminders.
// - Each step is a day relative to the due date (-3: three days before; 0: on the due date; 7:
//   a week overdue). A step is due from 08:00 in New Zealand on its day.
// - Reminders go between 08:00 and 18:00 Pacific/Auckland on NZ business days (no weekends, no
//   national public holidays); a step that falls outside waits for the next opening.
// - Never within 24 hours of the invoice's sending or of another reminder.
// - No burst after downtime: of the steps that are due and later than the last one sent, only
//   the latest goes; the earlier ones are skipped, never sent late.
import { addDays, compareDates, type LocalDate, nzDateOf, NZ_TIME_ZONE } from '../dates/dates.ts';
import { isNzBusinessDay } from '../dates/nzHolidays.ts';
import { toCents } from '../money/money.ts';

/** The hours of a NZ business day reminders may go in: from 08:00 up to (not including) 18:00. */
export const REMINDER_WINDOW = { opensAt: 8, closesAt: 18 } as const;
/** No reminder within this long of the invoice's sending or of the last reminder. */
export const REMINDER_MIN_GAP_MS = 24 * 60 * 60 * 1000;

export interface ReminderStep {
  /** Stable id of the step (what a sent reminder records). */
  id: string;
  /** Days after the due date (negative: before it). */
  offsetDays: number;
}

export interface ReminderPolicy {
  enabled: boolean;
  steps: readonly ReminderStep[];
  /** Dollars and cents: a smaller balance gets no reminder. */
  minimumBalance: string;
}

export interface InvoiceForReminders {
  /** Issued (sent, marked issued or paid against) and not voided. */
  issued: boolean;
  voided: boolean;
  /** When the app's email of the invoice was taken by a mail server; null: never emailed. */
  sentAt: string | null;
  dueDate: LocalDate;
  /** Dollars and cents still owed. */
  balance: string;
  paused: boolean;
  clientOptedOut: boolean;
  /** Reminders sent so far (any order). */
  reminders: readonly { stepId: string; at: string }[];
}

export type ReminderDecision =
  | { kind: 'none'; reason: 'disabled' | 'not_sent' | 'no_balance' | 'paused' | 'opted_out' | 'voided' | 'no_step_left' }
  | { kind: 'send'; step: ReminderStep; daysOverdue: number }
  | { kind: 'wait'; step: ReminderStep; notBefore: string };

const HOUR_FORMAT = new Intl.DateTimeFormat('en-GB', { timeZone: NZ_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The NZ wall-clock hour (0–23) of an instant. */
export function nzHourOf(instant: Date): number {
  const parts = HOUR_FORMAT.formatToParts(instant);
  return Number(parts.find((p) => p.type === 'hour')?.value ?? '0');
}

/** The instant it is `hour`:00 in New Zealand on day `d` (never inside a daylight-saving jump: the jumps are at 02:00–03:00). */
export function nzInstant(d: LocalDate, hour: number): Date {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, day, hour);
  // NZ is 12 or 13 hours ahead of UTC: guess 12, then correct by what the wall clock says.
  let t = wall - 12 * 3_600_000;
  for (let i = 0; i < 2; i++) {
    const shownDay = nzDateOf(new Date(t));
    const shown = Date.UTC(Number(shownDay.slice(0, 4)), Number(shownDay.slice(5, 7)) - 1, Number(shownDay.slice(8, 10)), nzHourOf(new Date(t)));
    t += wall - shown;
  }
  return new Date(t);
}

/** The first instant at or after `from` inside a reminder window (08:00–18:00 NZ on a business day). */
export function nextReminderWindow(from: Date): Date {
  let day = nzDateOf(from);
  for (let i = 0; i < 30; i++) {
    if (isNzBusinessDay(day)) {
      const opens = nzInstant(day, REMINDER_WINDOW.opensAt);
      const closes = nzInstant(day, REMINDER_WINDOW.closesAt);
      if (from < opens) return opens;
      if (from < closes) return from;
    }
    day = addDays(day, 1);
  }
  // Thirty days without a business day do not happen in New Zealand's calendar.
  throw new Error(`no reminder window within 30 days of ${from.toISOString()}`);
}

/** Decides the invoice's next reminder at `now`. */
export function nextReminder(policy: ReminderPolicy, invoice: InvoiceForReminders, now: Date): ReminderDecision {
  if (!policy.enabled) return { kind: 'none', reason: 'disabled' };
  if (invoice.voided) return { kind: 'none', reason: 'voided' };
  if (!invoice.issued || invoice.sentAt === null) return { kind: 'none', reason: 'not_sent' };
  const balance = toCents(invoice.balance);
  if (balance <= 0n || balance < toCents(policy.minimumBalance)) return { kind: 'none', reason: 'no_balance' };
  if (invoice.paused) return { kind: 'none', reason: 'paused' };
  if (invoice.clientOptedOut) return { kind: 'none', reason: 'opted_out' };

  const steps = [...policy.steps].sort((a, b) => a.offsetDays - b.offsetDays);
  const sentIds = new Set(invoice.reminders.map((r) => r.stepId));
  // Steps after the latest one already sent (a step before it is never sent late).
  const lastSentIndex = steps.reduce((last, s, i) => (sentIds.has(s.id) ? i : last), -1);
  const left = steps.slice(lastSentIndex + 1);
  if (left.length === 0) return { kind: 'none', reason: 'no_step_left' };

  const today = nzDateOf(now);
  const dayOf = (s: ReminderStep): LocalDate => addDays(invoice.dueDate, s.offsetDays);
  const due = left.filter((s) => compareDates(dayOf(s), today) <= 0);
  // The latest due step only; otherwise the next one to come.
  const step = due.at(-1) ?? left[0]!;

  const lastTimes = [invoice.sentAt, ...invoice.reminders.map((r) => r.at)].map((t) => new Date(t).getTime());
  const gapEnds = new Date(Math.max(...lastTimes) + REMINDER_MIN_GAP_MS);
  const stepOpens = nzInstant(dayOf(step), REMINDER_WINDOW.opensAt);
  const earliest = nextReminderWindow(new Date(Math.max(stepOpens.getTime(), gapEnds.getTime(), due.length > 0 ? now.getTime() : 0)));
  if (earliest.getTime() <= now.getTime()) {
    const daysOverdue = Math.max(0, Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${invoice.dueDate}T00:00:00Z`)) / 86_400_000));
    return { kind: 'send', step, daysOverdue };
  }
  return { kind: 'wait', step, notBefore: earliest.toISOString() };
}
