/**
 * The session, as one xstate machine with two parallel regions:
 *
 * session  — start → checking (a stored access token: GET /auth/me) → signedIn, or → signedOut with
 *            both tokens cleared silently. signedOut --LOGIN--> signingIn (POST /auth/login, store
 *            both tokens) → loadingUser (GET /auth/me) → signedIn. signedOut --REGISTER--> registering
 *            (POST /auth/register) → signingIn with the same email and password. signedIn --LOGOUT-->
 *            signedOut (POST /auth/logout with the tokens, so the server revokes the refresh token's
 *            family; then tokens and user cleared here whether or not that call gets through).
 * refresh  — idle --REFRESH--> refreshing (POST /auth/refresh without the bearer header). Every
 *            REFRESH that arrives meanwhile waits for the same call, so requests failing together
 *            share one refresh. Success stores both new tokens and releases the waiters (each resends
 *            its request once). Failure, or no refresh token ('No refresh token'), clears both
 *            tokens, does a full page load to /login and hands the error to every waiter. During the
 *            start-up check a failure stays silent: the check itself fails and ends signed out.
 *
 * The side effects (HTTP, localStorage, the page load) are the named actors, guards and actions
 * below; `createSessionMachine(ports)` supplies the real ones, tests swap them with `.provide`.
 */
import { assign, fromPromise, raise, setup, stateIn } from 'xstate';
import { ApiError, NO_REFRESH_TOKEN, type ApiClient, type Tokens, type TokenStorage, ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, clearTokens, storeTokens } from '../api/client.ts';
import { clearTemplateCache } from '../templates/templateStore.ts';
import { clearDraft } from '../screens/calculator/unsavedDraft.ts';
import { forgetPendingReceipts } from '../screens/costs/receiptUploads.ts';
import { notProvidedIn } from './actors.ts';

/** The signed-in user, from GET /auth/me. */
export interface SessionUser {
  id: string;
  email: string;
  full_name: string;
}

export interface Credentials {
  email: string;
  password: string;
}

export interface Registration extends Credentials {
  full_name: string;
}

/** A request waiting on the refresh: released when it succeeds, rejected with its error otherwise. */
export interface RefreshWaiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface SessionContext {
  user: SessionUser | null;
  /** Why the last sign-in or sign-up failed (the screen maps it to its message: screens/login/messages.ts). */
  error: unknown;
  /** Held only from LOGIN/REGISTER until the sign-in call has been made. */
  credentials: Credentials | null;
  registration: Registration | null;
  waiters: RefreshWaiter[];
}

export type SessionEvent =
  | { type: 'LOGIN'; email: string; password: string }
  | { type: 'REGISTER'; email: string; password: string; full_name: string }
  | { type: 'LOGOUT' }
  /** From the api client after a 401. `failedToken`: the access token the request carried. */
  | { type: 'REFRESH'; failedToken: string | null; waiter: RefreshWaiter }
  /** Internal: raised by the refresh region when a refresh fails. */
  | { type: 'SESSION_ENDED' };

const notProvided = notProvidedIn('session');

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    /** GET /auth/me */
    fetchUser: fromPromise<SessionUser>(notProvided('fetchUser')),
    /** POST /auth/login */
    login: fromPromise<Tokens, Credentials>(notProvided('login')),
    /** POST /auth/register */
    register: fromPromise<unknown, Registration>(notProvided('register')),
    /** POST /auth/refresh with the stored refresh token; rejects with 'No refresh token' when none is stored. */
    refreshTokens: fromPromise<Tokens>(notProvided('refreshTokens')),
  },
  guards: {
    hasAccessToken: () => false,
    /** A newer access token than the failed request's is already stored: no refresh needed. */
    alreadyRenewed: (_, _params: { failedToken: string | null }) => false,
    checkingSession: stateIn({ session: 'checking' }),
  },
  actions: {
    persistTokens: (_, _tokens: Tokens) => undefined,
    forgetTokens: () => undefined,
    /** On LOGOUT: what this browser keeps of the user for offline use (their templates' copy, the calculator's unsaved draft), so the next user sees none of it. */
    forgetUserData: () => undefined,
    /** POST /auth/logout with the stored tokens, so the server revokes this device's refresh token (its whole family). */
    revokeOnServer: () => undefined,
    /** A full page load to /login (window.location.assign). */
    goToLogin: () => undefined,
    releaseWaiters: ({ context }) => {
      for (const w of context.waiters) w.resolve();
    },
    failWaiters: ({ context }, { error }: { error: unknown }) => {
      for (const w of context.waiters) w.reject(error);
    },
    clearWaiters: assign({ waiters: () => [] }),
  },
}).createMachine({
  id: 'session',
  type: 'parallel',
  context: { user: null, error: null, credentials: null, registration: null, waiters: [] },
  states: {
    session: {
      initial: 'start',
      states: {
        start: {
          always: [{ guard: 'hasAccessToken', target: 'checking' }, { target: 'signedOut' }],
        },
        checking: {
          invoke: {
            src: 'fetchUser',
            onDone: { target: 'signedIn', actions: assign({ user: ({ event }) => event.output }) },
            // Silently: no error for the screens, just no session.
            onError: { target: 'signedOut', actions: ['forgetTokens', assign({ user: null })] },
          },
        },
        signedOut: {
          on: {
            LOGIN: {
              target: 'signingIn',
              actions: assign({ error: null, credentials: ({ event }) => ({ email: event.email, password: event.password }) }),
            },
            REGISTER: {
              target: 'registering',
              actions: assign({
                error: null,
                registration: ({ event }) => ({ email: event.email, password: event.password, full_name: event.full_name }),
              }),
            },
          },
        },
        registering: {
          invoke: {
            src: 'register',
            input: ({ context }) => context.registration ?? { email: '', password: '', full_name: '' },
            // (Exit actions run before transition actions, so the registration is cleared here.)
            onDone: {
              target: 'signingIn',
              actions: assign({
                credentials: ({ context }) => (context.registration ? { email: context.registration.email, password: context.registration.password } : null),
                registration: null,
              }),
            },
            onError: { target: 'signedOut', actions: assign({ error: ({ event }) => event.error, registration: null }) },
          },
        },
        signingIn: {
          invoke: {
            src: 'login',
            input: ({ context }) => context.credentials ?? { email: '', password: '' },
            onDone: { target: 'loadingUser', actions: { type: 'persistTokens', params: ({ event }) => event.output } },
            onError: { target: 'signedOut', actions: assign({ error: ({ event }) => event.error }) },
          },
          exit: assign({ credentials: null }),
        },
        loadingUser: {
          invoke: {
            src: 'fetchUser',
            onDone: { target: 'signedIn', actions: assign({ user: ({ event }) => event.output }) },
            onError: { target: 'signedOut', actions: ['forgetTokens', assign({ user: null, error: ({ event }) => event.error })] },
          },
        },
        signedIn: {
          on: {
            LOGOUT: { target: 'signedOut', actions: ['revokeOnServer', 'forgetTokens', 'forgetUserData', assign({ user: null, error: null })] },
            // A refresh failed: the tokens are gone and the page is on its way to /login.
            SESSION_ENDED: { target: 'signedOut', actions: assign({ user: null }) },
          },
        },
      },
    },
    refresh: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            REFRESH: [
              {
                guard: { type: 'alreadyRenewed', params: ({ event }) => ({ failedToken: event.failedToken }) },
                actions: ({ event }) => event.waiter.resolve(),
              },
              { target: 'refreshing', actions: assign({ waiters: ({ event }) => [event.waiter] }) },
            ],
          },
        },
        refreshing: {
          on: {
            REFRESH: { actions: assign({ waiters: ({ context, event }) => [...context.waiters, event.waiter] }) },
          },
          invoke: {
            src: 'refreshTokens',
            onDone: {
              target: 'idle',
              actions: [{ type: 'persistTokens', params: ({ event }) => event.output }, 'releaseWaiters', 'clearWaiters'],
            },
            onError: [
              {
                // The start-up check fails on its own and ends signed out, silently.
                guard: 'checkingSession',
                target: 'idle',
                actions: ['forgetTokens', { type: 'failWaiters', params: ({ event }) => ({ error: event.error }) }, 'clearWaiters'],
              },
              {
                target: 'idle',
                actions: [
                  'forgetTokens',
                  'goToLogin',
                  { type: 'failWaiters', params: ({ event }) => ({ error: event.error }) },
                  'clearWaiters',
                  raise({ type: 'SESSION_ENDED' }),
                ],
              },
            ],
          },
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;

export interface SessionPorts {
  api: ApiClient;
  storage: () => TokenStorage;
  /** A full page load to /login. */
  goToLogin: () => void;
}

/** The machine with the real side effects: the api client, localStorage and the page load. */
export function createSessionMachine(ports: SessionPorts) {
  return sessionMachine.provide({
    actors: {
      fetchUser: fromPromise(() => ports.api.get<SessionUser>('/auth/me')),
      login: fromPromise(({ input }: { input: Credentials }) =>
        ports.api.post<Tokens>('/auth/login', { email: input.email, password: input.password }, { noRefresh: true }),
      ),
      register: fromPromise(({ input }: { input: Registration }) =>
        ports.api.post<unknown>('/auth/register', { email: input.email, password: input.password, full_name: input.full_name }, { noRefresh: true }),
      ),
      refreshTokens: fromPromise(async () => {
        const token = ports.storage().getItem(REFRESH_TOKEN_KEY);
        if (!token) throw new ApiError(401, NO_REFRESH_TOKEN);
        return ports.api.refreshTokens(token);
      }),
    },
    guards: {
      hasAccessToken: () => ports.storage().getItem(ACCESS_TOKEN_KEY) !== null,
      alreadyRenewed: (_, { failedToken }) => {
        const current = ports.storage().getItem(ACCESS_TOKEN_KEY);
        return current !== null && failedToken !== null && current !== failedToken;
      },
    },
    actions: {
      persistTokens: (_, tokens) => storeTokens(ports.storage(), tokens),
      forgetTokens: () => clearTokens(ports.storage()),
      forgetUserData: ({ context }) => {
        clearTemplateCache(ports.storage(), context.user?.id ?? null);
        // The calculator's unsaved quote: the next person on this device is not offered it.
        if (context.user) clearDraft(ports.storage(), context.user.id);
        // Receipt photos still waiting to upload on this device.
        forgetPendingReceipts();
      },
      revokeOnServer: () => {
        // The tokens are read now, before they are cleared; the call goes on its own. Offline, the
        // refresh token still dies with its 30-day lifetime, and this device no longer holds it.
        const storage = ports.storage();
        const access = storage.getItem(ACCESS_TOKEN_KEY);
        const refresh = storage.getItem(REFRESH_TOKEN_KEY);
        if (!access) return;
        void ports.api
          .post('/auth/logout', refresh ? { refresh_token: refresh } : {}, { anonymous: true, noRefresh: true, timeoutMs: 10_000, headers: { Authorization: `Bearer ${access}` } })
          .catch(() => undefined);
      },
      goToLogin: () => ports.goToLogin(),
    },
  });
}
