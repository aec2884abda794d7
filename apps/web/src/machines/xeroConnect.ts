/**
 * The Xero card on Settings → Integrations as an xstate machine:
 *
 *   loading — GET /integrations/xero/status (a failure is logged only) → idle
 *   idle --CONNECT--> connecting:
 *     authorizing  GET /integrations/xero/authorize → {authorization_url}. The answer also sets the
 *                  HttpOnly `xero_connect` cookie that binds the Connect to this browser: the api
 *                  client's fetch is same-origin with credentials 'same-origin', so the browser keeps
 *                  it and sends it when the window comes back to the callback.
 *     opening      a 600×700 window at that address (a blocked pop-up ends here with a message)
 *     waiting      the window is looked at every 500 ms (WATCH_INTERVAL); once it is closed →
 *                  verifying. After 300 s (GIVE_UP) the watch stops: the window is closed and the
 *                  status checked all the same.
 *     verifying    GET /status: connected → 'Successfully connected Xero!'; not connected →
 *                  'Authorization was cancelled or failed'; the check failed → 'Failed to verify
 *                  Xero connection'.
 *   idle --DISCONNECT--> disconnecting (DELETE /disconnect; the screen asks first)
 *   idle --TEST--> testing (GET /status): 'Connected (Tenant: …)' or 'Not connected Xero'
 *
 * The timers are xstate delays, so tests drive them with a SimulatedClock. Messages for the banner
 * and failures to log are emitted (`actor.on('message' | 'log', …)`). The side effects are the
 * named actors; `createXeroConnectMachine(ports)` supplies the real ones, tests use `.provide`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import { ACCOUNTING_PROVIDER_NAME, type AccountingAuthorization, type AccountingStatus } from '@tradie/contracts';
import type { ApiClient } from '../api/client.ts';
import { notProvidedIn, type SettingsEmitted } from './actors.ts';

const P = ACCOUNTING_PROVIDER_NAME;

/** The Xero card's messages in Settings, with `P` = the provider's name. */
export const XERO_TEXT = {
  connected: `Successfully connected ${P}!`,
  cancelled: 'Authorization was cancelled or failed',
  verifyFailed: `Failed to verify ${P} connection`,
  connectFailed: `Error connecting ${P} Please try again.`,
  popupBlocked: `Your browser blocked the ${P} sign-in window. Allow pop-ups for this site, then press Connect again.`,
  disconnected: `Successfully disconnected ${P}`,
  disconnectFailed: `Error disconnecting ${P}`,
  testConnected: (tenantId: string | null) => `Connected (Tenant: ${tenantId || 'Unknown'})`,
  testNotConnected: `Not connected ${P}`,
  testFailed: `Error testing ${P} connection`,
  disconnectConfirm: `Disconnect from ${P}?`,
} as const;

/** The authorization window's size, how often it is checked, when the watch gives up. */
export const AUTH_WINDOW = { width: 600, height: 700 } as const;
export const WATCH_INTERVAL_MS = 500;
export const GIVE_UP_MS = 300_000;

/** What the machine needs of the opened window. */
export interface AuthWindow {
  readonly closed: boolean;
  close(): void;
}

/** Opening the window was refused (window.open returned null). */
export class PopupBlockedError extends Error {
  constructor() {
    super(XERO_TEXT.popupBlocked);
    this.name = 'PopupBlockedError';
  }
}

export interface XeroConnectContext {
  /** The last status read; null until the first one arrives (or when it failed). */
  status: AccountingStatus | null;
  authorizationUrl: string | null;
  authWindow: AuthWindow | null;
}

export type XeroConnectEvent = { type: 'CONNECT' } | { type: 'DISCONNECT' } | { type: 'TEST' };

export type XeroConnectEmitted = SettingsEmitted;

const notProvided = notProvidedIn('xeroConnect');

/** The `say` action with its params: a message for the Settings banner. */
const say = (text: string, failure: boolean) => ({ type: 'say' as const, params: { text, failure } });

export const xeroConnectMachine = setup({
  types: {
    context: {} as XeroConnectContext,
    events: {} as XeroConnectEvent,
    emitted: {} as XeroConnectEmitted,
  },
  actors: {
    /** GET /integrations/xero/status */
    fetchStatus: fromPromise<AccountingStatus>(notProvided('fetchStatus')),
    /** GET /integrations/xero/authorize → authorization_url */
    authorize: fromPromise<string>(notProvided('authorize')),
    /** Opens the 600×700 window at the url; rejects with PopupBlockedError when the browser refuses. */
    openAuthWindow: fromPromise<AuthWindow, { url: string }>(notProvided('openAuthWindow')),
    /** DELETE /integrations/xero/disconnect → the status after it */
    disconnect: fromPromise<AccountingStatus | null>(notProvided('disconnect')),
  },
  guards: {
    windowClosed: ({ context }) => context.authWindow === null || context.authWindow.closed,
    statusConnected: (_, params: { status: AccountingStatus }) => params.status.connected,
  },
  actions: {
    say: emit((_, params: { text: string; failure: boolean }) => ({ type: 'message' as const, text: params.text, failure: params.failure })),
    closeAuthWindow: ({ context }) => {
      try {
        if (context.authWindow && !context.authWindow.closed) context.authWindow.close();
      } catch {
        // A window we can no longer reach is as good as closed.
      }
    },
  },
  delays: {
    WATCH_INTERVAL: WATCH_INTERVAL_MS,
    GIVE_UP: GIVE_UP_MS,
  },
}).createMachine({
  id: 'xeroConnect',
  context: { status: null, authorizationUrl: null, authWindow: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchStatus',
        onDone: { target: 'idle', actions: assign({ status: ({ event }) => event.output }) },
        onError: { target: 'idle', actions: emit(({ event }) => ({ type: 'log' as const, what: 'Xero connection status', error: event.error })) },
      },
    },
    idle: {
      id: 'idle',
      on: {
        CONNECT: 'connecting',
        DISCONNECT: 'disconnecting',
        TEST: 'testing',
      },
    },
    connecting: {
      initial: 'authorizing',
      exit: assign({ authWindow: null, authorizationUrl: null }),
      states: {
        authorizing: {
          invoke: {
            src: 'authorize',
            onDone: { target: 'opening', actions: assign({ authorizationUrl: ({ event }) => event.output }) },
            onError: { target: '#idle', actions: say(XERO_TEXT.connectFailed, true) },
          },
        },
        opening: {
          invoke: {
            src: 'openAuthWindow',
            input: ({ context }) => ({ url: context.authorizationUrl ?? '' }),
            onDone: { target: 'waiting', actions: assign({ authWindow: ({ event }) => event.output }) },
            onError: [
              { guard: ({ event }) => event.error instanceof PopupBlockedError, target: '#idle', actions: say(XERO_TEXT.popupBlocked, true) },
              { target: '#idle', actions: say(XERO_TEXT.connectFailed, true) },
            ],
          },
        },
        waiting: {
          initial: 'watching',
          after: {
            GIVE_UP: { target: 'verifying', actions: 'closeAuthWindow' },
          },
          states: {
            watching: {
              after: {
                WATCH_INTERVAL: [
                  { guard: 'windowClosed', target: '#xeroConnect.connecting.verifying' },
                  { target: 'watching', reenter: true },
                ],
              },
            },
          },
        },
        verifying: {
          invoke: {
            src: 'fetchStatus',
            onDone: [
              {
                guard: { type: 'statusConnected', params: ({ event }) => ({ status: event.output }) },
                target: '#idle',
                actions: [assign({ status: ({ event }) => event.output }), say(XERO_TEXT.connected, false)],
              },
              { target: '#idle', actions: [assign({ status: ({ event }) => event.output }), say(XERO_TEXT.cancelled, true)] },
            ],
            onError: { target: '#idle', actions: say(XERO_TEXT.verifyFailed, true) },
          },
        },
      },
    },
    disconnecting: {
      invoke: {
        src: 'disconnect',
        onDone: {
          target: 'idle',
          actions: [
            assign({
              status: ({ context, event }) =>
                event.output ?? (context.status ? { ...context.status, connected: false, tenant_id: null, tenant_name: null, needs_reauth: false } : null),
            }),
            say(XERO_TEXT.disconnected, false),
          ],
        },
        onError: { target: 'idle', actions: say(XERO_TEXT.disconnectFailed, true) },
      },
    },
    testing: {
      invoke: {
        src: 'fetchStatus',
        onDone: [
          {
            guard: { type: 'statusConnected', params: ({ event }) => ({ status: event.output }) },
            target: 'idle',
            actions: [assign({ status: ({ event }) => event.output }), emit(({ event }) => ({ type: 'message' as const, text: XERO_TEXT.testConnected(event.output.tenant_id), failure: false }))],
          },
          { target: 'idle', actions: [assign({ status: ({ event }) => event.output }), say(XERO_TEXT.testNotConnected, true)] },
        ],
        onError: { target: 'idle', actions: say(XERO_TEXT.testFailed, true) },
      },
    },
  },
});

export type XeroConnectMachine = typeof xeroConnectMachine;

export interface XeroConnectPorts {
  api: Pick<ApiClient, 'get' | 'del'>;
  /** window.open */
  open: (url: string, target: string, features: string) => AuthWindow | null;
  /** Where to centre the window: the browser window's position and size, when known. */
  screen?: () => { left: number; top: number; width: number; height: number } | null;
}

/** 'width=600,height=700,left=…,top=…': centred on the app's window when its position is known. */
export function authWindowFeatures(around: { left: number; top: number; width: number; height: number } | null): string {
  const { width, height } = AUTH_WINDOW;
  const parts = [`width=${width}`, `height=${height}`];
  if (around) {
    parts.push(`left=${Math.max(0, Math.round(around.left + (around.width - width) / 2))}`);
    parts.push(`top=${Math.max(0, Math.round(around.top + (around.height - height) / 2))}`);
  }
  return parts.join(',');
}

/** The machine with the real side effects: the api client and window.open. */
export function createXeroConnectMachine(ports: XeroConnectPorts): XeroConnectMachine {
  return xeroConnectMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ signal }) => ports.api.get<AccountingStatus>('/integrations/xero/status', { signal })),
      authorize: fromPromise(async () => {
        const { authorization_url } = await ports.api.get<AccountingAuthorization>('/integrations/xero/authorize');
        if (typeof authorization_url !== 'string' || authorization_url === '') throw new Error('No authorization_url in the answer');
        return authorization_url;
      }),
      openAuthWindow: fromPromise(async ({ input }: { input: { url: string } }) => {
        const opened = ports.open(input.url, 'xero-connect', authWindowFeatures(ports.screen?.() ?? null));
        if (!opened) throw new PopupBlockedError();
        return opened;
      }),
      disconnect: fromPromise(async () => {
        const answer = await ports.api.del<AccountingStatus | undefined>('/integrations/xero/disconnect');
        return answer && typeof answer === 'object' && 'connected' in answer ? answer : null;
      }),
    },
  });
}
