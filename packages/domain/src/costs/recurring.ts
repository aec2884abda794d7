// A repeating expense (the monthly phone bill, the quarterly insurance): set up once, it records
// each of its costs by itself on its day, as an expense not for a job. Stream recurring-{id}:
// RecurringCostSetUp, then a RecurringCostMade for each cost it recorded (appended in the same commit
// as that cost's own CostRecorded, so a cost is made once however often the runner looks), and
// RecurringCostStopped. What was made stays when it is stopped: those costs happened.
import { type LocalDate, addDays, addMonths, daysBetween } from '../dates/dates.ts';
import type { Decider } from '../decider.ts';
import { assertNever, conflict, invalid, notFound } from '../errors.ts';
import { requireCostCents } from './costs.ts';
import type { RecurringEvent, StoredCostFields, StoredRecurringFields } from './events.ts';

export type RepeatFrequency = StoredRecurringFields['frequency'];

export const recurringStreamId = (recurringId: string): string => `recurring-${recurringId}`;
export const RECURRING_NOT_FOUND = 'Repeating expense not found';

/** A first date at most this many days back (what is owed from then is recorded at once) or ahead. */
export const RECURRING_START_WINDOW_DAYS = 366;
/** The most costs one look makes for one repeating expense (a weekly one a year back is 53). */
export const MAX_MADE_AT_ONCE = 60;

/** The n-th date (0 for the first) of a repeat from `start`. Months count from the start, so 31 Jan → 28 Feb → 31 Mar. */
export function occurrenceOn(start: LocalDate, frequency: RepeatFrequency, n: number): LocalDate {
  switch (frequency) {
    case 'weekly':
      return addDays(start, 7 * n);
    case 'fortnightly':
      return addDays(start, 14 * n);
    case 'monthly':
      return addMonths(start, n);
    case 'quarterly':
      return addMonths(start, 3 * n);
    case 'yearly':
      return addMonths(start, 12 * n);
    default:
      return assertNever(frequency);
  }
}

type Schedule = Pick<StoredRecurringFields, 'start' | 'frequency' | 'end'>;

/** The next date after `made` have been made, or null when the repeat has ended. */
export function nextOccurrence(s: Schedule, made: number): LocalDate | null {
  const date = occurrenceOn(s.start as LocalDate, s.frequency, made);
  return s.end !== null && date > s.end ? null : date;
}

/** The occurrences due by `today` after the first `made`: index and date, oldest first, at most `limit`. */
export function dueOccurrences(s: Schedule, made: number, today: LocalDate, limit = MAX_MADE_AT_ONCE): { index: number; date: LocalDate }[] {
  const out: { index: number; date: LocalDate }[] = [];
  for (let i = made; out.length < limit; i++) {
    const date = nextOccurrence(s, i);
    if (date === null || date > today) break;
    out.push({ index: i, date });
  }
  return out;
}

/** The checks on a repeating expense as typed: an amount, a first date within a year either side of today, an end not before it. */
export function checkRecurring(f: StoredRecurringFields, today: LocalDate): void {
  requireCostCents(f.amount);
  const fromToday = daysBetween(today, f.start as LocalDate);
  if (fromToday < -RECURRING_START_WINDOW_DAYS) throw invalid('The first date can be at most a year ago');
  if (fromToday > RECURRING_START_WINDOW_DAYS) throw invalid('The first date can be at most a year ahead');
  if (f.end !== null && f.end < f.start) throw invalid('The last date must be on or after the first date');
}

/** The cost a repeating expense records on `date`: an expense, not for a job. */
export function recurringCostFields(f: StoredRecurringFields, date: LocalDate, registered: boolean): StoredCostFields {
  return {
    kind: 'expense', supplier: f.supplier, date, paidDate: f.paidOnDate ? date : null, amount: f.amount,
    // A business no longer registered for GST claims none: the cost is still recorded, without GST.
    gst: registered ? f.gst : 'none',
    supplyInformationHeld: f.supplyInformationHeld, credit: false, category: f.category, jobId: null, note: f.note,
  };
}

export type RecurringState =
  | { status: 'none' }
  | { status: 'active' | 'stopped'; id: string; fields: StoredRecurringFields; made: number; lastMadeOn: LocalDate | null; stoppedOn: LocalDate | null };

export type RecurringCommand =
  | { type: 'SetUpRecurringCost'; data: { recurringId: string; fields: StoredRecurringFields } }
  /** Records what is due by `today`, one cost id for each (at most as many as `costIds` holds). */
  | { type: 'MakeDueCosts'; data: { today: LocalDate; costIds: readonly string[] } }
  | { type: 'StopRecurringCost'; data: { today: LocalDate } };

export function evolveRecurring(state: RecurringState, event: RecurringEvent): RecurringState {
  switch (event.type) {
    case 'RecurringCostSetUp': {
      const { recurringId, ...fields } = event.data;
      return { status: 'active', id: recurringId, fields, made: 0, lastMadeOn: null, stoppedOn: null };
    }
    case 'RecurringCostMade':
      return state.status === 'none' ? state : { ...state, made: Math.max(state.made, event.data.index + 1), lastMadeOn: event.data.date as LocalDate };
    case 'RecurringCostStopped':
      return state.status === 'none' ? state : { ...state, status: 'stopped', stoppedOn: event.data.on as LocalDate };
    default:
      return assertNever(event);
  }
}

export function decideRecurring(command: RecurringCommand, state: RecurringState): RecurringEvent[] {
  switch (command.type) {
    case 'SetUpRecurringCost':
      if (state.status !== 'none') throw conflict('This repeating expense already exists');
      return [{ type: 'RecurringCostSetUp', data: { recurringId: command.data.recurringId, ...command.data.fields } }];
    case 'MakeDueCosts': {
      if (state.status !== 'active') return [];
      const due = dueOccurrences(state.fields, state.made, command.data.today, command.data.costIds.length);
      return due.map((o, i) => ({ type: 'RecurringCostMade', data: { recurringId: state.id, index: o.index, date: o.date, costId: command.data.costIds[i]! } }));
    }
    case 'StopRecurringCost':
      if (state.status === 'none') throw notFound(RECURRING_NOT_FOUND);
      if (state.status === 'stopped') return [];
      return [{ type: 'RecurringCostStopped', data: { recurringId: state.id, on: command.data.today } }];
    default:
      return assertNever(command);
  }
}

export const recurringDecider = {
  decide: decideRecurring,
  evolve: evolveRecurring,
  initialState: (): RecurringState => ({ status: 'none' }),
} satisfies Decider<RecurringCommand, RecurringEvent, RecurringState>;
