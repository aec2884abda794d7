/**
 * The seam between the router and the session. The router reads `auth` from its context in
 * `beforeLoad` guards; screens reach it with `useAuth()` (app/useAuth.ts). `createSessionAuth` is
 * the real one: the xstate session machine (machines/session.ts) running as an actor, wired into the
 * api client's refresh.
 */
import { createActor, waitFor, type Actor, type SnapshotFrom } from 'xstate';
import type { ApiClient, TokenStorage } from '../api/client.ts';
import { createSessionMachine, type Credentials, type Registration, type SessionMachine, type SessionUser } from '../machines/session.ts';

export type AuthStatus = 'checking' | 'signedIn' | 'signedOut';

export interface Auth {
  readonly status: AuthStatus;
  /** Signed in exactly when a user is present. */
  readonly isAuthenticated: boolean;
  readonly user: SessionUser | null;
  /** Resolves when the session check has finished (guards wait for it; the UI shows 'Loading...'). */
  settled(): Promise<void>;
  /** Signs in: stores both tokens, loads the user. Rejects with the api client's error. */
  login(credentials: Credentials): Promise<void>;
  /** Registers, then signs in with the same email and password. Rejects with the error. */
  register(registration: Registration): Promise<void>;
  /** Clears both tokens and the user; the caller then goes to /login. */
  logout(): Promise<void>;
  /** Called whenever the session changes (for React's useSyncExternalStore). */
  subscribe(listener: () => void): () => void;
}

export type { Credentials, Registration, SessionUser };

/** Nobody is signed in and nobody can sign in (router tests, pre-rendering). */
export function createSignedOutAuth(): Auth {
  const unavailable = () => Promise.reject(new Error('Signing in is not available here'));
  return {
    status: 'signedOut',
    isAuthenticated: false,
    user: null,
    settled: () => Promise.resolve(),
    login: unavailable,
    register: unavailable,
    logout: () => Promise.resolve(),
    subscribe: () => () => undefined,
  };
}

export interface SessionAuthPorts {
  api: ApiClient;
  storage: () => TokenStorage;
  /** A full page load to /login (window.location.assign). */
  goToLogin: () => void;
  /** Defaults to the real machine on these ports; tests pass one with swapped actors. */
  machine?: SessionMachine;
}

type Snapshot = SnapshotFrom<SessionMachine>;

function statusOf(snapshot: Snapshot): AuthStatus {
  if (snapshot.matches({ session: 'start' }) || snapshot.matches({ session: 'checking' })) return 'checking';
  return snapshot.context.user ? 'signedIn' : 'signedOut';
}

const finished = (s: Snapshot): boolean => s.matches({ session: 'signedIn' }) || s.matches({ session: 'signedOut' });

/** The session as the router and the screens see it, backed by the session machine. */
export function createSessionAuth(ports: SessionAuthPorts): Auth & { readonly actor: Actor<SessionMachine> } {
  const actor = createActor(ports.machine ?? createSessionMachine(ports));
  ports.api.setRefreshHandler(
    (failedToken = null) =>
      new Promise<void>((resolve, reject) => {
        actor.send({ type: 'REFRESH', failedToken, waiter: { resolve, reject } });
      }),
  );
  actor.start();

  /** Sends a sign-in or sign-up and waits for where it ends. */
  async function signIn(event: { type: 'LOGIN'; email: string; password: string } | { type: 'REGISTER'; email: string; password: string; full_name: string }) {
    await waitFor(actor, (s) => !s.matches({ session: 'start' }) && !s.matches({ session: 'checking' }));
    if (!actor.getSnapshot().can(event)) throw new Error('Already signed in');
    actor.send(event);
    const done = await waitFor(actor, finished);
    if (!done.matches({ session: 'signedIn' })) throw done.context.error ?? new Error('Sign-in failed');
  }

  return {
    actor,
    get status() {
      return statusOf(actor.getSnapshot());
    },
    get isAuthenticated() {
      return actor.getSnapshot().context.user !== null;
    },
    get user() {
      return actor.getSnapshot().context.user;
    },
    settled: async () => {
      await waitFor(actor, (s) => statusOf(s) !== 'checking');
    },
    login: ({ email, password }) => signIn({ type: 'LOGIN', email, password }),
    register: ({ email, password, full_name }) => signIn({ type: 'REGISTER', email, password, full_name }),
    logout: async () => {
      actor.send({ type: 'LOGOUT' });
      await waitFor(actor, (s) => s.context.user === null);
    },
    subscribe: (listener) => {
      const sub = actor.subscribe(() => listener());
      return () => sub.unsubscribe();
    },
  };
}
