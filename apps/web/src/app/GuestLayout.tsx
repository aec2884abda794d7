import { Outlet } from '@tanstack/react-router';
import { LogoMark } from '../ui/Logo.tsx';

/** Frame for the sign-in, sign-up and password screens: the brand, the form, a way back. */
export function GuestLayout() {
  return (
    <div className="guest-layout">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="guest-layout__header">
        <a className="brand" href="/">
          <LogoMark />
          <span className="brand__name brand__name--always">Tradie Quotes</span>
        </a>
      </header>
      <main id="main" tabIndex={-1} className="guest-layout__main">
        <Outlet />
      </main>
      <footer className="guest-layout__footer">
        <a href="/terms">Terms</a>
        <a href="/privacy">Privacy</a>
        <a href="/support">Support</a>
      </footer>
    </div>
  );
}
