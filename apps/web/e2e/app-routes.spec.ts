import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';

// Guest-only screens are registered and load their own (lazily loaded) modules.
const guestScreens = [
  { path: '/login', h1: 'Sign in' },
  { path: '/register', h1: 'Start your free trial' },
  { path: '/signup', h1: 'Start your free trial' },
  { path: '/forgot-password', h1: 'Forgot password' },
  { path: '/reset-password?token=abc', h1: 'Reset password' },
] as const;

for (const screen of guestScreens) {
  test(`guest screen ${screen.path} renders in the app shell`, async ({ page }, testInfo) => {
    const errors = collectErrors(page);
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.h1);
    await expect(page.getByRole('link', { name: 'Tradie Quotes' })).toHaveAttribute('href', '/');
    await expectNoSeriousA11yViolations(page);
    await expectNoHorizontalOverflow(page);
    await saveScreenshot(page, testInfo, screen.path);
    expect(errors).toEqual([]);
  });
}

// Signed out (no session exists yet), every /app route sends the browser to /login.
const appRoutes = ['/app', '/app/home', '/app/calculator', '/app/invoices', '/app/invoices/0190f3e0-0000-7000-8000-000000000001', '/app/clients', '/app/reports', '/app/settings'];

for (const path of appRoutes) {
  test(`signed out, ${path} redirects to /login`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  });
}

test('an unknown address shows a page-not-found screen', async ({ page }, testInfo) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/no-such-page');
});

test('the app shell sets the page title per screen', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page).toHaveTitle('Forgot password | Tradie Quotes');
});
