import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';
import react from '@vitejs/plugin-react';

/**
 * Two HTML entries:
 * - public.html: the template every public page is pre-rendered into (scripts/prerender.ts writes
 *   dist/index.html and dist/<route>/index.html from it, then removes it). Its script is a tiny boot
 *   module; React hydration loads after the page is already usable.
 * - spa.html: the shell for every other route (guest and signed-in screens), the full router.
 * What both carry (the icons and manifest, the offline banner) is written once, in src/html/.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), htmlIncludes(), devSpaFallback(), screenPreload()],
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

/** `<!--include:name-->` in an HTML entry stands for src/html/name.html, indented as the comment is. */
function htmlIncludes(): Plugin {
  return {
    name: 'tradie-html-includes',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        html.replace(/^([ \t]*)<!--include:([a-z-]+)-->$/gm, (_line, indent: string, name: string) =>
          readFileSync(new URL(`./src/html/${name}.html`, import.meta.url), 'utf8')
            .trimEnd()
            .split('\n')
            .map((l) => indent + l)
            .join('\n'),
        ),
    },
  };
}

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

/**
 * The signed-in screens whose code the app shell fetches from the first moment (module, source file).
 * Without this a screen's chunk is found only after the whole app has downloaded and started: on a
 * slow signal that is a round trip and the chunk's download in a row after everything else.
 */
const SCREENS: Record<string, string> = {
  '/app/home': 'src/screens/home/HomeScreen.tsx',
  '/app/calculator': 'src/screens/calculator/CalculatorScreen.tsx',
  '/app/invoices': 'src/screens/invoices/InvoicesScreen.tsx',
  '/app/clients': 'src/screens/clients/ClientsScreen.tsx',
  '/app/reports': 'src/screens/reports/ReportsScreen.tsx',
  '/app/settings': 'src/screens/settings/SettingsScreen.tsx',
};

/**
 * Build only: dist/assets/screen-preload-<hash>.js, a few lines spa.html runs `async` in its head (the
 * Content-Security-Policy allows scripts from our own origin only, so it cannot be inline). It adds
 * <link rel="modulepreload"> for the opened screen's chunk and the chunks it imports, and
 * <link rel="preload" as="style"> for its CSS, so they download beside the app's own code. The
 * router still imports the screen as before; these only warm the same URLs.
 */
function screenPreload(): Plugin {
  return {
    name: 'tradie-screen-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle: OutputBundle) {
      const html = bundle['spa.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry && c.name === 'spa');
      if (!entry) throw new Error('screen-preload: no spa entry chunk');
      // What spa.html already fetches: the entry and its static imports.
      const shell = new Set<string>();
      const walk = (file: string, into: Set<string>) => {
        if (into.has(file)) return;
        into.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) walk(dep, into);
      };
      walk(entry.fileName, shell);
      const css = (file: string) => [...((byFile.get(file) as (OutputChunk & { viteMetadata?: { importedCss: Set<string> } }) | undefined)?.viteMetadata?.importedCss ?? [])];
      const map: Record<string, { js: string[]; css: string[] }> = {};
      for (const [path, source] of Object.entries(SCREENS)) {
        const chunk = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(source));
        if (!chunk) throw new Error(`screen-preload: no chunk for ${source}`);
        const files = new Set<string>();
        walk(chunk.fileName, files);
        const js = [...files].filter((f) => !shell.has(f));
        map[path] = { js: js.map((f) => `/${f}`), css: js.flatMap(css).map((f) => `/${f}`) };
      }
      const code = `(function(){var m=${JSON.stringify(map)};var p=location.pathname.replace(/\\/+$/,'');var s=m[p];if(!s)return;function add(h,r,a){var l=document.createElement('link');l.rel=r;l.href=h;if(a)l.as=a;l.crossOrigin='';document.head.appendChild(l);}s.js.forEach(function(h){add(h,'modulepreload');});s.css.forEach(function(h){add(h,'preload','style');});})();\n`;
      const ref = this.emitFile({ type: 'asset', name: 'screen-preload.js', source: code });
      const src = `/${this.getFileName(ref)}`;
      const text = typeof html.source === 'string' ? html.source : new TextDecoder().decode(html.source);
      const first = text.indexOf('<script type="module"');
      if (first < 0) throw new Error('screen-preload: spa.html has no module script');
      html.source = `${text.slice(0, first)}<script async src="${src}"></script>\n    ${text.slice(first)}`;
    },
  };
}
