// Accounts and sessions in the real built app against the real API: Login, Register, Forgot
// password, Reset password, the signed-in layout, Home, access behaviour, the session, form checks
// and error messages.
import { expect, test, type Page, type Route } from '@playwright/test';
import { AUTH_MESSAGES } from '@tradie/contracts';
import { randomUUID } from 'node:crypto';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot, submitPasswords } from './helpers.ts';
import { createUser, signUpAndSignIn } from './support/session.ts';
import { firstLink, waitForEmailTo } from './support/outbox.ts';

// page.route must see every /api call, so no service worker in these tests.
test.use({ serviceWorkers: 'block' });

const newEmail = (prefix: string) => `${prefix}-${randomUUID()}@example.co.nz`;

/** Holds the next request to `path` until the returned function is called (to see busy texts). */
async function holdNext(page: Page, path: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/v1${path}`, async (route: Route) => {
    await gate;
    await route.fallback();
  }, { times: 1 });
  return release;
}

/** Clicks `button` with the request to `path` held: the button says `busyText` and is disabled until it is let go. */
async function clickWhileHeld(page: Page, path: string, button: string, busyText: string): Promise<void> {
  const release = await holdNext(page, path);
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('button', { name: busyText })).toBeDisabled();
  release();
}

const REGISTER_FORM = { password: 'Password', confirm: 'Confirm Password', submit: 'Start Free Trial' };
const RESET_FORM = { password: 'New Password', confirm: 'Confirm Password', submit: 'Reset Password' };

const tokensIn = (page: Page) =>
  page.evaluate(() => ({ access: window.localStorage.getItem('access_token'), refresh: window.localStorage.getItem('refresh_token') }));

async function expectHome(page: Page) {
  await expect(page).toHaveURL(/\/app\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hello!');
  await expect(page.getByText('Ready to create a quote or check your numbers?')).toBeVisible();
}

test.describe('register', () => {
  test('a new user signs up, is signed in automatically and lands on Home', async ({ page }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Start your free trial' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, '/register');

    await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');
    await expect(page.getByLabel('Email Address')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email Address')).toHaveAttribute('autocomplete', 'email');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('autocomplete', 'new-password');
    await expect(page.getByLabel('Confirm Password')).toHaveAttribute('autocomplete', 'new-password');

    const email = newEmail('register');
    await page.getByLabel('Your Name').fill('Aroha Builder');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('hammer-time');
    await page.getByLabel('Confirm Password').fill('hammer-time');
    await clickWhileHeld(page, '/auth/register', 'Start Free Trial', 'Creating account...');

    // A new account starts with the first-run set-up; it can be left for later.
    await expect(page).toHaveURL(/\/app\/setup$/);
    await expect(page.getByRole('heading', { name: "What's your business called?" })).toBeVisible();
    await page.getByRole('button', { name: 'Set up later' }).click();
    await expectHome(page);
    const tokens = await tokensIn(page);
    expect(tokens.access).toBeTruthy();
    expect(tokens.refresh).toBeTruthy();
    const cards = page.getByRole('main').getByRole('listitem');
    await expect(cards).toHaveCount(4);
    await expect(page.getByRole('link', { name: /New Quote\/Invoice/ })).toHaveAttribute('href', '/app/calculator');
    await expect(page.getByRole('main').getByRole('link', { name: /^Clients/ })).toHaveAttribute('href', '/app/clients');
    await expect(page.getByRole('main').getByRole('link', { name: /^Invoices & Quotes/ })).toHaveAttribute('href', '/app/invoices');
    await expect(page.getByRole('main').getByRole('link', { name: /^Costs & Hours/ })).toHaveAttribute('href', '/app/costs');
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalOverflow(page);
    await expectTapTargets(page, '.app-header a, .app-header button, .home-card');
    await saveScreenshot(page, testInfo, '/app/home');
    expect(errors).toEqual([]);
  });

  test('/signup is the same sign-up screen', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('heading', { level: 1, name: 'Start your free trial' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start Free Trial' })).toBeVisible();
  });

  test("the form says 'Passwords don't match', 'Password must be at least 8 characters' and the server's detail", async ({ page, request }, testInfo) => {
    const taken = await createUser(request, { emailPrefix: 'taken' });
    await page.goto('/register');
    await page.getByLabel('Your Name').fill('Aroha Builder');
    await page.getByLabel('Email Address').fill(newEmail('register'));
    await expect(await submitPasswords(page, REGISTER_FORM, 'hammer-time', 'hammer-tim')).toHaveText("Passwords don't match");

    await expect(await submitPasswords(page, REGISTER_FORM, 'abc12')).toHaveText('Password must be at least 8 characters');
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/register-error');

    await page.getByLabel('Email Address').fill(taken.email);
    await expect(await submitPasswords(page, REGISTER_FORM, 'hammer-time')).toHaveText('An account with this email already exists. Sign in instead, or reset your password.');
    await expect(page).toHaveURL(/\/register$/);
  });
});

test.describe('login and logout', () => {
  test('sign in with the right password goes to Home; Logout goes to /login and ends the session', async ({ page, request }, testInfo) => {
    const user = await createUser(request, { emailPrefix: 'login' });
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'email');
    await expect(page.getByLabel('Password')).toHaveAttribute('autocomplete', 'current-password');
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    await expect(page.getByRole('link', { name: 'Start your free trial' })).toHaveAttribute('href', '/register');
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, '/login');

    await page.getByLabel('Email').fill(user.email.toUpperCase());
    await page.getByLabel('Password').fill(user.password);
    await clickWhileHeld(page, '/auth/login', 'Sign In', 'Signing in...');
    await expectHome(page);

    const held = await tokensIn(page);
    const revoked = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await tokensIn(page)).toEqual({ access: null, refresh: null });
    // The server ended the session too: the refresh token this browser held no longer works.
    expect((await revoked).status()).toBe(200);
    const replay = await request.post('/api/v1/auth/refresh', { data: { refresh_token: held.refresh } });
    expect(replay.status()).toBe(401);
    await page.goto('/app/home');
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password shows 'Invalid email or password. Please check and try again.'", async ({ page, request }, testInfo) => {
    const user = await createUser(request, { emailPrefix: 'wrong' });
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please check and try again.');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await expect(page).toHaveURL(/\/login$/);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/login-error');
  });

  test("too many failed attempts: the throttling detail shows in the 'Error: ...' form", async ({ page, request }) => {
    const user = await createUser(request, { emailPrefix: 'throttle' });
    for (let i = 0; i < 10; i++) {
      const res = await request.post('/api/v1/auth/login', { data: { email: user.email, password: `wrong-${i}` } });
      expect(res.status()).toBe(401);
    }
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Error: Too many sign-in attempts for this email. Please wait 15 minutes and try again, or reset your password.',
    );
  });

  test("a network failure shows 'Error: Network Error'", async ({ page }) => {
    await page.goto('/login');
    await page.route('**/api/v1/auth/login', (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Email').fill('someone@example.co.nz');
    await page.getByLabel('Password').fill('whatever1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Error: Network Error');
  });
});

test.describe('access', () => {
  test('a signed-in user opening a guest-only screen lands on /app/home', async ({ page, request }) => {
    await signUpAndSignIn(page, request, { emailPrefix: 'guest-only' });
    for (const path of ['/login', '/register', '/signup', '/forgot-password']) {
      await page.goto(path);
      await expectHome(page);
    }
  });

  test('/app goes to /app/home; the session check shows Loading... until /auth/me answers', async ({ page, request }) => {
    await signUpAndSignIn(page, request, { emailPrefix: 'loading' });
    const release = await holdNext(page, '/auth/me');
    await page.goto('/app');
    await expect(page.getByRole('status')).toHaveText('Loading...');
    release();
    await expectHome(page);
  });

  test('a stored token the server rejects is cleared silently at start-up, and /app sends to /login', async ({ page }) => {
    await page.addInitScript(() => {
      if (!window.sessionStorage.getItem('seeded')) {
        window.sessionStorage.setItem('seeded', '1');
        window.localStorage.setItem('access_token', 'not-a-token');
        window.localStorage.setItem('refresh_token', 'not-a-token-either');
      }
    });
    const errors = collectErrors(page);
    await page.goto('/app/home');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(await tokensIn(page)).toEqual({ access: null, refresh: null });
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  test('the signed-in header fits the screen; the logo goes home', async ({ page, request }, testInfo) => {
    await signUpAndSignIn(page, request, { emailPrefix: 'nav' });
    await page.goto('/app/home');
    await expectHome(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Calculator', 'Invoices & Quotes', 'Clients', 'Reports']) await expect(nav.getByRole('link', { name })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/app/settings');
    await expect(page.getByRole('link', { name: 'Tradie Quotes' })).toHaveAttribute('href', '/app/home');
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, '/app/home-nav');
  });
});

test.describe('forgot and reset password', () => {
  test('forgot password → the email in the outbox → its link → reset → sign in with the new password', async ({ page, request }, testInfo) => {
    test.slow(); // a long journey with a 3-second wait in it
    const user = await createUser(request, { emailPrefix: 'reset' });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/forgot-password');

    await page.getByLabel('Email Address').fill(user.email);
    await clickWhileHeld(page, '/auth/forgot-password', 'Send Reset Link', 'Sending...');
    // The e2e server has no mail server: the link goes to its outbox, and the screen says so.
    await expect(page.getByRole('heading', { level: 1, name: 'Reset Link Not Sent' })).toBeVisible();
    await expect(page.getByText(AUTH_MESSAGES.resetLinkSaved(user.email))).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    await expect(page.getByLabel('Email Address')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/forgot-password-sent');

    const mail = await waitForEmailTo(user.email, 'Reset your Tradie Quotes password');
    const link = firstLink(mail);
    expect(new URL(link).pathname).toBe('/reset-password');

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Reset password' })).toBeVisible();
    await expect(page.getByText('at least 8 characters')).toBeVisible();
    await expect(page.getByText('both fields must match')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/reset-password');

    await expect(await submitPasswords(page, RESET_FORM, 'short')).toHaveText('Password must be at least 8 characters');
    await expect(await submitPasswords(page, RESET_FORM, 'a-new-password', 'a-new-passwort')).toHaveText('Passwords do not match');
    await saveScreenshot(page, testInfo, '/reset-password-error');

    await page.getByLabel('Confirm Password').fill('a-new-password');
    await clickWhileHeld(page, '/auth/reset-password', 'Reset Password', 'Resetting...');
    await expect(page.getByRole('heading', { level: 1, name: 'Password Reset!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, '/reset-password-done');
    // On its own, after 3 seconds.
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please check and try again.');
    await page.getByLabel('Password').fill('a-new-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectHome(page);

    // The link worked once; a second use shows the server's detail.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto(link);
    await page.getByLabel('New Password').fill('another-password');
    await page.getByLabel('Confirm Password').fill('another-password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('This reset link is invalid or has expired. Please request a new password reset.');
  });

  test('without a token the inputs and the button are disabled and the screen says the link is invalid', async ({ page }, testInfo) => {
    await page.goto('/reset-password');
    await expect(page.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible();
    await expect(page.getByLabel('New Password')).toBeDisabled();
    await expect(page.getByLabel('Confirm Password')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, '/reset-password-no-token');
  });

  test("network failures show 'Network error. Please try again.'", async ({ page }) => {
    await page.goto('/forgot-password');
    await page.route('**/api/v1/auth/forgot-password', (route) => route.abort('internetdisconnected'));
    await page.getByLabel('Email Address').fill('someone@example.co.nz');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('alert')).toHaveText('Network error. Please try again.');

    await page.goto('/reset-password?token=abc');
    await page.route('**/api/v1/auth/reset-password', (route) => route.abort('internetdisconnected'));
    await expect(await submitPasswords(page, RESET_FORM, 'a-new-password')).toHaveText('Network error. Please try again.');
  });

  test('an unknown email gets the same answer', async ({ page }) => {
    const email = newEmail('nobody');
    await page.goto('/forgot-password');
    await page.getByLabel('Email Address').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText(AUTH_MESSAGES.resetLinkSaved(email))).toBeVisible();
  });
});
