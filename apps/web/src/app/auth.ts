/**
 * The seam between the router and the session. The router reads `auth` from its context in
 * `beforeLoad` guards; the session work (tokens, refresh, the xstate session machine) supplies a
 * real implementation and calls `router.invalidate()` when it changes.
 */
export interface SessionUser {
  id: string;
  email: string;
  full_name: string;
}

export type AuthStatus = 'checking' | 'signedIn' | 'signedOut';

export interface Auth {
  readonly status: AuthStatus;
  readonly isAuthenticated: boolean;
  readonly user: SessionUser | null;
  /** Resolves when the session check has finished (guards wait for it; the UI shows 'Loading...'). */
  settled(): Promise<void>;
  /** Clears the session; the caller then goes to /login. */
  logout(): Promise<void>;
}

/** Until sign-in exists, nobody is signed in: /app routes redirect to /login. */
export function createSignedOutAuth(): Auth {
  return {
    status: 'signedOut',
    isAuthenticated: false,
    user: null,
    settled: () => Promise.resolve(),
    logout: () => Promise.resolve(),
  };
}
