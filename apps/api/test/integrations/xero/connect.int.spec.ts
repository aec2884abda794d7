// Connecting an account to Xero through our routes, against the fake Xero: the OAuth dance
// with PKCE and a single-use state bound to the browser that pressed Connect, tokens sealed at
// rest, status, disconnect, and the audit entries of both.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { readConnection, tokensOf } from '../../../src/integrations/xero/connections.ts';
import { open } from '../../../src/integrations/xero/secretBox.ts';
import { pkceChallenge } from '../../../src/integrations/xero/index.ts';
import { createTestApp, type TestApp } from '../../support/testApp.ts';
import { callbackWith, connectCookie, connectXero, signUp, tokenCalls, type User, xeroAndBareApps, type XeroTestApp } from './support.ts';

let x: XeroTestApp;
let bare: TestApp;
xeroAndBareApps((apps) => ({ x, bare } = apps));

describe('connect (OAuth 2.0 code flow with PKCE)', () => {
  it('authorize → Xero consent → callback → status connected with the tenant id', async () => {
    const user = await signUp(x.t);
    expect((await x.t.get('/integrations/xero/status', user.token)).json).toEqual({ connected: false, tenant_id: null, tenant_name: null, configured: true, needs_reauth: false });

    const auth = await x.t.get('/integrations/xero/authorize', user.token);
    expect(auth.status).toBe(200);
    const url = new URL(auth.json.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(x.fake.loginUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toContain('offline_access');
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);

    const { callback, code } = await connectXero(x, user);
    expect(callback.status).toBe(200);
    expect(callback.headers.get('content-type')).toContain('text/html');
    expect(callback.text).toContain(ACCOUNTING_MESSAGES.connected);
    expect(callback.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    // No inline script: the page loads close.js from our origin, which the CSP allows.
    expect(callback.text).toContain('<script src="close.js"></script>');
    expect(callback.text).not.toMatch(/<script>/);
    expect(callback.headers.get('content-security-policy')).toContain("script-src 'self'");

    // The code went back with the PKCE verifier whose S256 is the challenge sent to Xero (a fresh pair per authorize).
    const exchange = tokenCalls(x.fake, 'authorization_code').find((r) => new URLSearchParams(r.body).get('code') === code);
    const form = new URLSearchParams(exchange?.body ?? '');
    const challenges = x.fake.state.requests.filter((r) => r.url.startsWith('/login/')).map((r) => new URL(r.url, 'http://x').searchParams.get('code_challenge'));
    expect(challenges).toContain(pkceChallenge(form.get('code_verifier') ?? ''));

    const status = await x.t.get('/integrations/xero/status', user.token);
    expect(status.json).toEqual({ connected: true, tenant_id: x.fake.tenants[0]?.tenantId, tenant_name: 'Demo Company (NZ)', configured: true, needs_reauth: false });
  });

  it('the callback page closes itself with a script from our own origin', async () => {
    const js = await x.t.get('/integrations/xero/close.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.text).toContain('window.close()');
  });

  it('tokens are sealed at rest: neither token appears in the database, and they decrypt only for their own row and column', async () => {
    const user = await signUp(x.t);
    await connectXero(x, user);
    const issued = x.fake.state.tokensIssued.at(-1);
    if (!issued?.refreshToken) throw new Error('no tokens issued');
    const [row] = await x.t.deps.store.db.query<Record<string, unknown>>('SELECT * FROM xero_connections WHERE account_id = $1', [user.userId]);
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(issued.accessToken);
    expect(dump).not.toContain(issued.refreshToken);
    // A JWT's first segment is the same for every token: not even that shows.
    expect(dump).not.toContain(issued.accessToken.split('.')[0]);
    const conn = await readConnection(x.t.deps.store.db, user.userId);
    if (!conn) throw new Error('no connection');
    expect(tokensOf(x.t.deps.secrets.encryptionKey, conn)).toMatchObject({ accessToken: issued.accessToken, refreshToken: issued.refreshToken });
    // Bound to its purpose: the refresh-token ciphertext does not open as the access token, nor for another account.
    expect(() => open(x.t.deps.secrets.encryptionKey, conn.refresh_token_enc, `xero:${user.userId}:access_token`)).toThrow();
    expect(() => open(x.t.deps.secrets.encryptionKey, conn.access_token_enc, `xero:someone-else:access_token`)).toThrow();
    // A fresh IV per value: sealing happens again on every save, so two connects never share a ciphertext.
    const before = conn.refresh_token_enc;
    await connectXero(x, user);
    const again = await readConnection(x.t.deps.store.db, user.userId);
    expect(again?.refresh_token_enc).not.toBe(before);
    // The PKCE verifier of an authorisation in progress is sealed too, and its state is kept only as a hash.
    const auth = await x.t.get('/integrations/xero/authorize', user.token);
    const state = new URL(auth.json.authorization_url).searchParams.get('state') ?? '';
    const states = JSON.stringify(await x.t.deps.store.db.query('SELECT * FROM xero_oauth_states'));
    expect(states).not.toContain(state);
  });

  it('an unknown state is refused with a page that closes, and nothing is exchanged', async () => {
    const user = await signUp(x.t);
    const exchanges = tokenCalls(x.fake, 'authorization_code').length;
    const r = await x.t.get('/integrations/xero/callback?code=abc&state=not-a-state-we-made');
    expect(r.status).toBe(400);
    expect(r.text).toContain(ACCOUNTING_MESSAGES.authorizationFailed);
    expect(r.text).toContain('<script src="close.js"></script>');
    expect(tokenCalls(x.fake, 'authorization_code')).toHaveLength(exchanges);
    expect((await x.t.get('/integrations/xero/status', user.token)).json.connected).toBe(false);
    const missing = await x.t.get('/integrations/xero/callback?code=abc');
    expect(missing.status).toBe(400);
    expect(missing.text).toContain(ACCOUNTING_MESSAGES.authorizationFailed);
  });

  it('a state works once: the same callback again is refused and the connection is unchanged', async () => {
    const user = await signUp(x.t);
    const auth = await x.t.get('/integrations/xero/authorize', user.token);
    const cookie = connectCookie(auth);
    const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    expect((await callbackWith(x.t, `${back.pathname}${back.search}`, cookie)).status).toBe(200);
    const stored = await readConnection(x.t.deps.store.db, user.userId);
    // Even from the same browser still holding its cookie.
    const replay = await callbackWith(x.t, `${back.pathname}${back.search}`, cookie);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('expired or was already used');
    expect((await readConnection(x.t.deps.store.db, user.userId))?.access_token_enc).toBe(stored?.access_token_enc);
  });

  it('a state older than ten minutes is refused', async () => {
    const user = await signUp(x.t);
    const auth = await x.t.get('/integrations/xero/authorize', user.token);
    x.clock.advance(10 * 60_000 + 1000);
    const exchanges = tokenCalls(x.fake, 'authorization_code').length;
    const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const r = await callbackWith(x.t, `${back.pathname}${back.search}`, connectCookie(auth));
    expect(r.status).toBe(400);
    expect(r.text).toContain(ACCOUNTING_MESSAGES.authorizationFailed);
    expect(tokenCalls(x.fake, 'authorization_code')).toHaveLength(exchanges);
    expect((await x.t.get('/integrations/xero/status', user.token)).json.connected).toBe(false);
  });

  it('consent refused in Xero (access_denied): the page says so and the state is spent', async () => {
    const user = await signUp(x.t);
    x.fake.denyNextConsent();
    const { callback } = await connectXero(x, user);
    expect(callback.status).toBe(400);
    expect(callback.text).toContain(ACCOUNTING_MESSAGES.authorizationFailed);
    expect(callback.text).toContain('Access to Xero was not allowed.');
    expect((await x.t.get('/integrations/xero/status', user.token)).json.connected).toBe(false);
    expect(await x.t.deps.store.db.query('SELECT 1 FROM xero_oauth_states WHERE account_id = $1', [user.userId])).toHaveLength(0);
  });

  it('a code Xero refuses (already used) fails the page without storing anything', async () => {
    const user = await signUp(x.t);
    const auth = await x.t.get('/integrations/xero/authorize', user.token);
    const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    x.fake.failNext('/connect/token', 400, {}, { error: 'invalid_grant' });
    const r = await callbackWith(x.t, `${back.pathname}${back.search}`, connectCookie(auth));
    expect(r.status).toBe(400);
    expect(r.text).toContain('Xero no longer accepts this sign-in');
    expect(await readConnection(x.t.deps.store.db, user.userId)).toBeNull();
  });

  it('authorize, status and disconnect need a signed-in user; the callback does not', async () => {
    expect((await x.t.get('/integrations/xero/authorize')).status).toBe(401);
    expect((await x.t.get('/integrations/xero/status')).status).toBe(401);
    expect((await x.t.del('/integrations/xero/disconnect')).status).toBe(401);
    expect((await x.t.post('/integrations/xero/sync/abc')).status).toBe(401);
    expect((await x.t.get('/integrations/xero/callback?state=x&code=y')).status).toBe(400);
  });
});

/** Authorize as `user`, then Xero's consent: the callback address and this browser's cookie, not yet followed. */
async function startConnect(user: User): Promise<{ callbackPath: string; cookie: string; setCookie: string[] }> {
  const auth = await x.t.get('/integrations/xero/authorize', user.token);
  expect(auth.status).toBe(200);
  const consent = await fetch(auth.json.authorization_url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  return { callbackPath: `${back.pathname}${back.search}`, cookie: connectCookie(auth), setCookie: auth.headers.getSetCookie() };
}

const auditOf = (t: TestApp, accountId: string) =>
  t.deps.store.db.query<{ kind: string; ip: string | null; user_agent: string | null; detail: Record<string, unknown> }>("SELECT kind, ip, user_agent, detail FROM audit_log WHERE account_id = $1 AND kind LIKE 'xero_%' ORDER BY id", [accountId]);

describe('the callback is bound to the browser that pressed Connect', () => {
  it('authorize sets a short-lived HttpOnly, SameSite=Lax cookie for the callback path only', async () => {
    const user = await signUp(x.t);
    const { setCookie, cookie } = await startConnect(user);
    expect(setCookie).toHaveLength(1);
    const attrs = (setCookie[0] ?? '').split(';').map((p) => p.trim());
    expect(cookie).toMatch(/^xero_connect=[A-Za-z0-9_-]{43}$/);
    expect(attrs).toContain('HttpOnly');
    expect(attrs).toContain('SameSite=Lax');
    expect(attrs).toContain('Path=/api/v1/integrations/xero/callback');
    expect(attrs).toContain('Max-Age=600');
    // The app is on http here: a Secure cookie would never come back.
    expect(attrs).not.toContain('Secure');
    // Only its hash is stored.
    const rows = JSON.stringify(await x.t.deps.store.db.query('SELECT * FROM xero_oauth_states WHERE account_id = $1', [user.userId]));
    expect(rows).not.toContain(cookie.slice('xero_connect='.length));
  });

  it('is Secure when the app is served over https', async () => {
    const secure = await createTestApp({ env: { APP_URL: 'https://tradie.example' }, overrides: { accounting: x.t.deps.accounting ?? null } });
    try {
      const user = await signUp(secure);
      const auth = await secure.get('/integrations/xero/authorize', user.token);
      expect(auth.status).toBe(200);
      expect(auth.headers.getSetCookie()[0]?.split(';').map((p) => p.trim())).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('the callback opened in another browser (no cookie) attaches nothing and leaves the Connect to its own browser', async () => {
    const victim = await signUp(x.t);
    const { callbackPath, cookie } = await startConnect(victim);
    const exchanges = tokenCalls(x.fake, 'authorization_code').length;

    const elsewhere = await callbackWith(x.t, callbackPath, '');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('content-type')).toContain('text/html');
    expect(elsewhere.text).toContain(ACCOUNTING_MESSAGES.authorizationFailed);
    expect(elsewhere.text).toContain('This Xero connection was started in another browser. Start again from Settings → Integrations.');
    expect(tokenCalls(x.fake, 'authorization_code')).toHaveLength(exchanges);
    expect(await readConnection(x.t.deps.store.db, victim.userId)).toBeNull();
    expect((await x.t.get('/integrations/xero/status', victim.token)).json.connected).toBe(false);
    expect(await auditOf(x.t, victim.userId)).toEqual([]);

    // The browser that pressed Connect can still finish it.
    const own = await callbackWith(x.t, callbackPath, cookie);
    expect(own.status).toBe(200);
    expect(own.text).toContain(ACCOUNTING_MESSAGES.connected);
    expect((await x.t.get('/integrations/xero/status', victim.token)).json.connected).toBe(true);
  });

  it('a wrong cookie (another Connect of the same or another account) attaches nothing', async () => {
    const victim = await signUp(x.t);
    const attacker = await signUp(x.t);
    const { callbackPath } = await startConnect(victim);
    const own = await startConnect(attacker);
    const exchanges = tokenCalls(x.fake, 'authorization_code').length;

    for (const cookie of [own.cookie, 'xero_connect=not-the-nonce', `xero_connect=${'A'.repeat(43)}`, `xero_connect=${'x'.repeat(5000)}`]) {
      const r = await callbackWith(x.t, callbackPath, cookie);
      expect(r.status, cookie.slice(0, 60)).toBe(400);
      expect(r.text).toContain('This Xero connection was started in another browser.');
    }
    // Nothing went to Xero and neither account is connected.
    expect(tokenCalls(x.fake, 'authorization_code')).toHaveLength(exchanges);
    expect(await readConnection(x.t.deps.store.db, victim.userId)).toBeNull();
    expect(await readConnection(x.t.deps.store.db, attacker.userId)).toBeNull();
    expect(await auditOf(x.t, victim.userId)).toEqual([]);
  });

  it('with the right cookie it connects, and the answer clears the cookie', async () => {
    const user = await signUp(x.t);
    const { callbackPath, cookie } = await startConnect(user);
    const r = await callbackWith(x.t, callbackPath, cookie);
    expect(r.status).toBe(200);
    expect(r.text).toContain(ACCOUNTING_MESSAGES.connected);
    const cleared = r.headers.getSetCookie().find((c) => c.startsWith('xero_connect='));
    expect(cleared).toBeDefined();
    const attrs = (cleared ?? '').split(';').map((p) => p.trim());
    expect(attrs[0]).toBe('xero_connect=');
    expect(attrs).toContain('Max-Age=0');
    expect(attrs).toContain('Path=/api/v1/integrations/xero/callback');
    expect((await x.t.get('/integrations/xero/status', user.token)).json.connected).toBe(true);
  });

  it('a refused callback clears the cookie too', async () => {
    const user = await signUp(x.t);
    const { cookie } = await startConnect(user);
    const r = await callbackWith(x.t, '/api/v1/integrations/xero/callback?state=made-up&code=abc', cookie);
    expect(r.status).toBe(400);
    expect(r.headers.getSetCookie().some((c) => c.startsWith('xero_connect=;'))).toBe(true);
  });

  it('a state made before the binding (no browser hash) is refused', async () => {
    const user = await signUp(x.t);
    const { callbackPath, cookie } = await startConnect(user);
    await x.t.deps.store.db.query('UPDATE xero_oauth_states SET browser_hash = NULL WHERE account_id = $1', [user.userId]);
    const r = await callbackWith(x.t, callbackPath, cookie);
    expect(r.status).toBe(400);
    expect(r.text).toContain('started in another browser');
    expect(await readConnection(x.t.deps.store.db, user.userId)).toBeNull();
  });
});

describe('the audit log', () => {
  it('records the connect (with the organisation, IP and browser) and the disconnect', async () => {
    const user = await signUp(x.t);
    const { callbackPath, cookie } = await startConnect(user);
    const ua = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
    const res = await x.t.app.request(callbackPath, { headers: { Cookie: cookie, 'User-Agent': ua } }, { remoteAddress: '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(await auditOf(x.t, user.userId)).toEqual([{ kind: 'xero_connected', ip: '203.0.113.9', user_agent: ua, detail: { organisation: 'Demo Company (NZ)' } }]);

    expect((await x.t.call('DELETE', '/integrations/xero/disconnect', { token: user.token, headers: { 'User-Agent': 'curl/8.5.0' } })).status).toBe(200);
    const entries = await auditOf(x.t, user.userId);
    expect(entries.map((e) => e.kind)).toEqual(['xero_connected', 'xero_disconnected']);
    expect(entries[1]).toMatchObject({ user_agent: 'curl/8.5.0', detail: { organisation: 'Demo Company (NZ)' } });

    // Nothing to disconnect: nothing recorded.
    expect((await x.t.del('/integrations/xero/disconnect', user.token)).status).toBe(200);
    expect(await auditOf(x.t, user.userId)).toHaveLength(2);
  });
});

describe('disconnect', () => {
  it('revokes the refresh token at Xero and forgets the connection', async () => {
    const user = await signUp(x.t);
    await connectXero(x, user);
    const conn = await readConnection(x.t.deps.store.db, user.userId);
    if (!conn) throw new Error('not connected');
    const refreshToken = tokensOf(x.t.deps.secrets.encryptionKey, conn).refreshToken;
    const r = await x.t.del('/integrations/xero/disconnect', user.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ connected: false, tenant_id: null });
    expect(x.fake.state.revoked).toContain(refreshToken);
    expect(await readConnection(x.t.deps.store.db, user.userId)).toBeNull();
    expect((await x.t.get('/integrations/xero/status', user.token)).json.connected).toBe(false);
    // Again: nothing to do, still fine.
    expect((await x.t.del('/integrations/xero/disconnect', user.token)).status).toBe(200);
  });

  it('forgets the connection even when Xero cannot be reached to revoke it', async () => {
    const user = await signUp(x.t);
    await connectXero(x, user);
    for (let i = 0; i < 4; i++) x.fake.failNext('/connect/revocation', 503);
    const r = await x.t.del('/integrations/xero/disconnect', user.token);
    expect(r.status).toBe(200);
    expect(await readConnection(x.t.deps.store.db, user.userId)).toBeNull();
  });
});

describe('accounts are isolated', () => {
  it("one account's connection is invisible to another, and its disconnect touches only its own", async () => {
    const a = await signUp(x.t);
    const b = await signUp(x.t);
    await connectXero(x, a);
    expect((await x.t.get('/integrations/xero/status', b.token)).json).toMatchObject({ connected: false, tenant_id: null });
    const revokedBefore = x.fake.state.revoked.length;
    await x.t.del('/integrations/xero/disconnect', b.token);
    expect(x.fake.state.revoked).toHaveLength(revokedBefore);
    expect((await x.t.get('/integrations/xero/status', a.token)).json.connected).toBe(true);
  });
});

describe('Xero not configured on this server', () => {
  it('status says so, authorize explains it, and the callback page too', async () => {
    const user = await signUp(bare);
    expect((await bare.get('/integrations/xero/status', user.token)).json).toEqual({ connected: false, tenant_id: null, tenant_name: null, configured: false, needs_reauth: false });
    const auth = await bare.get('/integrations/xero/authorize', user.token);
    expect(auth.status).toBe(503);
    expect(auth.json.detail).toBe(ACCOUNTING_MESSAGES.notConfigured);
    const cb = await bare.get('/integrations/xero/callback?state=a&code=b');
    expect(cb.status).toBe(503);
    expect(cb.text).toContain(ACCOUNTING_MESSAGES.notConfigured.replaceAll("'", '&#39;'));
    expect((await bare.del('/integrations/xero/disconnect', user.token)).status).toBe(200);
  });
});
