// No free mail relay (auth/emailConfirmation.ts, documents/sendGuard.ts), through the app on PGlite:
// - with the outbox (nothing leaves the machine) nothing needs confirming;
// - where mail really leaves (an 'smtp' mailer) sign-up emails a confirmation link, and sending is
//   403 `email_unconfirmed` — nothing sent, nothing recorded — until the link is opened; a link
//   works once, the newest only, for 7 days; new links are limited to 3 an hour;
// - a trial account emails 50 recipients a day, a paid one 1000; 30 sends in 10 minutes at most;
//   a refused send is not delivered and uses up nothing, and neither does a send the mail server
//   did not take; the counts live in the database, so another app on it shares them
//   (on PostgreSQL with two apps at once: sending.pg.spec.ts).
import { createHash } from 'node:crypto';
import { EMAIL_UNCONFIRMED_CODE, SENDING_MESSAGES } from '@tradie/contracts';
import { describe, expect, it, vi } from 'vitest';
import { CONFIRM_TOKEN_DAYS, RESEND_CONFIRMATION_LIMIT } from '../../src/auth/emailConfirmation.ts';
import { SEND_LIMITS } from '../../src/documents/sendGuard.ts';
import { MailUnavailableError } from '../../src/mail/index.ts';
import { signInAgain } from '../documents/support.ts';
import { createTestApp, signUp, TestClock, useTestApp } from '../support/testApp.ts';
import { CONFIRM_SUBJECT, addresses, confirmationToken, documentMails, invoiceToSend } from './sendingSupport.ts';

type User = Awaited<ReturnType<typeof signUp>>;

/** Seconds from the clock to the end of its fixed window of `windowSeconds` (what Retry-After says). */
const secondsLeft = (clock: TestClock, windowSeconds: number): number => {
  const ms = windowSeconds * 1000;
  const now = clock.now().getTime();
  return Math.ceil((Math.ceil((now + 1) / ms) * ms - now) / 1000);
};

const TRIAL_LIMIT_REACHED = "Trial accounts can email up to 50 recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.";

describe('with the outbox (nothing leaves the machine)', () => {
  const t = useTestApp();

  it('sends no confirmation email, and sends documents without one', async () => {
    const u = await signUp(t, 'Mere Outbox', { confirmEmail: false });
    const id = await invoiceToSend(t, u);
    expect((await t.get('/auth/sending-status', u.token)).json).toEqual({
      email: u.email, email_confirmed: false, confirmation_required: false, recipients_today: 0, daily_recipient_limit: 50, trial: true,
    });
    const sent = await t.post(`/invoices/${id}/send`, undefined, u.token);
    expect(sent.status).toBe(200);
    expect(t.mailer.sent.map((m) => m.subject)).not.toContain(CONFIRM_SUBJECT);
    expect(documentMails(t.mailer.sent)).toHaveLength(1);
    expect((await t.post('/auth/resend-confirmation', undefined, u.token)).json).toEqual({ detail: SENDING_MESSAGES.noConfirmationNeeded });
    expect(t.mailer.sent).toHaveLength(1);
    // The daily count still counts: the limits hold whatever the mailer.
    expect((await t.get('/auth/sending-status', u.token)).json.recipients_today).toBe(1);
  });
});

describe('where mail really leaves (SMTP): confirming the email address', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  const t = useTestApp({ clock, mailKind: 'smtp' });

  const newUser = async (name: string): Promise<User & { link: string }> => {
    const u = await signUp(t, name, { confirmEmail: false });
    // The sign-up answers before its confirmation email goes.
    const link = await vi.waitFor(() => {
      const token = confirmationToken(t.mailer.sent, u.email);
      if (!token) throw new Error('no confirmation email yet');
      return token;
    });
    return { ...u, link };
  };

  it('sign-up emails a link; sending is 403 until it is opened, with nothing sent or recorded; the link works once; then the send goes', async () => {
    const u = await newUser('Aroha Tamihana');
    const mail = t.mailer.sent.find((m) => m.subject === CONFIRM_SUBJECT && m.to.includes(u.email))!;
    expect(mail.text).toContain('Kia ora Aroha Tamihana,');
    expect(mail.text).toMatch(/^http:\/\/app\.test\/confirm-email\?token=[\w-]{43}$/m);
    // Stored only as its SHA-256.
    const rows = await t.deps.store.db.query<{ token_hash: string; email: string }>(
      "SELECT token_hash, data->>'email' AS email FROM one_time_tokens WHERE account_id = $1 AND kind = 'email_confirmation'",
      [u.userId],
    );
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(u.link).digest('hex'), email: u.email }]);

    const id = await invoiceToSend(t, u);
    const mailsBefore = t.mailer.sent.length;
    const refused = await t.post(`/invoices/${id}/send`, undefined, u.token, { 'Idempotency-Key': `send-${id}` });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      detail: `Please confirm your email address before sending. We sent a link to ${u.email} — check your inbox, or resend it.`,
      code: EMAIL_UNCONFIRMED_CODE,
    });
    expect(t.mailer.sent).toHaveLength(mailsBefore);
    expect((await t.get(`/invoices/${id}`, u.token)).json).toMatchObject({ status: 'draft', sends: [] });
    expect(await t.deps.store.db.query('SELECT 1 FROM idempotency_keys WHERE account_id = $1', [u.userId])).toHaveLength(0);
    expect(await t.deps.store.db.query("SELECT 1 FROM rate_limits WHERE key LIKE 'send:%' AND key LIKE $1", [`%${u.userId}`])).toHaveLength(0);
    expect((await t.get('/auth/sending-status', u.token)).json).toMatchObject({ email_confirmed: false, confirmation_required: true });

    const confirmed = await t.post('/auth/confirm-email', { token: u.link }, undefined, { 'User-Agent': 'Phone browser' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toEqual({ detail: 'Your email address is confirmed. You can send quotes and invoices now.', email: u.email });
    const audit = await t.deps.store.db.query<{ kind: string; user_agent: string; detail: unknown }>('SELECT kind, user_agent, detail FROM audit_log WHERE account_id = $1 AND kind = $2', [u.userId, 'email_confirmed']);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_agent: 'Phone browser' });
    const again = await t.post('/auth/confirm-email', { token: u.link });
    expect(again.status).toBe(400);
    expect(again.json.detail).toBe('This confirmation link is invalid or has expired.');
    expect((await t.get('/auth/sending-status', u.token)).json).toMatchObject({ email_confirmed: true });

    // The same Idempotency-Key as the refused send: nothing was kept for it, so now it sends.
    const sent = await t.post(`/invoices/${id}/send`, undefined, u.token, { 'Idempotency-Key': `send-${id}` });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('Idempotent-Replayed')).toBeNull();
    expect(documentMails(t.mailer.sent).filter((m) => m.headers?.['X-Entity-Ref-ID'] === id)).toHaveLength(1);
    expect((await t.post('/auth/resend-confirmation', undefined, u.token)).json).toEqual({ detail: 'Your email address is already confirmed.' });
  });

  it('refuses made-up links, and a body without a token', async () => {
    for (const token of ['made-up', 'x'.repeat(43), 'a'.repeat(500)]) {
      const r = await t.post('/auth/confirm-email', { token });
      expect(r.status).toBe(400);
      expect(r.json.detail).toBe(SENDING_MESSAGES.confirmLinkInvalid);
    }
    const missing = await t.post('/auth/confirm-email', {});
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toBe(SENDING_MESSAGES.confirmLinkInvalid);
  });

  it('a newer link makes the older one useless, and a link lasts 7 days', async () => {
    const u = await newUser('Wiremu Pere');
    const resent = await t.post('/auth/resend-confirmation', undefined, u.token);
    expect(resent.status).toBe(200);
    expect(resent.json).toEqual({ detail: `We sent a new confirmation link to ${u.email}.` });
    const newer = confirmationToken(t.mailer.sent, u.email)!;
    expect(newer).not.toBe(u.link);
    expect((await t.post('/auth/confirm-email', { token: u.link })).status).toBe(400);

    clock.advance(CONFIRM_TOKEN_DAYS * 86_400_000 + 1000);
    expect((await t.post('/auth/confirm-email', { token: newer })).status).toBe(400);
    const token = await signInAgain(t, u);
    expect((await t.post('/auth/resend-confirmation', undefined, token)).status).toBe(200);
    const newest = confirmationToken(t.mailer.sent, u.email)!;
    clock.advance(CONFIRM_TOKEN_DAYS * 86_400_000 - 1000);
    expect((await t.post('/auth/confirm-email', { token: newest })).status).toBe(200);
  });

  it('new links are limited to 3 an hour per account: 429 with Retry-After; a mail server that is down costs nothing', async () => {
    const u = await newUser('Hine Resend');
    t.mailer.failWith = new MailUnavailableError('connection', 'connect ECONNREFUSED');
    const down = await t.post('/auth/resend-confirmation', undefined, u.token);
    t.mailer.failWith = undefined;
    expect(down.status).toBe(503);
    expect(down.headers.get('Retry-After')).toBe('60');

    for (let i = 0; i < RESEND_CONFIRMATION_LIMIT.max; i++) expect((await t.post('/auth/resend-confirmation', undefined, u.token)).status).toBe(200);
    const mails = t.mailer.sent.filter((m) => m.subject === CONFIRM_SUBJECT && m.to.includes(u.email)).length;
    expect(mails).toBe(1 + RESEND_CONFIRMATION_LIMIT.max);
    const refused = await t.post('/auth/resend-confirmation', undefined, u.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(secondsLeft(clock, 3600)));
    expect(refused.json.detail).toMatch(/^We've already sent you 3 confirmation links this hour\. Please check your inbox \(and spam folder\), or try again in \d+ minutes?\.$/);
    expect(t.mailer.sent.filter((m) => m.subject === CONFIRM_SUBJECT && m.to.includes(u.email))).toHaveLength(mails);
    // Another account is not held up by this one.
    const other = await newUser('Tama Other');
    expect((await t.post('/auth/resend-confirmation', undefined, other.token)).status).toBe(200);

    clock.advance(secondsLeft(clock, 3600) * 1000);
    expect((await t.post('/auth/resend-confirmation', undefined, await signInAgain(t, u))).status).toBe(200);
  });

  it('resending needs a signed-in user', async () => {
    expect((await t.post('/auth/resend-confirmation')).status).toBe(401);
    expect((await t.get('/auth/sending-status')).status).toBe(401);
  });
});

describe('where mail really leaves (SMTP): daily recipients and bursts', () => {
  const clock = new TestClock('2026-05-04T21:30:00.000Z');
  const t = useTestApp({ clock, mailKind: 'smtp' });

  const send = (u: { token: string }, id: string, body: Record<string, unknown>) => t.post(`/invoices/${id}/send`, body, u.token);

  it('a trial account emails 50 recipients a day: the 51st is refused with 429, is not delivered and uses up nothing; the next day it goes', async () => {
    const u = await signUp(t);
    const id = await invoiceToSend(t, u);
    for (let batch = 0; batch < 5; batch++) expect((await send(u, id, { to: addresses(10, `b${batch}-`) })).status).toBe(200);
    expect(documentMails(t.mailer.sent).filter((m) => m.headers?.['X-Entity-Ref-ID'] === id).flatMap((m) => m.to)).toHaveLength(50);

    const before = t.mailer.sent.length;
    const refused = await send(u, id, { to: ['one-more@example.nz'] });
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe(TRIAL_LIMIT_REACHED);
    expect(refused.headers.get('Retry-After')).toBe(String(secondsLeft(clock, 86_400)));
    expect(t.mailer.sent).toHaveLength(before);
    expect((await t.get(`/invoices/${id}`, u.token)).json.sends).toHaveLength(5);
    expect((await t.get('/auth/sending-status', u.token)).json).toMatchObject({ recipients_today: 50, daily_recipient_limit: 50, trial: true });

    clock.advance(secondsLeft(clock, 86_400) * 1000);
    expect((await send({ token: await signInAgain(t, u) }, id, { to: ['one-more@example.nz'] })).status).toBe(200);
    expect(t.mailer.sent).toHaveLength(before + 1);
  });

  it('a send that would go over says how many are left; each address counts once across To, CC and BCC', async () => {
    const u = await signUp(t);
    const id = await invoiceToSend(t, u);
    expect((await send(u, id, { to: addresses(20, 'to'), cc: addresses(20, 'cc'), bcc: addresses(5, 'bcc') })).status).toBe(200);
    const over = await send(u, id, { to: addresses(10, 'more') });
    expect(over.status).toBe(429);
    expect(over.json.detail).toBe(
      'Trial accounts can email up to 50 recipients a day, and this email would go to 10 — you have 5 left today. Send it to fewer people, subscribe to send more, or try again tomorrow.',
    );
    expect((await send(u, id, { to: ['Same@example.nz'], cc: ['same@example.nz'], bcc: [' SAME@example.nz'] })).status).toBe(200);
    expect((await t.get('/auth/sending-status', u.token)).json.recipients_today).toBe(46);
    expect((await send(u, id, { to: addresses(4, 'last') })).status).toBe(200);
    expect((await send(u, id, { to: ['x@example.nz'] })).json.detail).toBe(TRIAL_LIMIT_REACHED);
  });

  it('a paid account has the higher daily limit (SEND_DAILY_RECIPIENTS)', async () => {
    const u = await signUp(t);
    await t.deps.store.db.query('INSERT INTO billing_accounts (account_id, state, updated_at) VALUES ($1, $2::jsonb, $3)', [
      u.userId, { customerId: 'cus_paid', subscription: { id: 'sub_paid', status: 'active' }, lastInvoice: null, customerVersion: null, subscriptions: {} }, clock.now().toISOString(),
    ]);
    expect((await t.get('/auth/sending-status', u.token)).json).toMatchObject({ trial: false, daily_recipient_limit: 1000 });
    const id = await invoiceToSend(t, u);
    expect((await send(u, id, { to: addresses(20, 'to'), cc: addresses(20, 'cc'), bcc: addresses(20, 'bcc') })).status).toBe(200);
    expect((await t.get('/auth/sending-status', u.token)).json.recipients_today).toBe(60);
  });

  it(`${SEND_LIMITS.burst.max} sends in 10 minutes, then 429 with Retry-After until the window ends`, async () => {
    const u = await signUp(t);
    const id = await invoiceToSend(t, u);
    for (let i = 0; i < SEND_LIMITS.burst.max; i++) expect((await send(u, id, { to: ['hemi@example.nz'] })).status).toBe(200);
    const before = t.mailer.sent.length;
    const refused = await send(u, id, { to: ['hemi@example.nz'] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(secondsLeft(clock, SEND_LIMITS.burst.windowSeconds)));
    expect(refused.json.detail).toMatch(/^You've sent a lot of emails in a short time\. Please wait \d+ minutes? and try again\.$/);
    expect(t.mailer.sent).toHaveLength(before);
    expect((await t.get('/auth/sending-status', u.token)).json.recipients_today).toBe(SEND_LIMITS.burst.max);

    clock.advance(secondsLeft(clock, SEND_LIMITS.burst.windowSeconds) * 1000);
    expect((await send({ token: await signInAgain(t, u) }, id, { to: ['hemi@example.nz'] })).status).toBe(200);
  });

  it('a send the mail server did not take counts nothing', async () => {
    const u = await signUp(t);
    const id = await invoiceToSend(t, u);
    t.mailer.failWith = new MailUnavailableError('connection', 'connect ECONNREFUSED');
    const down = await send(u, id, { to: addresses(20, 'down') });
    t.mailer.failWith = undefined;
    expect(down.status).toBe(503);
    const counts = await t.deps.store.db.query<{ key: string; hits: number }>("SELECT key, hits FROM rate_limits WHERE key LIKE 'send:%' AND key LIKE $1", [`%${u.userId}`]);
    expect(counts.map((r) => Number(r.hits))).toEqual([0, 0]);
    expect((await t.get('/auth/sending-status', u.token)).json.recipients_today).toBe(0);
  });

  it('the counts are kept in the database: another app on the same store shares them', async () => {
    const other = await createTestApp({ clock, mailKind: 'smtp', overrides: { store: t.deps.store } });
    try {
      const u = await signUp(t);
      const id = await invoiceToSend(t, u);
      for (let batch = 0; batch < 5; batch++) expect((await send(u, id, { to: addresses(10, `s${batch}-`) })).status).toBe(200);
      const refused = await other.post(`/invoices/${id}/send`, { to: ['elsewhere@example.nz'] }, u.token);
      expect(refused.status).toBe(429);
      expect(refused.json.detail).toBe(TRIAL_LIMIT_REACHED);
      expect(other.mailer.sent).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});
