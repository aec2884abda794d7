// Pricing in Settings and the profit report, at 390×844: the tradie sets a markup per category and
// the labour rates, prices a job from cost by them (materials at their category's rate, an hour of
// labour at the charge-out rate costing the cost rate), and the accepted quote and its issued invoice
// show the same profit on the home screen's 'This month' and in Reports → Profit.
//
// Worked by hand: 10 m of copper pipe costing $3.80 a metre at a 20 % materials markup sell at $4.56
// ($45.60, costing $38.00); 6 hours of labour at $95 an hour costing $52: $570.00, costing $312.00.
// Sell $615.60, cost $350.00, gross profit $265.60 (a 43.1 % margin on price).
import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

test('pricing from Settings prices the job; the home screen and the profit report show its profit', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'pricing-report' });

  // ---- Settings → Pricing ----
  await page.goto('/app/settings?tab=pricing');
  await page.getByLabel('Materials markup on cost %').fill('20');
  await page.getByLabel('Charge-out rate per hour').fill('95');
  await page.getByLabel('Cost per hour').fill('52');
  await page.getByRole('button', { name: 'Save pricing' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Pricing saved');
  // A refused percentage says why, and nothing is saved.
  await page.getByLabel('Labour markup on cost %').fill('150');
  await page.getByRole('button', { name: 'Save pricing' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Error saving the pricing: Labour: a markup on cost can be at most 100%');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/settings-pricing');

  // ---- the calculator prices by it ----
  await page.goto('/app/calculator');
  await page.getByLabel('Line 1 Description').fill('Copper pipe 15 mm (m)');
  await page.getByLabel('Line 1 Qty').fill('10');
  await page.getByLabel('Line 1 Cost (excl. GST)').fill('3.80');
  await page.getByRole('button', { name: 'Add Labour' }).click();
  await expect(page.getByLabel('Line 2 Unit price')).toHaveValue('95');
  await expect(page.getByLabel('Line 2 Cost (excl. GST)')).toHaveValue('52');
  await page.getByLabel('Line 2 Qty').fill('6');
  await page.getByRole('button', { name: /^Profit/ }).click();
  await expect(page.getByTestId('margin-chip')).toHaveText('Your rates, markup');
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(page.getByLabel('Line 1 Unit price')).toHaveValue('4.56');
  await expect(page.getByLabel('Line 2 Unit price')).toHaveValue('95');
  await expect(page.getByTestId('calc-profit-gross')).toHaveText('$265.60');
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('detail-profit-gross')).toHaveText('$265.60');
  const quoteId = page.url().split('/').at(-1)!;

  // Accepted, made an invoice and issued.
  const auth = { headers: user.authHeaders };
  expect((await request.post(`/api/v1/invoices/${quoteId}/accept`, auth)).status()).toBe(200);
  const converted = await request.post(`/api/v1/invoices/${quoteId}/convert`, auth);
  expect(converted.status()).toBe(201);
  const invoiceId = ((await converted.json()) as { id: string }).id;
  expect((await request.post(`/api/v1/invoices/${invoiceId}/issue`, auth)).status()).toBe(200);
  // 3 hours logged against the job today at the $52 cost rate: $156.00 of actual cost.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
  expect((await request.post('/api/v1/hours', { ...auth, data: { who: 'owner', date: today, hours: '3', rate: '52', job_id: quoteId } })).status()).toBe(201);

  // ---- home: this month ----
  await page.goto('/app');
  await expect(page.getByTestId('home-month-sales')).toHaveText('$615.60');
  await expect(page.getByTestId('home-month-profit-value')).toHaveText('$265.60');
  await expectNoHorizontalOverflow(page);

  // ---- Reports → Profit ----
  await page.goto('/app/reports');
  await page.getByRole('tab', { name: 'Profit' }).click();
  await page.locator('#reports-panel-profit').getByRole('button', { name: 'Generate Report' }).click();
  await expect(page.getByTestId('profit-invoiced-sell')).toHaveText('$615.60');
  await expect(page.getByTestId('profit-invoiced-cost')).toHaveText('$350.00');
  await expect(page.getByTestId('profit-invoiced-gross')).toHaveText('$265.60');
  await expect(page.getByTestId('profit-quoted-gross')).toHaveText('$265.60');
  await expect(page.getByTestId('profit-uncosted')).toContainText('Every line in this period has a cost recorded.');
  // Actual-cost profit: the job's $615.60 less the $156.00 of hours logged against it.
  await expect(page.getByTestId('profit-actual-cost')).toHaveText('$156.00');
  await expect(page.getByTestId('profit-actual')).toHaveText('$459.60');
  await expect(page.getByTestId('profit-actual-note')).toContainText('$615.60 invoiced from jobs, less $156.00 of receipts, bills and hours');
  const categories = page.getByTestId('profit-categories');
  await expect(categories.getByRole('row', { name: /^Materials/ })).toContainText('$7.60');
  await expect(categories.getByRole('row', { name: /^Labour/ })).toContainText('$258.00');
  // Labour: $570.00 invoiced less the $156.00 of hours.
  await expect(categories.getByRole('row', { name: /^Labour/ }).getByRole('cell').last()).toHaveText('$414.00');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/reports-profit');
  // The one refused save above is the browser's only complaint.
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
});
