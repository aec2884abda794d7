// Every door to an account's email address or password, tried as an attacker would (the same tests
// on PGlite, takeover.int.spec.ts, and on PostgreSQL, takeover.pg.spec.ts). The attacker knows the
// password, signs in on their own device and asks to change the email address to theirs; the owner
// answers with what the notice tells them (change the password, reset it, sign out everywhere, or
// 'This wasn't me'). Whatever the owner did, the attacker's confirmation link must then be dead,
// the address the owner's, and a reset link sent to an address the account no longer has dead too.
import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from '@tradie/contracts';
import { expect, it } from 'vitest';
import type { OutgoingMail } from '../../src/mail/index.ts';
import { signUp, type TestApp } from '../support/testApp.ts';

const ATTACKER_PASSWORD_CHANGE = 'the attacker knows this one';
let seq = 0;
const attackerAddress = (): string => `attacker-${++seq}-${Date.now().toString(36)}@evil.example`;

/** The token of the newest link to `path` in mail to `to`. */
function tokenIn(sent: readonly OutgoingMail[], to: string, path: string): string {
  const mail = sent.filter((m) => m.to.map(String).includes(to) && m.text.includes(path)).at(-1);
  const m = mail ? new RegExp(`${path.replace(/[?/]/g, '\\$&')}\\?token=([^\\s]+)`).exec(mail.text) : null;
  if (!m?.[1]) throw new Error(`no ${path} link in mail to ${to}`);
  return decodeURIComponent(m[1]);
}

const CONFIRM = '/api/v1/account/confirm-email-change';
const CANCEL = '/api/v1/account/cancel-email-change';
const RESET = '/reset-password';

/**
 * The owner's account, and the attacker's own session on it (they know the password) with a change
 * of the address to theirs asked for: the confirmation link (in the attacker's inbox) and the
 * 'This wasn't me' link (in the notice to the owner).
 */
export async function pendingTakeover(t: TestApp) {
  const owner = await signUp(t, 'Aroha Owner');
  const login = await t.post('/auth/login', { email: owner.email, password: owner.password });
  expect(login.status).toBe(200);
  const attacker = { token: login.json.access_token as string, refresh: login.json.refresh_token as string, email: attackerAddress() };
  const asked = await t.post('/account/change-email', { new_email: attacker.email, password: owner.password }, attacker.token);
  expect(asked.status).toBe(200);
  return { owner, attacker, confirm: tokenIn(t.mailer.sent, attacker.email, CONFIRM), cancel: tokenIn(t.mailer.sent, owner.email, CANCEL) };
}

/** The account's address as the API shows it, signed in afresh with `password`. */
async function addressOf(t: TestApp, email: string, password: string): Promise<string | null> {
  const login = await t.post('/auth/login', { email, password });
  if (login.status !== 200) return null;
  return (await t.get('/auth/me', login.json.access_token)).json.email as string;
}

/** The attacker's last move: open the confirmation link. It must be refused and change nothing. */
async function attackerConfirmFails(t: TestApp, takeover: Awaited<ReturnType<typeof pendingTakeover>>, ownerPassword: string): Promise<void> {
  const confirmed = await t.post('/account/confirm-email-change', { token: takeover.confirm });
  expect(confirmed.status).toBe(422);
  expect(confirmed.json.detail).toBe(ACCOUNT_MESSAGES.emailChangeLinkInvalid);
  const page = await t.call('POST', '/account/confirm-email-change', {
    body: new URLSearchParams({ token: takeover.confirm }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(page.text).toContain('data-result="failed"');
  // The address is still the owner's; the attacker's address finds no account to reset.
  expect(await addressOf(t, takeover.owner.email, ownerPassword)).toBe(takeover.owner.email);
  expect((await t.post('/auth/login', { email: takeover.attacker.email, password: ownerPassword })).status).toBe(401);
  const mails = t.mailer.sent.length;
  expect((await t.post('/auth/forgot-password', { email: takeover.attacker.email })).status).toBe(200);
  expect(t.mailer.sent.slice(mails).filter((m) => m.to.map(String).includes(takeover.attacker.email))).toEqual([]);
}

/** The tests: `app` is the test app, started by the caller's beforeAll. */
export function takeoverDoors(app: () => TestApp): void {
  it('a password change cancels the pending email change: the attacker’s confirmation link is refused', async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    const changed = await t.post('/auth/change-password', { current_password: takeover.owner.password, new_password: ATTACKER_PASSWORD_CHANGE }, takeover.owner.token);
    expect(changed.status).toBe(200);
    await attackerConfirmFails(t, takeover, ATTACKER_PASSWORD_CHANGE);
  });

  it('a password reset cancels the pending email change', async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    expect((await t.post('/auth/forgot-password', { email: takeover.owner.email })).status).toBe(200);
    const reset = await t.post('/auth/reset-password', { token: tokenIn(t.mailer.sent, takeover.owner.email, RESET), new_password: 'the owner’s new password' });
    expect(reset.status).toBe(200);
    await attackerConfirmFails(t, takeover, 'the owner’s new password');
  });

  it('sign out everywhere cancels the pending email change', async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    expect((await t.post('/auth/logout-all', undefined, takeover.owner.token)).status).toBe(200);
    expect((await t.post('/auth/refresh', { refresh_token: takeover.attacker.refresh })).status).toBe(401);
    await attackerConfirmFails(t, takeover, takeover.owner.password);
  });

  it("'This wasn't me' in the notice: the page changes nothing; its button cancels the change and signs out every device", async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    const notice = t.mailer.sent.filter((m) => m.to.map(String).includes(takeover.owner.email)).at(-1)!;
    expect(notice.subject).toBe('Your Tradie Quotes email address is being changed');
    expect(notice.text).toContain(takeover.attacker.email);
    expect(notice.text).toContain(`http://app.test${CANCEL}?token=`);

    // A mail scanner fetching the link: a page with one button, and nothing changes.
    const page = await t.call('GET', `${CANCEL}?token=${encodeURIComponent(takeover.cancel)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="cancel-email-change">');
    expect(page.text).toContain('Cancel the change and sign out everywhere');
    const rotated = await t.post('/auth/refresh', { refresh_token: takeover.attacker.refresh });
    expect(rotated.status).toBe(200);

    const done = await t.call('POST', '/account/cancel-email-change', {
      body: new URLSearchParams({ token: takeover.cancel }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('data-result="cancelled"');
    expect(done.text).toContain(`Your email address is still ${takeover.owner.email}`);
    // Every session ends: the attacker's (rotated) and the owner's.
    expect((await t.post('/auth/refresh', { refresh_token: rotated.json.refresh_token })).status).toBe(401);
    expect((await t.post('/auth/refresh', { refresh_token: takeover.owner.refresh })).status).toBe(401);
    const kinds = (await t.deps.store.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE account_id = $1', [takeover.owner.userId])).map((r) => r.kind);
    expect(kinds).toContain('email_change_cancelled');
    await attackerConfirmFails(t, takeover, takeover.owner.password);
    // Single use.
    const again = await t.post('/account/cancel-email-change', { token: takeover.cancel });
    expect(again.status).toBe(422);
    expect(again.json.detail).toBe(ACCOUNT_MESSAGES.cancelLinkInvalid);
  });

  it('a confirmed email change ends the reset link sent to the old address', async () => {
    const t = app();
    const owner = await signUp(t, 'Moving Owner');
    expect((await t.post('/auth/forgot-password', { email: owner.email })).status).toBe(200);
    const oldReset = tokenIn(t.mailer.sent, owner.email, RESET);
    const newEmail = attackerAddress();
    expect((await t.post('/account/change-email', { new_email: newEmail, password: owner.password }, owner.token)).status).toBe(200);
    expect((await t.post('/account/confirm-email-change', { token: tokenIn(t.mailer.sent, newEmail, CONFIRM) })).status).toBe(200);
    const reset = await t.post('/auth/reset-password', { token: oldReset, new_password: 'set through the old inbox' });
    expect(reset.status).toBe(400);
    expect(reset.json.detail).toBe(AUTH_MESSAGES.resetLinkExpired);
    expect((await t.post('/auth/login', { email: newEmail, password: 'set through the old inbox' })).status).toBe(401);
    expect(await addressOf(t, newEmail, owner.password)).toBe(newEmail);
  });

  it('each link opens only its own door: a reset link confirms no address, a change link resets no password', async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    expect((await t.post('/auth/forgot-password', { email: takeover.owner.email })).status).toBe(200);
    const reset = tokenIn(t.mailer.sent, takeover.owner.email, RESET);
    expect((await t.post('/account/confirm-email-change', { token: reset })).status).toBe(422);
    expect((await t.post('/account/cancel-email-change', { token: reset })).status).toBe(422);
    expect((await t.post('/auth/confirm-email', { token: takeover.confirm })).status).toBe(400);
    expect((await t.post('/auth/reset-password', { token: takeover.confirm, new_password: 'taken over at last' })).status).toBe(400);
    expect((await t.post('/auth/reset-password', { token: takeover.cancel, new_password: 'taken over at last' })).status).toBe(400);
    expect(await addressOf(t, takeover.owner.email, takeover.owner.password)).toBe(takeover.owner.email);
    // Each still works at its own door.
    expect((await t.post('/auth/reset-password', { token: reset, new_password: 'the owner’s own choice' })).status).toBe(200);
  });

  it('one link opened 12 times at once changes the address once', async () => {
    const t = app();
    const owner = await signUp(t, 'Racing Owner');
    const newEmail = attackerAddress();
    expect((await t.post('/account/change-email', { new_email: newEmail, password: owner.password }, owner.token)).status).toBe(200);
    const token = tokenIn(t.mailer.sent, newEmail, CONFIRM);
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.post('/account/confirm-email-change', { token })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array<number>(11).fill(422)]);
    const changes = await t.deps.store.db.query("SELECT 1 FROM audit_log WHERE account_id = $1 AND kind = 'email_changed'", [owner.userId]);
    expect(changes).toHaveLength(1);
  });

  it('a password change racing the attacker’s confirmation: either the change is cancelled or it happened before — never after', async () => {
    const t = app();
    const takeover = await pendingTakeover(t);
    const [changed, confirmed] = await Promise.all([
      t.post('/auth/change-password', { current_password: takeover.owner.password, new_password: ATTACKER_PASSWORD_CHANGE }, takeover.owner.token),
      t.post('/account/confirm-email-change', { token: takeover.confirm }),
    ]);
    expect(changed.status).toBe(200);
    // Whichever committed first, the confirmation link is dead now; if it changed the address, it did so before the password changed.
    expect((await t.post('/account/confirm-email-change', { token: takeover.confirm })).status).toBe(422);
    const order = (await t.deps.store.db.query<{ kind: string }>(
      "SELECT kind FROM audit_log WHERE account_id = $1 AND kind IN ('email_changed', 'password_changed') ORDER BY id", [takeover.owner.userId],
    )).map((r) => r.kind);
    expect(order).toEqual(confirmed.status === 200 ? ['email_changed', 'password_changed'] : ['password_changed']);
  });
}
