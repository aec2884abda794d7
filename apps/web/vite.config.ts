import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Two HTML entries:
 * - public.html: the template every public page is pre-rendered into (scripts/prerender.ts writes
 *   dist/index.html and dist/<route>/index.html from it, then removes it). Its script is a tiny boot
 *   module; React hydration loads after the page is already usable.
 * - spa.html: the shell for every other route (guest and signed-in screens), the full router.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), devSpaFallback()],
  build: isSsrBuild
    ? // `vite build --ssr src/prerender/render.tsx`: the server entry scripts/prerender.ts imports.
      { outDir: 'node_modules/.cache/prerender', emptyOutDir: true, target: 'node22' }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        assetsInlineLimit: 0,
        manifest: true,
        rolldownOptions: {
          input: { spa: 'spa.html', public: 'public.html' },
          output: {
            // Stable vendor chunks: a public page's hydration needs only `react`; the app adds the rest.
            codeSplitting: {
              groups: [
                { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
                { name: 'router', test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|react-store|store)[\\/]/, priority: 2 },
                { name: 'shell', test: /src[\\/](boot[\\/](offline|serviceWorker)\.ts|styles[\\/])/, priority: 1 },
                { name: 'query', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/, priority: 2 },
              ],
            },
          },
        },
      },
}));

/** In `vite dev`, every page navigation gets the SPA shell (the router renders public pages too). */
function devSpaFallback(): Plugin {
  return {
    name: 'tradie-dev-spa-fallback',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const accept = req.headers.accept ?? '';
        const url = req.url ?? '/';
        if (req.method === 'GET' && accept.includes('text/html') && !url.startsWith('/api') && !url.includes('.')) {
          req.url = '/spa.html';
        }
        next();
      });
    },
  };
}
