import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MANUAL_REMINDER_STEP_ID, type ReminderSoFar, manualReminderRefusal, manualReminderStep } from './manual.ts';
import { REMINDER_MIN_GAP_MS } from './schedule.ts';

// The default steps: on the due date, then 7, 14 and 21 days overdue ('…is due today', '…is
// overdue', 'Second reminder…', 'Final reminder…').
const steps = [
  { id: 'due', offsetDays: 0 },
  { id: 'd7', offsetDays: 7 },
  { id: 'd14', offsetDays: 14 },
  { id: 'd21', offsetDays: 21 },
];
const withBefore = [{ id: 'before', offsetDays: -3 }, ...steps];

const sent = (stepId: string, at: string, delivered = true): ReminderSoFar => ({ stepId, at, delivered });
const byHand = (at: string, delivered = true): ReminderSoFar => sent(MANUAL_REMINDER_STEP_ID, at, delivered);
const idOf = (s: { id: string }): string => s.id;

describe('manualReminderStep: the words of a reminder sent by hand', () => {
  it("the first one on an invoice 44 days overdue is '…is overdue', not 'Final reminder'; each one after moves one step on, up to the last", () => {
    expect(idOf(manualReminderStep(steps, [], 44))).toBe('d7');
    expect(idOf(manualReminderStep(steps, [byHand('2026-03-01T01:00:00Z')], 45))).toBe('d14');
    expect(idOf(manualReminderStep(steps, [byHand('2026-03-01T01:00:00Z'), byHand('2026-03-02T01:00:00Z')], 46))).toBe('d21');
    expect(idOf(manualReminderStep(steps, [byHand('2026-03-01T01:00:00Z'), byHand('2026-03-02T01:00:00Z'), byHand('2026-03-03T01:00:00Z')], 47))).toBe('d21');
  });

  it('follows what the schedule sent: after the 7-day reminder, the second', () => {
    expect(idOf(manualReminderStep(steps, [sent('due', '2026-02-02T19:00:00Z'), sent('d7', '2026-02-09T19:00:00Z')], 15))).toBe('d14');
    // One sent by hand after the 14-day one moves on to the last.
    const history = [sent('d14', '2026-02-16T19:00:00Z'), byHand('2026-02-18T01:00:00Z')];
    expect(idOf(manualReminderStep(steps, history, 40))).toBe('d21');
    // One sent by hand before the schedule's latest does not count twice.
    expect(idOf(manualReminderStep(steps, [byHand('2026-02-05T01:00:00Z'), sent('d7', '2026-02-09T19:00:00Z')], 40))).toBe('d14');
  });

  it('never goes past the step the calendar has reached, except to the first overdue one', () => {
    // 10 days overdue, the 7-day reminder sent: still the 7-day words, not 'Second reminder'.
    expect(idOf(manualReminderStep(steps, [sent('d7', '2026-02-09T19:00:00Z')], 10))).toBe('d7');
    // 3 days overdue, nothing sent: the overdue words, not 'due today'.
    expect(idOf(manualReminderStep(steps, [], 3))).toBe('d7');
  });

  it('on the due date the due-date words; before it the step for before, or the first step', () => {
    expect(idOf(manualReminderStep(steps, [], 0))).toBe('due');
    expect(idOf(manualReminderStep(withBefore, [], 0))).toBe('due');
    expect(idOf(manualReminderStep(withBefore, [], -1))).toBe('before');
    expect(idOf(manualReminderStep(withBefore, [], -10))).toBe('before');
    expect(idOf(manualReminderStep(steps, [], -5))).toBe('due');
  });

  it('a reminder that was not delivered, or a step no longer in the settings, moves nothing on', () => {
    expect(idOf(manualReminderStep(steps, [byHand('2026-03-01T01:00:00Z', false)], 44))).toBe('d7');
    expect(idOf(manualReminderStep(steps, [sent('old-step', '2026-03-01T01:00:00Z')], 44))).toBe('d7');
  });

  const stepsArb = fc
    .uniqueArray(fc.integer({ min: -30, max: 365 }), { minLength: 1, maxLength: 8 })
    .map((offsets) => offsets.map((o) => ({ id: `s${o < 0 ? 'm' : ''}${Math.abs(o)}`, offsetDays: o })));
  const historyArb = (ids: string[]) =>
    fc.array(
      fc.record({
        stepId: fc.constantFrom(...ids, MANUAL_REMINDER_STEP_ID),
        at: fc.integer({ min: 0, max: 10_000 }).map((h) => new Date(Date.UTC(2026, 0, 1) + h * 3_600_000).toISOString()),
        delivered: fc.boolean(),
      }),
      { maxLength: 12 },
    );
  const caseArb = stepsArb.chain((s) => fc.tuple(fc.constant(s), historyArb(s.map(idOf)), fc.integer({ min: -60, max: 400 })));

  it('property: always one of the steps; once overdue never a step for before or on the due date; never past the reached step unless it is the first overdue one', () => {
    fc.assert(
      fc.property(caseArb, ([s, history, days]) => {
        const chosen = manualReminderStep(s, history, days);
        expect(s).toContainEqual(chosen);
        const firstOverdue = [...s].sort((a, b) => a.offsetDays - b.offsetDays).find((x) => x.offsetDays > 0);
        if (days > 0 && firstOverdue) {
          expect(chosen.offsetDays).toBeGreaterThan(0);
          if (chosen.offsetDays > days) expect(chosen).toEqual(firstOverdue);
        }
      }),
    );
  });

  it('property: one more reminder by hand never moves the words back', () => {
    fc.assert(
      fc.property(caseArb, ([s, history, days]) => {
        const before = manualReminderStep(s, history, days);
        const after = manualReminderStep(s, [...history, byHand('2027-06-01T00:00:00.000Z')], days);
        expect(after.offsetDays).toBeGreaterThanOrEqual(before.offsetDays);
      }),
    );
  });

  it('property: with nothing sent, the first reminder by hand is the first step of where the invoice is now (never an escalation)', () => {
    fc.assert(
      fc.property(stepsArb, fc.integer({ min: -60, max: 400 }), (s, days) => {
        const sorted = [...s].sort((a, b) => a.offsetDays - b.offsetDays);
        // Overdue: the first overdue step; on the due date: the due date's step; else (or when the
        // settings have no such step) the first step.
        const phase = days > 0 ? sorted.find((x) => x.offsetDays > 0) : days === 0 ? sorted.find((x) => x.offsetDays === 0) : undefined;
        expect(manualReminderStep(s, [], days)).toEqual(phase ?? sorted[0]);
      }),
    );
  });
});

describe('manualReminderRefusal: when a reminder may not be sent by hand', () => {
  const now = new Date('2026-03-20T01:00:00.000Z');
  const open = { paused: false, clientOptedOut: false, reminders: [] };

  it('refuses while paused, for a client set to No reminders, and within 24 hours of another reminder', () => {
    expect(manualReminderRefusal(open, now)).toBeNull();
    expect(manualReminderRefusal({ ...open, paused: true }, now)).toEqual({ reason: 'paused' });
    expect(manualReminderRefusal({ ...open, clientOptedOut: true }, now)).toEqual({ reason: 'opted_out' });
    const earlier = '2026-03-19T03:30:00.000Z';
    expect(manualReminderRefusal({ ...open, reminders: [sent('d7', earlier)] }, now)).toEqual({ reason: 'too_soon', notBefore: '2026-03-20T03:30:00.000Z' });
    // A refused one counts too.
    expect(manualReminderRefusal({ ...open, reminders: [byHand(earlier, false)] }, now)).toEqual({ reason: 'too_soon', notBefore: '2026-03-20T03:30:00.000Z' });
    expect(manualReminderRefusal({ ...open, reminders: [byHand(earlier)] }, new Date('2026-03-20T03:30:00.000Z'))).toBeNull();
  });

  it('property: allowed exactly when not paused, not opted out and 24 hours after the last reminder', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 6 }),
        (paused, clientOptedOut, hoursAgo) => {
          const reminders = hoursAgo.map((h) => byHand(new Date(now.getTime() - h * 3_600_000).toISOString()));
          const refusal = manualReminderRefusal({ paused, clientOptedOut, reminders }, now);
          const last = Math.max(-Infinity, ...reminders.map((r) => Date.parse(r.at!)));
          const allowed = !paused && !clientOptedOut && now.getTime() >= last + REMINDER_MIN_GAP_MS;
          expect(refusal === null).toBe(allowed);
        },
      ),
    );
  });
});
