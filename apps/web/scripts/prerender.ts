/**
 * Runs after `vite build` (client) and `vite build --ssr` (server entry). Writes the output layout
 * the API server relies on:
 *
 *   dist/index.html              the landing page, pre-rendered
 *   dist/<route>/index.html      every other public page, pre-rendered
 *   dist/spa.html                the app shell for every route that is not pre-rendered
 *   dist/sw.js                   the service worker, with the list of files to keep offline
 *   dist/assets/*                content-hashed, safe to cache for a year
 *
 * Usage: node scripts/prerender.ts   (env SITE_URL=https://… adds absolute canonical/og:url/og:image)
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface RenderedPage {
  path: string;
  title: string;
  description: string;
  html: string;
}

export interface PrerenderOptions {
  webRoot: string;
  /** e.g. https://app.example.nz — without it, canonical and og:url are left out and og:image is relative. */
  siteUrl?: string;
}

const SITE_NAME = 'Tradie Quotes';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function headTags(page: Pick<RenderedPage, 'path' | 'title' | 'description'>, siteUrl?: string): string {
  const base = siteUrl?.replace(/\/+$/, '');
  const url = base ? `${base}${page.path === '/' ? '/' : page.path}` : undefined;
  const image = `${base ?? ''}/og-image.png`;
  const meta = (attr: 'name' | 'property', key: string, content: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  return [
    `<title>${escapeHtml(page.title)}</title>`,
    meta('name', 'description', page.description),
    url ? `<link rel="canonical" href="${escapeHtml(url)}" />` : '',
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:locale', 'en_NZ'),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
    url ? meta('property', 'og:url', url) : '',
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', '1200'),
    meta('property', 'og:image:height', '630'),
    meta('property', 'og:image:alt', `${SITE_NAME} — Know your real profit before you quote`),
    meta('name', 'twitter:card', 'summary_large_image'),
  ]
    .filter(Boolean)
    .join('\n    ');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The /assets/… files an HTML file loads (scripts, module preloads, stylesheets), in order. */
export function assetRefs(html: string): string[] {
  return [...new Set([...html.matchAll(/\b(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!))];
}

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  css?: string[];
}

/**
 * The app's files a public page prefetches when a visitor reaches for 'Login' or 'Try Free' (see
 * src/boot/prefetch.ts): `shell`, what spa.html loads for every route, and per route the screen's
 * chunk with what it imports that the shell does not already bring.
 */
export function appPrefetchMap(spaHtml: string, manifest: Record<string, ManifestChunk>): Record<string, string[]> {
  const shell = assetRefs(spaHtml);
  const inShell = new Set(shell);
  const screen = (source: string): string[] => {
    const entry = Object.values(manifest).find((chunk) => chunk.src === source);
    if (!entry) throw new Error(`prerender: no chunk for ${source} in the build manifest`);
    const files = new Set<string>();
    const walk = (chunk: ManifestChunk | undefined) => {
      if (!chunk || files.has(`/${chunk.file}`)) return;
      files.add(`/${chunk.file}`);
      for (const css of chunk.css ?? []) files.add(`/${css}`);
      for (const key of chunk.imports ?? []) walk(manifest[key]);
    };
    walk(entry);
    return [...files].filter((file) => !inShell.has(file));
  };
  const login = screen('src/screens/login/LoginScreen.tsx');
  const register = screen('src/screens/register/RegisterScreen.tsx');
  return { shell, '/login': login, '/register': register, '/signup': register };
}

/** Files the service worker keeps for offline use, as URLs. */
function precacheUrls(distDir: string, files: readonly string[], pages: readonly RenderedPage[]): string[] {
  const assetUrls = files
    .map((file) => '/' + relative(distDir, file).split(sep).join('/'))
    .filter((url) => url.startsWith('/assets/') || url.startsWith('/icons/') || url === '/manifest.webmanifest' || url === '/favicon.svg')
    .filter((url) => !url.endsWith('.map'));
  return [...pages.map((p) => p.path), '/spa.html', ...assetUrls.sort()];
}

/**
 * What the public-only worker keeps (/sw.js?precache=public: a public page on a slow connection or
 * with Save-Data): the pages, the files their template loads up front, the icons and the manifest.
 * Not the app, and not React: the pages work without it.
 */
function publicPrecacheUrls(precache: readonly string[], pages: readonly RenderedPage[], template: string): string[] {
  const own = new Set([...pages.map((p) => p.path), ...assetRefs(template)]);
  return precache.filter((url) => own.has(url) || url.startsWith('/icons/') || url === '/manifest.webmanifest' || url === '/favicon.svg');
}

export async function prerender({ webRoot, siteUrl }: PrerenderOptions): Promise<{ pages: string[]; precache: string[]; publicPrecache: string[] }> {
  const distDir = join(webRoot, 'dist');
  const ssrEntry = pathToFileURL(join(webRoot, 'node_modules', '.cache', 'prerender', 'render.js')).href;
  const { renderPublicPages } = (await import(ssrEntry)) as { renderPublicPages: () => Promise<RenderedPage[]> };

  const templatePath = join(distDir, 'public.html');
  const template = await readFile(templatePath, 'utf8');
  if (!template.includes('<!--app-head-->') || !template.includes('<!--app-html-->')) {
    throw new Error('public.html lost its <!--app-head--> / <!--app-html--> placeholders');
  }

  const manifest = JSON.parse(await readFile(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const prefetch = appPrefetchMap(await readFile(join(distDir, 'spa.html'), 'utf8'), manifest);
  const prefetchTag = `<meta name="app-prefetch" content="${escapeHtml(JSON.stringify(prefetch))}" />`;

  const pages = await renderPublicPages();
  for (const page of pages) {
    const html = template.replace('<!--app-head-->', `${headTags(page, siteUrl)}\n    ${prefetchTag}`).replace('<!--app-html-->', page.html);
    const out = page.path === '/' ? join(distDir, 'index.html') : join(distDir, ...page.path.slice(1).split('/'), 'index.html');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, html);
  }
  await rm(templatePath);

  // The service worker: types stripped, precache list and a version derived from every cached byte.
  const files = (await listFiles(distDir)).filter((f) => !f.endsWith(`${sep}sw.js`));
  const precache = precacheUrls(distDir, files, pages);
  const publicPrecache = publicPrecacheUrls(precache, pages, template);
  const hash = createHash('sha256');
  for (const file of files.sort()) hash.update(relative(distDir, file)).update(await readFile(file));
  const version = hash.digest('hex').slice(0, 16);
  const swSource = await readFile(join(webRoot, 'src', 'sw', 'sw.ts'), 'utf8');
  const swJs = [
    `const PRECACHE_URLS = ${JSON.stringify(precache)};`,
    `const PUBLIC_PRECACHE_URLS = ${JSON.stringify(publicPrecache)};`,
    `const CACHE_VERSION = ${JSON.stringify(version)};`,
    stripTypeScriptTypes(swSource, { mode: 'strip' }),
  ].join('\n');
  await writeFile(join(distDir, 'sw.js'), swJs);

  return { pages: pages.map((p) => p.path), precache, publicPrecache };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const webRoot = fileURLToPath(new URL('..', import.meta.url));
  const result = await prerender({ webRoot, siteUrl: process.env.SITE_URL || undefined });
  console.log(`pre-rendered ${result.pages.length} pages: ${result.pages.join(' ')}`);
  console.log(`service worker precaches ${result.precache.length} files (${result.publicPrecache.length} for a public page on a slow connection or with Save-Data)`);
}
