import { useSyncExternalStore } from 'react';
import { useRouteContext } from '@tanstack/react-router';
import type { Auth, SessionUser } from './auth.ts';

/** The session seam from the router context (app/auth.ts). */
export function useAuth(): Auth {
  return useRouteContext({ from: '__root__', select: (c) => c.auth });
}

/** The signed-in user, re-rendering when the session changes. */
export function useSessionUser(): SessionUser | null {
  const auth = useAuth();
  return useSyncExternalStore(auth.subscribe, () => auth.user, () => null);
}
