// A quote's job title and site address at phone size, through the real API: typed on the
// calculator (the site starting as the client's address, then typed over), shown on the detail,
// in the list, and on the client's page from the link in the email, the address one line a line;
// and an invoice's payment terms (the 20th of the month following) said the same on both.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot, detailAction } from './helpers.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

async function seedClient(request: APIRequestContext, user: TestUser, body: Record<string, unknown>): Promise<string> {
  const r = await request.post('/api/v1/clients', { headers: user.authHeaders, data: body });
  expect(r.status()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

async function pickClient(page: Page, name: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.click();
  await picker.fill(name.split(' ')[0]!);
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

test('a quote with a job title and a site address away from the client’s home', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'job' });
  const clientEmail = `aroha-${Date.now()}@example.co.nz`;
  await seedClient(request, user, { name: 'Aroha Ngata', email: clientEmail, address: '9 Home Street\nFrankton\nHamilton 3204' });

  await page.goto('/app/calculator');
  await page.getByLabel('Job title').fill('New hot water cylinder');
  await pickClient(page, 'Aroha Ngata');
  // The site starts as the client's address.
  const site = page.getByLabel('Site address');
  await expect(site).toHaveValue('9 Home Street\nFrankton\nHamilton 3204');
  await site.fill('Lot 4, Kahikatea Drive\nRototuna\nHamilton 3210');
  await page.getByLabel('Line 1 Description').fill('Rinnai Infinity 26');
  await page.getByLabel('Line 1 Unit price').fill('1812.50');
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/calculator-job');
  await page.getByRole('button', { name: 'Generate Quote' }).click();

  // The detail: the job and the site, one line of the address a line.
  // Generating renders the PDF first: on a busy machine that takes a while.
  await expect(page).toHaveURL(/\/app\/invoices\/[^/]+$/, { timeout: 30_000 });
  await expect(page.getByTestId('detail-job-title')).toHaveText('New hot water cylinder');
  const shown = page.getByTestId('detail-site-address').locator('.address-line');
  await expect(shown).toHaveText(['Lot 4, Kahikatea Drive', 'Rototuna', 'Hamilton 3210']);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/invoices-job');

  // Sent: the email names the job; the client's page shows it and the site.
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Quote' }).click();
  await expect(page.getByRole('region', { name: 'Client link' })).toBeVisible();
  const mail = await waitForEmailTo(clientEmail, 'New hot water cylinder');
  expect(mail.mail.text ?? '').toContain('Site: Lot 4, Kahikatea Drive, Rototuna, Hamilton 3210');
  const link = /https?:\/\/\S+\/q\/[A-Za-z0-9_-]{32,64}/.exec(mail.mail.text ?? '');
  expect(link).not.toBeNull();
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const phone = await (await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, baseURL })).newPage();
  await phone.goto(new URL(link![0]).pathname);
  await expect(phone.getByText('New hot water cylinder')).toBeVisible();
  await expect(phone.getByTestId('client-site-address').locator('.address-line')).toHaveText(['Lot 4, Kahikatea Drive', 'Rototuna', 'Hamilton 3210']);
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await saveScreenshot(phone, testInfo, '/q/job');

  // The list: the job and the site on one line, and found by searching for the suburb.
  await page.goto('/app/invoices');
  await expect(page.getByText('New hot water cylinder · Lot 4, Kahikatea Drive, Rototuna, Hamilton 3210')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an invoice for a client on the 20th of the month following: the due date said the same on the detail and the client’s page', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'terms' });
  const clientEmail = `hemi-${Date.now()}@example.co.nz`;
  await seedClient(request, user, { name: 'Hemi Walker', email: clientEmail, default_payment_terms: '20th of the month following' });

  await page.goto('/app/calculator');
  await page.getByRole('radio', { name: 'Invoice' }).check();
  await pickClient(page, 'Hemi Walker');
  await page.getByLabel('Line 1 Description').fill('Switchboard upgrade');
  await page.getByLabel('Line 1 Unit price').fill('1450');
  await page.getByRole('button', { name: 'Generate Invoice' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[^/]+$/, { timeout: 30_000 });
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  const detail = (await (await request.get(`/api/v1/invoices/${id}`, { headers: user.authHeaders })).json()) as { issue_date: string; due_date: string; payment_terms_text: string };
  // The 20th of the month after the issue date's month.
  const [y, m] = detail.issue_date.split('-').map(Number) as [number, number];
  expect(detail.due_date).toBe(m === 12 ? `${y + 1}-01-20` : `${y}-${String(m + 1).padStart(2, '0')}-20`);
  await expect(page.getByTestId('detail-payment-terms')).toHaveText(detail.payment_terms_text);
  expect(detail.payment_terms_text).toMatch(/^20th of the month following — due 20\/\d\d\/\d{4}$/);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/invoices-terms');

  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('region', { name: 'Client link' })).toBeVisible();
  const mail = await waitForEmailTo(clientEmail);
  const link = /https?:\/\/\S+\/i\/[A-Za-z0-9_-]{32,64}/.exec(mail.mail.text ?? '');
  expect(link).not.toBeNull();
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL } = testInfo.project.use;
  const phone = await (await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, baseURL })).newPage();
  await phone.goto(new URL(link![0]).pathname);
  await expect(phone.getByTestId('client-payment-terms')).toHaveText(detail.payment_terms_text);
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await saveScreenshot(phone, testInfo, '/i/terms');
  expect(errors).toEqual([]);
});
