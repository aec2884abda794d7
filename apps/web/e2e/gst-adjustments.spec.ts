import { expect, test } from '@playwright/test';
import { addDays, firstOfMonth, formatMonth, lastOfMonth, monthOf, nzDateOf } from '@tradie/domain';
import { collectErrors, expectNoHorizontalOverflow, saveScreenshot, detailAction } from './helpers.ts';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

// A backdated invoice in a GST period already exported for the accountant: marking it issued says
// so on the invoice, and the GST report of this month lists it under 'Adjustments to carry' while
// last month's report keeps what was exported. A receipt of last month recorded afterwards: the
// Costs screen says where it counts instead, and this month's report lists it as a purchase adjustment.

test('an invoice dated last month, issued after last month was exported, is carried to this month and says so', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'gst-carry' });
  const thisMonth = monthOf(nzDateOf(new Date()));
  const lastMonth = monthOf(addDays(firstOfMonth(thisMonth), -1));
  const exported = { start: firstOfMonth(lastMonth), end: lastOfMonth(lastMonth) };
  const csv = await request.get(`/api/v1/reports/export/gst-csv?start_date=${exported.start}&end_date=${exported.end}&basis=invoice`, { headers: user.authHeaders });
  expect(csv.status()).toBe(200);

  const created = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'invoice', issue_date: `${lastMonth}-10`, line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 1000, tax_rate: 0.15, tax_included: false }] },
  });
  expect(created.status()).toBe(201);
  const { id, reference } = (await created.json()) as { id: string; reference: string };

  await page.goto(`/app/invoices/${id}`);
  await detailAction(page, 'Mark as issued');
  const label = formatMonth(lastMonth);
  await expect(page.getByTestId('gst-notice')).toHaveText(
    new RegExp(`^This invoice counts for GST in ${label}, a GST period you have already exported for your accountant\\. It will be listed as an adjustment to carry`),
  );

  await page.goto('/app/reports');
  await page.getByLabel('Start Date').fill(firstOfMonth(thisMonth));
  await page.getByLabel('End Date').fill(lastOfMonth(thisMonth));
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const carried = page.getByTestId('gst-adjustments');
  await expect(carried.getByRole('heading', { name: 'Adjustments to carry' })).toBeVisible();
  await expect(carried.getByRole('row', { name: new RegExp(`${reference}.*${label}.*\\$1,150\\.00.*\\$150\\.00`) })).toBeVisible();
  await expect(page.getByTestId('gst-total-sales')).toContainText('$1,150.00');

  // Last month keeps what was exported: nothing.
  await page.getByLabel('Start Date').fill(exported.start);
  await page.getByLabel('End Date').fill(exported.end);
  await page.getByRole('button', { name: 'Generate Report' }).click();
  await expect(page.getByTestId('gst-total-sales')).toContainText('$0.00');
  await expect(page.getByTestId('gst-adjustments')).toHaveCount(0);
});

test('a receipt dated last month, recorded after last month was exported, says so and is carried to this month', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'gst-carry-cost' });
  expect((await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_number: TEST_GST_NUMBER } })).status()).toBe(200);
  const thisMonth = monthOf(nzDateOf(new Date()));
  const lastMonth = monthOf(addDays(firstOfMonth(thisMonth), -1));
  const exported = { start: firstOfMonth(lastMonth), end: lastOfMonth(lastMonth) };
  const csv = await request.get(`/api/v1/reports/export/gst-csv?start_date=${exported.start}&end_date=${exported.end}&basis=invoice`, { headers: user.authHeaders });
  expect(csv.status()).toBe(200);
  const label = formatMonth(lastMonth);

  // $46.00 incl. GST, a till receipt (under $200): Box 11 $46.00, GST claimed $6.00.
  await page.goto('/app/costs');
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('Supplier', { exact: true }).fill('Mitre 10');
  await page.getByLabel('Date on the receipt or bill').fill(`${lastMonth}-12`);
  await page.getByLabel('Amount including GST ($)').fill('46.00');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('cost-gst-notice')).toHaveText(
    new RegExp(`^This cost is dated in ${label}, a GST period you have already exported for your accountant\\. It is listed as an adjustment to carry`),
  );
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/costs-exported-period');
  // Opened again, the form says what a change or deletion now would do.
  await page.getByRole('list', { name: 'Receipts, bills and expenses' }).getByRole('button', { name: /Mitre 10/ }).click();
  await expect(page.getByTestId('cost-gst-notice')).toContainText('A change or deletion now is listed as an adjustment to carry');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/app/reports');
  await page.getByLabel('Start Date').fill(firstOfMonth(thisMonth));
  await page.getByLabel('End Date').fill(lastOfMonth(thisMonth));
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const carried = page.getByTestId('gst-purchase-adjustments');
  await expect(carried.getByRole('heading', { name: 'Purchase adjustments to carry' })).toBeVisible();
  await expect(carried.getByRole('row', { name: new RegExp(`Mitre 10.*added.*${label}.*\\$46\\.00`) })).toBeVisible();
  await expect(page.getByTestId('gst-box11')).toHaveText('$46.00');
  await expect(page.getByTestId('gst-box12')).toHaveText('$6.00');
  await expectNoHorizontalOverflow(page);

  // A debit adjustment typed from the calculation sheet (the private share of the ute): Box 9 $2.00,
  // Box 10 $0.00 + $2.00, Box 15 = $2.00 − $6.00 = a refund of $4.00.
  await page.getByText('Adjustments from your calculation sheet (optional)').click();
  await page.getByLabel('Debit adjustments, Box 9 ($)').fill('2.00');
  await page.getByRole('button', { name: 'Generate Report' }).click();
  await expect(page.getByTestId('gst-box9')).toHaveText('$2.00');
  await expect(page.getByTestId('gst-box10')).toHaveText('$2.00');
  await expect(page.getByTestId('gst-box15')).toHaveText('-$4.00');
  await saveScreenshot(page, testInfo, '/app/reports-gst-adjustments');
  await page.getByLabel('Debit adjustments, Box 9 ($)').fill('');

  // Last month keeps what was exported: nothing.
  await page.getByLabel('Start Date').fill(exported.start);
  await page.getByLabel('End Date').fill(exported.end);
  await page.getByRole('button', { name: 'Generate Report' }).click();
  await expect(page.getByTestId('gst-box11')).toHaveText('$0.00');
  await expect(page.getByTestId('gst-purchase-adjustments')).toHaveCount(0);
  expect(errors).toEqual([]);
});
