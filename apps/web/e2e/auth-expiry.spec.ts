// Token expiry in a real browser. These run only in the
// '*-short-ttl' projects, against an API whose access tokens last 5 seconds (playwright.config.ts).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

test.use({ serviceWorkers: 'block' });

/** A new account, signed in, on Home. */
async function signUpAtHome(page: Page, request: APIRequestContext, emailPrefix: string): Promise<TestUser> {
  const user = await signUpAndSignIn(page, request, { emailPrefix });
  await page.goto('/app/home');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hello!');
  return user;
}

const tokensIn = (page: Page) =>
  page.evaluate(() => ({ access: window.localStorage.getItem('access_token'), refresh: window.localStorage.getItem('refresh_token') }));

/** Waits (in the browser) until the stored access token is past its `exp`. */
async function waitForAccessTokenToExpire(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const token = window.localStorage.getItem('access_token');
      const payload = token?.split('.')[1];
      if (!payload) return false;
      const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
      return Date.now() / 1000 > exp + 1;
    },
    undefined,
    { timeout: 20_000, polling: 250 },
  );
}

async function openClients(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
  await expect(page).toHaveURL(/\/app\/clients$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
}

test('an expired access token is refreshed silently mid-session: one refresh, the call retried, still signed in', async ({ page, request }) => {
  const user = await signUpAtHome(page, request, 'expiry');
  await waitForAccessTokenToExpire(page);

  const refreshes: number[] = [];
  page.on('response', (res) => {
    if (res.url().endsWith('/api/v1/auth/refresh')) refreshes.push(res.status());
  });
  const clientCalls: { auth: string | undefined; status: number }[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === '/api/v1/clients') clientCalls.push({ auth: res.request().headers().authorization, status: res.status() });
  });

  // A screen that calls the API after the token ran out.
  await openClients(page);
  await expect(page.getByRole('alert').filter({ hasText: /fail|error/i })).toHaveCount(0);
  await expect.poll(() => clientCalls.map((c) => c.status)).toEqual([401, 200]);
  expect(refreshes).toEqual([200]);

  const tokens = await tokensIn(page);
  expect(tokens.access).not.toBe(user.accessToken);
  expect(tokens.refresh).not.toBe(user.refreshToken);
  expect(clientCalls[0]?.auth).toBe(`Bearer ${user.accessToken}`);
  expect(clientCalls[1]?.auth).toBe(`Bearer ${tokens.access ?? ''}`);

  // Still signed in after the refresh: Home again, and a reload starts signed in.
  await page.getByRole('link', { name: 'Tradie Quotes' }).click();
  await expect(page).toHaveURL(/\/app\/home$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hello!');
});

test('a reload with an expired token refreshes during the start-up check and stays signed in', async ({ page, request }) => {
  await signUpAtHome(page, request, 'expiry-reload');
  await waitForAccessTokenToExpire(page);

  const refresh = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/refresh'));
  await page.reload();
  expect((await refresh).status()).toBe(200);
  await expect(page).toHaveURL(/\/app\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hello!');
});

test('when the refresh is refused, both tokens are cleared and the browser loads /login', async ({ page, request }) => {
  await signUpAtHome(page, request, 'expiry-refused');
  await waitForAccessTokenToExpire(page);
  // Someone else used this refresh token (or it was revoked): the server refuses it.
  await page.evaluate(() => window.localStorage.setItem('refresh_token', 'revoked-or-stolen'));

  // A marker in this document: a full page load leaves it behind, an in-app navigation would not.
  await page.evaluate(() => Object.assign(window, { beforeRefresh: true }));

  const refresh = page.waitForResponse((res) => res.url().endsWith('/api/v1/auth/refresh'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }).click();
  expect((await refresh).status()).toBe(401);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate(() => 'beforeRefresh' in window)).toBe(false);
  expect(await tokensIn(page)).toEqual({ access: null, refresh: null });
});
