import { expect, test, type Page } from '@playwright/test';

// Runs in the desktop project only (see playwright.config.ts): the service worker is the same everywhere.

async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
}

test('a reload with no signal shows the landing page and says it is offline', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  await expect(page.locator('#offline-banner')).toBeHidden();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Know your real profit before you quote');
  await expect(page.locator('#offline-banner')).toBeVisible();
  await expect(page.locator('#offline-banner')).toContainText("You're offline.");

  await context.setOffline(false);
  await expect(page.locator('#offline-banner')).toBeHidden();
});

test('with no signal, an app route opens the app shell (not the browser error page)', async ({ page, context }) => {
  await page.goto('/pricing');
  await waitForServiceWorkerControl(page);

  await context.setOffline(true);
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.locator('#offline-banner')).toBeVisible();
});

test('the service worker never caches /api responses', async ({ page }) => {
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  const status = await page.evaluate(async () => (await fetch('/api/v1/health')).status);
  expect(status).toBe(200);
  const cachedUrls = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cachedUrls).toContain('/spa.html');
  expect(cachedUrls).toContain('/');
  expect(cachedUrls.filter((url) => url.startsWith('/api'))).toEqual([]);
});

test('the web app manifest makes the app installable', async ({ page, request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);
  const manifest = (await response.json()) as { name: string; start_url: string; display: string; theme_color: string; icons: Array<{ src: string; sizes: string; purpose?: string }> };
  expect(manifest.name).toBe('Tradie Quotes');
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const size of ['192x192', '512x512']) expect(manifest.icons.some((i) => i.sizes === size)).toBe(true);
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const iconResponse = await request.get(icon.src);
    expect(iconResponse.ok(), icon.src).toBe(true);
    expect(iconResponse.headers()['content-type']).toMatch(/image\//);
  }
  await page.goto('/');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', manifest.theme_color);
});
