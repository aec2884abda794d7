import { nzDateOf } from '@tradie/domain';
import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

// A receipt sent to Xero as a bill, on the phone (390×844), against the fake Xero: the tradie
// records a receipt with its PDF (paid on the day, as a receipt is), connects Xero, opens the cost
// and taps 'Send to Xero'; the cost then says it is in Xero as a paid bill, in its form and in the
// list. Phone only, like the other Xero specs: the fake has one organisation.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test("a receipt goes to Xero as a bill with 'Send to Xero', and the cost says it is there", async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'costs-xero' });
  expect((await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_number: TEST_GST_NUMBER } })).status()).toBe(200);

  await page.goto('/app/settings?tab=integrations');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await (await popup).waitForEvent('close');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();

  await page.goto('/app/costs');
  await page.getByRole('button', { name: 'Record a cost' }).click();
  // A new cost has nothing to send yet.
  await expect(page.getByTestId('cost-xero-part')).toHaveCount(0);
  await page.getByLabel('Supplier', { exact: true }).fill('Plumbing World');
  await page.getByLabel('Date on the receipt or bill').fill(nzDateOf(new Date()));
  await page.getByLabel('Amount including GST ($)').fill('161.00');
  // A receipt is paid on its date unless the tradie says otherwise.
  await expect(page.getByLabel('Paid', { exact: true })).toHaveValue('on_date');
  await page.getByLabel('Photo or PDF of the receipt').setInputFiles({ name: 'invoice-8812.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Save' }).click();
  const item = page.getByRole('list', { name: 'Receipts, bills and expenses' }).getByRole('listitem');
  await expect(item.getByTestId('cost-receipt')).toHaveText(/^Receipt kept \(PDF, 1 KB\)$/);

  await item.getByRole('button').click();
  const part = page.getByTestId('cost-xero-part');
  await expect(part).toContainText('Send it to Xero as a bill, with the receipt attached.');
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '[data-testid="cost-xero-part"] button');
  await part.getByRole('button', { name: 'Send to Xero' }).click();
  await expect(part.getByRole('status')).toHaveText('Sent to Xero as a bill.');
  await expect(part.getByRole('button')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs-sent-to-xero');

  const costs = (await (await request.get('/api/v1/costs', { headers: user.authHeaders })).json()) as { costs: { id: string; xero_bill: { status: string; detail: string | null } | null }[] };
  expect(costs.costs[0]?.xero_bill).toMatchObject({ status: 'paid', detail: null });

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(item.getByTestId('cost-xero')).toHaveText('In Xero as a paid bill');
  // Opened again: it says it is there and that saved changes go to it.
  await item.getByRole('button').click();
  await expect(part.getByRole('status')).toHaveText('In Xero as a paid bill. Changes you save here go to it.');
  expect(errors).toEqual([]);
});
