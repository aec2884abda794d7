import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createPkcePair, pkceChallenge } from '../../../src/integrations/xero/pkce.ts';
import { AccountingError, type ProviderTokens } from '../../../src/integrations/xero/port.ts';
import { type StoredConnection, type TokenStore, createKeyedLock, createTokenKeeper } from '../../../src/integrations/xero/tokenRefresh.ts';
import { XERO_DEFAULTS } from '../../../src/integrations/xero/xeroAdapter.ts';
import { type Harness, REDIRECT_URI, startHarness } from './harness.ts';

const started: Harness[] = [];
async function harness(opts: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(opts);
  started.push(h);
  return h;
}
afterEach(async () => {
  for (const h of started.splice(0)) await h.fake.stop();
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 1));
}

const tokenCalls = (h: Harness) => h.fake.state.requests.filter((r) => r.url === '/identity/connect/token');

describe('PKCE helpers', () => {
  it('a 43-character verifier from the allowed alphabet; the challenge is its base64url SHA-256', () => {
    const { verifier, challenge } = createPkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    // RFC 7636 appendix B
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe('the OAuth dance against the fake Xero', () => {
  it('authorise URL → consent → callback with code and state → code exchange with the verifier → tenant id', async () => {
    const h = await harness();
    const pkce = createPkcePair();
    const url = new URL(h.xero.authorizationUrl('st-123', pkce.challenge));
    expect(`${url.origin}${url.pathname}`).toBe(h.fake.loginUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: h.fake.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'offline_access accounting.invoices accounting.contacts accounting.payments accounting.settings.read accounting.attachments',
      state: 'st-123',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    expect(url.search).toContain('scope=offline_access%20accounting.invoices');

    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-123');
    const code = back.searchParams.get('code') ?? '';

    const tokens = await h.xero.exchangeCode(code, pkce.verifier);
    expect(tokens.expiresAt).toEqual(new Date('2026-05-04T09:30:00Z'));
    expect(tokens.scope).toBe(XERO_DEFAULTS.scopes);
    expect(tokens.authEventId).toMatch(/^[0-9a-f-]{36}$/);
    const exchange = tokenCalls(h)[0];
    expect(exchange?.headers.authorization).toBe(`Basic ${Buffer.from(`${h.fake.clientId}:${h.fake.clientSecret}`).toString('base64')}`);
    expect(new URLSearchParams(exchange?.body).get('code_verifier')).toBe(pkce.verifier);

    const tenants = await h.xero.connections(tokens.accessToken);
    expect(tenants).toEqual([{ connectionId: expect.any(String), tenantId: h.fake.tenants[0]?.tenantId, tenantName: 'Demo Company (NZ)', tenantType: 'ORGANISATION', authEventId: tokens.authEventId }]);
    expect(h.fake.state.requests.every((r) => r.url.startsWith('/login/') || r.headers.accept === 'application/json')).toBe(true);
  });

  it('a wrong verifier, or the same code twice, is invalid_grant', async () => {
    const h = await harness();
    const pkce = createPkcePair();
    const codeFor = async () => new URL((await fetch(h.xero.authorizationUrl('s', pkce.challenge), { redirect: 'manual' })).headers.get('location') ?? '').searchParams.get('code') ?? '';
    const code = await codeFor();
    await expect(h.xero.exchangeCode(code, createPkcePair().verifier)).rejects.toMatchObject({ kind: 'invalid_grant' });
    const code2 = await codeFor();
    await h.xero.exchangeCode(code2, pkce.verifier);
    await expect(h.xero.exchangeCode(code2, pkce.verifier)).rejects.toMatchObject({ kind: 'invalid_grant' });
  });

  it('denied consent comes back as error=access_denied with the state', async () => {
    const h = await harness();
    h.fake.denyNextConsent();
    const res = await fetch(h.xero.authorizationUrl('s-9', createPkcePair().challenge), { redirect: 'manual' });
    const back = new URL(res.headers.get('location') ?? '');
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 's-9' });
  });

  it('a wrong client secret is an oauth error, not a retry loop', async () => {
    const h = await harness({ adapter: { clientSecret: 'wrong' } });
    await expect(h.xero.refresh('anything')).rejects.toMatchObject({ kind: 'oauth', status: 401 });
    expect(tokenCalls(h)).toHaveLength(1);
  });
});

describe('refresh', () => {
  it('rotates: the new refresh token works, the spent one is invalid_grant', async () => {
    const h = await harness();
    const { refreshToken } = await h.connect();
    h.clock.now = new Date('2026-05-04T09:26:00Z');
    const next = await h.xero.refresh(refreshToken);
    expect(next.refreshToken).not.toBe(refreshToken);
    expect(next.expiresAt).toEqual(new Date('2026-05-04T09:56:00Z'));
    await expect(h.xero.refresh(refreshToken)).rejects.toMatchObject({ kind: 'invalid_grant' });
    await h.xero.refresh(next.refreshToken);
    expect(h.fake.state.refreshTokenUses.map((u) => u.outcome)).toEqual(['rotated', 'reused', 'rotated']);
  });

  it('revoke forgets the connection: refresh and API calls stop working', async () => {
    const h = await harness();
    const { conn, refreshToken } = await h.connect();
    await h.xero.revoke(refreshToken);
    expect(h.fake.state.revoked).toEqual([refreshToken]);
    await expect(h.xero.refresh(refreshToken)).rejects.toMatchObject({ kind: 'invalid_grant' });
    await expect(h.xero.findInvoiceByReference(conn, 'INV-0001')).rejects.toMatchObject({ kind: 'unauthorized' });
  });
});

function memoryStore(initial: StoredConnection): TokenStore & { saves: ProviderTokens[] } {
  let current = initial;
  const saves: ProviderTokens[] = [];
  return {
    saves,
    async load() {
      return current;
    },
    async save(_key, tokens) {
      saves.push(tokens);
      current = { ...current, tokens };
    },
  };
}

describe('the refresh lock', () => {
  it('ten callers with an expiring token: exactly one refresh goes out, all get its token', async () => {
    const h = await harness();
    const { conn, refreshToken } = await h.connect();
    const store = memoryStore({ tenantId: conn.tenantId, tokens: { accessToken: conn.accessToken, refreshToken, expiresAt: new Date('2026-05-04T09:30:00Z'), scope: '', authEventId: null } });
    h.clock.now = new Date('2026-05-04T09:27:00Z'); // within 5 minutes of expiry
    const keeper = createTokenKeeper({ provider: h.xero, store, now: () => h.clock.now });
    const release = h.fake.hold('/connect/token'); // the refresh stays in flight while the others arrive
    const all = Promise.all(Array.from({ length: 10 }, () => keeper.connection('account-1')));
    await until(() => tokenCalls(h).length === 2); // the refresh has reached Xero
    release();
    const conns = await all;
    expect(tokenCalls(h)).toHaveLength(2); // the code exchange and one refresh
    expect(h.fake.state.refreshTokenUses.map((u) => u.outcome)).toEqual(['rotated']);
    expect(new Set(conns.map((c) => c.accessToken))).toEqual(new Set([store.saves[0]?.accessToken]));
  });

  it('after a 401, callers that saw the rejected token refresh once between them and retry once', async () => {
    const h = await harness();
    const { conn, refreshToken } = await h.connect();
    const store = memoryStore({ tenantId: conn.tenantId, tokens: { accessToken: conn.accessToken, refreshToken, expiresAt: new Date('2026-05-04T09:30:00Z'), scope: '', authEventId: null } });
    const keeper = createTokenKeeper({ provider: h.xero, store, now: () => h.clock.now });
    h.fake.expireAccessTokens(); // Xero rejects the token before its stated expiry
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => keeper.withConnection('account-1', (c) => h.xero.findInvoiceByReference(c, `INV-000${i}`))));
    expect(results).toEqual([null, null, null, null]);
    expect(h.fake.state.refreshTokenUses.map((u) => u.outcome)).toEqual(['rotated']);
  });

  it('a second 401 after the refresh is passed on, not retried forever', async () => {
    const h = await harness();
    const { conn, refreshToken } = await h.connect();
    const store = memoryStore({ tenantId: conn.tenantId, tokens: { accessToken: conn.accessToken, refreshToken, expiresAt: new Date('2026-05-04T09:30:00Z'), scope: '', authEventId: null } });
    const keeper = createTokenKeeper({ provider: h.xero, store, now: () => h.clock.now });
    let calls = 0;
    const always401 = () => {
      calls++;
      return Promise.reject(new AccountingError('unauthorized', 'no'));
    };
    await expect(keeper.withConnection('account-1', always401)).rejects.toMatchObject({ kind: 'unauthorized' });
    expect(calls).toBe(2);
    expect(store.saves).toHaveLength(1);
  });

  it('no stored connection: not_connected with the connect-first message', async () => {
    const keeper = createTokenKeeper({ provider: { refresh: () => Promise.reject(new Error('unused')) }, store: { load: async () => null, save: async () => {} }, now: () => new Date() });
    await expect(keeper.connection('nobody')).rejects.toMatchObject({ kind: 'not_connected', detail: 'Please connect Xero in Settings first' });
  });

  it('the keyed lock runs one call per key at a time, other keys in parallel, and survives a failure', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const step = (key: string, name: string, fail = false) =>
      lock.run(key, async () => {
        log.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 'a1', true), step('a', 'a2'), step('b', 'b1')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});
