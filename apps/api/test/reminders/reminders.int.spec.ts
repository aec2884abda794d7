// Payment reminders end to end through the API on PGlite with a settable clock (no sleeping):
// turned on by the first emailed invoice, sent from 08:00 NZ on the due date and never at a
// weekend or on a public holiday, the balance after part payments, nothing after a payment,
// pause, 'No reminders', no burst after downtime, a crash mid-send never sends twice, a refusal
// shown and never called sent, the dry run, the Overdue card and 'Send reminder now'.
import { describe, expect, it } from 'vitest';
import { MailRejectedError } from '../../src/mail/index.ts';
import { scheduleReminders } from '../../src/reminders/scheduler.ts';
import { INTERRUPTED_DETAIL } from '../../src/reminders/sender.ts';
import { type MemoryMailer, signUp, useTestApp } from '../support/testApp.ts';
import { signInAgain } from '../documents/support.ts';
import { emailedInvoice, reminderEvents, remindersOf, runSender, type User } from './support.ts';

const t = useTestApp({ mailKind: 'smtp' });

// The test clock starts on Tuesday 5 May 2026, 09:30 NZST (2026-05-04T21:30Z). An invoice issued
// today on 7-day terms is due Tuesday 12 May; 08:00 NZST that day is 2026-05-11T20:00Z.
const START = '2026-05-04T21:30:00.000Z';
const DUE_0800 = '2026-05-11T20:00:00.000Z';

/** A new account at the start; the other tests' accounts stop reminding, so each test counts only its own. */
async function fresh() {
  t.clock.set(START);
  (t.mailer as MemoryMailer).failWith = undefined;
  await t.deps.store.db.query('UPDATE reminder_settings SET enabled = false');
  await t.deps.store.db.query('DELETE FROM reminder_queue');
  return signUp(t);
}

/** Moves the clock and signs in again (an access token lasts 15 minutes). */
async function at(u: User, iso: string): Promise<string> {
  t.clock.set(iso);
  u.token = await signInAgain(t, u);
  return u.token;
}

describe('turning reminders on', () => {
  it('is off for a new account, and on (with a one-time notice) after its first emailed invoice', async () => {
    const u = await fresh();
    const before = await t.get('/reminders/settings', u.token);
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({ enabled: false, notice: null, minimum_balance: 0 });
    expect(before.json.steps.map((s: { offset_days: number }) => s.offset_days)).toEqual([0, 7, 14, 21]);
    await emailedInvoice(t, u);
    const after = await t.get('/reminders/settings', u.token);
    expect(after.json.enabled).toBe(true);
    expect(after.json.notice).toMatch(/Payment reminders are on/);
    expect((await t.post('/reminders/settings/notice-seen', undefined, u.token)).status).toBe(204);
    expect((await t.get('/reminders/settings', u.token)).json.notice).toBeNull();
  });

  it('refuses settings with two reminders on one day, or none, and writes nothing', async () => {
    const u = await fresh();
    const steps = (await t.get('/reminders/settings', u.token)).json.steps;
    const same = await t.put('/reminders/settings', { enabled: true, minimum_balance: 0, steps: [steps[0], { ...steps[1], offset_days: 0 }] }, u.token);
    expect(same.status).toBe(422);
    expect(same.json.detail).toMatch(/same day/);
    expect((await t.put('/reminders/settings', { enabled: true, minimum_balance: 0, steps: [] }, u.token)).status).toBe(422);
    // 'manual' is what a reminder sent by hand is recorded as: no step may be called that.
    const manual = await t.put('/reminders/settings', { enabled: true, minimum_balance: 0, steps: [{ ...steps[0], id: 'manual' }] }, u.token);
    expect([manual.status, manual.json.detail]).toEqual([422, "A reminder id can't be 'manual'"]);
    expect((await t.get('/reminders/settings', u.token)).json.enabled).toBe(false);
  });

  it('says what is wrong with a minimum balance or a day in words a tradie reads, never the validator’s', async () => {
    const u = await fresh();
    const steps = (await t.get('/reminders/settings', u.token)).json.steps;
    const put = (body: Record<string, unknown>) => t.put('/reminders/settings', { enabled: true, minimum_balance: 0, steps, ...body }, u.token);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ minimum_balance: -5 }, 'minimum_balance', "The minimum balance can't be less than $0"],
      [{ minimum_balance: null }, 'minimum_balance', 'Enter the minimum balance as an amount, like 50 or 50.00'],
      [{ minimum_balance: 2_000_000 }, 'minimum_balance', 'The minimum balance can be at most $1,000,000'],
      [{ steps: [{ ...steps[0], offset_days: 400 }] }, 'steps.0.offset_days', 'A reminder can go at most 365 days after the due date'],
      [{ steps: [{ ...steps[0], offset_days: -31 }] }, 'steps.0.offset_days', 'A reminder can go at most 30 days before the due date'],
      [{ steps: [{ ...steps[0], offset_days: 1.5 }] }, 'steps.0.offset_days', 'Choose when the reminder goes, in whole days'],
    ];
    for (const [body, field, message] of cases) {
      const r = await put(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.detail).toContain(message);
      expect(r.json.detail).not.toMatch(/Too (small|big)|expected|Invalid input/);
      expect(r.json.errors).toContainEqual({ field, message });
    }
    expect((await t.get('/reminders/settings', u.token)).json.enabled).toBe(false);
  });
});

describe('sending', () => {
  it('sends the due-date reminder from 08:00 NZ on the due date with the balance, once, and records it', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    t.clock.set('2026-05-11T19:59:00.000Z');
    expect((await runSender(t)).sent).toBe(0);
    t.clock.set(DUE_0800);
    await scheduleReminders(t.deps);
    expect(await runSender(t)).toMatchObject({ sent: 1 });
    const [mail, ...more] = remindersOf(t, inv.id);
    expect(more).toEqual([]);
    expect(mail!.to).toEqual(['hemi@example.nz']);
    expect(mail!.subject).toBe(`Invoice ${inv.reference} is due today`);
    expect(mail!.text).toContain('$230.00');
    expect(mail!.text).toContain('12 May 2026');
    expect(mail!.attachments?.[0]?.contentType).toBe('application/pdf');
    expect(await reminderEvents(t, inv.id)).toEqual([{ type: 'ReminderSent', data: expect.objectContaining({ stepId: 'due', to: ['hemi@example.nz'], balance: '230.00' }) }]);
    // Run again: nothing more goes until the next step.
    expect((await runSender(t)).sent).toBe(0);
    const timeline = await t.get(`/invoices/${inv.id}/timeline`, await signInAgain(t, u));
    expect(timeline.json.entries.filter((e: { kind: string }) => e.kind === 'reminded')).toEqual([
      { kind: 'reminded', at: DUE_0800, text: 'Payment reminder emailed to hemi@example.nz ($230.00 owing)' },
    ]);
  });

  it('states the balance after a part payment, and sends nothing once it is paid', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: 80, date: '2026-05-06', method: 'cash' }, u.token)).status).toBe(201);
    t.clock.set(DUE_0800);
    await scheduleReminders(t.deps);
    await runSender(t);
    expect(remindersOf(t, inv.id)[0]!.text).toContain('$150.00');
    // Paid between planning and sending: the row was planned for the 7-day step, nothing goes.
    await at(u, '2026-05-18T20:00:00.000Z');
    await scheduleReminders(t.deps);
    const queued = await t.deps.store.db.query<{ step_id: string }>('SELECT step_id FROM reminder_queue WHERE document_id = $1', [inv.id]);
    expect(queued).toEqual([{ step_id: 'd7' }]);
    expect((await t.post(`/invoices/${inv.id}/payments`, { amount: 150, date: '2026-05-19', method: 'bank_transfer' }, u.token)).status).toBe(201);
    expect(await runSender(t)).toMatchObject({ sent: 0 });
    expect(remindersOf(t, inv.id)).toHaveLength(1);
    expect(await t.deps.store.db.query('SELECT 1 FROM reminder_queue WHERE document_id = $1', [inv.id])).toEqual([]);
  });

  it('waits over a weekend and Waitangi Day to Monday 08:00', async () => {
    const u = await fresh();
    // Due on Waitangi Day, Friday 6 February 2026: the next business day is Monday 9th.
    t.clock.set('2026-01-20T21:00:00.000Z');
    const inv = await emailedInvoice(t, u, { dueDate: '2026-02-06' });
    t.clock.set('2026-02-06T01:00:00.000Z'); // Friday 6 February 14:00 NZDT
    await scheduleReminders(t.deps);
    const [row] = await t.deps.store.db.query<{ due_at: string }>(`SELECT to_char(due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS due_at FROM reminder_queue WHERE document_id = $1`, [inv.id]);
    expect(row!.due_at).toBe('2026-02-08T19:00'); // Monday 9 February 08:00 NZDT
    t.clock.set('2026-02-07T22:00:00.000Z'); // Sunday 11:00
    expect((await runSender(t)).sent).toBe(0);
    t.clock.set('2026-02-08T19:00:00.000Z');
    expect((await runSender(t)).sent).toBe(1);
    expect(remindersOf(t, inv.id)).toHaveLength(1);
  });

  it('after downtime sends only the latest due step, never a burst', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    t.clock.set('2026-06-09T22:00:00.000Z'); // Wednesday 10 June 10:00 NZST: 29 days overdue
    await scheduleReminders(t.deps);
    expect(await runSender(t)).toMatchObject({ sent: 1 });
    const mails = remindersOf(t, inv.id);
    expect(mails.map((m) => m.subject)).toEqual([`Final reminder: invoice ${inv.reference} is 29 days overdue`]);
    t.clock.set('2026-07-09T22:00:00.000Z');
    await scheduleReminders(t.deps);
    expect((await runSender(t)).sent).toBe(0);
  });

  it('sends nothing for a paused invoice or a client with no reminders, and again once resumed', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    expect((await t.put(`/reminders/invoices/${inv.id}/paused`, { paused: true }, u.token)).status).toBe(204);
    expect((await t.put(`/reminders/clients/${inv.clientId}`, { no_reminders: true }, u.token)).status).toBe(204);
    expect((await t.get(`/reminders/clients/${inv.clientId}`, u.token)).json).toEqual({ no_reminders: true });
    await at(u, DUE_0800);
    await scheduleReminders(t.deps);
    expect((await runSender(t)).sent).toBe(0);
    expect((await t.put(`/reminders/invoices/${inv.id}/paused`, { paused: false }, u.token)).status).toBe(204);
    expect((await runSender(t)).sent).toBe(0); // the client still opted out
    expect((await t.put(`/reminders/clients/${inv.clientId}`, { no_reminders: false }, u.token)).status).toBe(204);
    expect((await runSender(t)).sent).toBe(1);
  });

  it('a reminder whose sending was cut short by a crash is recorded as maybe not sent, and not sent again', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    t.clock.set(DUE_0800);
    await scheduleReminders(t.deps);
    // Another process claimed it and died while its mail was going: the lease ran out.
    await t.deps.store.db.query(
      `UPDATE reminder_queue SET claimed_by = 'dead', claimed_until = '2026-05-11T20:05:00Z', sending_since = '2026-05-11T20:00:01Z' WHERE document_id = $1`,
      [inv.id],
    );
    expect((await runSender(t)).sent).toBe(0);
    t.clock.set('2026-05-11T20:06:00.000Z');
    expect(await runSender(t)).toMatchObject({ sent: 0, notDelivered: 1 });
    expect(remindersOf(t, inv.id)).toEqual([]);
    expect(await reminderEvents(t, inv.id)).toEqual([{ type: 'ReminderNotDelivered', data: expect.objectContaining({ stepId: 'due', outcome: 'failed', detail: INTERRUPTED_DETAIL }) }]);
  });

  it('a recipient the mail server refuses is recorded as failed, shown on the home screen, never as sent', async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u, { email: 'jo@example.com' });
    t.clock.set(DUE_0800);
    await scheduleReminders(t.deps);
    (t.mailer as MemoryMailer).failWith = new MailRejectedError(['jo@example.com'], false, 'refused', { serverAnswer: '550 5.1.1 mailbox unavailable' });
    expect(await runSender(t)).toMatchObject({ sent: 0, notDelivered: 1 });
    (t.mailer as MemoryMailer).failWith = undefined;
    expect(await reminderEvents(t, inv.id)).toEqual([{ type: 'ReminderNotDelivered', data: expect.objectContaining({ outcome: 'failed', detail: '550 5.1.1 mailbox unavailable' }) }]);
    await at(u, '2026-05-11T20:01:00.000Z');
    const failures = await t.get('/mail/failures', u.token);
    expect(failures.json.items).toEqual([expect.objectContaining({ kind: 'reminder', recipient: 'jo@example.com', text: 'Reminder to jo@example.com failed: 550 5.1.1 mailbox unavailable' })]);
    expect((await t.post(`/mail/failures/${failures.json.items[0].id}/dismiss`, undefined, u.token)).status).toBe(204);
    expect((await t.get('/mail/failures', u.token)).json.items).toEqual([]);
    // The step is done: it is not tried again.
    expect((await runSender(t)).sent).toBe(0);
  });
});

describe('seeing what is coming', () => {
  it('lists the next 7 days without sending, and the Overdue card adds up what is owed', async () => {
    const u = await fresh();
    const a = await emailedInvoice(t, u);
    const b = await emailedInvoice(t, u, { clientName: 'Mere Rāwiri', email: 'mere@example.nz' });
    await at(u, '2026-05-10T22:00:00.000Z'); // Monday 11 May 10:00: due tomorrow
    const upcoming = await t.get('/reminders/upcoming', u.token);
    expect(upcoming.status).toBe(200);
    expect(upcoming.json.items.map((i: { reference: string; step_id: string; at: string }) => [i.reference, i.step_id, i.at])).toEqual([
      [a.reference, 'due', DUE_0800],
      [b.reference, 'due', DUE_0800],
    ]);
    expect(remindersOf(t, a.id)).toEqual([]);
    // Thursday 14 May: two days overdue, $460.00 owed.
    await at(u, '2026-05-13T22:00:00.000Z');
    const card = await t.get('/reminders/overdue', u.token);
    expect(card.json).toMatchObject({ count: 2, total_owed: 460, formatted_total_owed: '$460.00' });
    expect(card.json.items[0]).toMatchObject({ reference: a.reference, days_overdue: 2, formatted_balance: '$230.00', reminders_paused: false });
  });

  it("'Send reminder now' sends one at once; another account's invoice is not found", async () => {
    const u = await fresh();
    const inv = await emailedInvoice(t, u);
    const other = await signUp(t, 'Someone Else');
    expect((await t.post(`/reminders/invoices/${inv.id}/send-now`, undefined, other.token)).status).toBe(404);
    const r = await t.post(`/reminders/invoices/${inv.id}/send-now`, undefined, u.token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ outcome: 'delivered', to: ['hemi@example.nz'], detail: null });
    expect(remindersOf(t, inv.id)).toHaveLength(1);
    expect(await reminderEvents(t, inv.id)).toEqual([{ type: 'ReminderSent', data: expect.objectContaining({ stepId: 'manual' }) }]);
  });
});
