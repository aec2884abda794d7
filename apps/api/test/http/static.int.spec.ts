// Serving the built web app: pre-rendered pages, the SPA shell for every other route, hashed
// assets cached as immutable, the security headers on every page, nothing outside the build, and
// memory bounded by the build rather than by what is asked (20,000 different missing paths, in a
// child process that measures itself).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeWebDist } from '../reliability/support.ts';
import { createTestApp, type TestApp } from '../support/testApp.ts';

const run = promisify(execFile);

describe('the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeWebDist();
    writeFileSync(join(dist, 'robots.txt'), 'User-agent: *\n');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
    t = await createTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });

  it('serves the pre-rendered page of a route, and the SPA shell for any other route, revalidated each time', async () => {
    for (const [path, title] of [['/', 'Tradie Quotes'], ['/pricing', 'Pricing'], ['/pricing/', 'Pricing'], ['/app/invoices', 'Tradie Quotes app'], ['/no-such-page', 'Tradie Quotes app']]) {
      const res = await get(path!);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain(`<title>${title}</title>`);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('serves hashed assets as immutable for a year, other files for an hour, the service worker never cached; 304 on a matching ETag', async () => {
    const asset = await get('/assets/app-1a2b3c.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app");\n');
    const etag = asset.headers.get('etag')!;
    const again = await get('/assets/app-1a2b3c.js', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get('/robots.txt')).headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await get('/sw.js')).headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing asset or file, never the shell, and nothing outside the build', async () => {
    for (const path of ['/assets/missing.js', '/missing.png', '/../package.json', '/assets/../../package.json', '/%2e%2e/%2e%2e/package.json', '/.%2fpricing%2findex.html%00']) {
      const res = await get(path);
      expect([400, 404], path).toContain(res.status);
      expect(await res.text()).not.toContain('<html');
    }
    // One name per file: '/a/../b' and '//b' are '/b'.
    expect(await (await get('/assets/x/../app-1a2b3c.js')).text()).toBe('console.log("app");\n');
  });

  it('holds less than 20 MB more after 20,000 different missing paths (measured in a child process)', async () => {
    const child = join(import.meta.dirname, 'staticMemory.child.ts');
    // A 1 MB young generation keeps V8's own growth out of the figure; the requests' cost stays in it.
    const { stdout } = await run(process.execPath, ['--expose-gc', '--max-semi-space-size=1', child, dist, '20000'], { timeout: 300_000 });
    const m = JSON.parse(stdout) as { count: number; statuses: Record<string, number>; rssBefore: number; rssAfter: number; heapBefore: number; heapAfter: number };
    expect(m.count).toBe(20_000);
    // Each round: a third are page routes (the shell, 200), the rest missing files (404).
    expect(m.statuses).toEqual({ 200: 13_332, 404: 26_668 }); // two rounds of 20,000: 6,666 page routes each
    const mb = (n: number) => n / (1024 * 1024);
    expect(mb(m.heapAfter - m.heapBefore)).toBeLessThan(20);
    expect(mb(m.rssAfter - m.rssBefore)).toBeLessThan(20);
  });
});
