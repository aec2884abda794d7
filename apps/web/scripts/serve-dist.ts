/**
 * A small static server that follows the same contract as the API server for the built app, for
 * trying the build without the API (`npm run preview -w @tradie/web`):
 * GET /x → dist/x when it is a file, else dist/x/index.html when it exists, else dist/spa.html;
 * /assets/* cached for a year (immutable), everything else revalidated. /api/* answers 404 JSON.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

export async function resolveDistFile(distDir: string, pathname: string): Promise<string> {
  const safe = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  if (safe.split(sep).includes('..')) return join(distDir, 'spa.html');
  const direct = join(distDir, safe);
  if (safe !== '' && (await isFile(direct))) return direct;
  const index = join(distDir, safe, 'index.html');
  if (await isFile(index)) return index;
  return join(distDir, 'spa.html');
}

export function serveDist(distDir: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const body = url.pathname === '/api/v1/health' ? { status: 'ok' } : { detail: 'Not found' };
      res.writeHead(url.pathname === '/api/v1/health' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return;
    }
    void resolveDistFile(distDir, url.pathname).then(async (file) => {
      const body = await readFile(file);
      const immutable = url.pathname.startsWith('/assets/');
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}

if (import.meta.url === new URL(`file://${process.argv[1] ?? ''}`).href) {
  const distDir = fileURLToPath(new URL('../dist', import.meta.url));
  const port = Number(process.env.PORT ?? 4173);
  await serveDist(distDir, port);
  console.log(`serving ${distDir} on http://localhost:${port}`);
}
