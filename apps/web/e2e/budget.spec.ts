import { expect, test } from '@playwright/test';
import { gzipSync } from 'node:zlib';

const KB = 1024;

/**
 * The JavaScript a public page needs before it is usable: everything fetched up to the load event.
 * The page is complete pre-rendered HTML, so that is only the boot script; React hydration is
 * fetched afterwards, when the browser is idle. Sizes are gzip -9 of the bytes served.
 */
test('the landing page needs at most 60 KB of gzipped JavaScript before it is usable', async ({ page }, testInfo) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const url = response.url();
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.set(url, gzipSync(body, { level: 9 }).length);
  });
  await page.goto('/', { waitUntil: 'load' });
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
  // Before the load event by the page's own clock: on a busy machine the idle-time hydration can
  // start before the test hears that the page has loaded.
  const requestedBeforeLoad = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return performance.getEntriesByType('resource').filter((e) => e.startTime < nav.loadEventStart).map((e) => e.name);
  });
  await expect.poll(() => requestedBeforeLoad.filter((url) => url.endsWith('.js')).every((url) => scripts.has(url))).toBe(true);
  const beforeLoad = requestedBeforeLoad.filter((url) => scripts.has(url));

  const sum = (urls: Iterable<string>) => [...urls].reduce((total, url) => total + (scripts.get(url) ?? 0), 0);
  const beforeUsable = sum(beforeLoad);
  const total = sum(scripts.keys());
  testInfo.annotations.push({
    type: 'js-gzip',
    description: `before usable ${(beforeUsable / KB).toFixed(1)} KB; after hydration ${(total / KB).toFixed(1)} KB (${scripts.size} files)`,
  });
  expect(beforeUsable).toBeGreaterThan(0);
  expect(beforeUsable).toBeLessThanOrEqual(60 * KB);
  // The public pages never load the app's router, query cache or state machines.
  expect([...scripts.keys()].filter((url) => /\/assets\/(router|query|xstate|spa)-/.test(url))).toEqual([]);
});
