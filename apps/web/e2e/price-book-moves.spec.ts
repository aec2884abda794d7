// A quote keeps the cost it was priced at, at 390×844: a line picked from the price book is priced
// at its category's markup from Settings (materials 20 %: $3.80 × 1.2 = $4.56 a metre, 6 m $27.36);
// the supplier's price then moves to $4.10, the quote screen says so ('Copper pipe 15 mm is now
// $4.10, was $3.80 — update?'), and Update re-prices that line of the draft: $4.10 × 1.2 = $4.92,
// 6 m $29.52. The quote never moved by itself.
import { expect, test } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

test('a line picked from the price book says when the book moves, and the draft takes the new price on Update', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'price-moves' });
  const headers = user.authHeaders;
  const pricing = await (await request.get('/api/v1/business-settings/pricing', { headers })).json();
  const categories = pricing.categories.map((c: { id: string; name: string; percent: string }) => ({ id: c.id, name: c.name, percent: c.id === 'materials' ? '20' : c.percent }));
  expect((await request.put('/api/v1/business-settings/pricing', { data: { categories }, headers })).status()).toBe(200);
  const item = await request.post('/api/v1/price-book/items', { data: { name: 'Copper pipe 15 mm', unit: 'm', category: 'Materials', cost: '3.80', supplier: 'Plumbing World', supplier_code: 'CU15-HH' }, headers });
  expect(item.status()).toBe(201);
  const pipe = await item.json();

  await page.goto('/app/calculator');
  await page.getByRole('button', { name: 'Price book for line 1' }).click();
  await page.getByLabel('Search price book').fill('copper 15');
  await page.getByRole('button', { name: /^Copper pipe 15 mm/ }).click();
  await expect(page.getByLabel('Line 1 Unit price')).toHaveValue('4.56');
  await page.getByLabel('Line 1 Qty').fill('6');
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByText('$27.36').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Price book changes' })).toHaveCount(0);

  // The supplier's price moves; the quote keeps $3.80 until the tradie says otherwise.
  const moved = await request.put(`/api/v1/price-book/items/${pipe.id}`, { data: { name: pipe.name, unit: 'm', category: 'Materials', cost: '4.10', supplier: 'Plumbing World', supplier_code: 'CU15-HH' }, headers });
  expect(moved.status()).toBe(200);
  await page.reload();
  const notice = page.getByRole('region', { name: 'Price book changes' });
  await expect(notice).toContainText('Line 1: Copper pipe 15 mm is now $4.10, was $3.80 — update?');
  await expect(page.getByText('$27.36').first()).toBeVisible();
  const update = notice.getByRole('button', { name: 'Update line 1' });
  expect((await update.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices/price-book-moves');
  await update.click();
  await expect(page.getByText("Copper pipe 15 mm updated to today's price")).toBeVisible();
  await expect(page.getByText('$29.52').first()).toBeVisible();
  await expect(notice).toHaveCount(0);
  expect(errors).toEqual([]);
});
