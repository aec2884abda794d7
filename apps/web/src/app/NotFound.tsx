import { LogoMark } from '../ui/Logo.tsx';

export function NotFound() {
  return (
    <main id="main" className="centre-page">
      <div className="centre-page__card">
        <LogoMark size={48} />
        <h1>Page not found</h1>
        <p>That address doesn&apos;t match anything in Tradie Quotes. It may have moved, or there may be a typo.</p>
        <div className="button-row button-row--centre">
          <a className="button button--primary" href="/">
            Go to the home page
          </a>
          <a className="button button--ghost" href="/support">
            Get help
          </a>
        </div>
      </div>
    </main>
  );
}
