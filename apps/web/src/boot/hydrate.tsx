import { StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { PublicShell } from '../public/PublicShell.tsx';
import { normalisePath, publicPageFor } from '../public/pages.ts';

/** Marks <html data-hydrated="true"> once React has committed the hydrated tree (tests and perf wait on it). */
function MarkHydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return children;
}

/** Hydrates the pre-rendered page with exactly the tree the build rendered (see prerender/render.tsx). */
export async function hydratePublicPage(doc: Document, pathname: string): Promise<void> {
  const page = publicPageFor(pathname);
  const container = doc.getElementById('root');
  if (!page || !container) return;
  const { default: Page } = await page.load();
  hydrateRoot(
    container,
    <StrictMode>
      <MarkHydrated>
        <PublicShell path={normalisePath(pathname)}>
          <Page />
        </PublicShell>
      </MarkHydrated>
    </StrictMode>,
  );
}
