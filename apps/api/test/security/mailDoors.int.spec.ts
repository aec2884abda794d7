// The one door for mail on an account's behalf (documents/sendGuard.ts sendForAccount), tried as
// an attacker would, through the app on PGlite with its mail going to a real SMTP server on
// loopback: 'Send reminder now' and the automatic reminders keep the confirmed address, the day's
// recipients and the burst like a document's send; a reminder by hand keeps the pause, the client's
// 'No reminders' and once a day; a client's answers reach the tradie as one notice per quote per
// hour. What the SMTP server received is counted, not what the app says it sent.
// On PostgreSQL with two apps at once: mailDoors.pg.spec.ts.
import { EMAIL_UNCONFIRMED_CODE, REMINDER_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_WINDOW_MS } from '../../src/clientLinks/notify.ts';
import { SEND_LIMITS } from '../../src/documents/sendGuard.ts';
import { outboxProcessor } from '../../src/reactions/outbox.ts';
import { REACTIONS } from '../../src/reactions/registry.ts';
import { scheduleReminders } from '../../src/reminders/scheduler.ts';
import { sendDueReminders } from '../../src/reminders/sender.ts';
import { publicClient } from '../clientLinks/support.ts';
import { signInAgain } from '../documents/support.ts';
import { signUp, useTestApp } from '../support/testApp.ts';
import { addresses } from './sendingSupport.ts';
import { type MailRoute, draftInvoice, issuedInvoice, linkIn, mailRoute, noticeMails, reminderMails, tally } from './mailDoorsSupport.ts';

let route: MailRoute;
beforeAll(async () => {
  route = await mailRoute();
});
afterAll(() => route?.stop());

const t = useTestApp({ mailKind: 'smtp', overrides: { mailer: { kind: 'smtp', send: (m) => route.mailer.send(m), close: async () => {} } } });

// Tuesday 5 May 2026, 09:30 NZST, at the start of a 10-minute window. An invoice of today on
// 7-day terms is due Tuesday 12 May; 08:00 NZST that day is 2026-05-11T20:00Z.
const START = '2026-05-04T21:30:00.000Z';
const DUE_0800 = '2026-05-11T20:00:00.000Z';
const TRIAL_LIMIT_REACHED = "Trial accounts can email up to 50 recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.";

type User = Awaited<ReturnType<typeof signUp>>;

async function fresh(options: { confirmEmail?: boolean } = {}): Promise<User> {
  t.clock.set(START);
  route.down = false;
  // The other tests' accounts stop reminding, so each test counts only its own.
  await t.deps.store.db.query('UPDATE reminder_settings SET enabled = false');
  await t.deps.store.db.query('DELETE FROM reminder_queue');
  return signUp(t, 'Aroha Tamihana', options);
}

async function at(u: User, iso: string): Promise<void> {
  t.clock.set(iso);
  u.token = await signInAgain(t, u);
}

const sendNow = (u: User, id: string) => t.post(`/reminders/invoices/${id}/send-now`, undefined, u.token);
const recipientsToday = async (u: User): Promise<number> => (await t.get('/auth/sending-status', u.token)).json.recipients_today;
/** Emails a new invoice to `n` made-up addresses (To, CC and BCC hold 20 each), taking `n` of the day's recipients. */
async function fillDay(u: User, n: number, tag: string): Promise<void> {
  const all = addresses(n, tag);
  const bulk = await draftInvoice(t, u);
  const r = await t.post(`/invoices/${bulk.id}/send`, { to: all.slice(0, 20), cc: all.slice(20, 40), bcc: all.slice(40) }, u.token);
  expect(r.status).toBe(200);
}
const emailed = async (u: User, id: string) => {
  const r = await t.post(`/invoices/${id}/send`, undefined, u.token);
  expect(r.status).toBe(200);
};

describe("'Send reminder now' goes through the account's door for mail", () => {
  it('an unconfirmed trial account, its own words, an invoice marked issued, 60 calls: every one 403 email_unconfirmed, nothing reaches the mail server, nothing recorded or counted', async () => {
    const u = await fresh({ confirmEmail: false });
    const steps = [{ id: 'due', offset_days: 0, subject: 'Act now [Invoice Number]', message: 'Visit http://spam.example' }];
    expect((await t.put('/reminders/settings', { enabled: true, minimum_balance: 0, steps }, u.token)).status).toBe(200);
    const inv = await issuedInvoice(t, u, 'victim@example.nz');
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await sendNow(u, inv.id));
    expect(tally(answers)).toEqual({ [`403 Please confirm your email address before sending. We sent a link to ${u.email} — check your inbox, or resend it.`]: 60 });
    expect(answers[0]!.json.code).toBe(EMAIL_UNCONFIRMED_CODE);
    expect(reminderMails(route.sink, inv.id)).toEqual([]);
    expect(route.sink.messages.filter((m) => m.envelope.rcptTo.includes('victim@example.nz'))).toEqual([]);
    expect((await t.get(`/invoices/${inv.id}/timeline`, u.token)).json.entries.map((e: { kind: string }) => e.kind)).not.toContain('reminded');
    expect(await recipientsToday(u)).toBe(0);
    // The screen says why the button is off, in the same words.
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json.send_now).toEqual({ allowed: false, reason: answers[0]!.json.detail, subject: null });
  });

  it('a confirmed trial account: 60 at once on one invoice send one (once a day, 429 with Retry-After); across 40 invoices 30 go (the burst) and the rest are 429', async () => {
    const u = await fresh();
    const inv = await issuedInvoice(t, u);
    const answers = await Promise.all(Array.from({ length: 60 }, () => sendNow(u, inv.id)));
    expect(tally(answers)).toEqual({ '200': 1, [`429 ${REMINDER_MESSAGES.oncePerDay('Wed, 6 May, 9:30 am')}`]: 59 });
    expect(answers.find((a) => a.status === 429)!.headers.get('Retry-After')).toBe(String(24 * 3600));
    expect(reminderMails(route.sink, inv.id)).toHaveLength(1);
    expect(await recipientsToday(u)).toBe(1);

    const other = await fresh();
    const many = [];
    for (let i = 0; i < 40; i++) many.push(await issuedInvoice(t, other, `client${i}@example.nz`));
    const before = route.sink.messages.length;
    const burst = [];
    for (const i of many) burst.push(await sendNow(other, i.id));
    expect(burst.slice(0, SEND_LIMITS.burst.max).every((a) => a.status === 200)).toBe(true);
    expect(burst.slice(SEND_LIMITS.burst.max).map((a) => a.status)).toEqual(Array(40 - SEND_LIMITS.burst.max).fill(429));
    expect(burst.at(-1)!.json.detail).toMatch(/^You've sent a lot of emails in a short time\. Please wait \d+ minutes? and try again\.$/);
    expect(route.sink.messages.length - before).toBe(SEND_LIMITS.burst.max);
    expect(await recipientsToday(other)).toBe(SEND_LIMITS.burst.max);
  });

  it('the day is full: a reminder by hand is 429 with the limit in words, reaches no one, and takes no once-a-day place', async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    await fillDay(u, 49, 'fill');
    expect(await recipientsToday(u)).toBe(50);
    const refused = await sendNow(u, inv.id);
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe(TRIAL_LIMIT_REACHED);
    expect(reminderMails(route.sink, inv.id)).toEqual([]);
    // The next UTC day (12:00 NZST): the limit has room, and the refused one took no place.
    await at(u, '2026-05-05T00:00:00.000Z');
    expect((await sendNow(u, inv.id)).status).toBe(200);
    expect(reminderMails(route.sink, inv.id)).toHaveLength(1);
  });

  it('a mail server that is down: 503, nothing counted, and the once-a-day place is given back', async () => {
    const u = await fresh();
    const inv = await issuedInvoice(t, u);
    route.down = true;
    const down = await sendNow(u, inv.id);
    route.down = false;
    expect(down.status).toBe(503);
    expect(await recipientsToday(u)).toBe(0);
    expect((await sendNow(u, inv.id)).status).toBe(200);
    expect(await recipientsToday(u)).toBe(1);
  });
});

describe("a reminder by hand keeps the tradie's own rules", () => {
  it("not while the invoice's reminders are paused, not to a client set to 'No reminders' — 409 in words, and the screen says why", async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    expect((await t.put(`/reminders/invoices/${inv.id}/paused`, { paused: true }, u.token)).status).toBe(204);
    const paused = await sendNow(u, inv.id);
    expect([paused.status, paused.json.detail]).toEqual([409, REMINDER_MESSAGES.paused]);
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json).toMatchObject({ paused: true, automatic: { state: 'paused' }, send_now: { allowed: false, reason: REMINDER_MESSAGES.paused } });

    expect((await t.put(`/reminders/invoices/${inv.id}/paused`, { paused: false }, u.token)).status).toBe(204);
    expect((await t.put(`/reminders/clients/${inv.clientId}`, { no_reminders: true }, u.token)).status).toBe(204);
    const optedOut = await sendNow(u, inv.id);
    expect([optedOut.status, optedOut.json.detail]).toEqual([409, REMINDER_MESSAGES.clientNoReminders('Hēmi Walker')]);
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json).toMatchObject({ client_no_reminders: true, automatic: { state: 'client_no_reminders' }, send_now: { allowed: false } });
    expect(reminderMails(route.sink, inv.id)).toEqual([]);

    expect((await t.put(`/reminders/clients/${inv.clientId}`, { no_reminders: false }, u.token)).status).toBe(204);
    expect((await sendNow(u, inv.id)).status).toBe(200);
  });

  it('once a day: 24 hours after the last reminder, by hand or on schedule, another may go', async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    await at(u, DUE_0800);
    await scheduleReminders(t.deps, { accountId: u.userId });
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 1 });
    await at(u, '2026-05-12T19:59:00.000Z');
    const soon = await sendNow(u, inv.id);
    expect([soon.status, soon.json.detail, soon.headers.get('Retry-After')]).toEqual([429, REMINDER_MESSAGES.oncePerDay('Wed, 13 May, 8:00 am'), '60']);
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json.send_now).toEqual({ allowed: false, reason: soon.json.detail, subject: null });
    await at(u, '2026-05-12T20:00:00.000Z');
    expect((await sendNow(u, inv.id)).status).toBe(200);
    expect(reminderMails(route.sink, inv.id)).toHaveLength(2);
  });

  it("takes the step that fits: the first one 44 days overdue says '…is overdue' with the pay link, the next day the second reminder; a message without [Pay Link] still carries it", async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    const link = linkIn(route.sink, inv.id).url;
    // Automatic reminders off: nothing went on schedule. 25 June 2026, 10:00 NZST: 44 days overdue.
    const { steps } = (await t.get('/reminders/settings', u.token)).json;
    const settings = { enabled: false, minimum_balance: 0, steps };
    expect((await t.put('/reminders/settings', settings, u.token)).status).toBe(200);
    await at(u, '2026-06-24T22:00:00.000Z');
    expect((await sendNow(u, inv.id)).status).toBe(200);
    const [first] = reminderMails(route.sink, inv.id);
    expect(first!.mail.subject).toBe(`Invoice ${inv.reference} is overdue`);
    expect(first!.mail.text).toContain('(44 days overdue)');
    expect(first!.mail.text).toContain(`View and pay the invoice online: ${link}`);

    await at(u, '2026-06-25T22:00:00.000Z');
    // The screen says what will go before it goes.
    expect((await t.get(`/reminders/invoices/${inv.id}`, u.token)).json).toMatchObject({
      automatic: { state: 'off', next_at: null },
      send_now: { allowed: true, reason: null, subject: `Second reminder: invoice ${inv.reference} is overdue` },
    });
    expect((await sendNow(u, inv.id)).status).toBe(200);
    expect(reminderMails(route.sink, inv.id)[1]!.mail.subject).toBe(`Second reminder: invoice ${inv.reference} is overdue`);

    // The tradie's own words without [Pay Link]: the link is added at the end.
    const own = steps.map((s: { message: string }) => ({ ...s, message: 'Please pay [Balance] today.' }));
    expect((await t.put('/reminders/settings', { ...settings, steps: own }, u.token)).status).toBe(200);
    await at(u, '2026-06-26T22:00:00.000Z');
    expect((await sendNow(u, inv.id)).status).toBe(200);
    const third = reminderMails(route.sink, inv.id)[2]!;
    expect(third.mail.subject).toBe(`Final reminder: invoice ${inv.reference} is 46 days overdue`);
    expect(third.mail.text).toMatch(new RegExp(`^Please pay \\$230\\.00 today\\.\\s+View and pay the invoice online: ${link.replace(/[.?]/g, '\\$&')}`));
  });
});

describe('the automatic reminders go through the same door', () => {
  it("held back by a full day: nothing goes and nothing is recorded; it goes when the day's limit has room, counted", async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    await at(u, DUE_0800);
    await fillDay(u, 50, 'due-day');
    await scheduleReminders(t.deps, { accountId: u.userId });
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 0, held: 1 });
    expect(reminderMails(route.sink, inv.id)).toEqual([]);
    const [queued] = await t.deps.store.db.query<{ last_error: string; attempts: number }>('SELECT last_error, attempts FROM reminder_queue WHERE document_id = $1', [inv.id]);
    expect(queued).toEqual({ last_error: TRIAL_LIMIT_REACHED, attempts: 0 });
    // The 15-minute planning pass keeps it waiting; at 12:00 NZST the UTC day turns and it goes.
    await scheduleReminders(t.deps, { accountId: u.userId });
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 0 });
    await at(u, '2026-05-12T00:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 1 });
    expect(reminderMails(route.sink, inv.id)).toHaveLength(1);
    expect(await recipientsToday(u)).toBe(1);
  });

  it('an address that is no longer confirmed: the reminder waits, and goes once it is confirmed again', async () => {
    const u = await fresh();
    const inv = await draftInvoice(t, u);
    await emailed(u, inv.id);
    await t.deps.store.db.query('UPDATE users SET email_confirmed_at = NULL WHERE id = $1', [u.userId]);
    await at(u, DUE_0800);
    await scheduleReminders(t.deps, { accountId: u.userId });
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 0, held: 1 });
    expect(reminderMails(route.sink, inv.id)).toEqual([]);
    await t.deps.store.db.query('UPDATE users SET email_confirmed_at = created_at WHERE id = $1', [u.userId]);
    await at(u, '2026-05-11T21:00:00.000Z');
    expect(await sendDueReminders(t.deps)).toMatchObject({ sent: 1 });
    expect(reminderMails(route.sink, inv.id)).toHaveLength(1);
  });
});

describe("a client's answers reach the tradie as one notice per quote per hour", () => {
  const runOutbox = () => outboxProcessor(t.deps, REACTIONS).runDue();

  async function sentQuote(u: User) {
    const q = await draftInvoice(t, u, 'hemi@example.nz', { type: 'quote' });
    await emailed(u, q.id);
    return { q, token: linkIn(route.sink, q.id).token };
  }

  it('10 requests for changes in an hour: one notice at once, then one at the hour listing the nine others; the day counts both', async () => {
    const u = await fresh();
    const { q, token } = await sentQuote(u);
    const c = publicClient(t);
    for (let i = 1; i <= 10; i++) {
      expect((await c.post(`/quotes/${token}/changes`, { note: `Change number ${i}` })).status).toBe(200);
      t.clock.advance(5 * 60_000);
    }
    await runOutbox();
    const first = noticeMails(route.sink, q, u);
    expect(first.map((m) => m.mail.subject)).toEqual([`Changes asked for on quote ${q.reference}`]);
    expect(first[0]!.mail.text).toContain('Change number 1');
    expect(first[0]!.envelope.rcptTo).toEqual([u.email]);

    // The hour after the first notice: one more, listing the other nine, oldest first.
    t.clock.set(new Date(Date.parse(START) + NOTICE_WINDOW_MS).toISOString());
    await runOutbox();
    const notices = noticeMails(route.sink, q, u);
    expect(notices).toHaveLength(2);
    expect(notices[1]!.mail.subject).toBe(`Changes asked for on quote ${q.reference} (9 requests)`);
    const listed = [...notices[1]!.mail.text!.matchAll(/Change number (\d+)/g)].map((m) => Number(m[1]));
    expect(listed).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(notices[1]!.mail.text).toContain('Tue, 5 May, 9:35 am — asked for changes:');
    await runOutbox();
    expect(noticeMails(route.sink, q, u)).toHaveLength(2);
    // The day's recipients: the quote's email to the client, and the two notices to the tradie.
    expect(await recipientsToday({ ...u, token: await signInAgain(t, u) })).toBe(3);
  });

  it('an acceptance is told at once, with the requests that were waiting; three quotes from one address get one notice each', async () => {
    const u = await fresh();
    const quotes = [await sentQuote(u), await sentQuote(u), await sentQuote(u)];
    const c = publicClient(t);
    for (const { token } of quotes) for (let i = 1; i <= 3; i++) expect((await c.post(`/quotes/${token}/changes`, { note: `Ask ${i}` })).status).toBe(200);
    await runOutbox();
    for (const { q } of quotes) expect(noticeMails(route.sink, q, u)).toHaveLength(1);

    t.clock.advance(10 * 60_000);
    const { q, token } = quotes[0]!;
    const page = (await c.get(`/quotes/${token}`)).json;
    expect((await c.post(`/quotes/${token}/accept`, { signer_name: 'Jo Bloggs', terms_accepted: true, shown_sha256: page.shown_sha256, version: page.version })).status).toBe(200);
    await runOutbox();
    const told = noticeMails(route.sink, q, u);
    expect(told.map((m) => m.mail.subject)).toEqual([`Changes asked for on quote ${q.reference}`, `Quote ${q.reference} accepted by Jo Bloggs`]);
    expect(told[1]!.mail.text).toMatch(/asked for changes:\s+Ask 2[\s\S]*asked for changes:\s+Ask 3[\s\S]*accepted by Jo Bloggs/);
    for (const other of quotes.slice(1)) expect(noticeMails(route.sink, other.q, u)).toHaveLength(1);
  });

  it("a full day holds a notice back until the day's limit has room", async () => {
    const u = await fresh();
    const { q, token } = await sentQuote(u);
    await fillDay(u, 49, 'notice-day');
    expect((await publicClient(t).post(`/quotes/${token}/changes`, { note: 'Can you start in June?' })).status).toBe(200);
    await runOutbox();
    expect(noticeMails(route.sink, q, u)).toEqual([]);
    await at(u, '2026-05-05T00:00:00.000Z');
    await runOutbox();
    expect(noticeMails(route.sink, q, u).map((m) => m.mail.text)).toEqual([expect.stringContaining('Can you start in June?')]);
  });
});
