// Two API processes (two apps, each with its own pool) on one PostgreSQL database send the due
// reminders at the same moment, through a real SMTP server on loopback: every invoice's client
// gets exactly one reminder (row locks that skip locked rows, and the claim's lease).
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { startSmtpSink, type SmtpSink } from '@tradie/testkit/smtp-sink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer, type Mailer } from '../../src/mail/index.ts';
import { scheduleReminders } from '../../src/reminders/scheduler.ts';
import { sendDueReminders } from '../../src/reminders/sender.ts';
import { createTestApp, signUp, type TestApp, TestClock } from '../support/testApp.ts';
import { emailedInvoice } from './support.ts';

let sink: SmtpSink;
let refusing: SmtpSink;
let one: TestApp;
let two: TestApp;
const mailers: Mailer[] = [];
const clock = new TestClock('2026-05-04T21:30:00.000Z');
/** Where the apps' mail goes: the sink, or a server that refuses gone@example.nz. */
const route = { refuse: false };

beforeAll(async () => {
  sink = await startSmtpSink();
  refusing = await startSmtpSink({ rejectRecipients: ['gone@example.nz'] });
  const databaseUrl = await freshDatabaseUrl('reminders');
  const app = async () => {
    const good = createSmtpMailer({ url: sink.url });
    const bad = createSmtpMailer({ url: refusing.url });
    mailers.push(good, bad);
    const mailer: Mailer = { kind: 'smtp', send: (m) => (route.refuse ? bad : good).send(m), close: async () => {} };
    return createTestApp({ databaseUrl, clock, overrides: { mailer } });
  };
  one = await app();
  two = await app();
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  for (const m of mailers) await m.close();
  await sink?.stop();
  await refusing?.stop();
});

describe('reminders from two API processes on PostgreSQL', () => {
  it('send each due reminder exactly once', async () => {
    const u = await signUp(one);
    const invoices = [];
    for (let i = 0; i < 12; i++) invoices.push(await emailedInvoice(one, u, { clientName: `Client ${i}`, email: `client${i}@example.nz` }));
    clock.set('2026-05-11T20:00:00.000Z'); // the due date, 08:00 NZST
    await scheduleReminders(one.deps);
    const runs = await Promise.all([one, two, one, two].map((app) => sendDueReminders(app.deps)));
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(12);
    // And nothing more on another pass.
    const again = await Promise.all([one, two].map((app) => sendDueReminders(app.deps)));
    expect(again.reduce((n, r) => n + r.sent, 0)).toBe(0);
    for (const inv of invoices) {
      const got = sink.messages.filter((m) => m.mail.headers.get('x-entity-ref-id') === `${inv.id}/reminder/due`);
      expect(got, inv.reference).toHaveLength(1);
    }
  });

  it('a recipient the SMTP server refuses: recorded as not delivered with its answer, on the home screen, never sent', async () => {
    clock.set('2026-05-04T21:30:00.000Z');
    const u = await signUp(one);
    const inv = await emailedInvoice(one, u, { clientName: 'Gone', email: 'gone@example.nz' });
    clock.set('2026-05-11T20:00:00.000Z');
    await scheduleReminders(one.deps, { accountId: u.userId });
    route.refuse = true;
    try {
      expect(await sendDueReminders(two.deps)).toMatchObject({ sent: 0, notDelivered: 1 });
    } finally {
      route.refuse = false;
    }
    expect(refusing.messages.filter((m) => m.mail.headers.get('x-entity-ref-id') === `${inv.id}/reminder/due`)).toEqual([]);
    const token = (await one.post('/auth/login', { email: u.email, password: u.password })).json.access_token;
    const failures = (await one.get('/mail/failures', token)).json.items;
    expect(failures).toEqual([expect.objectContaining({ kind: 'reminder', recipient: 'gone@example.nz', text: expect.stringMatching(/^Reminder to gone@example\.nz failed: 550 .*Recipient address rejected/) })]);
    const timeline = (await one.get(`/invoices/${inv.id}/timeline`, token)).json.entries;
    expect(timeline.map((e: { kind: string }) => e.kind)).toContain('reminder_failed');
    expect(timeline.map((e: { kind: string }) => e.kind)).not.toContain('reminded');
  });
});
