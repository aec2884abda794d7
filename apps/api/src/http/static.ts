// Serves the built web app (apps/web/dist). The contract with the web build: `dist/index.html`
// is the pre-rendered landing page, `dist/<route>/index.html` every other pre-rendered page,
// `dist/spa.html` the shell for every route that is not pre-rendered, and `dist/assets/*`
// hashed files that never change (cached for a year, immutable).
//
// Memory is bounded by the build, never by what is asked: the files of dist are listed once (the
// first request after the build exists), and only those files' bytes are ever kept. A request
// for anything else is looked up in that list and answered 404 or the SPA shell, keeping nothing
// of it — so 20,000 different missing paths cost no memory. A rebuild restarts the server
// (`npm start` builds before it serves).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, posix, relative, sep } from 'node:path';
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

interface StaticFile {
  full: string;
  type: string;
  etag: string;
  body?: Buffer;
}

/** Every regular file under `dir`, by its path relative to `dir` with '/' separators. */
export function listFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (at: string): void => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw e;
    }
    for (const entry of entries) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const st = statSync(full);
        const rel = relative(dir, full).split(sep).join('/');
        files.set(rel, { full, type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream', etag: `"${st.size.toString(16)}-${st.mtimeMs.toString(16)}"` });
      }
    }
  };
  walk(dir);
  return files;
}

export function createStaticHandler(distDir: string): (c: Context) => Response | Promise<Response> {
  let files: Map<string, StaticFile> | undefined;
  /** The build's files; listed again on each request until the build exists (a server started before `npm run build`). */
  const built = (): Map<string, StaticFile> => {
    if (files) return files;
    const listed = listFiles(distDir);
    if (listed.has('spa.html') || listed.has('index.html')) files = listed;
    return listed;
  };

  const find = (rel: string): StaticFile | undefined => {
    const f = built().get(rel);
    if (f) f.body ??= readFileSync(f.full);
    return f;
  };

  const send = (c: Context, f: StaticFile, cacheControl: string): Response => {
    if (c.req.header('if-none-match') === f.etag) return c.body(null, 304, { ETag: f.etag, 'Cache-Control': cacheControl });
    return c.body(new Uint8Array(f.body as Buffer), 200, { 'Content-Type': f.type, 'Cache-Control': cacheControl, ETag: f.etag });
  };

  return (c) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('Bad request', 400);
    }
    if (path.includes('\0')) return c.text('Bad request', 400);
    // '/a/../b', '//x', '/./y': one name per file. Nothing outside dist is in the list to be found.
    const rel = posix.normalize(`/${path}`).replace(/^\/+/, '');
    if (rel.startsWith('assets/')) {
      const f = find(rel);
      return f ? send(c, f, 'public, max-age=31536000, immutable') : c.text('Not found', 404);
    }
    if (rel !== '' && extname(rel) !== '') {
      const f = find(rel);
      if (f) return send(c, f, rel === 'sw.js' ? 'no-cache' : 'public, max-age=3600');
      return c.text('Not found', 404);
    }
    const dir = rel.replace(/\/+$/, '');
    const page = find(dir === '' ? 'index.html' : `${dir}/index.html`) ?? find('spa.html') ?? find('index.html');
    if (!page) return c.text('The web app has not been built. Run `npm run build`, or start with `npm start`, which builds it.', 503);
    return send(c, page, 'no-cache');
  };
}
