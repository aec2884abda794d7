import { expect, test, type APIRequestContext, type Download, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { nzDateOf, taxYearLabel, taxYearOf, taxYearRange } from '@tradie/domain';
import { collectErrors, expectNoSeriousA11yViolations } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// 'Export for my accountant' on Tax Reports against the real API: a new account with one issued
// invoice in the last complete NZ tax year; the button downloads one ZIP (through a download link,
// never the token) holding the CSVs, the README and the invoice's PDF.

async function post<T>(request: APIRequestContext, user: TestUser, path: string, data: unknown): Promise<T> {
  const res = await request.post(`/api/v1${path}`, { headers: user.authHeaders, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The download this page starts next, in the page itself: no tab is left behind saying 'Preparing…'. */
async function nextDownload(page: Page): Promise<Download> {
  const download = await page.waitForEvent('download');
  expect(page.context().pages()).toHaveLength(1);
  return download;
}

test('Export for my accountant downloads one ZIP of the last complete tax year', async ({ page, request }) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request);
  const year = taxYearOf(nzDateOf(new Date())) - 1;
  const range = taxYearRange(year);
  const client = await post<{ id: string }>(request, user, '/clients', { name: 'Mere', is_business: 'true', business_name: 'Kōwhai Builders' });
  const invoice = await post<{ id: string; reference: string }>(request, user, '/invoices', {
    type: 'invoice', client_id: client.id, issue_date: `${year - 1}-06-15`, line_items: [{ description: 'Deck build', qty: 1, unit_price: 4000 }],
  });
  await post(request, user, `/invoices/${invoice.id}/issue`, {});

  await page.goto('/app/reports');
  const card = page.getByRole('form', { name: 'Export for my accountant' });
  await expect(card).toBeVisible();
  await expect(card.getByText(/One ZIP: invoices, payments and clients/)).toBeVisible();
  // The last complete tax year is chosen already.
  await expect(card.getByLabel('Year to export').locator('option:checked')).toContainText(taxYearLabel(year));

  const button = card.getByRole('button', { name: /Download ZIP/ });
  const box = await button.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  await expectNoSeriousA11yViolations(page);

  const linkAsked = page.waitForResponse((r) => r.url().endsWith('/api/v1/reports/accountant-export-links') && r.request().method() === 'POST');
  const downloaded = nextDownload(page);
  await button.click();
  expect((await linkAsked).status()).toBe(200);
  const download = await downloaded;
  expect(download.url()).toContain(`/api/v1/reports/export/accountant-zip?start_date=${range.start}&end_date=${range.end}&basis=invoice&`);
  expect(download.url()).toMatch(/[?&]token=[^&]+/);
  expect(download.url()).not.toContain(user.accessToken);
  expect(download.suggestedFilename()).toBe(`accountant-export-${range.start}-to-${range.end}.zip`);

  const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(Object.keys(zip).sort()).toEqual([
    'README.txt', 'annual-summary.csv', 'clients.csv', 'expenses.csv', 'gst-report.csv', 'hours.csv', 'invoices.csv', 'payments.csv', `pdfs/${invoice.reference}.pdf`, 'profit-report.csv', 'purchases.csv',
  ]);
  const invoices = parse(Buffer.from(zip['invoices.csv']!), { bom: true }) as string[][];
  expect(invoices.slice(1).map((r) => [r[0], r[3], r[8]])).toEqual([[invoice.reference, 'Kōwhai Builders (Mere)', '4600.00']]);
  expect(new TextDecoder().decode(zip[`pdfs/${invoice.reference}.pdf`]!.slice(0, 5))).toBe('%PDF-');
  expect(new TextDecoder().decode(zip['README.txt']!)).toContain('invoices.csv');
  expect(errors).toEqual([]);
});

test('Export for my accountant between two dates says what is missing and what failed', async ({ page, request }) => {
  await signUpAndSignIn(page, request);
  await page.goto('/app/reports');
  const card = page.getByRole('form', { name: 'Export for my accountant' });
  await card.getByRole('radio', { name: 'Between two dates' }).check();
  const button = card.getByRole('button', { name: /Download ZIP/ });
  await expect(button).toBeDisabled();
  await expect(card.getByText('Choose both dates first.')).toBeVisible();
  await card.getByLabel('First day').fill('2026-06-30');
  await card.getByLabel('Last day').fill('2026-04-01');
  await button.click();
  await expect(card.getByRole('alert')).toHaveText("Couldn't make the export: The start date must be on or before the end date");
});
