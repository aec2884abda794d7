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
import { type LocalDate, NZ_TIME_ZONE } from '../dates/dates.ts';
import { isNzBusinessDay } from '../dates/nzHolidays.ts';
import { toCents, wholeCentsOf } from '../money/money.ts';

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

const OFFSET_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: NZ_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});
const HOUR_MS = 3_600_000;

/**
 * New Zealand's offset from UTC (ms) at an instant. It only changes on a whole UTC hour, so it is
 * asked of Intl once per UTC hour and remembered: the scheduler asks for thousands of instants.
 */
const offsets = new Map<number, number>();
function nzOffsetMs(t: number): number {
  const hour = Math.floor(t / HOUR_MS);
  let off = offsets.get(hour);
  if (off === undefined) {
    const parts = OFFSET_FORMAT.formatToParts(new Date(hour * HOUR_MS));
    const n = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
    off = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) - hour * HOUR_MS;
    if (offsets.size >= 100_000) offsets.clear();
    offsets.set(hour, off);
  }
  return off;
}

const DAY_MS = 86_400_000;

/** A calendar day as a whole number of days since 1970-01-01 (cheap to add to and compare). */
const dayNumberOf = (d: LocalDate): number => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / DAY_MS;

/** The NZ calendar day of an instant, as a day number. */
const nzDayNumber = (t: number): number => Math.floor((t + nzOffsetMs(t)) / DAY_MS);

/** Business days, remembered by day number (the holiday list is per year; this saves building the date's text). */
const businessDays = new Map<number, boolean>();
function isBusinessDayNumber(n: number): boolean {
  let b = businessDays.get(n);
  if (b === undefined) {
    b = isNzBusinessDay(new Date(n * DAY_MS).toISOString().slice(0, 10));
    if (businessDays.size >= 100_000) businessDays.clear();
    businessDays.set(n, b);
  }
  return b;
}

/** The instant it is `hour`:00 in New Zealand on day number `n`. */
function nzInstantMs(n: number, hour: number): number {
  const wall = n * DAY_MS + hour * HOUR_MS;
  // NZ is 12 or 13 hours ahead of UTC: take the offset 12 hours before, then the offset at the answer.
  const t = wall - nzOffsetMs(wall - 12 * HOUR_MS);
  return wall - nzOffsetMs(t);
}

/** The NZ wall-clock hour (0–23) of an instant. */
export function nzHourOf(instant: Date): number {
  const t = instant.getTime();
  return new Date(t + nzOffsetMs(t)).getUTCHours();
}

/** The instant it is `hour`:00 in New Zealand on day `d` (never inside a daylight-saving jump: the jumps are at 02:00–03:00). */
export const nzInstant = (d: LocalDate, hour: number): Date => new Date(nzInstantMs(dayNumberOf(d), hour));

function nextWindowMs(from: number): number {
  let day = nzDayNumber(from);
  for (let i = 0; i < 30; i++, day++) {
    if (!isBusinessDayNumber(day)) continue;
    const opens = nzInstantMs(day, REMINDER_WINDOW.opensAt);
    if (from < opens) return opens;
    if (from < nzInstantMs(day, REMINDER_WINDOW.closesAt)) return from;
  }
  // Thirty days without a business day do not happen in New Zealand's calendar.
  throw new Error(`no reminder window within 30 days of ${new Date(from).toISOString()}`);
}

/** The first instant at or after `from` inside a reminder window (08:00–18:00 NZ on a business day). */
export const nextReminderWindow = (from: Date): Date => new Date(nextWindowMs(from.getTime()));

/** Decides the invoice's next reminder at `now`. */
export function nextReminder(policy: ReminderPolicy, invoice: InvoiceForReminders, now: Date): ReminderDecision {
  if (!policy.enabled) return { kind: 'none', reason: 'disabled' };
  if (invoice.voided) return { kind: 'none', reason: 'voided' };
  if (!invoice.issued || invoice.sentAt === null) return { kind: 'none', reason: 'not_sent' };
  const balance = wholeCentsOf(invoice.balance) ?? toCents(invoice.balance);
  if (balance <= 0n || balance < (wholeCentsOf(policy.minimumBalance) ?? toCents(policy.minimumBalance))) return { kind: 'none', reason: 'no_balance' };
  if (invoice.paused) return { kind: 'none', reason: 'paused' };
  if (invoice.clientOptedOut) return { kind: 'none', reason: 'opted_out' };

  const steps = [...policy.steps].sort((a, b) => a.offsetDays - b.offsetDays);
  const sentIds = new Set(invoice.reminders.map((r) => r.stepId));
  // Steps after the latest one already sent (a step before it is never sent late).
  const lastSentIndex = steps.reduce((last, s, i) => (sentIds.has(s.id) ? i : last), -1);
  const left = steps.slice(lastSentIndex + 1);
  if (left.length === 0) return { kind: 'none', reason: 'no_step_left' };

  const nowMs = now.getTime();
  const today = nzDayNumber(nowMs);
  const dueDay = dayNumberOf(invoice.dueDate);
  const due = left.filter((s) => dueDay + s.offsetDays <= today);
  // The latest due step only; otherwise the next one to come.
  const step = due.at(-1) ?? left[0]!;

  let last = Date.parse(invoice.sentAt);
  for (const r of invoice.reminders) last = Math.max(last, Date.parse(r.at));
  const stepOpens = nzInstantMs(dueDay + step.offsetDays, REMINDER_WINDOW.opensAt);
  const earliest = nextWindowMs(Math.max(stepOpens, last + REMINDER_MIN_GAP_MS, due.length > 0 ? nowMs : 0));
  if (earliest <= nowMs) return { kind: 'send', step, daysOverdue: Math.max(0, today - dueDay) };
  return { kind: 'wait', step, notBefore: new Date(earliest).toISOString() };
}
