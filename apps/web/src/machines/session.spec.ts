import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, createApiClient, type Tokens, type TokenStorage } from '../api/client.ts';
import { createSessionAuth } from '../app/auth.ts';
import { createSessionMachine, sessionMachine, type Credentials, type Registration, type RefreshWaiter, type SessionUser } from './session.ts';

// ---------------------------------------------------------------------------------------------
// Helpers: promises the test settles by hand, a recorder for the side effects, a memory storage.
// ---------------------------------------------------------------------------------------------
interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const ana: SessionUser = { id: 'u1', email: 'ana@example.nz', full_name: 'Ana Tane' };
const pair: Tokens = { access_token: 'A1', refresh_token: 'R1' };

interface Fakes {
  hasAccessToken?: boolean;
  fetchUser?: () => Promise<SessionUser>;
  login?: (c: Credentials) => Promise<Tokens>;
  register?: (r: Registration) => Promise<unknown>;
  refreshTokens?: () => Promise<Tokens>;
  alreadyRenewed?: (failedToken: string | null) => boolean;
}

function start(fakes: Fakes = {}) {
  const effects: string[] = [];
  const calls = { fetchUser: 0, login: [] as Credentials[], register: [] as Registration[], refreshTokens: 0 };
  const machine = sessionMachine.provide({
    actors: {
      fetchUser: fromPromise(() => {
        calls.fetchUser++;
        return (fakes.fetchUser ?? (() => Promise.resolve(ana)))();
      }),
      login: fromPromise(({ input }: { input: Credentials }) => {
        calls.login.push(input);
        return (fakes.login ?? (() => Promise.resolve(pair)))(input);
      }),
      register: fromPromise(({ input }: { input: Registration }) => {
        calls.register.push(input);
        return (fakes.register ?? (() => Promise.resolve({ id: 'u1' })))(input);
      }),
      refreshTokens: fromPromise(() => {
        calls.refreshTokens++;
        return (fakes.refreshTokens ?? (() => Promise.resolve({ access_token: 'A2', refresh_token: 'R2' })))();
      }),
    },
    guards: {
      hasAccessToken: () => fakes.hasAccessToken ?? false,
      alreadyRenewed: (_, { failedToken }) => fakes.alreadyRenewed?.(failedToken) ?? false,
    },
    actions: {
      persistTokens: (_, tokens) => void effects.push(`store ${tokens.access_token}/${tokens.refresh_token}`),
      forgetTokens: () => void effects.push('clear tokens'),
      revokeOnServer: () => void effects.push('revoke on server'),
      goToLogin: () => void effects.push('page load /login'),
    },
  });
  const actor = createActor(machine).start();
  return { actor, effects, calls };
}

function waiter() {
  const d = deferred<void>();
  const outcome: { state: 'pending' | 'resolved' | 'rejected'; error?: unknown } = { state: 'pending' };
  d.promise.then(
    () => (outcome.state = 'resolved'),
    (error: unknown) => Object.assign(outcome, { state: 'rejected', error }),
  );
  const w: RefreshWaiter = { resolve: () => d.resolve(), reject: (e) => d.reject(e) };
  return { w, outcome, settled: d.promise.catch(() => undefined) };
}

const sessionState = (actor: ReturnType<typeof start>['actor']) => (actor.getSnapshot().value as { session: string }).session;
const refreshState = (actor: ReturnType<typeof start>['actor']) => (actor.getSnapshot().value as { refresh: string }).refresh;

// ---------------------------------------------------------------------------------------------
describe('session machine: start-up check', () => {
  it('given no stored access token, then it is signed out at once and does not ask for the user', () => {
    const { actor, calls, effects } = start({ hasAccessToken: false });
    expect(sessionState(actor)).toBe('signedOut');
    expect(calls.fetchUser).toBe(0);
    expect(effects).toEqual([]);
  });

  it('given a stored access token, then it checks /auth/me and is signed in with that user', async () => {
    const me = deferred<SessionUser>();
    const { actor } = start({ hasAccessToken: true, fetchUser: () => me.promise });
    expect(sessionState(actor)).toBe('checking');
    me.resolve(ana);
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    expect(s.context.user).toEqual(ana);
  });

  it('given the check fails, then both tokens are cleared silently (no error) and it is signed out', async () => {
    const { actor, effects } = start({ hasAccessToken: true, fetchUser: () => Promise.reject(new ApiError(401, 'expired')) });
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    expect(effects).toEqual(['clear tokens']);
    expect(s.context.error).toBeNull();
    expect(s.context.user).toBeNull();
  });
});

describe('session machine: login', () => {
  it('when LOGIN succeeds, then both tokens are stored, the user is loaded and it is signed in; the password is not kept', async () => {
    const login = deferred<Tokens>();
    const { actor, effects, calls } = start({ login: () => login.promise });
    actor.send({ type: 'LOGIN', email: 'ana@example.nz', password: 'secret1' });
    expect(sessionState(actor)).toBe('signingIn');
    expect(calls.login).toEqual([{ email: 'ana@example.nz', password: 'secret1' }]);
    login.resolve(pair);
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    expect(effects).toEqual(['store A1/R1']);
    expect(calls.fetchUser).toBe(1);
    expect(s.context.user).toEqual(ana);
    expect(s.context.credentials).toBeNull();
  });

  it('when LOGIN fails, then it is signed out with the error and stores nothing', async () => {
    const error = new ApiError(401, 'Incorrect email or password');
    const { actor, effects, calls } = start({ login: () => Promise.reject(error) });
    actor.send({ type: 'LOGIN', email: 'ana@example.nz', password: 'wrong' });
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    expect(s.context.error).toBe(error);
    expect(s.context.credentials).toBeNull();
    expect(effects).toEqual([]);
    expect(calls.fetchUser).toBe(0);
  });

  it('when loading the user after LOGIN fails, then the tokens are cleared and the error is kept', async () => {
    const error = new ApiError(500, 'boom');
    const { actor, effects } = start({ fetchUser: () => Promise.reject(error) });
    actor.send({ type: 'LOGIN', email: 'ana@example.nz', password: 'secret1' });
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    expect(effects).toEqual(['store A1/R1', 'clear tokens']);
    expect(s.context.error).toBe(error);
  });

  it('a new LOGIN clears the previous error', async () => {
    let attempt = 0;
    const { actor } = start({ login: () => (++attempt === 1 ? Promise.reject(new ApiError(401, 'no')) : new Promise<Tokens>(() => undefined)) });
    actor.send({ type: 'LOGIN', email: 'a@b.nz', password: 'x' });
    await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    actor.send({ type: 'LOGIN', email: 'a@b.nz', password: 'y' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('session machine: register then login', () => {
  it('when REGISTER succeeds, then it signs in with the same email and password and ends signed in', async () => {
    const { actor, calls, effects } = start();
    actor.send({ type: 'REGISTER', email: 'ana@example.nz', password: 'secret1', full_name: 'Ana Tane' });
    expect(sessionState(actor)).toBe('registering');
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    expect(calls.register).toEqual([{ email: 'ana@example.nz', password: 'secret1', full_name: 'Ana Tane' }]);
    expect(calls.login).toEqual([{ email: 'ana@example.nz', password: 'secret1' }]);
    expect(effects).toEqual(['store A1/R1']);
    expect(s.context.user).toEqual(ana);
    expect(s.context.registration).toBeNull();
    expect(s.context.credentials).toBeNull();
  });

  it('when REGISTER fails, then it is signed out with the error and never tries to sign in', async () => {
    const error = new ApiError(409, 'An account with this email already exists.');
    const { actor, calls } = start({ register: () => Promise.reject(error) });
    actor.send({ type: 'REGISTER', email: 'ana@example.nz', password: 'secret1', full_name: 'Ana' });
    const s = await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    expect(s.context.error).toBe(error);
    expect(calls.login).toEqual([]);
    expect(s.context.registration).toBeNull();
  });
});

describe('session machine: logout', () => {
  it('when LOGOUT, then both tokens and the user are cleared', async () => {
    const { actor, effects } = start({ hasAccessToken: true });
    await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    actor.send({ type: 'LOGOUT' });
    expect(sessionState(actor)).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(effects).toEqual(['revoke on server', 'clear tokens']);
  });
});

describe('session machine: refresh', () => {
  it('given a 401, when the refresh succeeds, then both new tokens are stored and the request is released to retry', async () => {
    const { actor, effects } = start({ hasAccessToken: true });
    await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    const a = waiter();
    actor.send({ type: 'REFRESH', failedToken: 'A1', waiter: a.w });
    expect(refreshState(actor)).toBe('refreshing');
    await a.settled;
    expect(a.outcome.state).toBe('resolved');
    expect(effects).toEqual(['store A2/R2']);
    expect(refreshState(actor)).toBe('idle');
    expect(sessionState(actor)).toBe('signedIn');
    expect(actor.getSnapshot().context.waiters).toEqual([]);
  });

  it('given several requests fail at once, then they share ONE refresh call and all are released', async () => {
    const refresh = deferred<Tokens>();
    const { actor, calls, effects } = start({ hasAccessToken: true, refreshTokens: () => refresh.promise });
    await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    const ws = [waiter(), waiter(), waiter()];
    for (const x of ws) actor.send({ type: 'REFRESH', failedToken: 'A1', waiter: x.w });
    expect(actor.getSnapshot().context.waiters).toHaveLength(3);
    refresh.resolve({ access_token: 'A2', refresh_token: 'R2' });
    await Promise.all(ws.map((x) => x.settled));
    expect(calls.refreshTokens).toBe(1);
    expect(ws.map((x) => x.outcome.state)).toEqual(['resolved', 'resolved', 'resolved']);
    expect(effects).toEqual(['store A2/R2']);
  });

  it('given a newer token is already stored than the failed request carried, then it is released without a refresh', () => {
    const { actor, calls } = start({ alreadyRenewed: (t) => t === 'A1' });
    const a = waiter();
    actor.send({ type: 'REFRESH', failedToken: 'A1', waiter: a.w });
    expect(refreshState(actor)).toBe('idle');
    expect(calls.refreshTokens).toBe(0);
    return a.settled.then(() => expect(a.outcome.state).toBe('resolved'));
  });

  it('when the refresh fails, then both tokens are cleared, the page goes to /login, every waiter gets the error and the session ends', async () => {
    const error = new ApiError(401, 'Your session has ended. Please sign in again.');
    const refresh = deferred<Tokens>();
    const { actor, effects } = start({ hasAccessToken: true, refreshTokens: () => refresh.promise });
    await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    const ws = [waiter(), waiter()];
    for (const x of ws) actor.send({ type: 'REFRESH', failedToken: 'A1', waiter: x.w });
    refresh.reject(error);
    await Promise.all(ws.map((x) => x.settled));
    expect(ws.map((x) => x.outcome)).toEqual([
      { state: 'rejected', error },
      { state: 'rejected', error },
    ]);
    expect(effects).toEqual(['clear tokens', 'page load /login']);
    expect(sessionState(actor)).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(refreshState(actor)).toBe('idle');
  });

  it('when the refresh fails during the start-up check, then it stays silent: no page load, tokens cleared, signed out', async () => {
    const me = deferred<SessionUser>();
    const { actor, effects } = start({ hasAccessToken: true, fetchUser: () => me.promise, refreshTokens: () => Promise.reject(new ApiError(401, 'No refresh token')) });
    const a = waiter();
    actor.send({ type: 'REFRESH', failedToken: 'A0', waiter: a.w });
    await a.settled;
    expect(a.outcome.state).toBe('rejected');
    me.reject(a.outcome.error);
    await waitFor(actor, (x) => x.matches({ session: 'signedOut' }));
    expect(effects).not.toContain('page load /login');
    expect(effects).toContain('clear tokens');
  });

  it('after a refresh, the next 401 starts a new refresh', async () => {
    const { actor, calls } = start({ hasAccessToken: true });
    await waitFor(actor, (x) => x.matches({ session: 'signedIn' }));
    const a = waiter();
    actor.send({ type: 'REFRESH', failedToken: 'A1', waiter: a.w });
    await a.settled;
    const b = waiter();
    actor.send({ type: 'REFRESH', failedToken: 'A2', waiter: b.w });
    await b.settled;
    expect(calls.refreshTokens).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// The real actors, guards and actions on a fake fetch and a memory storage.
// ---------------------------------------------------------------------------------------------
function memoryStorage(initial: Record<string, string> = {}): TokenStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

interface Seen {
  path: string;
  authorization: string | undefined;
  body: unknown;
}

function fakeServer(route: (req: Seen) => Promise<Response> | Response) {
  const seen: Seen[] = [];
  const f = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const req = { path: String(input).replace('/api/v1', ''), authorization: headers.Authorization, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    seen.push(req);
    return route(req);
  }) as typeof fetch;
  return { fetch: f, seen };
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the session with the real side effects (createSessionMachine + api client)', () => {
  it('given three requests with an expired token at once, then ONE /auth/refresh (without bearer) serves all three, each retried once with the new token', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R1' });
    const gate = deferred<void>();
    const { fetch, seen } = fakeServer(async (req) => {
      if (req.path === '/auth/me') return req.authorization === 'Bearer old' || req.authorization === 'Bearer new' ? json(200, ana) : json(401, { detail: 'x' });
      if (req.path === '/auth/refresh') {
        await gate.promise;
        return json(200, { access_token: 'new', refresh_token: 'R2', token_type: 'bearer', expires_in: 900 });
      }
      return req.authorization === 'Bearer new' ? json(200, { path: req.path }) : json(401, { detail: 'Token expired' });
    });
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    const visits: string[] = [];
    const auth = createSessionAuth({ api, storage: () => storage, goToLogin: () => visits.push('/login') });
    await auth.settled();
    expect(auth.isAuthenticated).toBe(true);

    const results = Promise.all([api.get('/clients'), api.get('/invoices'), api.get('/business-settings')]);
    // Let the three 401s arrive before the refresh answers.
    await new Promise((r) => setTimeout(r, 0));
    gate.resolve();
    expect(await results).toEqual([{ path: '/clients' }, { path: '/invoices' }, { path: '/business-settings' }]);

    const refreshes = seen.filter((s) => s.path === '/auth/refresh');
    expect(refreshes).toEqual([{ path: '/auth/refresh', authorization: undefined, body: { refresh_token: 'R1' } }]);
    for (const p of ['/clients', '/invoices', '/business-settings']) {
      expect(seen.filter((s) => s.path === p).map((s) => s.authorization)).toEqual(['Bearer old', 'Bearer new']);
    }
    expect(Object.fromEntries(storage.data)).toEqual({ access_token: 'new', refresh_token: 'R2' });
    expect(visits).toEqual([]);
  });

  it("given no refresh token is stored, then a 401 clears both tokens, loads /login and the caller gets 'No refresh token'", async () => {
    const storage = memoryStorage({ access_token: 'old' });
    const { fetch, seen } = fakeServer((req) => (req.path === '/auth/me' ? json(200, ana) : json(401, { detail: 'Token expired' })));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    const visits: string[] = [];
    const auth = createSessionAuth({ api, storage: () => storage, goToLogin: () => visits.push('/login') });
    await auth.settled();

    await expect(api.get('/clients')).rejects.toMatchObject({ status: 401, detail: 'No refresh token' });
    expect(seen.some((s) => s.path === '/auth/refresh')).toBe(false);
    expect(storage.data.size).toBe(0);
    expect(visits).toEqual(['/login']);
    expect(auth.isAuthenticated).toBe(false);
  });

  it("signing out removes this user's unsaved calculator draft (and leaves another account's alone); a session that only ran out keeps it", async () => {
    const draft = '{"v":1}';
    const storage = memoryStorage({ access_token: 'A1', refresh_token: 'R1', 'calculatorDraft:u1': draft, 'calculatorDraft:u2': draft });
    const { fetch } = fakeServer((req) => (req.path === '/auth/me' ? json(200, ana) : json(200, {})));
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    const auth = createSessionAuth({ api, storage: () => storage, goToLogin: () => undefined });
    await auth.settled();
    expect(auth.isAuthenticated).toBe(true);
    await auth.logout();
    expect(storage.data.has('calculatorDraft:u1')).toBe(false);
    expect(storage.data.get('calculatorDraft:u2')).toBe(draft);
  });

  it('given the refresh is refused, then the refusal reaches the caller, tokens are cleared and the page goes to /login', async () => {
    const storage = memoryStorage({ access_token: 'old', refresh_token: 'R1' });
    const { fetch } = fakeServer((req) => {
      if (req.path === '/auth/me') return json(200, ana);
      if (req.path === '/auth/refresh') return json(401, { detail: 'Your session has ended. Please sign in again.' });
      return json(401, { detail: 'Token expired' });
    });
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    const visits: string[] = [];
    const auth = createSessionAuth({ api, storage: () => storage, goToLogin: () => visits.push('/login') });
    await auth.settled();
    await expect(api.get('/clients')).rejects.toMatchObject({ status: 401, detail: 'Your session has ended. Please sign in again.' });
    expect(storage.data.size).toBe(0);
    expect(visits).toEqual(['/login']);
  });

  it('login and register go through the Auth seam: tokens stored under access_token/refresh_token, errors rejected as ApiError', async () => {
    const storage = memoryStorage();
    const users = new Map<string, string>();
    const { fetch, seen } = fakeServer((req) => {
      const body = req.body as { email: string; password: string; full_name?: string };
      if (req.path === '/auth/register') {
        users.set(body.email, body.password);
        return json(201, { id: 'u1' });
      }
      if (req.path === '/auth/login') {
        return users.get(body.email) === body.password ? json(200, { ...pair, token_type: 'bearer', expires_in: 900 }) : json(401, { detail: 'Incorrect email or password' });
      }
      if (req.path === '/auth/me') return req.authorization === 'Bearer A1' ? json(200, ana) : json(401, { detail: 'no' });
      return json(404, { detail: 'Not found' });
    });
    const api = createApiClient({ fetch: () => fetch, storage: () => storage });
    const auth = createSessionAuth({ api, storage: () => storage, goToLogin: () => undefined, machine: createSessionMachine({ api, storage: () => storage, goToLogin: () => undefined }) });
    await auth.settled();
    expect(auth.status).toBe('signedOut');

    await expect(auth.login({ email: 'ana@example.nz', password: 'nope' })).rejects.toMatchObject({ status: 401, detail: 'Incorrect email or password' });
    expect(seen.filter((s) => s.path === '/auth/refresh')).toEqual([]);

    await auth.register({ email: 'ana@example.nz', password: 'secret1', full_name: 'Ana Tane' });
    expect(auth.status).toBe('signedIn');
    expect(auth.user).toEqual(ana);
    expect(Object.fromEntries(storage.data)).toEqual({ access_token: 'A1', refresh_token: 'R1' });

    await auth.logout();
    expect(auth.status).toBe('signedOut');
    expect(storage.data.size).toBe(0);
  });
});
