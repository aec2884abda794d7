// The one door for mail (documents/sendGuard.ts sendForAccount) on a real PostgreSQL server, with
// two apps on one database as two API processes would be, and their mail going to a real SMTP
// server on loopback: reminders sent by hand fired at both at once keep once a day per invoice
// and the burst; the day's recipients count documents, reminders and notices from either
// process; a client's answers become one notice per quote per hour whichever processes run the
// outbox. What the SMTP server received is counted.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_WINDOW_MS } from '../../src/clientLinks/notify.ts';
import { SEND_LIMITS } from '../../src/documents/sendGuard.ts';
import { outboxProcessor } from '../../src/reactions/outbox.ts';
import { REACTIONS } from '../../src/reactions/registry.ts';
import { publicClient } from '../clientLinks/support.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';
import { addresses } from './sendingSupport.ts';
import { type MailRoute, draftInvoice, issuedInvoice, linkIn, mailRoute, noticeMails, reminderMails, tally } from './mailDoorsSupport.ts';

const START = '2026-05-04T21:30:00.000Z';
const TRIAL_LIMIT_REACHED = "Trial accounts can email up to 50 recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.";

describe('the one door for mail, shared by two apps on one PostgreSQL database', () => {
  const clock = new TestClock(START);
  let route: MailRoute;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    route = await mailRoute();
    const databaseUrl = await freshDatabaseUrl('maildoors');
    a = await createTestApp({ clock, databaseUrl, overrides: { mailer: route.mailer } });
    b = await createTestApp({ clock, databaseUrl, overrides: { mailer: route.mailer } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await route?.stop();
  });

  const sendNow = (app: TestApp, token: string, id: string) => app.post(`/reminders/invoices/${id}/send-now`, undefined, token);

  it('60 reminders by hand fired at both apps at once on one invoice: exactly one goes', async () => {
    clock.set(START);
    const u = await signUp(a);
    const inv = await issuedInvoice(a, u);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => sendNow(i % 2 === 0 ? a : b, u.token, inv.id)));
    expect(tally(answers)).toEqual({ '200': 1, "429 A reminder went for this invoice in the last 24 hours. You can send another from Wed, 6 May, 9:30 am.": 59 });
    expect(reminderMails(route.sink, inv.id)).toHaveLength(1);
  });

  it('reminders by hand on 40 invoices, fired at both apps at once: exactly the burst goes, the rest are 429', async () => {
    clock.set(START);
    const u = await signUp(a);
    const invoices = [];
    for (let i = 0; i < 40; i++) invoices.push(await issuedInvoice(i % 2 === 0 ? a : b, u, `pg-client${i}@example.nz`));
    const before = route.sink.messages.length;
    const answers = await Promise.all(invoices.map((inv, i) => sendNow(i % 2 === 0 ? a : b, u.token, inv.id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(SEND_LIMITS.burst.max);
    // The rest were refused by the burst, or asked to try again while the server made many PDFs at once.
    expect(answers.filter((r) => r.status !== 200).every((r) => r.status === 429 || r.status === 503)).toBe(true);
    expect(route.sink.messages.length - before).toBe(SEND_LIMITS.burst.max);
    // Tried again, one after another: every one is the burst's 429, and nothing more goes.
    const again = [];
    for (const [i, inv] of invoices.entries()) if (answers[i]!.status !== 200) again.push(await sendNow(i % 2 === 0 ? b : a, u.token, inv.id));
    expect(again.map((r) => r.status)).toEqual(Array(40 - SEND_LIMITS.burst.max).fill(429));
    expect(route.sink.messages.length - before).toBe(SEND_LIMITS.burst.max);
    expect((await b.get('/auth/sending-status', u.token)).json.recipients_today).toBe(SEND_LIMITS.burst.max);
  });

  it("the day's recipients count a document, a reminder and a notice from either app", async () => {
    clock.set(START);
    const u = await signUp(a);
    const q = await draftInvoice(a, u, 'hemi@example.nz', { type: 'quote' });
    expect((await a.post(`/invoices/${q.id}/send`, undefined, u.token)).status).toBe(200); // 1
    const inv = await issuedInvoice(b, u);
    expect((await sendNow(b, u.token, inv.id)).status).toBe(200); // 2
    expect((await publicClient(b).post(`/quotes/${linkIn(route.sink, q.id).token}/changes`, { note: 'Could it be white?' })).status).toBe(200); // 3, the notice
    expect(noticeMails(route.sink, q, u)).toHaveLength(1);
    expect((await a.get('/auth/sending-status', u.token)).json.recipients_today).toBe(3);
    const fill = addresses(47, 'pg-fill');
    const bulk = await draftInvoice(a, u);
    expect((await a.post(`/invoices/${bulk.id}/send`, { to: fill.slice(0, 20), cc: fill.slice(20, 40), bcc: fill.slice(40) }, u.token)).status).toBe(200);
    const refused = await b.post(`/invoices/${inv.id}/send`, undefined, u.token);
    expect([refused.status, refused.json.detail]).toEqual([429, TRIAL_LIMIT_REACHED]);
  });

  it("a client's 10 answers in an hour, the outbox run by both apps at once: one notice, then one more at the hour", async () => {
    clock.set(START);
    const u = await signUp(a);
    const q = await draftInvoice(a, u, 'hemi@example.nz', { type: 'quote' });
    expect((await a.post(`/invoices/${q.id}/send`, undefined, u.token)).status).toBe(200);
    const token = linkIn(route.sink, q.id).token;
    const c = publicClient(a);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).call('POST', `/public/quotes/${token}/changes`, { ip: c.ip, json: { note: `Request ${i + 1}` } })));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const runBoth = () => Promise.all([a, b, a, b].map((app) => outboxProcessor(app.deps, REACTIONS).runDue()));
    await runBoth();
    expect(noticeMails(route.sink, q, u)).toHaveLength(1);
    clock.set(new Date(Date.parse(START) + NOTICE_WINDOW_MS).toISOString());
    await runBoth();
    await runBoth();
    const notices = noticeMails(route.sink, q, u);
    expect(notices).toHaveLength(2);
    // Between them, every request is told exactly once.
    const told = notices.flatMap((m) => [...(m.mail.text ?? '').matchAll(/Request (\d+)\b/g)].map((x) => Number(x[1])));
    expect(told.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
