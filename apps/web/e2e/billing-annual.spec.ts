import { expect, test } from '@playwright/test';
import { readFakes } from './support/fakes.ts';
import { signUpAndSignIn } from './support/session.ts';

// Billing & Trial: Subscribe offers Monthly or Annual with the prices excluding GST (from GET
// /billing/plans, i.e. Stripe's prices). Choosing Annual reaches the fake Stripe checkout for the
// annual price, with NZ GST added by a tax rate on the line item, and paying subscribes by the year.
// The e2e server's annual price is STRIPE_PRICE_ID_ANNUAL in playwright.config.ts, and the fake
// Stripe knows its amount (e2e/support/api-with-fakes.ts).

/** The secret key playwright.config.ts gives the e2e server and the fake Stripe. */
const STRIPE_KEY = 'sk_test_e2e_tradie';

interface Plan {
  interval: 'month' | 'year';
  unit_amount: number;
  currency: string;
}

const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

test('Subscribe annually: the choice shows prices + GST, and the checkout is for the annual price with GST added', async ({ page, request }) => {
  test.setTimeout(90_000);
  const fakes = readFakes();
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'billing-annual' });

  const plansRes = await request.get('/api/v1/billing/plans', { headers: user.authHeaders });
  expect(plansRes.status()).toBe(200);
  const { plans, gst_percent } = (await plansRes.json()) as { plans: Plan[]; gst_percent: number };
  expect(plans.map((p) => p.interval)).toEqual(['month', 'year']);
  expect(gst_percent).toBe(15);
  const monthly = plans[0]!;
  const annual = plans[1]!;

  await page.goto('/app/settings?tab=billing');
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  const choice = page.getByRole('radiogroup', { name: 'How often to pay' });
  await expect(choice.getByRole('radio', { name: /^Monthly/ })).toBeChecked();
  await expect(choice.getByText(`${dollars(monthly.unit_amount)} a month + GST`)).toBeVisible();
  await expect(choice.getByText(`${dollars(annual.unit_amount)} a year + GST`)).toBeVisible();

  await choice.getByRole('radio', { name: /^Annual/ }).check();
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/checkout/`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  // The annual price per year, then the GST line (15 % on top) and the total.
  const gst = Math.round((annual.unit_amount * 15) / 100);
  await expect(page.locator('.price')).toContainText(`NZ${dollars(annual.unit_amount)} per year`);
  await expect(page.locator('.tax')).toHaveText(`GST (15%): NZ${dollars(gst)}`);
  await expect(page.locator('.total')).toHaveText(`Total per year: NZ${dollars(annual.unit_amount + gst)}`);

  // What the session holds, read back through the (fake) Stripe API: the annual price and the GST tax rate.
  const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
  const items = await request.get(`${fakes.stripe}/v1/checkout/sessions/${sessionId}/line_items?expand[]=data.taxes`, { headers: { Authorization: `Bearer ${STRIPE_KEY}` } });
  expect(items.status()).toBe(200);
  const [item] = ((await items.json()) as { data: Array<{ price: { id: string; recurring: { interval: string } }; taxes: Array<{ amount: number; rate: Record<string, unknown> }> }> }).data;
  expect(item?.price.recurring.interval).toBe('year');
  expect(item?.taxes).toEqual([expect.objectContaining({ amount: gst, rate: expect.objectContaining({ display_name: 'GST', percentage: 15, inclusive: false }) })]);

  // Pay: back on the tab, subscribed.
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/app\/settings\?tab=billing/);
  await expect(page.getByText('Active Subscription')).toBeVisible();
  const status = (await (await request.get('/api/v1/billing/subscription-status', { headers: user.authHeaders })).json()) as Record<string, unknown>;
  expect(status).toMatchObject({ subscription_active: true });
});
