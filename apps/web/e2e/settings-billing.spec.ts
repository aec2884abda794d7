import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { readFakes } from './support/fakes.ts';
import { signUpAndSignIn } from './support/session.ts';

// Billing & Trial against the fake Stripe the e2e server is configured with:
// Subscribe goes to the checkout address the server returns; Stripe's cancel address comes back
// with nothing changed; paying fires the signed checkout.session.completed and
// customer.subscription.created webhooks and returns to the tab, now 'Active Subscription'; Manage
// Subscription goes to the billing portal.

/** Console errors and uncaught exceptions of the app's own pages (not the fake Stripe's pages). */
function collectAppErrors(page: Page, appOrigin: string): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && msg.location().url.startsWith(appOrigin)) errors.push(msg.text());
  });
  page.on('pageerror', (err) => {
    if (page.url().startsWith(appOrigin)) errors.push(err.message);
  });
  return errors;
}

test('Subscribe: the fake Stripe checkout, back on cancel, then paid → Active Subscription; Manage opens the portal', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const fakes = readFakes();
  const errors = collectAppErrors(page, new URL(testInfo.project.use.baseURL ?? 'http://127.0.0.1').origin);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'billing' });

  await page.goto('/app/settings?tab=billing');
  await expect(page.getByText('Loading subscription status...').or(page.getByText('Free Trial Active'))).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await expect(page.getByText('Your 14-day trial is active. 14 days remaining.')).toBeVisible();

  // ---- Subscribe → the checkout page; Cancel comes back with nothing changed ----
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/checkout/`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.waitForURL(/\/app\/settings\?tab=billing$/);
  await expect(page.getByText('Checkout was cancelled. Nothing was charged.')).toBeVisible();
  await expect(page.getByText('Free Trial Active')).toBeVisible();

  // ---- Subscribe again and pay: the webhooks arrive, the tab shows the subscription ----
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/checkout/`));
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/app\/settings\?tab=billing/);
  await expect(page.getByText('Active Subscription')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage Subscription' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toHaveCount(0);
  // Stripe's return parameters are dropped from the address once read.
  await expect(page).toHaveURL(/\/app\/settings\?tab=billing$/);
  const status = (await (await request.get('/api/v1/billing/subscription-status', { headers: user.authHeaders })).json()) as Record<string, unknown>;
  // Subscribed during the free trial: Stripe's trial runs to the end of ours, then the first payment.
  expect(status).toMatchObject({ subscription_active: true, subscription_status: 'trialing' });
  await expect(page.getByText(/^First payment on \d{2}\/\d{2}\/\d{4}, when your free trial ends\.$/)).toBeVisible();

  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/settings?tab=billing-active');
  await expectNoSeriousA11yViolations(page);

  // A reload shows the same.
  await page.reload();
  await expect(page.getByText('Active Subscription')).toBeVisible();

  // A second checkout is refused by the server, and its detail is what the tab says.
  const again = await request.post('/api/v1/billing/create-checkout-session', { headers: user.authHeaders });
  expect(again.status()).toBe(409);

  // ---- Manage Subscription → the billing portal, and back ----
  await page.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/portal/`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe Billing Portal' })).toBeVisible();
  await page.getByRole('link', { name: 'Return' }).click();
  await page.waitForURL(/\/app\/settings\?tab=billing$/);
  await expect(page.getByText('Active Subscription')).toBeVisible();

  expect(errors).toEqual([]);
});

test('a checkout that cannot start shows the server\'s detail in the banner', async ({ page, request }) => {
  await signUpAndSignIn(page, request, { emailPrefix: 'billing-fail' });
  await page.route('**/api/v1/billing/create-checkout-session', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Billing is not set up on this server yet. Your free trial still counts.' }) }),
  );
  await page.goto('/app/settings?tab=billing');
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Billing is not set up on this server yet. Your free trial still counts.');
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/settings\?tab=billing$/);

  // No answer at all: the fallback text.
  await page.unroute('**/api/v1/billing/create-checkout-session');
  await page.route('**/api/v1/billing/create-checkout-session', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Failed to start subscription. Please try again.');
});
