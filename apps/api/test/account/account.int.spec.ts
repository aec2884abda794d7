// Settings → Account on PGlite: download my data (the same document as `npm run export`), delete
// my account (sign-in refused at once, subscription cancelled, Xero disconnected, everything,
// receipt files too, purged after the window) and change email (the address changes only from the emailed link).
import { ACCOUNT_MESSAGES, ACCOUNT_PURGE_DAYS, AUTH_MESSAGES } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdByEmail, buildAccountExport } from '../../src/account/export.ts';
import { purgeDeletedAccounts } from '../../src/account/purge.ts';
import { filesOf } from '../../src/files/index.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import { pruneSpentRows } from '../../src/maintenance/prune.ts';
import { startReliabilityApp, type ReliabilityApp } from '../reliability/support.ts';
import { signUp, type TestApp } from '../support/testApp.ts';
import { DAY, fullAccount, ownedRowCounts, rowsMentioning } from './support.ts';

let r: ReliabilityApp;
let t: TestApp;

beforeAll(async () => {
  r = await startReliabilityApp();
  t = r.t;
});
afterAll(async () => {
  await r.close();
});

describe('GET /account/export', () => {
  it('streams the same document as npm run export, as a dated attachment, and records it', async () => {
    const a = await fullAccount(t, r.stripe, 'Mere Parata');
    const res = await t.get('/account/export', a.user.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="tradie-export-${t.clock.now().toISOString().slice(0, 10)}.json"`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = await buildAccountExport(t.deps.store, a.user.userId, t.clock.now(), t.deps.secrets.exportKey);
    // Byte for byte what the CLI writes: JSON.stringify(doc, null, 2) and a newline.
    expect(res.text).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    expect(res.json.account.email).toBe(a.user.email);
    expect(res.json.events.length).toBeGreaterThan(5);
    expect(Object.keys(res.json.tables)).toEqual(expect.arrayContaining(['business_settings', 'billing_accounts']));
    expect(res.text).not.toContain('password_hash');
    const [audit] = await t.deps.store.db.query<{ kind: string }>("SELECT kind FROM audit_log WHERE account_id = $1 AND kind = 'data_exported'", [a.user.userId]);
    expect(audit?.kind).toBe('data_exported');
  });

  it('an empty account streams valid JSON too, and a guest gets 401', async () => {
    const u = await signUp(t, 'Hine Walker');
    const res = await t.get('/account/export', u.token);
    expect(res.status).toBe(200);
    expect(res.text).toBe(`${JSON.stringify(await buildAccountExport(t.deps.store, u.userId, t.clock.now(), t.deps.secrets.exportKey), null, 2)}\n`);
    expect(res.json.events).toEqual([]);
    expect((await t.get('/account/export')).status).toBe(401);
  });
});

describe('POST /account/delete', () => {
  it('a wrong confirmation or password is refused with a detail and changes nothing', async () => {
    const a = await fullAccount(t, r.stripe, 'Tama Ruru');
    const before = await ownedRowCounts(t, a.user.userId);
    const wrongWord = await t.post('/account/delete', { confirm: 'delete', password: a.user.password }, a.user.token);
    expect(wrongWord.status).toBe(422);
    expect(wrongWord.json.detail).toBe(ACCOUNT_MESSAGES.confirmationWrong);
    const wrongPassword = await t.post('/account/delete', { confirm: 'DELETE', password: 'not the password' }, a.user.token);
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.json.detail).toBe(ACCOUNT_MESSAGES.passwordWrong);
    const missing = await t.post('/account/delete', { confirm: 'DELETE' }, a.user.token);
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toBeTruthy();
    // Nothing changed: the subscription lives, Xero is connected, sign-in works, no purge is due.
    expect(r.stripe.subscriptions.get(a.subscriptionId)?.status).not.toBe('canceled');
    const after = await ownedRowCounts(t, a.user.userId);
    // The wrong password is in the audit log on purpose; nothing else moved.
    expect({ ...after, audit_log: 0 }).toEqual({ ...before, audit_log: 0 });
    expect(after.account_deletions).toBeUndefined();
    expect((await t.post('/auth/login', { email: a.user.email, password: a.user.password })).status).toBe(200);
  });

  it('deletes: sign-in refused at once, tokens refused, subscription cancelled, Xero disconnected; the purge then leaves no row of it, and another account is untouched', async () => {
    const other = await fullAccount(t, r.stripe, 'Other Tradie');
    const a = await fullAccount(t, r.stripe, 'Leaving Tradie');
    const wrong = await t.post('/auth/login', { email: other.user.email, password: 'not the password' });
    const otherExport = await t.get('/account/export', other.user.token);
    const otherBefore = await ownedRowCounts(t, other.user.userId);
    const xeroRevokedBefore = r.xero.state.revoked.length;

    const res = await t.post('/account/delete', { confirm: 'DELETE', password: a.user.password }, a.user.token);
    expect(res.status).toBe(200);
    expect(res.json.detail).toBe(ACCOUNT_MESSAGES.deleted);
    expect(Date.parse(res.json.purge_after) - t.clock.now().getTime()).toBe(ACCOUNT_PURGE_DAYS * DAY);

    // Sign-in answers exactly as for a wrong password.
    const login = await t.post('/auth/login', { email: a.user.email, password: a.user.password });
    expect(login.status).toBe(401);
    expect(login.json.detail).toBe(AUTH_MESSAGES.incorrectLogin);
    expect({ status: login.status, detail: login.json.detail }).toEqual({ status: wrong.status, detail: wrong.json.detail });
    // Every refresh token is refused; a reset link cannot be had for the address.
    expect((await t.post('/auth/refresh', { refresh_token: a.user.refresh })).status).toBe(401);
    const mails = t.mailer.sent.length;
    expect((await t.post('/auth/forgot-password', { email: a.user.email })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.mailer.sent.length).toBe(mails);
    // The access token issued before the deletion is still within its 15 minutes: refused at once all the same.
    expect((await t.get('/invoices', a.user.token)).status).toBe(401);
    expect((await t.get('/auth/me', a.user.token)).status).toBe(401);
    // A second delete with the same (still unexpired) access token: the account is already gone.
    expect((await t.post('/account/delete', { confirm: 'DELETE', password: a.user.password }, a.user.token)).status).toBe(401);

    // Stripe: the subscription was cancelled through DELETE /v1/subscriptions/{id}.
    expect(r.stripe.subscriptions.get(a.subscriptionId)?.status).toBe('canceled');
    expect(r.stripe.requests.some((q) => q.method === 'DELETE' && q.path === `/v1/subscriptions/${a.subscriptionId}`)).toBe(true);
    expect(r.stripe.subscriptions.get(other.subscriptionId)?.status).not.toBe('canceled');
    // Xero: the refresh token was revoked and the connection forgotten.
    expect(r.xero.state.revoked.length).toBe(xeroRevokedBefore + 1);
    expect(await t.deps.store.db.query('SELECT 1 FROM xero_connections WHERE account_id = $1', [a.user.userId])).toHaveLength(0);
    const kinds = (await t.deps.store.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE account_id = $1 ORDER BY id', [a.user.userId])).map((x) => x.kind);
    expect(kinds).toEqual(expect.arrayContaining(['xero_disconnected', 'account_deleted']));

    // Until the purge, whoever runs the server can still hand the data over (npm run export -- --account EMAIL).
    expect(await accountIdByEmail(t.deps.store.db, a.user.email)).toBe(a.user.userId);
    expect((await buildAccountExport(t.deps.store, a.user.userId, t.clock.now(), t.deps.secrets.exportKey))?.account.email).toBe(a.user.email);

    // Not before the window has passed.
    t.clock.advance(ACCOUNT_PURGE_DAYS * DAY - 60_000);
    expect(await purgeDeletedAccounts(t.deps)).toEqual([]);
    expect((await ownedRowCounts(t, a.user.userId)).events).toBeGreaterThan(0);

    expect(await filesOf(t.deps).get(a.receiptFile)).not.toBeNull();
    t.clock.advance(60_000);
    expect(await purgeDeletedAccounts(t.deps)).toEqual([a.user.userId]);
    // Its receipt's file is gone from the file store; the other account's is still there.
    expect(await filesOf(t.deps).get(a.receiptFile)).toBeNull();
    expect(await filesOf(t.deps).get(other.receiptFile)).not.toBeNull();
    // No table row names the account: not by account_id / user_id, and not anywhere in any column.
    expect(await ownedRowCounts(t, a.user.userId)).toEqual({});
    expect(await rowsMentioning(t, [a.user.userId, a.user.email])).toEqual([]);
    expect(await t.deps.store.db.query('SELECT 1 FROM events WHERE account_id = $1', [a.user.userId])).toHaveLength(0);
    expect(await accountIdByEmail(t.deps.store.db, a.user.email)).toBeNull();

    // Nothing of it can be read through the API, even with a token signed for its id now.
    const forged = await signAccessToken(t.deps.secrets.jwtKey, a.user.userId, t.clock.now(), 900);
    expect((await t.get('/auth/me', forged)).status).toBe(401);
    expect((await t.get('/account/export', forged)).status).toBe(401);
    const clients = await t.get('/clients', forged);
    expect(clients.json?.items ?? []).toEqual([]);
    expect((await t.get(`/clients/${a.clientId}`, forged)).status).toBe(404);
    expect((await t.get(`/invoices/${a.invoiceId}`, forged)).status).toBe(404);
    expect((await t.post('/auth/login', { email: a.user.email, password: a.user.password })).status).toBe(401);

    // The other account is untouched (its access token has expired meanwhile: sign in again).
    expect(await ownedRowCounts(t, other.user.userId)).toEqual(otherBefore);
    const again = await t.post('/auth/login', { email: other.user.email, password: other.user.password });
    expect(again.status).toBe(200);
    const otherAfter = await t.get('/account/export', again.json.access_token);
    const strip = (doc: { exported_at?: string; signature?: unknown }) => ({ ...doc, exported_at: undefined, signature: undefined }); // the signature covers exported_at
    expect(strip(otherAfter.json)).toEqual(strip(otherExport.json));

    // The address is free again: a new account may use it.
    expect((await t.post('/auth/register', { email: a.user.email, password: 'a brand new password', full_name: 'Back Again' })).status).toBe(201);
  });

  it('the hourly pass runs the purge; pruning leaves the purge row alone until then', async () => {
    const u = await signUp(t, 'Pruned Soon');
    expect((await t.post('/account/delete', { confirm: ' DELETE ', password: u.password }, u.token)).status).toBe(200);
    await pruneSpentRows(t.deps);
    expect(await t.deps.store.db.query('SELECT 1 FROM account_deletions WHERE account_id = $1', [u.userId])).toHaveLength(1);
    t.clock.advance(ACCOUNT_PURGE_DAYS * DAY + 1);
    expect(await purgeDeletedAccounts(t.deps)).toContain(u.userId);
    expect(await ownedRowCounts(t, u.userId)).toEqual({});
  });

  it('a subscription Stripe cannot cancel right now leaves the account as it was (503)', async () => {
    const a = await fullAccount(t, r.stripe, 'Unlucky Tradie');
    const real = t.deps.billing!;
    const { BillingUnavailableError } = await import('../../src/integrations/stripe/index.ts');
    t.deps.billing = { ...real, cancelSubscription: async () => { throw new BillingUnavailableError('down'); } };
    try {
      const res = await t.post('/account/delete', { confirm: 'DELETE', password: a.user.password }, a.user.token);
      expect(res.status).toBe(503);
      expect(res.json.detail).toBe(ACCOUNT_MESSAGES.billingUnavailable);
    } finally {
      t.deps.billing = real;
    }
    expect((await t.post('/auth/login', { email: a.user.email, password: a.user.password })).status).toBe(200);
    expect(await t.deps.store.db.query('SELECT 1 FROM xero_connections WHERE account_id = $1', [a.user.userId])).toHaveLength(1);
  });
});

describe('POST /account/change-email', () => {
  const linkIn = (text: string): string => /http:\/\/app\.test(\/api\/v1\/account\/confirm-email-change\?token=[^\s]+)/.exec(text)?.[1] ?? '';

  it('emails a link to the new address; the address changes only when it is followed', async () => {
    const u = await signUp(t, 'Moving Tradie');
    const newEmail = `moved-${Date.now().toString(36)}@example.nz`;
    const res = await t.post('/account/change-email', { new_email: ` ${newEmail.toUpperCase()} `, password: u.password }, u.token);
    expect(res.status).toBe(200);
    expect(res.json.detail).toBe(ACCOUNT_MESSAGES.emailChangeSent(newEmail));
    const mail = t.mailer.sent.find((m) => m.to.map(String).includes(newEmail));
    const link = linkIn(mail?.text ?? '');
    expect(link).not.toBe('');
    // Not yet: the old address still signs in.
    expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(200);
    // The link opens a page with one button; opening it changes nothing.
    const page = await t.call('GET', link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"');
    expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(200);
    // The button.
    const token = new URL(`http://x${link}`).searchParams.get('token')!;
    const done = await t.call('POST', '/account/confirm-email-change', { body: new URLSearchParams({ token }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.text).toContain('data-result="changed"');
    expect((await t.post('/auth/login', { email: newEmail, password: u.password })).status).toBe(200);
    expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(401);
    const me = await t.get('/auth/me', u.token);
    expect(me.json.email).toBe(newEmail);
    expect(me.json.email_confirmed).toBe(true);
    // Single use.
    const reused = await t.post('/account/confirm-email-change', { token });
    expect(reused.status).toBe(422);
    expect(reused.json.detail).toBe(ACCOUNT_MESSAGES.emailChangeLinkInvalid);
    const kinds = (await t.deps.store.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE account_id = $1', [u.userId])).map((x) => x.kind);
    expect(kinds).toEqual(expect.arrayContaining(['email_change_requested', 'email_changed']));
  });

  it('refuses a wrong password, the same address or a taken one, and limits the emails', async () => {
    const u = await signUp(t, 'Careful Tradie');
    const other = await signUp(t, 'Someone Else');
    const wrong = await t.post('/account/change-email', { new_email: 'new@example.nz', password: 'nope nope' }, u.token);
    expect(wrong.status).toBe(422);
    expect(wrong.json.detail).toBe(ACCOUNT_MESSAGES.emailChangePasswordWrong);
    expect((await t.post('/account/change-email', { new_email: u.email, password: u.password }, u.token)).json.detail).toBe(ACCOUNT_MESSAGES.sameEmail);
    expect((await t.post('/account/change-email', { new_email: other.email, password: u.password }, u.token)).status).toBe(409);
    expect((await t.post('/account/change-email', { new_email: 'not an email', password: u.password }, u.token)).status).toBe(422);
    // The taken address counted (so the form cannot be used to find who has an account): two more.
    for (let i = 0; i < 2; i += 1) expect((await t.post('/account/change-email', { new_email: `n${i}-${u.email}`, password: u.password }, u.token)).status).toBe(200);
    const limited = await t.post('/account/change-email', { new_email: `n9-${u.email}`, password: u.password }, u.token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    // Only the newest link works.
    const links = t.mailer.sent.filter((m) => m.to.map(String).some((to) => to.endsWith(u.email))).map((m) => linkIn(m.text ?? '')).filter(Boolean);
    const tokens = links.map((l) => new URL(`http://x${l}`).searchParams.get('token')!);
    expect((await t.post('/account/confirm-email-change', { token: tokens[0] })).status).toBe(422);
    expect((await t.post('/account/confirm-email-change', { token: tokens.at(-1) })).status).toBe(200);
    expect((await t.get('/auth/me', u.token)).json.email).toBe(`n1-${u.email}`);
  });
});
