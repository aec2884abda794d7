/**
 * Shared e2e helpers for signed-in tests.
 *
 *   const user = await signUpAndSignIn(page, request);   // a fresh account, signed in
 *   await page.goto('/app/clients');                      // the app starts signed in
 *   await request.get('/api/v1/clients', { headers: user.authHeaders });
 *
 * The account is created through the API (POST /api/v1/auth/register, then /auth/login) and the
 * tokens are put into localStorage ('access_token', 'refresh_token') by an init script before any
 * page script runs. The init script only fills an empty storage, so tokens the app refreshes later
 * are not overwritten by a reload, and once per tab, so a sign-out stays signed out.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';

export interface TestUser {
  email: string;
  password: string;
  fullName: string;
  accessToken: string;
  refreshToken: string;
  /** `{ Authorization: 'Bearer …' }` for seeding data with Playwright's `request`. */
  authHeaders: Record<string, string>;
}

export interface NewUserOptions {
  /** Prefix of the generated email (default 'e2e'); the rest is a UUID, so every call is a new account. */
  emailPrefix?: string;
  email?: string;
  password?: string;
  fullName?: string;
  /**
   * 'registered' (default): registered for GST with TEST_GST_NUMBER, so its documents can be sent.
   * 'new': the settings of a new account (registered, no GST number yet).
   */
  gst?: 'registered' | 'new';
}

/** The GST number e2e accounts are registered with (valid check digits). */
export const TEST_GST_NUMBER = '49-091-850';

/** Registers a fresh account and signs it in through the API (no browser involved). */
export async function createUser(request: APIRequestContext, options: NewUserOptions = {}): Promise<TestUser> {
  const email = options.email ?? `${options.emailPrefix ?? 'e2e'}-${randomUUID()}@example.co.nz`;
  const password = options.password ?? 'correct horse battery';
  const fullName = options.fullName ?? 'Tama Tradie';
  const reg = await request.post('/api/v1/auth/register', { data: { email, password, full_name: fullName } });
  expect(reg.status(), await reg.text()).toBe(201);
  const tokens = await signInThroughApi(request, email, password);
  const authHeaders = { Authorization: `Bearer ${tokens.accessToken}` };
  if ((options.gst ?? 'registered') === 'registered') {
    const gst = await request.put('/api/v1/business-settings', { headers: authHeaders, data: { gst_registered: true, gst_number: TEST_GST_NUMBER } });
    expect(gst.status(), await gst.text()).toBe(200);
  }
  return { email, password, fullName, ...tokens, authHeaders };
}

/** POST /api/v1/auth/login; the new pair of tokens. */
export async function signInThroughApi(request: APIRequestContext, email: string, password: string): Promise<{ accessToken: string; refreshToken: string }> {
  const login = await request.post('/api/v1/auth/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const body = (await login.json()) as { access_token: string; refresh_token: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** Makes every page of this test start with these tokens in localStorage (when it has none). */
export async function useTokens(page: Page, tokens: { accessToken: string; refreshToken: string }): Promise<void> {
  await page.addInitScript(
    ([access, refresh]) => {
      try {
        // Once per tab and account: after the app signs out, a reload must not sign it back in.
        const used = `e2e-tokens-used:${access.slice(-16)}`;
        if (!window.localStorage.getItem('access_token') && !window.sessionStorage.getItem(used)) {
          window.localStorage.setItem('access_token', access);
          window.localStorage.setItem('refresh_token', refresh);
          window.sessionStorage.setItem(used, '1');
        }
      } catch {
        // about:blank and other opaque origins have no storage.
      }
    },
    [tokens.accessToken, tokens.refreshToken] as const,
  );
}

/** A fresh account whose tokens are in the page's localStorage: the next page.goto('/app/…') is signed in. */
export async function signUpAndSignIn(page: Page, request: APIRequestContext, options: NewUserOptions = {}): Promise<TestUser> {
  const user = await createUser(request, options);
  await useTokens(page, user);
  return user;
}
