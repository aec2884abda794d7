import { Link, useNavigate, useRouteContext, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LogoMark } from '../ui/Logo.tsx';
import { CalculatorIcon, ClientsIcon, InvoiceIcon, LogoutIcon, ReportIcon, SettingsIcon } from '../ui/icons.tsx';
import { LayoutFrame } from './LayoutFrame.tsx';

/** The four sections of the main navigation, in order. */
const SECTIONS = [
  { to: '/app/calculator', Icon: CalculatorIcon, label: 'Calculator' },
  { to: '/app/invoices', Icon: InvoiceIcon, label: 'Invoices & Quotes' },
  { to: '/app/clients', Icon: ClientsIcon, label: 'Clients' },
  { to: '/app/reports', Icon: ReportIcon, label: 'Reports' },
] as const;

/**
 * The signed-in frame. Phone: brand with Price book, Settings and Logout (icon over label) on the first row, the four sections as
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
    <LayoutFrame
      className="app-shell"
      header={
        <header className="app-header">
          <div className="app-header__inner">
            <Link to="/app/home" className="brand app-header__brand">
              <LogoMark />
              <span className="brand__name">Tradie Quotes</span>
            </Link>
            <nav className="app-nav" aria-label="Main">
              <ul>
                {SECTIONS.map(({ to, Icon, label }) => (
                  <li key={to}>
                    <Link to={to} className="app-nav__link">
                      <Icon />
                      <span>{label}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="app-header__actions">
              <Link to="/app/price-book" className="app-header__action">
                <InvoiceIcon />
                <span>Price book</span>
              </Link>
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
      }
      mainClassName="app-main"
    />
  );
}
