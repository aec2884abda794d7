import { Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A layout's frame: the skip link, its header, the main landmark the skip link jumps to (the route's screen), and its footer. */
export function LayoutFrame({ className, header, mainClassName, footer }: { className: string; header: ReactNode; mainClassName: string; footer?: ReactNode }) {
  return (
    <div className={className}>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      {header}
      <main id="main" tabIndex={-1} className={mainClassName}>
        <Outlet />
      </main>
      {footer}
    </div>
  );
}
