import type { ReactNode } from 'react';
import { LogoMark } from '../ui/Logo.tsx';
import { site } from '../site.ts';

/**
 * Header and footer of every public page. Plain links only: the pages are pre-rendered HTML and
 * must work before (or without) JavaScript, so nothing here needs a script to open or navigate.
 */
export function PublicShell({ path, children }: { path: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <PublicHeader path={path} />
      <main id="main" tabIndex={-1} className="site-main">
        {children}
      </main>
      <PublicFooter path={path} />
    </>
  );
}

function NavLink({ href, path, children, className }: { href: string; path: string; children: ReactNode; className?: string }) {
  return (
    <a href={href} className={className} aria-current={href === path ? 'page' : undefined}>
      {children}
    </a>
  );
}

function PublicHeader({ path }: { path: string }) {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="brand" href="/" aria-current={path === '/' ? 'page' : undefined}>
          <LogoMark />
          <span className="brand__name">{site.name}</span>
        </a>
        <nav className="site-nav" aria-label="Main">
          <ul>
            <li>
              <NavLink href="/features" path={path}>
                Features
              </NavLink>
            </li>
            <li>
              <NavLink href="/pricing" path={path}>
                Pricing
              </NavLink>
            </li>
            <li>
              <NavLink href="/login" path={path}>
                Login
              </NavLink>
            </li>
            <li>
              <a className="button button--accent button--compact" href="/signup">
                Try Free
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

function PublicFooter({ path }: { path: string }) {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer on-dark">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <a className="brand brand--inverse" href="/">
            <LogoMark size={32} />
            <span className="brand__name brand__name--always">{site.name}</span>
          </a>
          <p>Quotes, invoices, profit and GST for New Zealand tradies — sorted on your phone.</p>
        </div>
        <nav className="site-footer__nav" aria-label="Footer">
          <div>
            <h2 className="site-footer__heading">Product</h2>
            <ul>
              <li>
                <NavLink href="/features" path={path}>Features</NavLink>
              </li>
              <li>
                <NavLink href="/pricing" path={path}>Pricing</NavLink>
              </li>
              <li>
                <NavLink href="/how-it-works" path={path}>How it works</NavLink>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">Company</h2>
            <ul>
              <li>
                <NavLink href="/about" path={path}>About</NavLink>
              </li>
              <li>
                <NavLink href="/support" path={path}>Support</NavLink>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">Legal</h2>
            <ul>
              <li>
                <NavLink href="/terms" path={path}>Terms</NavLink>
              </li>
              <li>
                <NavLink href="/privacy" path={path}>Privacy</NavLink>
              </li>
            </ul>
          </div>
        </nav>
        <p className="site-footer__small">
          © <span suppressHydrationWarning>{year}</span> {site.name}. Prices in NZD and exclude GST. Made for
          tradies in Aotearoa New Zealand.
        </p>
      </div>
    </footer>
  );
}
