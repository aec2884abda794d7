import { useEffect } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';

/** Keeps document.title in step with the deepest matched route that names one. */
function useRouteTitle(): void {
  const title = useRouterState({
    select: (state) => {
      for (let i = state.matches.length - 1; i >= 0; i--) {
        const found = state.matches[i]?.staticData.title;
        if (found) return found;
      }
      return undefined;
    },
  });
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

export function RootLayout() {
  useRouteTitle();
  return <Outlet />;
}
