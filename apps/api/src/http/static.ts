// Serves the built web app (apps/web/dist). The contract with the web build: `dist/index.html`
// is the pre-rendered landing page, `dist/<route>/index.html` every other pre-rendered page,
// `dist/spa.html` the shell for every route that is not pre-rendered, and `dist/assets/*`
// hashed files that never change (cached for a year).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

interface Cached {
  body: Buffer;
  type: string;
  etag: string;
}

export function createStaticHandler(distDir: string): (c: Context) => Response | Promise<Response> {
  const cache = new Map<string, Cached | null>();
  const root = normalize(distDir + sep);

  const read = (rel: string): Cached | null => {
    const hit = cache.get(rel);
    if (hit !== undefined) return hit;
    const full = normalize(join(distDir, rel));
    let found: Cached | null = null;
    if (full.startsWith(root) && existsSync(full) && statSync(full).isFile()) {
      const body = readFileSync(full);
      const st = statSync(full);
      found = { body, type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream', etag: `"${st.size.toString(16)}-${st.mtimeMs.toString(16)}"` };
    }
    // Hashed assets never change; other files are cached once the process has seen them (a rebuild restarts the server).
    cache.set(rel, found);
    return found;
  };

  const send = (c: Context, f: Cached, cacheControl: string, status = 200): Response => {
    if (c.req.header('if-none-match') === f.etag) return c.body(null, 304, { ETag: f.etag, 'Cache-Control': cacheControl });
    return c.body(new Uint8Array(f.body), status as 200, { 'Content-Type': f.type, 'Cache-Control': cacheControl, ETag: f.etag });
  };

  return (c) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('Bad request', 400);
    }
    if (path.includes('\0')) return c.text('Bad request', 400);
    const rel = path.replace(/^\/+/, '');
    if (rel.startsWith('assets/')) {
      const f = read(rel);
      return f ? send(c, f, 'public, max-age=31536000, immutable') : c.text('Not found', 404);
    }
    if (rel !== '' && extname(rel) !== '') {
      const f = read(rel);
      if (f) return send(c, f, rel === 'sw.js' ? 'no-cache' : 'public, max-age=3600');
      return c.text('Not found', 404);
    }
    const page = read(join(rel.replace(/\/+$/, ''), 'index.html')) ?? read('spa.html') ?? read('index.html');
    if (!page) return c.text('The web app has not been built. Run `npm run build`, or start with `npm start`, which builds it.', 503);
    return send(c, page, 'no-cache');
  };
}
