import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestApp, signUp, useTestApp } from '../support/testApp.ts';

const url = (text: string): string => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

describe('accounts and sessions', () => {
  const t = useTestApp();

  describe('register', () => {
    it('creates an account with a trimmed, lower-cased email and answers who it is', async () => {
      const r = await t.post('/auth/register', { email: '  Mere.Parata@Example.NZ ', password: 'secret-one', full_name: ' Mere Parata ' });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ email: 'mere.parata@example.nz', full_name: 'Mere Parata' });
      expect(r.json).not.toHaveProperty('password_hash');
    });

    it('refuses a second account for the same email, whatever its case', async () => {
      await t.post('/auth/register', { email: 'dup@example.nz', password: 'secret-one', full_name: 'A' });
      const r = await t.post('/auth/register', { email: 'DUP@example.nz ', password: 'secret-two', full_name: 'B' });
      expect(r.status).toBe(409);
      expect(r.json.detail).toMatch(/already exists/);
    });

    it.each([
      [{ email: 'not-an-email', password: 'secret-one', full_name: 'A' }, 'Please enter a valid email address'],
      [{ email: 'a@b.nz', password: '1234567', full_name: 'A' }, 'Password must be at least 8 characters'],
      [{ email: 'a@b.nz', password: 'Password1', full_name: 'A' }, 'That password is one of the most common and easy to guess. Please choose another.'],
      [{ email: 'a@b.nz', password: ' iloveyou ', full_name: 'A' }, 'That password is one of the most common and easy to guess. Please choose another.'],
      [{ email: 'a@b.nz', password: 'secret-one', full_name: '   ' }, 'Please enter your name'],
      [{ email: 'a@b.nz', password: 'secret-one' }, 'Please enter your name'],
      [{ email: 42, password: 'secret-one', full_name: 'A' }, 'Please enter a valid email address'],
      [{ email: 'a@b.nz', password: 'x'.repeat(201), full_name: 'A' }, 'Password can be at most 200 characters'],
    ])('refuses %j with a clear detail and writes nothing', async (body, detail) => {
      const r = await t.post('/auth/register', body);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(detail);
    });

    it('refuses malformed JSON (400) and a non-JSON body (415)', async () => {
      expect((await t.call('POST', '/auth/register', { body: '{"email":', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
      const r = await t.call('POST', '/auth/register', { body: 'email=a', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(r.status).toBe(415);
      expect(r.json.detail).toMatch(/JSON/);
    });
  });

  describe('login', () => {
    it('answers a token pair for the right password, with the email in any case', async () => {
      const u = await signUp(t);
      const r = await t.post('/auth/login', { email: ` ${u.email.toUpperCase()} `, password: u.password });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ token_type: 'bearer', expires_in: 900 });
      expect(r.json.access_token.split('.')).toHaveLength(3);
      expect(r.json.refresh_token.length).toBeGreaterThan(30);
    });

    it('a wrong password and an unknown email give the same 401 and detail', async () => {
      const u = await signUp(t);
      const wrong = await t.post('/auth/login', { email: u.email, password: 'nope-nope' });
      const unknown = await t.post('/auth/login', { email: 'nobody@example.nz', password: 'nope-nope' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json).toEqual({ detail: 'Incorrect email or password' });
      expect(unknown.json).toEqual(wrong.json);
    });

    it('requires email and password', async () => {
      expect((await t.post('/auth/login', { email: '', password: 'x' })).json.detail).toBe('Email is required');
      expect((await t.post('/auth/login', { email: 'a@b.nz' })).json.detail).toBe('Password is required');
    });

    it('throttles after 10 failures in 15 minutes for that email (even the right password), then lets it through again', async () => {
      const u = await signUp(t);
      for (let i = 0; i < 10; i++) expect((await t.post('/auth/login', { email: u.email, password: `wrong-${i}` })).status).toBe(401);
      const blocked = await t.post('/auth/login', { email: u.email, password: u.password });
      expect(blocked.status).toBe(429);
      expect(blocked.json.detail).toMatch(/Too many sign-in attempts.*15 minutes/);
      const retry = Number(blocked.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(900);
      // Another email is not affected.
      const other = await signUp(t);
      expect((await t.post('/auth/login', { email: other.email, password: other.password })).status).toBe(200);
      t.clock.advance(retry * 1000);
      expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(200);
    });

    it('40 wrong guesses sent at once: at most 10 are checked, the rest are refused unchecked, and the owner on another network still gets in', async () => {
      const u = await signUp(t);
      const attacker = '203.0.113.9';
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => t.call('POST', '/auth/login', { json: { email: u.email, password: `guess-${i}` }, ip: attacker })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);
      // Only the checked guesses reached the password: the audit log holds exactly 10 failures.
      const [failed] = await t.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND kind = 'sign_in_failed'", [u.userId]);
      expect(Number(failed?.n)).toBe(10);
      // The attacker's address stays blocked even with the right password...
      expect((await t.call('POST', '/auth/login', { json: { email: u.email, password: u.password }, ip: attacker })).status).toBe(429);
      // ...while the owner, on their own network, signs in at once.
      expect((await t.call('POST', '/auth/login', { json: { email: u.email, password: u.password }, ip: '198.51.100.20' })).status).toBe(200);
    });

    it('X-Forwarded-For is believed only from a trusted proxy', async () => {
      const proxied = await createTestApp({ env: { TRUSTED_PROXIES: '10.0.0.2' } });
      try {
        const u = await signUp(proxied);
        const guess = (ip: string, xff: string) =>
          proxied.call('POST', '/auth/login', { json: { email: u.email, password: 'wrong guess' }, ip, headers: { 'X-Forwarded-For': xff } });
        // From an untrusted peer the header is the client's own words: every guess counts against the peer.
        for (let i = 0; i < 10; i++) expect((await guess('203.0.113.50', `192.0.2.${i}`)).status).toBe(401);
        expect((await guess('203.0.113.50', '192.0.2.99')).status).toBe(429);
        // Through the trusted proxy, the client is the address the proxy appended (the right-most).
        for (let i = 0; i < 10; i++) expect((await guess('10.0.0.2', `1.2.3.4, 198.51.100.7`)).status).toBe(401);
        expect((await guess('10.0.0.2', '198.51.100.7')).status).toBe(429);
        expect((await guess('10.0.0.2', '198.51.100.8')).status).toBe(401);
      } finally {
        await proxied.close();
      }
    });

    it('limits sign-ups per address with 429 and Retry-After', async () => {
      const strict = await createTestApp({ env: { IP_LIMIT_MULTIPLIER: '1' } });
      try {
        const reg = (i: number, ip: string) => strict.call('POST', '/auth/register', { json: { email: `spam${i}@example.nz`, password: 'long enough pass', full_name: 'S' }, ip });
        for (let i = 0; i < 10; i++) expect((await reg(i, '192.0.2.1')).status).toBe(201);
        const refused = await reg(10, '192.0.2.1');
        expect(refused.status).toBe(429);
        expect(refused.json.detail).toMatch(/Too many sign-ups/);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        const [users] = await strict.deps.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE email = 'spam10@example.nz'");
        expect(Number(users?.n)).toBe(0);
        expect((await reg(11, '192.0.2.2')).status).toBe(201);
      } finally {
        await strict.close();
      }
    });
  });

  describe('me and the bearer token', () => {
    it('answers the signed-in user', async () => {
      const u = await signUp(t, 'Hēmi Walker');
      const r = await t.get('/auth/me', u.token);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ full_name: 'Hēmi Walker', email: u.email, id: u.userId });
    });

    it('401 without a token, with a malformed one, and with an expired one', async () => {
      const u = await signUp(t);
      expect((await t.get('/auth/me')).status).toBe(401);
      expect((await t.get('/auth/me', 'not.a.jwt')).status).toBe(401);
      t.clock.advance(15 * 60_000 + 1000);
      const expired = await t.get('/auth/me', u.token);
      expect(expired.status).toBe(401);
      expect(expired.json.detail).toMatch(/expired/);
    });

    it('401 for a token signed with another key, and for alg none', async () => {
      const u = await signUp(t);
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const forged = await new SignJWT({ typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(u.userId)
        .setIssuer('tradie-quotes')
        .setAudience('tradie-quotes-api')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode('some other key entirely, 32 bytes+'));
      expect((await t.get('/auth/me', forged)).status).toBe(401);
      const none = new UnsecuredJWT({ typ: 'access' }).setSubject(u.userId).setIssuer('tradie-quotes').setAudience('tradie-quotes-api').setIssuedAt(now).setExpirationTime(now + 600).encode();
      expect((await t.get('/auth/me', none)).status).toBe(401);
    });
  });

  describe('refresh', () => {
    it('rotates: the new pair works and the used refresh token is spent', async () => {
      const u = await signUp(t);
      const r1 = await t.post('/auth/refresh', { refresh_token: u.refresh });
      expect(r1.status).toBe(200);
      expect(r1.json.refresh_token).not.toBe(u.refresh);
      expect((await t.get('/auth/me', r1.json.access_token)).status).toBe(200);
      const r2 = await t.post('/auth/refresh', { refresh_token: r1.json.refresh_token });
      expect(r2.status).toBe(200);
    });

    it('reusing a spent refresh token revokes the whole family (a stolen token stops working)', async () => {
      const u = await signUp(t);
      const legit = await t.post('/auth/refresh', { refresh_token: u.refresh });
      // Past the two-tab grace: a second use now can only be a copy.
      t.clock.advance(31_000);
      const replay = await t.post('/auth/refresh', { refresh_token: u.refresh });
      expect(replay.status).toBe(401);
      expect(replay.json.detail).toMatch(/sign in again/);
      // The legitimate holder's newer token is revoked too.
      expect((await t.post('/auth/refresh', { refresh_token: legit.json.refresh_token })).status).toBe(401);
      // Signing in again starts a new family that works.
      const again = await t.post('/auth/login', { email: u.email, password: u.password });
      expect((await t.post('/auth/refresh', { refresh_token: again.json.refresh_token })).status).toBe(200);
    });

    it('two tabs refreshing with the same token at the same moment both stay signed in', async () => {
      const u = await signUp(t);
      const [a, b] = await Promise.all([t.post('/auth/refresh', { refresh_token: u.refresh }), t.post('/auth/refresh', { refresh_token: u.refresh })]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.json.refresh_token).not.toBe(b.json.refresh_token);
      expect((await t.post('/auth/refresh', { refresh_token: a.json.refresh_token })).status).toBe(200);
      expect((await t.post('/auth/refresh', { refresh_token: b.json.refresh_token })).status).toBe(200);
    });

    it('a token reused after the 30-second grace ends the family', async () => {
      const u = await signUp(t);
      const first = await t.post('/auth/refresh', { refresh_token: u.refresh });
      t.clock.advance(31_000);
      expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(401);
      expect((await t.post('/auth/refresh', { refresh_token: first.json.refresh_token })).status).toBe(401);
    });

    it('a session ends 90 days after sign-in however often it is refreshed', async () => {
      const u = await signUp(t);
      let token = u.refresh;
      for (let day = 0; day < 89; day += 10) {
        t.clock.advance(10 * 86_400_000);
        const r = await t.post('/auth/refresh', { refresh_token: token });
        if (day + 10 >= 90) {
          expect(r.status).toBe(401);
          return;
        }
        expect(r.status).toBe(200);
        token = r.json.refresh_token;
      }
      // Day 90 exactly: the last token (from day 80) expires with the family.
      t.clock.advance(10 * 86_400_000);
      expect((await t.post('/auth/refresh', { refresh_token: token })).status).toBe(401);
    });

    it('refuses an unknown or missing refresh token, and one past its lifetime', async () => {
      expect((await t.post('/auth/refresh', { refresh_token: 'made-up' })).status).toBe(401);
      const missing = await t.post('/auth/refresh', {});
      expect(missing.status).toBe(422);
      expect(missing.json.detail).toBe('No refresh token');
      const u = await signUp(t);
      t.clock.advance(31 * 86_400_000);
      expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(401);
    });
  });

  describe('logout, sign out everywhere, change password', () => {
    it('logout revokes the device\'s refresh token and its family on the server', async () => {
      const u = await signUp(t);
      const rotated = await t.post('/auth/refresh', { refresh_token: u.refresh });
      const out = await t.post('/auth/logout', { refresh_token: rotated.json.refresh_token }, rotated.json.access_token);
      expect(out.status).toBe(200);
      expect(out.json.detail).toBe('You have been signed out.');
      expect((await t.post('/auth/refresh', { refresh_token: rotated.json.refresh_token })).status).toBe(401);
      // Another device's session is untouched.
      const other = await t.post('/auth/login', { email: u.email, password: u.password });
      expect((await t.post('/auth/refresh', { refresh_token: other.json.refresh_token })).status).toBe(200);
    });

    it('logout cannot revoke another user\'s session, and needs a token', async () => {
      const a = await signUp(t);
      const b = await signUp(t);
      expect((await t.post('/auth/logout', { refresh_token: b.refresh })).status).toBe(401);
      expect((await t.post('/auth/logout', { refresh_token: b.refresh }, a.token)).status).toBe(200);
      expect((await t.post('/auth/refresh', { refresh_token: b.refresh })).status).toBe(200);
    });

    it('sign out everywhere revokes every session of the user', async () => {
      const u = await signUp(t);
      const second = await t.post('/auth/login', { email: u.email, password: u.password });
      const r = await t.post('/auth/logout-all', {}, u.token);
      expect(r.status).toBe(200);
      expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(401);
      expect((await t.post('/auth/refresh', { refresh_token: second.json.refresh_token })).status).toBe(401);
      const kinds = await t.deps.store.db.query<{ kind: string }>('SELECT kind FROM audit_log WHERE account_id = $1 ORDER BY id', [u.userId]);
      expect(kinds.map((k) => k.kind)).toEqual(['signed_in', 'signed_in', 'signed_out_everywhere']);
    });

    it('changing the password checks the current one, refuses a common one, and signs out every other session', async () => {
      const u = await signUp(t);
      const other = await t.post('/auth/login', { email: u.email, password: u.password });
      const wrong = await t.post('/auth/change-password', { current_password: 'not my password', new_password: 'brand new secret' }, u.token);
      expect(wrong.status).toBe(422);
      expect(wrong.json.detail).toBe('Your current password is incorrect');
      expect((await t.post('/auth/change-password', { current_password: u.password, new_password: 'qwertyuiop' }, u.token)).json.detail).toMatch(/most common/);
      expect((await t.post('/auth/change-password', { current_password: u.password, new_password: 'short' }, u.token)).json.detail).toBe('Password must be at least 8 characters');
      const ok = await t.post('/auth/change-password', { current_password: u.password, new_password: 'brand new secret' }, u.token);
      expect(ok.status).toBe(200);
      expect(ok.json.detail).toMatch(/Other devices have been signed out/);
      expect((await t.post('/auth/refresh', { refresh_token: other.json.refresh_token })).status).toBe(401);
      expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(401);
      // This device carries on with the pair it was given.
      expect((await t.post('/auth/refresh', { refresh_token: ok.json.refresh_token })).status).toBe(200);
      expect((await t.post('/auth/login', { email: u.email, password: 'brand new secret' })).status).toBe(200);
    });
  });

  describe('forgot and reset password', () => {
    it('answers alike for known and unknown emails; only a known one gets an email with the link', async () => {
      const u = await signUp(t);
      const before = t.mailer.sent.length;
      const known = await t.post('/auth/forgot-password', { email: u.email.toUpperCase() });
      const unknown = await t.post('/auth/forgot-password', { email: 'ghost@example.nz' });
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(Object.keys(known.json)).toEqual(Object.keys(unknown.json));
      await new Promise((r) => setTimeout(r, 10));
      expect(t.mailer.sent.length).toBe(before + 1);
      const mail = t.mailer.sent.at(-1)!;
      expect(mail.to).toEqual([u.email]);
      expect(url(mail.text)).toMatch(/^http:\/\/app\.test\/reset-password\?token=[\w-]+$/);
    });

    it('resets once: the link works a single time, revokes the sessions, and the new password signs in', async () => {
      const u = await signUp(t);
      await t.post('/auth/forgot-password', { email: u.email });
      await new Promise((r) => setTimeout(r, 10));
      const token = new URL(url(t.mailer.sent.at(-1)!.text)).searchParams.get('token')!;
      expect((await t.post('/auth/reset-password', { token, new_password: 'short' })).json.detail).toBe('Password must be at least 8 characters');
      const ok = await t.post('/auth/reset-password', { token, new_password: 'a much better one' });
      expect(ok.status).toBe(200);
      const again = await t.post('/auth/reset-password', { token, new_password: 'another new one' });
      expect(again.status).toBe(400);
      expect(again.json.detail).toMatch(/invalid or has expired/);
      expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(401);
      expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(401);
      expect((await t.post('/auth/login', { email: u.email, password: 'a much better one' })).status).toBe(200);
    });

    it('a newer reset link makes the older ones useless', async () => {
      const u = await signUp(t);
      await t.post('/auth/forgot-password', { email: u.email });
      await new Promise((r) => setTimeout(r, 10));
      const older = new URL(url(t.mailer.sent.at(-1)!.text)).searchParams.get('token')!;
      await t.post('/auth/forgot-password', { email: u.email });
      await new Promise((r) => setTimeout(r, 10));
      const newer = new URL(url(t.mailer.sent.at(-1)!.text)).searchParams.get('token')!;
      expect((await t.post('/auth/reset-password', { token: older, new_password: 'a much better one' })).status).toBe(400);
      expect((await t.post('/auth/reset-password', { token: newer, new_password: 'a much better one' })).status).toBe(200);
    });

    it('at most 3 reset emails an hour per address, known or not; the 4th is a 429 and sends nothing', async () => {
      const u = await signUp(t);
      for (const email of [u.email, 'ghost-limit@example.nz']) {
        for (let i = 0; i < 3; i++) expect((await t.post('/auth/forgot-password', { email })).status).toBe(200);
        await new Promise((r) => setTimeout(r, 10));
        const before = t.mailer.sent.length;
        const fourth = await t.post('/auth/forgot-password', { email: email.toUpperCase() });
        expect(fourth.status).toBe(429);
        expect(fourth.json.detail).toMatch(/in the last hour/);
        expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 10));
        expect(t.mailer.sent.length).toBe(before);
      }
      const sentToOwner = t.mailer.sent.filter((m) => m.to.includes(u.email));
      expect(sentToOwner).toHaveLength(3);
    });

    it('a made-up reset token is refused before any password hashing', async () => {
      // A slow hash makes the difference plain: a real reset at cost 16 takes far longer than the refusal.
      const slow = await createTestApp({ env: { PASSWORD_COST: '16' } });
      try {
        let hashed = 0;
        const original = slow.deps.store.db.tx.bind(slow.deps.store.db);
        slow.deps.store.db.tx = ((fn: Parameters<typeof original>[0]) => {
          hashed += 1;
          return original(fn);
        }) as typeof original;
        const r = await slow.post('/auth/reset-password', { token: 'made-up-token', new_password: 'a much better one' });
        expect(r.status).toBe(400);
        // The refusal came from the lookup alone: no transaction (where the new hash is written) was opened.
        expect(hashed).toBe(0);
      } finally {
        await slow.close();
      }
    });

    it('a reset link expires after an hour', async () => {
      const u = await signUp(t);
      await t.post('/auth/forgot-password', { email: u.email });
      await new Promise((r) => setTimeout(r, 10));
      const token = new URL(url(t.mailer.sent.at(-1)!.text)).searchParams.get('token')!;
      t.clock.advance(60 * 60_000 + 1000);
      expect((await t.post('/auth/reset-password', { token, new_password: 'a much better one' })).status).toBe(400);
    });

    it('refuses a reset without a token', async () => {
      const r = await t.post('/auth/reset-password', { new_password: 'long enough' });
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe('Invalid reset link');
    });
  });
});
