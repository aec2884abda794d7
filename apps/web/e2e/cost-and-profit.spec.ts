// Know your real profit, at 390×844: a job priced from its costs in the calculator shows the
// profit worked by hand; the quote screen shows the same; after it is sent, accepted and made an
// invoice the invoice shows the same; crediting part of a line takes its sell and its cost off.
//
// Worked by hand: a Rinnai costing $1,450 (materials) and 8 hours of labour costing $45 an hour,
// priced from cost at 25 % markup: $1,812.50 and 8 × $56.25 = $450.00; fittings typed at $39.38
// with no cost. Sell $2,301.88; cost $1,450 + $360 = $1,810.00; gross profit $2,262.50 − $1,810.00
// = $452.50 on the costed sell; margin 452.50 / 2262.50 = 20.0 %, markup 452.50 / 1810 = 25.0 %.
// Crediting 2 of the 8 hours: sell −$112.50, cost −$90.00, profit $452.50 − $22.50 = $430.00.
import { expect, test, type Page } from '@playwright/test';
import { collectErrors, expectNoHorizontalOverflow, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

const row = (page: Page, n: number) => ({
  description: page.getByLabel(`Line ${n} Description`),
  qty: page.getByLabel(`Line ${n} Qty`),
  price: page.getByLabel(`Line ${n} Unit price`),
  cost: page.getByLabel(`Line ${n} Cost (excl. GST)`),
  category: page.getByLabel(`Line ${n} Category`),
});

async function fill(page: Page, n: number, l: { description: string; qty: string; price: string; cost?: string; category?: string }) {
  if (n > 1) await page.getByRole('button', { name: 'Add Line Item' }).click();
  const r = row(page, n);
  await r.description.fill(l.description);
  await r.qty.fill(l.qty);
  await r.price.fill(l.price);
  if (l.cost !== undefined) await r.cost.fill(l.cost);
  if (l.category !== undefined) await r.category.selectOption(l.category);
}

const figures = async (page: Page, prefix: 'calc' | 'detail') =>
  Promise.all(['cost', 'sell', 'gross', 'margin', 'markup'].map((k) => page.getByTestId(`${prefix}-profit-${k}`).textContent()));

test('price a job from its costs, see the profit worked by hand, send, convert and credit a line', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'cost-profit' });
  await page.goto('/app/calculator');
  await fill(page, 1, { description: 'Rinnai water heater', qty: '1', price: '0', cost: '1450', category: 'materials' });
  await fill(page, 2, { description: 'Labour', qty: '8', price: '0', cost: '45', category: 'labour' });
  await fill(page, 3, { description: 'Fittings and sundries', qty: '1', price: '39.38' });
  await page.getByRole('button', { name: /^Profit/ }).click();
  await page.getByLabel('Markup on cost %').fill('25');
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(row(page, 1).price).toHaveValue('1812.5');
  await expect(row(page, 2).price).toHaveValue('56.25');
  await expect(row(page, 3).price).toHaveValue('39.38');
  // Twice changes nothing: prices come from the costs, which never change.
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(row(page, 1).price).toHaveValue('1812.5');
  await expect(row(page, 1).cost).toHaveValue('1450');
  expect(await figures(page, 'calc')).toEqual(['$1,810.00', '$2,301.88', '$452.50', '20.0%', '25.0%']);
  await expect(page.getByTestId('calc-profit-uncosted')).toHaveText('Cost not recorded on 1 line ($39.38 of sell): not counted in the profit.');
  // Thumb-sized: the button is at least 44 px tall; nothing scrolls sideways at 390 px.
  expect((await page.getByRole('button', { name: 'Price from cost' }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/calculator-price-from-cost');

  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  const quoteId = page.url().split('/').at(-1)!;
  expect(await figures(page, 'detail')).toEqual(['$1,810.00', '$2,301.88', '$452.50', '20.0%', '25.0%']);

  // Sent, accepted and made an invoice: the invoice keeps every cost.
  const auth = { headers: user.authHeaders };
  const sent = await request.post(`/api/v1/invoices/${quoteId}/send`, { ...auth, data: { to: ['aroha@example.nz'] } });
  expect(sent.status()).toBe(200);
  expect((await request.post(`/api/v1/invoices/${quoteId}/accept`, auth)).status()).toBe(200);
  const converted = await request.post(`/api/v1/invoices/${quoteId}/convert`, auth);
  expect(converted.status()).toBe(201);
  const invoiceId = ((await converted.json()) as { id: string }).id;
  expect((await request.post(`/api/v1/invoices/${invoiceId}/issue`, auth)).status()).toBe(200);
  await page.goto(`/app/invoices/${invoiceId}`);
  expect(await figures(page, 'detail')).toEqual(['$1,810.00', '$2,301.88', '$452.50', '20.0%', '25.0%']);

  // Credit 2 of the 8 hours: $112.50 of sell and $90.00 of cost come off; profit $430.00.
  const credit = await request.post(`/api/v1/invoices/${invoiceId}/credit-notes`, { ...auth, data: { lines: [{ line_index: 1, qty: 2 }], reason: 'Finished early' } });
  expect(credit.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId('detail-profit-gross')).toHaveText('$430.00');
  expect(await figures(page, 'detail')).toEqual(['$1,720.00', '$2,189.38', '$430.00', '20.0%', '25.0%']);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoice-profit-after-credit');
  expect(errors).toEqual([]);
});
