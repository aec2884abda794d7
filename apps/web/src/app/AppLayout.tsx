import { Link, Outlet, useNavigate, useRouteContext, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogoMark } from '../ui/Logo.tsx';
import { CalculatorIcon, ClientsIcon, InvoiceIcon, LogoutIcon, ReportIcon, SettingsIcon } from '../ui/icons.tsx';

/**
 * The signed-in frame. Phone: brand with Settings and Logout on the first row, the four sections as
 * an evenly split row below (no sideways scrolling). Wide screens: one row.
 */
export function AppLayout() {
  const { auth } = useRouteContext({ from: '/app' });
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);

  const logout = async () => {
    setLeaving(true);
    try {
      await auth.logout();
      // The next person to sign in on this device sees none of this account's data.
      queryClient.clear();
      await router.invalidate();
      await navigate({ to: '/login' });
    } finally {
      setLeaving(false);
    }
  };

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="app-header">
        <div className="app-header__inner">
          <Link to="/app/home" className="brand app-header__brand">
            <LogoMark />
            <span className="brand__name">Tradie Quotes</span>
          </Link>
          <nav className="app-nav" aria-label="Main">
            <ul>
              <li>
                <Link to="/app/calculator" className="app-nav__link">
                  <CalculatorIcon />
                  <span>Calculator</span>
                </Link>
              </li>
              <li>
                <Link to="/app/invoices" className="app-nav__link">
                  <InvoiceIcon />
                  <span>Invoices &amp; Quotes</span>
                </Link>
              </li>
              <li>
                <Link to="/app/clients" className="app-nav__link">
                  <ClientsIcon />
                  <span>Clients</span>
                </Link>
              </li>
              <li>
                <Link to="/app/reports" className="app-nav__link">
                  <ReportIcon />
                  <span>Reports</span>
                </Link>
              </li>
            </ul>
          </nav>
          <div className="app-header__actions">
            <Link to="/app/settings" className="app-header__action">
              <SettingsIcon />
              <span>Settings</span>
            </Link>
            <button type="button" className="app-header__action" onClick={() => void logout()} disabled={leaving}>
              <LogoutIcon />
              <span>Logout</span>
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
