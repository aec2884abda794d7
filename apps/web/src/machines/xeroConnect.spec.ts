import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { AccountingStatus } from '@tradie/contracts';
import { ApiError, createApiClient } from '../api/client.ts';
import {
  authWindowFeatures,
  createXeroConnectMachine,
  GIVE_UP_MS,
  PopupBlockedError,
  WATCH_INTERVAL_MS,
  XERO_TEXT,
  xeroConnectMachine,
  type AuthWindow,
  type XeroConnectEmitted,
} from './xeroConnect.ts';

const notConnected: AccountingStatus = { connected: false, tenant_id: null, tenant_name: null, configured: true, needs_reauth: false };
const connected: AccountingStatus = { connected: true, tenant_id: 'tenant-42', tenant_name: 'Demo Company (NZ)', configured: true, needs_reauth: false };

/** A window the test closes by hand; counts close() calls. */
class FakeWindow implements AuthWindow {
  closed = false;
  closeCalls = 0;
  close() {
    this.closeCalls++;
    this.closed = true;
  }
}

interface Fakes {
  statuses?: Array<AccountingStatus | Error>;
  authorize?: () => Promise<string>;
  open?: (url: string) => AuthWindow | null;
  disconnect?: () => Promise<AccountingStatus | null>;
}

function start(fakes: Fakes = {}) {
  const clock = new SimulatedClock();
  const statuses = [...(fakes.statuses ?? [notConnected])];
  const calls = { fetchStatus: 0, authorize: 0, opened: [] as string[], disconnect: 0 };
  const emitted: XeroConnectEmitted[] = [];
  const machine = xeroConnectMachine.provide({
    actors: {
      fetchStatus: fromPromise(async () => {
        calls.fetchStatus++;
        const next = statuses.length > 1 ? statuses.shift() : statuses[0];
        if (next === undefined) throw new Error('no status scripted');
        if (next instanceof Error) throw next;
        return next;
      }),
      authorize: fromPromise(() => {
        calls.authorize++;
        return (fakes.authorize ?? (() => Promise.resolve('https://login.xero.example/authorize?state=s1')))();
      }),
      openAuthWindow: fromPromise(async ({ input }: { input: { url: string } }) => {
        calls.opened.push(input.url);
        const w = (fakes.open ?? (() => new FakeWindow()))(input.url);
        if (!w) throw new PopupBlockedError();
        return w;
      }),
      disconnect: fromPromise(() => {
        calls.disconnect++;
        return (fakes.disconnect ?? (() => Promise.resolve(notConnected)))();
      }),
    },
  });
  const actor = createActor(machine, { clock });
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  const messages = () => emitted.filter((e) => e.type === 'message').map((e) => (e.type === 'message' ? e.text : ''));
  return { actor, clock, calls, emitted, messages };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** Starts a connection and waits until the window is being watched; returns that window. */
async function connectUntilWatching(t: ReturnType<typeof start>, win = new FakeWindow()) {
  await waitFor(t.actor, (s) => s.matches('idle'));
  t.actor.send({ type: 'CONNECT' });
  await waitFor(t.actor, (s) => s.matches({ connecting: 'waiting' }));
  return win;
}

describe('xeroConnect machine', () => {
  it('loads the status first; a failure is logged only and Connect still works', async () => {
    const t = start({ statuses: [new ApiError(0, 'Network Error'), notConnected] });
    const s = await waitFor(t.actor, (x) => x.matches('idle'));
    expect(s.context.status).toBeNull();
    expect(t.emitted).toEqual([expect.objectContaining({ type: 'log', what: 'Xero connection status' })]);
    expect(t.messages()).toEqual([]);
    t.actor.send({ type: 'CONNECT' });
    expect(t.actor.getSnapshot().matches({ connecting: 'authorizing' })).toBe(true);
  });

  it('window closed after consent → connected message and the new status', async () => {
    const win = new FakeWindow();
    const t = start({ statuses: [notConnected, connected], open: () => win });
    await connectUntilWatching(t, win);
    expect(t.calls.opened).toEqual(['https://login.xero.example/authorize?state=s1']);

    // Checked every 500 ms: open at 500 and 1000, closed before 1500.
    t.clock.increment(WATCH_INTERVAL_MS);
    t.clock.increment(WATCH_INTERVAL_MS);
    await flush();
    expect(t.actor.getSnapshot().matches({ connecting: 'waiting' })).toBe(true);
    expect(t.calls.fetchStatus).toBe(1);
    win.closed = true;
    t.clock.increment(WATCH_INTERVAL_MS - 1);
    await flush();
    expect(t.calls.fetchStatus).toBe(1);
    t.clock.increment(1);
    const s = await waitFor(t.actor, (x) => x.matches('idle'));
    expect(t.calls.fetchStatus).toBe(2);
    expect(s.context.status).toEqual(connected);
    expect(t.messages()).toEqual(['Successfully connected Xero!']);
    expect(s.context.authWindow).toBeNull();
  });

  it('window closed without consent → Authorization was cancelled or failed', async () => {
    const win = new FakeWindow();
    const t = start({ statuses: [notConnected, notConnected], open: () => win });
    await connectUntilWatching(t, win);
    win.closed = true;
    t.clock.increment(WATCH_INTERVAL_MS);
    await waitFor(t.actor, (x) => x.matches('idle'));
    expect(t.messages()).toEqual(['Authorization was cancelled or failed']);
    expect(t.emitted.at(-1)).toEqual({ type: 'message', text: XERO_TEXT.cancelled, failure: true });
  });

  it('the status check after the window closed fails → Failed to verify Xero connection', async () => {
    const win = new FakeWindow();
    const t = start({ statuses: [notConnected, new ApiError(500, 'boom', { detail: 'boom' })], open: () => win });
    await connectUntilWatching(t, win);
    win.closed = true;
    t.clock.increment(WATCH_INTERVAL_MS);
    await waitFor(t.actor, (x) => x.matches('idle'));
    expect(t.messages()).toEqual(['Failed to verify Xero connection']);
  });

  it('gives up watching after 300 s: closes the window and checks the status once', async () => {
    const win = new FakeWindow();
    const t = start({ statuses: [notConnected, notConnected], open: () => win });
    await connectUntilWatching(t, win);
    t.clock.increment(GIVE_UP_MS - WATCH_INTERVAL_MS);
    await flush();
    expect(t.actor.getSnapshot().matches({ connecting: 'waiting' })).toBe(true);
    expect(t.calls.fetchStatus).toBe(1);
    expect(win.closeCalls).toBe(0);
    t.clock.increment(WATCH_INTERVAL_MS);
    await waitFor(t.actor, (x) => x.matches('idle'));
    expect(win.closeCalls).toBe(1);
    expect(t.calls.fetchStatus).toBe(2);
    expect(t.messages()).toEqual(['Authorization was cancelled or failed']);
    // Nothing keeps ticking afterwards.
    t.clock.increment(GIVE_UP_MS);
    await flush();
    expect(t.calls.fetchStatus).toBe(2);
  });

  it('consent finished in Xero but the window left open past 300 s → still connected', async () => {
    const t = start({ statuses: [notConnected, connected] });
    await connectUntilWatching(t);
    t.clock.increment(GIVE_UP_MS);
    await waitFor(t.actor, (x) => x.matches('idle'));
    expect(t.messages()).toEqual(['Successfully connected Xero!']);
  });

  it('popup blocked (window.open returned null) → a clear message, nothing watched', async () => {
    const t = start({ open: () => null });
    await waitFor(t.actor, (x) => x.matches('idle'));
    t.actor.send({ type: 'CONNECT' });
    await waitFor(t.actor, (x) => x.matches('idle') && t.emitted.length > 0);
    expect(t.messages()).toEqual([XERO_TEXT.popupBlocked]);
    expect(XERO_TEXT.popupBlocked).toMatch(/blocked the Xero sign-in window/);
    t.clock.increment(GIVE_UP_MS);
    await flush();
    expect(t.calls.fetchStatus).toBe(1);
  });

  it('GET /authorize fails (e.g. 503 not configured) → Error connecting Xero Please try again.', async () => {
    const t = start({ authorize: () => Promise.reject(new ApiError(503, 'not set up', { detail: 'not set up' })) });
    await waitFor(t.actor, (x) => x.matches('idle'));
    t.actor.send({ type: 'CONNECT' });
    await waitFor(t.actor, (x) => x.matches('idle') && t.emitted.length > 0);
    expect(t.messages()).toEqual(['Error connecting Xero Please try again.']);
    expect(t.calls.opened).toEqual([]);
  });

  it('while connecting, another CONNECT does nothing', async () => {
    const t = start();
    await connectUntilWatching(t);
    t.actor.send({ type: 'CONNECT' });
    t.actor.send({ type: 'DISCONNECT' });
    expect(t.calls.authorize).toBe(1);
    expect(t.calls.disconnect).toBe(0);
  });

  it.each([
    { outcome: 'Successfully disconnected Xero and the status from the answer', disconnect: undefined, connectedAfter: false, message: 'Successfully disconnected Xero' },
    { outcome: 'fails → Error disconnecting Xero, still connected', disconnect: () => Promise.reject(new ApiError(0, 'Network Error')), connectedAfter: true, message: 'Error disconnecting Xero' },
  ])('Disconnect: $outcome', async ({ disconnect, connectedAfter, message }) => {
    const t = start({ statuses: [connected], ...(disconnect ? { disconnect } : {}) });
    await waitFor(t.actor, (x) => x.matches('idle'));
    t.actor.send({ type: 'DISCONNECT' });
    const s = await waitFor(t.actor, (x) => x.matches('idle') && t.emitted.length > 0);
    expect(s.context.status?.connected).toBe(connectedAfter);
    expect(t.messages()).toEqual([message]);
  });

  it('Test Connection: connected (tenant id, or Unknown), not connected, failure', async () => {
    const t = start({ statuses: [connected, connected, { ...connected, tenant_id: null }, notConnected, new Error('down')] });
    await waitFor(t.actor, (x) => x.matches('idle'));
    for (let i = 0; i < 4; i++) {
      t.actor.send({ type: 'TEST' });
      await waitFor(t.actor, (x) => x.matches('idle') && t.messages().length === i + 1);
    }
    expect(t.messages()).toEqual(['Connected (Tenant: tenant-42)', 'Connected (Tenant: Unknown)', 'Not connected Xero', 'Error testing Xero connection']);
  });
});

describe('authWindowFeatures', () => {
  it('is 600×700, centred on the app window when its place is known', () => {
    expect(authWindowFeatures(null)).toBe('width=600,height=700');
    expect(authWindowFeatures({ left: 100, top: 50, width: 1400, height: 900 })).toBe('width=600,height=700,left=500,top=150');
    expect(authWindowFeatures({ left: 0, top: 0, width: 390, height: 844 })).toBe('width=600,height=700,left=0,top=72');
  });
});

describe('createXeroConnectMachine (the real actors)', () => {
  it('GET /status, GET /authorize, window.open with 600×700, DELETE /disconnect', async () => {
    const requests: string[] = [];
    let isConnected = false;
    const fetchFake = (async (url: string, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${url}`);
      const body = url.endsWith('/authorize') ? { authorization_url: 'https://login.example/a' } : isConnected ? connected : notConnected;
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const api = createApiClient({ fetch: () => fetchFake, storage: () => ({ getItem: () => null, setItem: () => undefined, removeItem: () => undefined }) });
    const win = new FakeWindow();
    const opened: string[][] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      createXeroConnectMachine({
        api,
        open: (...args) => {
          opened.push(args);
          return win;
        },
      }),
      { clock },
    ).start();
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'CONNECT' });
    await waitFor(actor, (s) => s.matches({ connecting: 'waiting' }));
    expect(opened).toEqual([['https://login.example/a', 'xero-connect', 'width=600,height=700']]);
    isConnected = true;
    win.closed = true;
    clock.increment(WATCH_INTERVAL_MS);
    await waitFor(actor, (s) => s.matches('idle'));
    actor.send({ type: 'DISCONNECT' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(requests).toEqual([
      'GET /api/v1/integrations/xero/status',
      'GET /api/v1/integrations/xero/authorize',
      'GET /api/v1/integrations/xero/status',
      'DELETE /api/v1/integrations/xero/disconnect',
    ]);
  });
});
