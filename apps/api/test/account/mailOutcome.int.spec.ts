// The account emails say what happened to them, as Send does (docs/api/documents.md, "Delivered or
// not"): with the outbox (no mail server set up) nothing claims a link was sent — the answer says
// it was saved to the outbox; with a mail server that took it, 'sent'.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { createOutboxMailer } from '../../src/mail/index.ts';
import { signUp, TestClock, useTestApp } from '../support/testApp.ts';

describe('with the outbox: nothing says sent', () => {
  const outbox = mkdtempSync(join(tmpdir(), 'tradie-outbox-'));
  const clock = new TestClock();
  const t = useTestApp({ clock, overrides: { mailer: createOutboxMailer({ dir: outbox, now: () => clock.now() }) } });

  it('change email: saved to the outbox, in those words, and the link is in the outbox', async () => {
    const u = await signUp(t, 'Outbox Tradie');
    const res = await t.post('/account/change-email', { new_email: 'new-outbox@example.nz', password: u.password }, u.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ detail: ACCOUNT_MESSAGES.emailChangeSaved('new-outbox@example.nz'), outcome: 'saved_not_delivered' });
    expect(res.json.detail).toMatch(/^Saved to the outbox — email is not set up on this server/);
    expect(res.json.detail).not.toMatch(/sent a confirmation/i);
    expect(readdirSync(outbox).length).toBeGreaterThan(0);
  });

  it('forgot password: the same answer for any address, saying the link was only saved to the outbox', async () => {
    const u = await signUp(t, 'Forgetful Tradie');
    const known = await t.post('/auth/forgot-password', { email: u.email });
    const unknown = await t.post('/auth/forgot-password', { email: 'nobody-here@example.nz' });
    expect(known.json).toEqual({ detail: AUTH_MESSAGES.resetLinkSaved(u.email), saved_to_outbox: true });
    expect(unknown.json).toEqual({ detail: AUTH_MESSAGES.resetLinkSaved('nobody-here@example.nz'), saved_to_outbox: true });
  });
});

describe('with a mail server: sent', () => {
  const t = useTestApp({ mailKind: 'smtp' });

  it('change email and forgot password say the link was sent', async () => {
    const u = await signUp(t, 'Smtp Tradie');
    const res = await t.post('/account/change-email', { new_email: 'new-smtp@example.nz', password: u.password }, u.token);
    expect(res.json).toEqual({ detail: ACCOUNT_MESSAGES.emailChangeSent('new-smtp@example.nz'), outcome: 'delivered' });
    const forgot = await t.post('/auth/forgot-password', { email: u.email });
    expect(forgot.json).toEqual({ detail: AUTH_MESSAGES.resetLinkComing(u.email), saved_to_outbox: false });
  });
});
