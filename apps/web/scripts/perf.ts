/**
 * Web performance of the landing page on a mid-range phone on slow 4G, measured in Chromium:
 * 390×844, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, 4× CPU slowdown, cold cache,
 * no service worker. Figures (median of `runs`):
 *
 *   web.landing.lcp                 Largest Contentful Paint, ms            (budget ≤ 1500)
 *   web.landing.cls                 Cumulative Layout Shift                  (budget ≤ 0.02)
 *   web.landing.usable              load event: the page is complete and every link works, ms
 *   web.landing.js_before_usable    gzip KB of JavaScript fetched before load (budget ≤ 60)
 *   web.landing.js_total            gzip KB of JavaScript including the idle-time hydration
 *
 * The bench harness calls `measureLandingPage({ baseUrl })`; run alone, `node apps/web/scripts/perf.ts
 * [baseUrl]` serves apps/web/dist itself and prints one JSON line per figure.
 */
import { chromium, type CDPSession } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { serveDist } from './serve-dist.ts';

export interface PerfFigure {
  name: string;
  value: number;
  unit: string;
}

export interface PerfOptions {
  baseUrl: string;
  path?: string;
  runs?: number;
  env?: NodeJS.ProcessEnv;
}

export const slow4g = {
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  cpuSlowdown: 4,
  viewport: { width: 390, height: 844 },
} as const;

interface RunResult {
  lcp: number;
  cls: number;
  usable: number;
  jsBeforeUsable: number;
  jsTotal: number;
}

const observeVitals = () => {
  const w = window as unknown as { __vitals: { lcp: number; cls: number } };
  w.__vitals = { lcp: 0, cls: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__vitals.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
      if (!entry.hadRecentInput) w.__vitals.cls += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

async function trackScripts(cdp: CDPSession): Promise<{ sizes: Map<string, number>; beforeLoad: Set<string>; markLoaded: () => void; settled: () => Promise<void> }> {
  const sizes = new Map<string, number>();
  const beforeLoad = new Set<string>();
  const scripts = new Map<string, string>();
  const pending: Array<Promise<void>> = [];
  let loaded = false;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') {
      scripts.set(event.requestId, event.response.url);
      if (!loaded) beforeLoad.add(event.response.url);
    }
  });
  cdp.on('Network.loadingFinished', (event) => {
    const url = scripts.get(event.requestId);
    if (!url) return;
    pending.push(
      cdp
        .send('Network.getResponseBody', { requestId: event.requestId })
        .then(({ body, base64Encoded }) => {
          sizes.set(url, gzipSync(Buffer.from(body, base64Encoded ? 'base64' : 'utf8'), { level: 9 }).length);
        })
        .catch(() => undefined),
    );
  });
  await cdp.send('Network.enable');
  return {
    sizes,
    beforeLoad,
    markLoaded: () => {
      loaded = true;
    },
    settled: async () => {
      await Promise.all(pending);
    },
  };
}

async function runOnce(baseUrl: string, path: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const browser = await chromium.launch(chromiumLaunchOptions(env));
  try {
    const context = await browser.newContext({ viewport: slow4g.viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.addInitScript(observeVitals);
    const cdp = await context.newCDPSession(page);
    const scripts = await trackScripts(cdp);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: slow4g.latencyMs,
      downloadThroughput: slow4g.downloadBitsPerSecond / 8,
      uploadThroughput: slow4g.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slow4g.cpuSlowdown });

    await page.goto(new URL(path, baseUrl).href, { waitUntil: 'load' });
    scripts.markLoaded();
    const usable = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return nav ? nav.loadEventStart : 0;
    });
    // Let the idle-time hydration finish, so its layout shifts (if any) and bytes are counted.
    await page.waitForSelector('html[data-hydrated="true"]', { timeout: 60_000 }).catch(() => undefined);
    await page.waitForTimeout(1000);
    await scripts.settled();
    const vitals = await page.evaluate(() => (window as unknown as { __vitals: { lcp: number; cls: number } }).__vitals);
    const sum = (urls: Iterable<string>) => [...urls].reduce((total, url) => total + (scripts.sizes.get(url) ?? 0), 0);
    return { lcp: vitals.lcp, cls: vitals.cls, usable, jsBeforeUsable: sum(scripts.beforeLoad), jsTotal: sum(scripts.sizes.keys()) };
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export async function measureLandingPage({ baseUrl, path = '/', runs = 3, env = process.env }: PerfOptions): Promise<PerfFigure[]> {
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await runOnce(baseUrl, path, env));
  const pick = (key: keyof RunResult) => median(results.map((r) => r[key]));
  const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return [
    { name: 'web.landing.lcp', value: Math.round(pick('lcp')), unit: 'ms' },
    { name: 'web.landing.cls', value: Math.round(pick('cls') * 1000) / 1000, unit: 'score' },
    { name: 'web.landing.usable', value: Math.round(pick('usable')), unit: 'ms' },
    { name: 'web.landing.js_before_usable', value: kb(pick('jsBeforeUsable')), unit: 'KB gzip' },
    { name: 'web.landing.js_total', value: kb(pick('jsTotal')), unit: 'KB gzip' },
  ];
}

if (import.meta.url === new URL(`file://${process.argv[1] ?? ''}`).href) {
  let baseUrl = process.argv[2];
  let close = async () => {};
  if (!baseUrl) {
    const server = await serveDist(fileURLToPath(new URL('../dist', import.meta.url)), 0);
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  }
  try {
    for (const figure of await measureLandingPage({ baseUrl })) console.log(JSON.stringify(figure));
  } finally {
    await close();
  }
}
