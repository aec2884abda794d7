import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

const url = (text: string): string => /https?:\/\/\S+/.exec(text)?.[0] ?? '';

describe('accounts and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('register', () => {
    it('creates an account with a trimmed, lower-cased email and answers who it is', async () => {
      const r = await t.post('/auth/register', { email: '  Mere.Parata@Example.NZ ', password: 'secret1', full_name: ' Mere Parata ' });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ email: 'mere.parata@example.nz', full_name: 'Mere Parata' });
      expect(r.json).not.toHaveProperty('password_hash');
    });

    it('refuses a second account for the same email, whatever its case', async () => {
      await t.post('/auth/register', { email: 'dup@example.nz', password: 'secret1', full_name: 'A' });
      const r = await t.post('/auth/register', { email: 'DUP@example.nz ', password: 'secret2', full_name: 'B' });
      expect(r.status).toBe(409);
      expect(r.json.detail).toMatch(/already exists/);
    });

    it.each([
      [{ email: 'not-an-email', password: 'secret1', full_name: 'A' }, 'Please enter a valid email address'],
      [{ email: 'a@b.nz', password: '12345', full_name: 'A' }, 'Password must be at least 6 characters'],
      [{ email: 'a@b.nz', password: 'secret1', full_name: '   ' }, 'Please enter your name'],
      [{ email: 'a@b.nz', password: 'secret1' }, 'Please enter your name'],
      [{ email: 42, password: 'secret1', full_name: 'A' }, 'Please enter a valid email address'],
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
      expect(blocked.headers.get('retry-after')).toBe('900');
      // Another email is not affected.
      const other = await signUp(t);
      expect((await t.post('/auth/login', { email: other.email, password: other.password })).status).toBe(200);
      t.clock.advance(15 * 60_000 + 1000);
      expect((await t.post('/auth/login', { email: u.email, password: u.password })).status).toBe(200);
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
      const replay = await t.post('/auth/refresh', { refresh_token: u.refresh });
      expect(replay.status).toBe(401);
      expect(replay.json.detail).toMatch(/sign in again/);
      // The legitimate holder's newer token is revoked too.
      expect((await t.post('/auth/refresh', { refresh_token: legit.json.refresh_token })).status).toBe(401);
      // Signing in again starts a new family that works.
      const again = await t.post('/auth/login', { email: u.email, password: u.password });
      expect((await t.post('/auth/refresh', { refresh_token: again.json.refresh_token })).status).toBe(200);
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
