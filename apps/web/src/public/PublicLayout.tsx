import { Outlet, useLocation } from '@tanstack/react-router';
import { PublicShell } from './PublicShell.tsx';
import { normalisePath } from './pages.ts';

/** The public pages inside the app router (the pre-rendered pages use PublicShell directly). */
export function PublicLayout() {
  const pathname = useLocation({ select: (location) => location.pathname });
  return (
    <PublicShell path={normalisePath(pathname)}>
      <Outlet />
    </PublicShell>
  );
}
