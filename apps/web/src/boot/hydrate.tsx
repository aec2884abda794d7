import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { PublicShell } from '../public/PublicShell.tsx';
import { normalisePath, publicPageFor } from '../public/pages.ts';

/** Hydrates the pre-rendered page with exactly the tree the build rendered (see prerender/render.tsx). */
export async function hydratePublicPage(doc: Document, pathname: string): Promise<void> {
  const page = publicPageFor(pathname);
  const container = doc.getElementById('root');
  if (!page || !container) return;
  const { default: Page } = await page.load();
  hydrateRoot(
    container,
    <StrictMode>
      <PublicShell path={normalisePath(pathname)}>
        <Page />
      </PublicShell>
    </StrictMode>,
  );
  doc.documentElement.dataset.hydrated = 'true';
}
