import { expect, test, type BrowserContext, type Page, type Response } from '@playwright/test';
import { gzipSync } from 'node:zlib';

// A visitor on a slow connection with Save-Data on: the landing page must not spend their data on
// the app before they ask for it (docs/performance.md, Web). Runs at phone size.

const KB = 1024;

// What the browser tells the page and the server: Save-Data on, effective type 3G.
test.use({ extraHTTPHeaders: { 'Save-Data': 'on' } });

/** navigator.connection as Chromium reports it on a slow connection with Save-Data on. */
function slowSaveDataConnection() {
  const connection = Object.assign(new EventTarget(), { saveData: true, effectiveType: '3g', downlink: 0.4, rtt: 400, type: 'cellular' });
  Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
}

/** A slow phone connection: 400 ms round trip, 400 kbit/s down (Chromium's "3G" preset, roughly). */
async function slowNetwork(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 });
}

interface JsTransfer {
  url: string;
  byServiceWorker: boolean;
  gzipBytes: number;
}

/**
 * Every JavaScript file the browser downloads for this context, the service worker's own fetches
 * included (its precache). Sizes are gzip -9 of the file served, as in budget.spec.ts and the web
 * bench; the bytes are asked for again by the test, because Playwright gives no body for a service
 * worker's fetch. A response the service worker answered from its cache costs nothing: not counted.
 */
function trackJavaScript(context: BrowserContext): { transfers: JsTransfer[]; settled: () => Promise<void> } {
  const transfers: JsTransfer[] = [];
  const pending: Array<Promise<void>> = [];
  const sizes = new Map<string, Promise<number>>();
  const gzipSize = (url: string) => {
    let size = sizes.get(url);
    if (!size) {
      size = context.request.get(url).then(async (r) => gzipSync(await r.body(), { level: 9 }).length);
      sizes.set(url, size);
    }
    return size;
  };
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('.js') || response.fromServiceWorker()) return;
    const byServiceWorker = response.request().serviceWorker() !== null;
    pending.push(gzipSize(url.href).then((gzipBytes) => void transfers.push({ url: url.pathname, byServiceWorker, gzipBytes })));
  };
  context.on('response', onResponse);
  return { transfers, settled: async () => void (await Promise.all(pending)) };
}

const total = (transfers: readonly JsTransfer[]) => transfers.reduce((sum, t) => sum + t.gzipBytes, 0);

test('on a slow connection with Save-Data, the landing page downloads at most 60 KB of gzipped JavaScript', async ({ page, context }, testInfo) => {
  await context.addInitScript(slowSaveDataConnection);
  await slowNetwork(context, page);
  const js = trackJavaScript(context);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Know your real profit before you quote');
  await page.waitForLoadState('networkidle');
  // Whatever a service worker installs, it installs now: wait for it (if one registers), then idle.
  await page.evaluate(() => Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 5000))]));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(3000);
  await js.settled();

  const byPage = js.transfers.filter((t) => !t.byServiceWorker);
  const bySw = js.transfers.filter((t) => t.byServiceWorker);
  testInfo.annotations.push({
    type: 'js-gzip',
    description: `save-data landing: ${(total(js.transfers) / KB).toFixed(1)} KB in ${js.transfers.length} files (page ${(total(byPage) / KB).toFixed(1)} KB, service worker ${(total(bySw) / KB).toFixed(1)} KB)`,
  });
  console.log(testInfo.annotations.at(-1)?.description);
  expect(total(js.transfers)).toBeGreaterThan(0);
  expect(total(js.transfers)).toBeLessThanOrEqual(60 * KB);
  // Not React, not the app: the page is complete without them.
  expect(js.transfers.map((t) => t.url).filter((url) => /\/assets\/(react|router|query|spa|hydrate)-/.test(url))).toEqual([]);
});

test.describe('with no service worker in between', () => {
  // The page's own fetches only, so "from the browser's cache" below is the HTTP cache the prefetch filled.
  test.use({ serviceWorkers: 'block' });

  test('with Save-Data, reaching for Login prefetches the app, and the sign-in page then loads it from the cache', async ({ page, context }) => {
    await context.addInitScript(slowSaveDataConnection);
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const login = page.getByRole('banner').getByRole('link', { name: 'Login' });

    const prefetched = new Set<string>();
    page.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/assets/')) prefetched.add(path.replace(/-[\w-]{8}\.(js|css)$/, '.$1'));
    });
    // A finger landing on the link (touchstart) or a pointer over it: either starts the prefetch.
    await login.dispatchEvent('touchstart');
    await expect.poll(() => ['/assets/spa.js', '/assets/react.js', '/assets/router.js', '/assets/LoginScreen.js'].filter((f) => !prefetched.has(f))).toEqual([]);

    // The sign-in page's scripts now come from the browser's cache, not the network.
    const cdp = await context.newCDPSession(page);
    const fromNetwork: string[] = [];
    const seen: string[] = [];
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') seen.push(new URL(event.response.url).pathname);
      if (event.type === 'Script' && !event.response.fromDiskCache && !event.response.fromPrefetchCache) {
        fromNetwork.push(new URL(event.response.url).pathname);
      }
    });
    await cdp.send('Network.enable');
    await login.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    expect(seen.filter((path) => /\/assets\/(spa|LoginScreen)-/.test(path))).toHaveLength(2);
    expect(fromNetwork.filter((path) => /\/assets\/(spa|react|router|query|LoginScreen)-/.test(path))).toEqual([]);
  });
});

test('hovering Try Free prefetches the sign-up screen too', async ({ page, context }) => {
  await context.addInitScript(slowSaveDataConnection);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  const prefetch = page.waitForRequest((request) => /\/assets\/RegisterScreen-[\w-]+\.js$/.test(request.url()));
  await page.getByRole('banner').getByRole('link', { name: 'Try Free' }).hover();
  await prefetch;
});

test('with Save-Data, the service worker keeps the public pages offline but not the app', async ({ page, context }) => {
  await context.addInitScript(slowSaveDataConnection);
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached).toEqual(expect.arrayContaining(['/', '/pricing', '/features']));
  expect(cached.filter((url) => url === '/spa.html' || /\/assets\/(react|router|query|spa|hydrate)-/.test(url))).toEqual([]);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Know your real profit before you quote');
  await expect(page.locator('#offline-banner')).toBeVisible();
});
