import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNzBusinessDay } from '../dates/nzHolidays.ts';
import { nzDateOf } from '../dates/dates.ts';
import { type InvoiceForReminders, type ReminderPolicy, nextReminder, nextReminderWindow, nzHourOf, nzInstant, REMINDER_MIN_GAP_MS } from './schedule.ts';

const policy: ReminderPolicy = {
  enabled: true,
  steps: [
    { id: 'due', offsetDays: 0 },
    { id: 'd7', offsetDays: 7 },
    { id: 'd14', offsetDays: 14 },
    { id: 'd21', offsetDays: 21 },
  ],
  minimumBalance: '0.00',
};

const invoice = (over: Partial<InvoiceForReminders> = {}): InvoiceForReminders => ({
  issued: true,
  voided: false,
  sentAt: '2026-01-20T21:00:00.000Z',
  dueDate: '2026-02-03',
  balance: '230.00',
  paused: false,
  clientOptedOut: false,
  reminders: [],
  ...over,
});

const at = (iso: string): Date => new Date(iso);

describe('NZ wall-clock instants', () => {
  it('finds 08:00 in New Zealand across daylight saving (hand-worked: NZDT is UTC+13, NZST UTC+12)', () => {
    expect(nzInstant('2026-02-03', 8).toISOString()).toBe('2026-02-02T19:00:00.000Z'); // NZDT
    expect(nzInstant('2026-04-05', 8).toISOString()).toBe('2026-04-04T20:00:00.000Z'); // NZST from 03:00 that day
    expect(nzInstant('2026-09-27', 8).toISOString()).toBe('2026-09-26T19:00:00.000Z'); // NZDT from 02:00 that day
    expect(nzInstant('2026-07-10', 18).toISOString()).toBe('2026-07-10T06:00:00.000Z');
  });

  it('opens the next window on a business day, skipping a weekend and Waitangi Day', () => {
    // Thursday 5 February 2026, 18:30 NZDT → Friday is Waitangi Day, then a weekend → Monday 9th 08:00.
    expect(nextReminderWindow(at('2026-02-05T05:30:00.000Z')).toISOString()).toBe('2026-02-08T19:00:00.000Z');
    // Inside a window: now.
    expect(nextReminderWindow(at('2026-02-03T01:00:00.000Z')).toISOString()).toBe('2026-02-03T01:00:00.000Z');
  });
});

describe('nextReminder', () => {
  it('sends the due-date reminder from 08:00 NZ on the due date, not a minute before', () => {
    expect(nextReminder(policy, invoice(), at('2026-02-02T18:59:00.000Z'))).toEqual({ kind: 'wait', step: policy.steps[0], notBefore: '2026-02-02T19:00:00.000Z' });
    expect(nextReminder(policy, invoice(), at('2026-02-02T19:00:00.000Z'))).toEqual({ kind: 'send', step: policy.steps[0], daysOverdue: 0 });
  });

  it('moves a step that falls on Waitangi Day and a weekend to Monday 08:00', () => {
    // Due Friday 30 January; seven days later is Friday 6 February (Waitangi Day).
    const inv = invoice({ dueDate: '2026-01-30', reminders: [{ stepId: 'due', at: '2026-01-29T20:00:00.000Z' }] });
    expect(nextReminder(policy, inv, at('2026-02-06T01:00:00.000Z'))).toEqual({ kind: 'wait', step: policy.steps[1], notBefore: '2026-02-08T19:00:00.000Z' });
    expect(nextReminder(policy, inv, at('2026-02-08T19:00:00.000Z'))).toEqual({ kind: 'send', step: policy.steps[1], daysOverdue: 10 });
  });

  it('sends only the latest due step after downtime, and nothing after the last step', () => {
    const inv = invoice({ dueDate: '2026-01-05', sentAt: '2025-12-20T21:00:00.000Z' });
    // Tuesday 10 February 10:00 NZDT: 36 days overdue, steps 0, 7, 14 and 21 all due.
    const d = nextReminder(policy, inv, at('2026-02-09T21:00:00.000Z'));
    expect(d).toEqual({ kind: 'send', step: policy.steps[3], daysOverdue: 36 });
    const after = invoice({ ...inv, reminders: [{ stepId: 'd21', at: '2026-02-09T21:00:00.000Z' }] });
    expect(nextReminder(policy, after, at('2026-03-09T21:00:00.000Z'))).toEqual({ kind: 'none', reason: 'no_step_left' });
  });

  it('never goes within 24 hours of the invoice or of another reminder', () => {
    // Sent Monday 2 February 10:00 NZDT, due the next day: the due-date reminder waits to Tuesday 10:00.
    const inv = invoice({ sentAt: '2026-02-01T21:00:00.000Z' });
    expect(nextReminder(policy, inv, at('2026-02-02T19:00:00.000Z'))).toEqual({ kind: 'wait', step: policy.steps[0], notBefore: '2026-02-02T21:00:00.000Z' });
  });

  it('waits past 18:00 to the next morning', () => {
    // Tuesday 3 February 18:30 NZDT → Wednesday 08:00.
    expect(nextReminder(policy, invoice(), at('2026-02-03T05:30:00.000Z'))).toEqual({ kind: 'wait', step: policy.steps[0], notBefore: '2026-02-03T19:00:00.000Z' });
  });

  it('sends nothing when paid, below the minimum, paused, opted out, voided, never emailed or turned off', () => {
    const now = at('2026-02-03T01:00:00.000Z');
    expect(nextReminder(policy, invoice({ balance: '0.00' }), now)).toEqual({ kind: 'none', reason: 'no_balance' });
    expect(nextReminder({ ...policy, minimumBalance: '10.00' }, invoice({ balance: '9.99' }), now)).toEqual({ kind: 'none', reason: 'no_balance' });
    expect(nextReminder({ ...policy, minimumBalance: '10.00' }, invoice({ balance: '10.00' }), now).kind).toBe('send');
    expect(nextReminder(policy, invoice({ paused: true }), now)).toEqual({ kind: 'none', reason: 'paused' });
    expect(nextReminder(policy, invoice({ clientOptedOut: true }), now)).toEqual({ kind: 'none', reason: 'opted_out' });
    expect(nextReminder(policy, invoice({ voided: true }), now)).toEqual({ kind: 'none', reason: 'voided' });
    expect(nextReminder(policy, invoice({ sentAt: null }), now)).toEqual({ kind: 'none', reason: 'not_sent' });
    expect(nextReminder({ ...policy, enabled: false }, invoice(), now)).toEqual({ kind: 'none', reason: 'disabled' });
  });

  it('a send is always in a window, past every gap, for a due step later than any sent (property)', () => {
    const instant = fc.integer({ min: Date.parse('2025-11-01T00:00:00Z'), max: Date.parse('2027-03-01T00:00:00Z') });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 90 * 24 }), fc.subarray(['due', 'd7', 'd14', 'd21']), (sentMs, dueIn, nowHours, sent) => {
        const sentAt = new Date(sentMs);
        const dueDate = nzDateOf(new Date(sentMs + dueIn * 86_400_000));
        const reminders = sent.map((stepId, i) => ({ stepId, at: new Date(sentMs + (i + 1) * 3_600_000).toISOString() }));
        const inv = invoice({ sentAt: sentAt.toISOString(), dueDate, reminders });
        const now = new Date(sentMs + nowHours * 3_600_000);
        const d = nextReminder(policy, inv, now);
        const lastSentIndex = policy.steps.reduce((last, s, i) => (sent.includes(s.id) ? i : last), -1);
        if (d.kind === 'none') return d.reason === 'no_step_left' && lastSentIndex === policy.steps.length - 1;
        const stepIndex = policy.steps.findIndex((s) => s.id === d.step.id);
        expect(stepIndex).toBeGreaterThan(lastSentIndex);
        const when = d.kind === 'send' ? now : new Date(d.notBefore);
        if (d.kind === 'wait') expect(when.getTime()).toBeGreaterThan(now.getTime());
        expect(isNzBusinessDay(nzDateOf(when))).toBe(true);
        expect(nzHourOf(when)).toBeGreaterThanOrEqual(8);
        expect(nzHourOf(when)).toBeLessThan(18);
        for (const t of [sentAt.toISOString(), ...reminders.map((r) => r.at)]) expect(when.getTime() - Date.parse(t)).toBeGreaterThanOrEqual(REMINDER_MIN_GAP_MS);
        return true;
      }),
      { numRuns: 400 },
    );
  });
});

describe('the remembered NZ offset', () => {
  it('gives the same day and hour as Intl for instants across two years, daylight saving included (property)', async () => {
    const { nzDateOf } = await import('../dates/dates.ts');
    const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Pacific/Auckland', hour: '2-digit', hourCycle: 'h23' });
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') }), (t) => {
        const d = new Date(t);
        expect(nzHourOf(d)).toBe(Number(hourFormat.format(d)));
        const day = nzDateOf(d);
        // nzInstant(day, hour) lands back on the same wall clock.
        const h = nzHourOf(d);
        if (h !== 2 && h !== 3) expect(nzDateOf(nzInstant(day, h))).toBe(day);
      }),
      { numRuns: 2000 },
    );
  });
});
