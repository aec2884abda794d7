import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { PublicShell } from '../public/PublicShell.tsx';
import { publicPages } from '../public/pages.ts';

export interface RenderedPage {
  path: string;
  title: string;
  description: string;
  html: string;
}

/** Server entry for the build: every public page rendered to static HTML, same tree as hydrate.tsx. */
export async function renderPublicPages(): Promise<RenderedPage[]> {
  const rendered: RenderedPage[] = [];
  for (const page of publicPages) {
    const { default: Page } = await page.load();
    const html = renderToString(
      <StrictMode>
        <PublicShell path={page.path}>
          <Page />
        </PublicShell>
      </StrictMode>,
    );
    rendered.push({ path: page.path, title: page.title, description: page.description, html });
  }
  return rendered;
}
