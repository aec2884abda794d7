// The sending limits (documents/sendGuard.ts) on a real PostgreSQL server, with two apps on one
// database as two API processes would be: the daily recipients of a trial account are counted
// together, one after another and at once. Sends fired at both apps together get exactly the
// limit's worth through — never more — and a refused send is not delivered by either.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';
import { addresses, documentMails, invoiceToSend } from './sendingSupport.ts';

const TRIAL_LIMIT_REACHED = "Trial accounts can email up to 50 recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.";

describe('sending limits shared by two apps on one PostgreSQL database', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const databaseUrl = await freshDatabaseUrl('sending');
    a = await createTestApp({ clock, databaseUrl, mailKind: 'smtp' });
    b = await createTestApp({ clock, databaseUrl, mailKind: 'smtp' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const sent = () => documentMails(a.mailer.sent).length + documentMails(b.mailer.sent).length;

  it('one app fills the day, the other refuses the next recipient and delivers nothing', async () => {
    const u = await signUp(a);
    const id = await invoiceToSend(a, u);
    for (let batch = 0; batch < 5; batch++) {
      const app = batch % 2 === 0 ? a : b;
      expect((await app.post(`/invoices/${id}/send`, { to: addresses(10, `b${batch}-`) }, u.token)).status).toBe(200);
    }
    const before = sent();
    for (const app of [a, b]) {
      const refused = await app.post(`/invoices/${id}/send`, { to: ['one-more@example.nz'] }, u.token);
      expect(refused.status).toBe(429);
      expect(refused.json.detail).toBe(TRIAL_LIMIT_REACHED);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    }
    expect(sent()).toBe(before);
    expect((await b.get('/auth/sending-status', u.token)).json).toMatchObject({ recipients_today: 50, daily_recipient_limit: 50 });
  });

  it('sends fired at both apps at once: exactly the limit goes through, the rest are 429 and not delivered', async () => {
    const u = await signUp(a);
    // One invoice per send: a document's own sends are recorded one after another.
    const ids = await Promise.all(Array.from({ length: 10 }, () => invoiceToSend(a, u)));
    const before = sent();
    const answers = await Promise.all(ids.map((id, i) => (i % 2 === 0 ? a : b).post(`/invoices/${id}/send`, { to: addresses(10, `c${i}-`) }, u.token)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(sent() - before).toBe(5);
    expect((await a.get('/auth/sending-status', u.token)).json.recipients_today).toBe(50);
  });
});
