// A half-built quote at phone size survives leaving the calculator: lines typed for a client, then
// the Clients tab, then back — 'Carry on with the quote for …?' puts every line back; a reload
// offers it again; Start again empties the calculator; and once the quote is saved it is not
// offered again. Kept on the device only, so signing out forgets it.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

async function seedClient(request: APIRequestContext, user: TestUser, name: string): Promise<void> {
  const r = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name } });
  expect(r.status()).toBe(201);
}

async function buildQuote(page: Page): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.click();
  await picker.fill('Mere');
  await page.getByRole('option', { name: /Mere Parata/ }).click();
  await page.getByLabel('Line 1 Description').fill('Replace hot water cylinder');
  await page.getByLabel('Line 1 Unit price').fill('1850');
  await page.getByRole('button', { name: 'Add Line Item' }).click();
  await page.getByLabel('Line 2 Description').fill('Labour');
  await page.getByLabel('Line 2 Unit price').fill('95');
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const offer = (page: Page) => page.getByRole('heading', { name: 'Carry on with the quote for Mere Parata?' });

test('a half-built quote is offered back after another tab and a reload; Start again empties it; saved, it is not offered again', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'calc-draft' });
  await seedClient(request, user, 'Mere Parata');

  await page.goto('/app/calculator');
  await buildQuote(page);

  // Another tab, then back: the lines are offered, not lost.
  await nav(page, 'Clients').click();
  await expect(page).toHaveURL(/\/app\/clients$/);
  // The URL moves before the Clients screen's data has loaded; until the screen shows, the
  // calculator is still the one on the page (never closed), so wait for it before going back.
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  await nav(page, 'Calculator').click();
  await expect(offer(page)).toBeVisible();
  await expect(page.getByText(/It isn't saved yet: 2 lines/)).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/calculator-carry-on');
  await page.getByRole('button', { name: 'Carry on' }).click();
  await expect(page.getByLabel('Line 1 Description')).toHaveValue('Replace hot water cylinder');
  await expect(page.getByLabel('Line 2 Description')).toHaveValue('Labour');
  await expect(page.getByLabel('Line 2 Unit price')).toHaveValue('95');
  await expect(page.getByRole('combobox', { name: 'Client' })).toHaveValue('Mere Parata');

  // A reload (or a lost signal and a fresh start of the app): offered again.
  await page.reload();
  await expect(offer(page)).toBeVisible();

  // Start again: an empty calculator, and nothing is offered next time.
  await page.getByRole('button', { name: 'Start again' }).click();
  await expect(page.getByLabel('Line 1 Description')).toHaveValue('');
  await expect(page.getByLabel('Line 2 Description')).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel('Line 1 Description')).toBeVisible();
  await expect(offer(page)).toHaveCount(0);

  // Built again and saved: the saved quote is not offered back.
  await buildQuote(page);
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[^/]+$/, { timeout: 30_000 });
  await nav(page, 'Calculator').click();
  await expect(page.getByLabel('Line 1 Description')).toHaveValue('');
  await expect(offer(page)).toHaveCount(0);
  expect(await page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith('calculatorDraft:')))).toEqual([]);
  expect(errors).toEqual([]);
});
