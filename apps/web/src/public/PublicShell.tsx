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

interface SiteLink {
  href: string;
  label: string;
}

const HEADER_LINKS: readonly SiteLink[] = [
  { href: '/features', label: 'Features' },
  { href: '/pricing', label: 'Pricing' },
  { href: '/login', label: 'Login' },
];

const FOOTER_GROUPS: readonly { heading: string; links: readonly SiteLink[] }[] = [
  {
    heading: 'Product',
    links: [
      { href: '/features', label: 'Features' },
      { href: '/pricing', label: 'Pricing' },
      { href: '/how-it-works', label: 'How it works' },
    ],
  },
  {
    heading: 'Company',
    links: [
      { href: '/about', label: 'About' },
      { href: '/support', label: 'Support' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { href: '/terms', label: 'Terms' },
      { href: '/privacy', label: 'Privacy' },
    ],
  },
];

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
            {HEADER_LINKS.map((link) => (
              <li key={link.href}>
                <NavLink href={link.href} path={path}>
                  {link.label}
                </NavLink>
              </li>
            ))}
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
          {FOOTER_GROUPS.map((group) => (
            <div key={group.heading}>
              <h2 className="site-footer__heading">{group.heading}</h2>
              <ul>
                {group.links.map((link) => (
                  <li key={link.href}>
                    <NavLink href={link.href} path={path}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <p className="site-footer__small">
          © <span suppressHydrationWarning>{year}</span> {site.name}. Prices in NZD and exclude GST. Made for
          tradies in Aotearoa New Zealand.
        </p>
      </div>
    </footer>
  );
}
