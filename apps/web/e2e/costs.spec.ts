// Costs at phone size, against the real API: receipts, a bill and hours recorded on the Costs
// screen, one against an accepted quote; the list says the GST claimed or why not; the quote's
// Job profit card and the GST report's Boxes 11–15 show the same figures as the API, and as this
// test works them out by hand from what it typed.
import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

// Quoted: pipe 10 × $20 (cost $12) = sell 200.00, cost 120.00; labour 5 × $85 (cost $40) = 425.00, 200.00.
const LINES = [
  { description: 'Copper pipe', qty: 10, unit_price: 20, tax_included: false, tax_rate: 0.15, cost: 12, category: 'materials' },
  { description: 'Labour', qty: 5, unit_price: 85, tax_included: false, tax_rate: 0.15, cost: 40, category: 'labour' },
];

test('record receipts, a bill and hours; the job’s profit and the GST return count them', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'costs' });
  const headers = user.authHeaders;
  expect((await request.put('/api/v1/business-settings', { headers, data: { gst_number: TEST_GST_NUMBER } })).status()).toBe(200);
  const quote = await request.post('/api/v1/invoices', { headers, data: { type: 'quote', line_items: LINES } });
  expect(quote.status(), await quote.text()).toBe(201);
  const { id: quoteId, reference } = (await quote.json()) as { id: string; reference: string };
  expect((await request.post(`/api/v1/invoices/${quoteId}/accept`, { headers })).status()).toBe(200);

  // From home, the Costs card.
  await page.goto('/app/home');
  await page.getByRole('link', { name: /Costs & Hours/ }).click();
  await expect(page.getByRole('heading', { name: 'Costs', level: 1 })).toBeVisible();
  await expect(page.getByText('Nothing recorded yet.', { exact: false })).toBeVisible();

  // 1. A receipt for the job: $161.00 with GST, under $200 → claimed 161 × 3/23 = $21.00.
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('Supplier', { exact: true }).fill('Plumbing World');
  await page.getByLabel('Date on the receipt or bill').fill('2026-05-05');
  await page.getByLabel('Amount including GST ($)').fill('161.00');
  await page.getByLabel('Job', { exact: true }).selectOption({ label: reference });
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs-record');
  await page.getByRole('button', { name: 'Save' }).click();
  const list = page.getByRole('list', { name: 'Receipts, bills and expenses' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByTestId('cost-gst')).toHaveText('GST claimed $21.00');

  // 2. A bill over $200 without the tax invoice, not for a job: not claimed, and the list says why.
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('What is it').selectOption('bill');
  // A supplier's bill starts out not paid yet (a receipt is paid on its date).
  await expect(page.getByLabel('Paid', { exact: true })).toHaveValue('not_yet');
  await page.getByLabel('Supplier', { exact: true }).fill('Mitre 10');
  await page.getByLabel('Date on the receipt or bill').fill('2026-05-20');
  await page.getByLabel('Amount including GST ($)').fill('230.00');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const bill = list.getByRole('listitem').filter({ hasText: 'Mitre 10' });
  await expect(bill.getByTestId('cost-gst')).toContainText('Over $200 a till receipt is not enough');

  // A wrong amount is refused with words, and nothing is added.
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('Supplier', { exact: true }).fill('Bunnings');
  await page.getByLabel('Amount including GST ($)').fill('twelve');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // Paid 'on another date' needs the date.
  await page.getByLabel('Amount including GST ($)').fill('12.00');
  await page.getByLabel('Paid', { exact: true }).selectOption('other');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText('Choose the date it was paid.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);

  // 3. Hours for the job: 3 h at $45.50 = $136.50.
  await page.getByRole('button', { name: 'Record hours' }).click();
  await page.getByLabel('Who', { exact: true }).fill('Tama');
  await page.getByLabel('Date', { exact: true }).fill('2026-05-05');
  await page.getByLabel('Hours', { exact: true }).fill('3');
  await page.getByLabel('Cost per hour ($, wages and on-costs)').fill('45.50');
  await page.getByLabel('Job', { exact: true }).selectOption({ label: reference });
  await page.getByRole('button', { name: 'Save' }).click();
  const hours = page.getByRole('list', { name: 'Hours' });
  await expect(hours.getByTestId('hours-cost')).toHaveText('$136.50');
  // Shown by week (Monday to Sunday): Tuesday 5 May 2026 is in the week of Monday 4 May.
  await expect(hours.getByTestId('hours-week')).toContainText('Week of 04/05/2026');
  await expect(hours.getByTestId('hours-week')).toContainText('3 h · $136.50');
  // The Jobs list: the one job and its profit so far; its costs (276.50) are under the 320.00 quoted, so no overrun is shown.
  const jobsList = page.getByRole('list', { name: 'Jobs' });
  await expect(jobsList.getByRole('listitem')).toHaveCount(1);
  await expect(jobsList.getByTestId('job-list-profit')).toHaveText('-$276.50');
  await expect(jobsList.getByTestId('job-list-over')).toHaveCount(0);
  await page.getByLabel('Order').selectOption('overrun');
  await expect(jobsList.getByRole('listitem')).toHaveCount(1);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs');

  // The job: costs so far 140.00 (161.00 less its GST) + 136.50 = 276.50; nothing invoiced yet.
  // Materials 140.00 against 120.00 quoted: 16.7 % over, past the 10 % warning.
  const api = (await (await request.get(`/api/v1/jobs/${quoteId}/profit`, { headers })).json()) as Record<string, unknown>;
  expect(api).toMatchObject({ quoted_sell: '625.00', quoted_cost: '320.00', actual_cost: '276.50', invoiced_net: '0.00', profit_so_far: '-276.50' });
  await page.goto(`/app/invoices/${quoteId}`);
  const card = page.getByRole('region', { name: 'Job profit so far' });
  await expect(card.getByTestId('job-quoted-sell')).toHaveText('$625.00');
  await expect(card.getByTestId('job-quoted-cost')).toHaveText('$320.00');
  await expect(card.getByTestId('job-actual-cost')).toHaveText('$276.50');
  await expect(card.getByTestId('job-actual-materials')).toHaveText('$140.00');
  await expect(card.getByTestId('job-actual-labour')).toHaveText('$136.50');
  await expect(card.getByTestId('job-invoiced')).toHaveText('$0.00');
  await expect(card.getByTestId('job-profit')).toContainText('276.50');
  await expect(card.getByTestId('job-warnings')).toHaveText((api.warnings as string[]).join(''));
  await expect(card.getByTestId('job-warnings')).toContainText('Materials are');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices/job-profit');

  // Quick entry from the job: the form opens with the job chosen; saved, the card counts it.
  await card.getByRole('link', { name: 'Record a cost' }).click();
  await expect(page.getByRole('heading', { name: 'Record a cost' })).toBeVisible();
  await expect(page.getByLabel('Job', { exact: true })).toHaveValue(quoteId);
  await page.getByLabel('Supplier', { exact: true }).fill('Plumbing World');
  await page.getByLabel('Date on the receipt or bill').fill('2026-05-06');
  await page.getByLabel('What is it').selectOption('receipt');
  await page.getByLabel('GST', { exact: true }).selectOption('none');
  await page.getByLabel('Amount including GST ($)').fill('23.00');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/app\/costs$/);
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.goto(`/app/invoices/${quoteId}`);
  // 140.00 + 23.00 (no GST to claim) + 136.50.
  await expect(card.getByTestId('job-actual-cost')).toHaveText('$299.50');
  expect(((await (await request.get(`/api/v1/jobs/${quoteId}/profit`, { headers })).json()) as { actual_cost: string }).actual_cost).toBe('299.50');

  // The GST return for May 2026: Box 11 is the claimable $161.00 (the bill is left out), Box 12 its
  // $21.00 of GST, Box 14 the same, and with no sales Box 15 is a $21.00 refund.
  await page.goto('/app/reports');
  await page.getByLabel('Start Date').fill('2026-05-01');
  await page.getByLabel('End Date').fill('2026-05-31');
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const report = (await (await request.get('/api/v1/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=invoice', { headers })).json()) as { gst_return: Record<string, number> };
  expect(report.gst_return).toMatchObject({ box10: 0, box11: 161, box12: 21, box13: 0, box14: 21, box15: -21 });
  // On the payments basis the receipt counts too: it was paid on its date (the bill is not paid yet).
  const paidBasis = (await (await request.get('/api/v1/reports/gst?start_date=2026-05-01&end_date=2026-05-31&basis=payments', { headers })).json()) as { gst_return: Record<string, number> };
  expect(paidBasis.gst_return).toMatchObject({ box11: 161, box12: 21 });
  await expect(page.getByTestId('gst-box11')).toHaveText('$161.00');
  await expect(page.getByTestId('gst-box12')).toHaveText('$21.00');
  await expect(page.getByTestId('gst-box14')).toHaveText('$21.00');
  await expect(page.getByTestId('gst-box15')).toContainText('21.00');
  await expect(page.getByTestId('gst-box15')).toContainText('-');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/reports-gst-purchases');

  // The Annual Summary for the tax year to March 2027: expenses 140.00 + 230.00 + 23.00 = 393.00
  // (the claimed GST off the first, none to claim on the others); nothing invoiced, so a 393.00 loss.
  await page.getByRole('tab', { name: 'Annual Summary' }).click();
  await page.getByLabel('Tax Year').selectOption('2027');
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const year = (await (await request.get('/api/v1/reports/expenses?year=2027', { headers })).json()) as { expenses: number; net_profit_before_tax: number; revenue: number };
  expect(year).toMatchObject({ revenue: 0, expenses: 393, net_profit_before_tax: -393 });
  const yearCard = page.getByRole('region', { name: 'Expenses and net profit' });
  await expect(yearCard.getByTestId('annual-expenses-total')).toHaveText('$393.00');
  await expect(yearCard.getByTestId('annual-expenses-materials')).toHaveText('$393.00');
  await expect(yearCard.getByTestId('annual-net-profit')).toHaveText('-$393.00');
  await expect(yearCard.getByTestId('annual-expenses-revenue')).toHaveText('$0.00');
  await expectNoHorizontalOverflow(page);
  // The one refusal above (the amount 'twelve') is the only failed call.
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
});
