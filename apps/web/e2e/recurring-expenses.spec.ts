// A repeating expense at phone size, against the real API: the monthly phone bill, first paid a
// month ago, set up from 'Record a cost' — the month ago's and today's are recorded at once and
// listed with their GST claimed; the Repeating expenses list says how often and the next date;
// Stop repeating ends it and keeps what was recorded.
import { addMonths, formatNzDate, nzDateOf } from '@tradie/domain';
import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

test('a monthly phone bill records itself: what is due now at once, the next one dated; stopped, it stops', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'recurring' });
  expect((await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_number: TEST_GST_NUMBER } })).status()).toBe(200);
  const today = nzDateOf(new Date());
  const first = addMonths(today, -1);

  await page.goto('/app/costs');
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('What is it').selectOption('expense');
  await expect(page.getByText('A bill you pay regularly, like your phone, can record itself.')).toBeVisible();
  await page.getByLabel('Repeats').selectOption('monthly');
  await page.getByLabel('Supplier', { exact: true }).fill('One NZ');
  await page.getByLabel('First date').fill(first);
  await page.getByLabel('Amount including GST ($)').fill('65');
  await page.getByLabel('Category').selectOption('other');
  await expect(page.getByLabel('Paid automatically on the day (direct debit)')).toBeChecked();
  // A repeating expense is the business's own: no job to choose.
  await expect(page.getByLabel('Job', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel('A credit from the supplier (money back)')).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs-repeating-form');
  await page.getByRole('button', { name: 'Save' }).click();

  // The month ago's and today's are recorded now; each claims 65 × 3/23 = $8.48.
  const item = page.getByTestId('recurring-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('One NZ');
  await expect(item).toContainText('Every month · Other · 2 recorded');
  await expect(item.getByTestId('recurring-next')).toHaveText(`Next on ${formatNzDate(addMonths(first, 2))}`);
  const costs = page.getByRole('list', { name: 'Receipts, bills and expenses' }).getByRole('listitem');
  await expect(costs).toHaveCount(2);
  await expect(costs.first()).toContainText(formatNzDate(addMonths(first, 1)));
  await expect(costs.last()).toContainText(formatNzDate(first));
  await expect(page.getByTestId('cost-gst')).toHaveText(['GST claimed $8.48', 'GST claimed $8.48']);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs-repeating');

  // Stopped: no more, and the two recorded stay.
  await page.getByRole('button', { name: 'Stop repeating One NZ' }).click();
  await expect(item.getByTestId('recurring-next')).toHaveText(`Stopped on ${formatNzDate(today)}`);
  await expect(page.getByRole('button', { name: 'Stop repeating One NZ' })).toHaveCount(0);
  await expect(costs).toHaveCount(2);
  expect(errors).toEqual([]);
});
