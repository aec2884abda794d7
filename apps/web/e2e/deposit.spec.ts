// A deposit on acceptance at phone size, through the real API: the tradie takes cards (the fake
// Stripe's onboarding), prices a quote on the calculator for a site away from the client's home,
// asking for a 30 % deposit, adds a photo of the job from the phone (ticked for the PDF), and sends
// it; the client reads the deposit, sees the photo, accepts, and is taken straight to the deposit
// invoice's Pay now, pays on the fake Checkout, and the quote page then says the deposit is paid;
// the tradie's quote links to the deposit invoice, paid. A bad deposit is refused in words first.
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot, detailAction } from './helpers.ts';
import { readFakes } from './support/fakes.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

async function clientPhone(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId } = testInfo.project.use;
  return (await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId })).newPage();
}

test('a quote asks for a 30 % deposit: the client accepts and pays it by card straight away', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(150_000);
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  const fakes = readFakes();
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'deposit' });
  const clientEmail = `mere-${Date.now()}@example.co.nz`;

  // ---- The tradie: a business name, and card payments on (the fake Stripe's onboarding) ----
  await page.goto('/app/settings?tab=business');
  await page.getByLabel('Business Name').fill('Kōwhai Plumbing');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Settings saved successfully!');
  await page.goto('/app/settings?tab=payments');
  await page.getByRole('button', { name: 'Accept card payments' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/connect/onboarding/`));
  await page.getByRole('button', { name: 'Complete' }).click();
  await page.waitForURL(/\/app\/settings/);
  await expect(page.getByTestId('payments-status')).toContainText('Card payments are on');
  // From here on, the tradie's screens log no errors but the refused deposit's (the fake Stripe's
  // pages above have no favicon: the browser logs that 404).
  const errors = collectErrors(page);
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Mere Parata', email: clientEmail } });
  expect(client.status()).toBe(201);

  // ---- The calculator: a quote asking for a deposit; a bad one refused in words ----
  await page.goto('/app/calculator');
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.click();
  await picker.fill('Mere');
  await page.getByRole('option', { name: /Mere Parata/ }).click();
  await page.getByLabel('Site address').fill('Lot 4, Kahikatea Drive\nRototuna\nHamilton 3210');
  await page.getByLabel('Line 1 Description').fill('Replace hot water cylinder');
  await page.getByLabel('Line 1 Unit price').fill('2000');
  await page.getByLabel('Deposit on acceptance').selectOption({ label: 'A percentage of the quote' });
  await page.getByLabel('Deposit (%)').fill('130');
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/calculator-deposit');
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The deposit must be a percentage more than 0 and at most 100' })).toBeVisible();
  await page.getByLabel('Deposit (%)').fill('30');
  await page.getByRole('button', { name: 'Generate Quote' }).click();

  // ---- The quote: $2,000 + GST = $2,300.00; 30 % = $690.00 ----
  await expect(page).toHaveURL(/\/app\/invoices\/[^/]+$/, { timeout: 30_000 });
  const quoteUrl = page.url();
  await expect(page.getByTestId('detail-deposit')).toHaveText('A 30 % deposit ($690.00) is due on acceptance.');

  // ---- A photo of the old cylinder, from the phone's camera, ticked for the PDF ----
  const photos = page.getByRole('region', { name: 'Photos' });
  await expect(photos).toContainText('No photos yet.');
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6b8e9f' } }).jpeg().toBuffer();
  await page.getByLabel('Add a photo').setInputFiles({ name: 'IMG_0101.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(photos.getByRole('img', { name: 'Photo 1 of 1' })).toBeVisible();
  await photos.getByLabel('In the PDF').check();
  await expect(page.getByText('The photo will be in the PDF')).toBeVisible();
  await expect(photos.getByLabel('In the PDF')).toBeChecked();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices-photos');
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Quote' }).click();
  await expect(page.getByRole('region', { name: 'Client link' })).toBeVisible();
  const mail = await waitForEmailTo(clientEmail, '');
  const link = /https?:\/\/\S+\/q\/[A-Za-z0-9_-]{32,64}/.exec(mail.mail.text ?? '');
  expect(link).not.toBeNull();

  // ---- The client: the deposit on the quote, then accept: straight on to Pay now ----
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(new URL(link![0]).pathname);
  await expect(phone.getByTestId('client-total')).toHaveText('$2,300.00');
  await expect(phone.getByTestId('client-deposit')).toHaveText('A 30 % deposit ($690.00) is due on acceptance.');
  await expect(phone.getByTestId('client-site-address').locator('.address-line')).toHaveText(['Lot 4, Kahikatea Drive', 'Rototuna', 'Hamilton 3210']);
  const shown = phone.getByRole('img', { name: 'Photo 1 of 1' });
  await expect(shown).toBeVisible();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
  await expectNoSeriousA11yViolations(phone);
  await saveScreenshot(phone, testInfo, '/q/deposit-open');
  await phone.getByLabel('Your full name').fill('Mere Parata');
  await phone.getByRole('button', { name: 'Accept quote' }).click();
  await phone.waitForURL(/\/i\/[A-Za-z0-9_-]+$/);
  await expect(phone.getByRole('heading', { level: 1, name: /^Tax invoice / })).toBeVisible();
  await expect(phone.getByTestId('client-balance')).toHaveText('$690.00');
  await expectNoHorizontalOverflow(phone);
  await expectTapTargets(phone, '.client-page button, .client-page a.button');
  await expectNoSeriousA11yViolations(phone);
  await saveScreenshot(phone, testInfo, '/i/deposit');
  await phone.getByRole('button', { name: 'Pay now $690.00' }).click();
  await phone.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/connect/checkout/`));
  await phone.getByRole('button', { name: 'Pay' }).click();
  await phone.waitForURL(/\/i\/[A-Za-z0-9_-]+\?paid=1/);
  await expect(phone.getByTestId('invoice-state')).toHaveText('This invoice is paid. Thank you!', { timeout: 20_000 });

  // Back on the quote's page: the deposit is paid.
  await phone.goto(new URL(link![0]).pathname);
  await expect(phone.getByTestId('client-deposit-paid')).toHaveText(/^Deposit paid \(INV-\d{4}, \$690\.00\)\. Thank you!$/);
  await expectNoHorizontalOverflow(phone);
  await saveScreenshot(phone, testInfo, '/q/deposit-paid');

  // ---- The tradie: the quote links to its deposit invoice, which is paid ----
  await page.goto(quoteUrl);
  await expect(page.getByText(/^Deposit of \$690\.00 invoiced: INV-\d{4}\./)).toBeVisible();
  await page.getByRole('link', { name: 'View the deposit invoice' }).click();
  await expect(page.getByTestId('detail-balance')).toHaveText('$0.00');
  await expect(page.getByTestId('detail-payment-terms')).toHaveText('Due on receipt');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices-deposit');
  await phone.context().close();
  expect(failed).toEqual(['422 POST /api/v1/invoices']);
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
});
