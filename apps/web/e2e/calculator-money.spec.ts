// One number everywhere: what the calculator shows is what is saved, listed and printed.
// - A row with a price but no description is not in the totals, and Generate refuses it with a
//   field error (focus on it) instead of silently dropping it after showing it in the total.
// - 'Price from cost' keeps the money to the half cent: 1000 screws costing $0.0044 at 25% sell at
//   $5.50 (not $10.00), 200 × $1.2345 at 0% stays $246.90 (not $246.00); the costs never change.
// - Markup is not margin: the panel can work by margin; each way names its own number in the
//   title, the field and the notice.
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { documentTotals, formatNzd } from '@tradie/domain';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

/**
 * The axe scan with the sticky header and Generate bar laid out in the flow: scrolled content that
 * passes under them is not a tap target the user can hit, but axe's target-size rule counts the
 * overlap (it depends on how far the page has scrolled when the scan runs).
 */
async function a11yWithoutStickyBars(page: Page): Promise<void> {
  const unstick = await page.addStyleTag({ content: '.app-header, .calc__generate { position: static !important; } .doc-notice-region { display: none !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => (el as Element).remove());
}

const row = (page: Page, n: number) => ({
  description: page.getByLabel(`Line ${n} Description`),
  qty: page.getByLabel(`Line ${n} Qty`),
  price: page.getByLabel(`Line ${n} Unit price`),
  cost: page.getByLabel(`Line ${n} Cost (excl. GST)`),
});

async function fill(page: Page, n: number, description: string, qty: string, price: string) {
  if (n > 1) await page.getByRole('button', { name: 'Add Line Item' }).click();
  const r = row(page, n);
  await r.description.fill(description);
  await r.qty.fill(qty);
  await r.price.fill(price);
}

/** The saved document's PDF as text (pdftotext -layout). */
async function pdfText(request: APIRequestContext, user: TestUser, id: string, testInfo: TestInfo, name: string): Promise<string> {
  const pdf = await request.get(`/api/v1/invoices/${id}/pdf`, { headers: user.authHeaders });
  expect(pdf.status()).toBe(200);
  const file = testInfo.outputPath(`${name}.pdf`);
  writeFileSync(file, await pdf.body());
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

async function savedDocument(request: APIRequestContext, user: TestUser, id: string) {
  const res = await request.get(`/api/v1/invoices/${id}`, { headers: user.authHeaders });
  expect(res.status()).toBe(200);
  return (await res.json()) as { subtotal: number; gst: number; total: number; line_items: { qty: number; unit_price: number; amount: number }[]; reference: string };
}

/** The figures of the list row for this document. */
async function listedTotal(request: APIRequestContext, user: TestUser, id: string): Promise<number> {
  const res = await request.get('/api/v1/invoices?limit=200', { headers: user.authHeaders });
  const rows = (await res.json()) as { id: string; total: number }[];
  return rows.find((r) => r.id === id)!.total;
}

test('a row without a description is not counted, and Generate says so instead of dropping it', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'calc-rows' });
  await page.goto('/app/calculator');
  await fill(page, 1, 'Labour', '1', '100');
  await page.getByRole('button', { name: 'Add Line Item' }).click();
  await row(page, 2).price.fill('100');
  // Shown: $115.00, the one line Generate would save — never $230.00.
  await expect(page.getByTestId('calc-total')).toHaveText('$115.00');
  await expect(page.getByText('Not in the totals until it has a description')).toBeVisible();

  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Add a description for this line' })).toBeVisible();
  await expect(row(page, 2).description).toBeFocused();
  await expect(row(page, 2).description).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/app\/calculator$/);
  expect(((await (await request.get('/api/v1/invoices', { headers: user.authHeaders })).json()) as unknown[]).length).toBe(0);
  await saveScreenshot(page, testInfo, '/app/calculator-row-needs-description');
  await a11yWithoutStickyBars(page);

  // Given a description, it counts: $230.00 on screen, in the saved document, the list and the PDF.
  await row(page, 2).description.fill('Parts');
  await expect(page.getByTestId('calc-total')).toHaveText('$230.00');
  await expect(page.getByText('Add a description for this line')).toHaveCount(0);
  // A wholly empty new row is ignored.
  await page.getByRole('button', { name: 'Add Line Item' }).click();
  await expect(page.getByTestId('calc-total')).toHaveText('$230.00');
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('detail-total')).toHaveText('$230.00');
  const saved = await savedDocument(request, user, id);
  expect([saved.total, saved.line_items.length]).toEqual([230, 2]);
  expect(await listedTotal(request, user, id)).toBe(230);
  expect(await pdfText(request, user, id, testInfo, 'rows')).toMatch(/Total[^\n]*\$230\.00/);
  expect(errors).toEqual([]);
});

test('Price from cost keeps the money: screen, saved document, list and PDF agree to the cent', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'calc-margin' });
  await page.goto('/app/calculator');
  const LINES = [
    { description: 'Screws (box of 1000)', qty: '1000', unit_price: '0.0044' },
    { description: 'Copper fittings', qty: '200', unit_price: '1.2345' },
  ];
  for (const [i, l] of LINES.entries()) await fill(page, i + 1, l.description, l.qty, l.unit_price);
  await page.getByRole('button', { name: 'Profit 25% markup' }).click();
  // Each line costs what it was typed at: pricing from cost marks the costs up.
  for (const [i, l] of LINES.entries()) await page.getByLabel(`Line ${i + 1} Cost (excl. GST)`).fill(l.unit_price);
  // At 0% nothing moves: 200 × $1.2345 stays $246.90 (a cent-rounded price would make it $246.00).
  await page.getByLabel('Markup on cost %').fill('0');
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(page.getByText('Priced each line with a cost at 0% markup on cost.', { exact: false })).toBeVisible();
  await expect(row(page, 2).price).toHaveValue('1.2345');
  await expect(page.getByTestId('calc-subtotal')).toHaveText('$251.30');
  await page.getByLabel('Markup on cost %').fill('25');
  await expect(page.getByTestId('margin-chip')).toHaveText('25% markup');
  await expect(page.getByTestId('calc-profit-cost')).toHaveText('$251.30'); // $4.40 + $246.90
  // 246.90 × 1.25 = $308.625, but 200 × a 4-decimal price moves in 2-cent steps: said before pricing.
  await expect(page.getByTestId('margin-inexact')).toContainText('One line has a quantity too large');
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(page.getByText('Priced each line with a cost at 25% markup on cost.', { exact: false })).toBeVisible();
  await expect(page.getByText(/at 25% margin/)).toHaveCount(0);
  // 1000 × $0.0044 × 1.25 = $5.50 exactly (price $0.0055); $1.5431 gives $308.62, the nearest: $314.12.
  await expect(row(page, 1).price).toHaveValue('0.0055');
  await expect(row(page, 2).price).toHaveValue('1.5431');
  await expect(page.getByTestId('calc-subtotal')).toHaveText('$314.12');
  // The costs stayed; the profit is the marked-up subtotal less them.
  await expect(row(page, 2).cost).toHaveValue('1.2345');
  await expect(page.getByTestId('calc-profit-gross')).toHaveText('$62.82');
  const shown = { subtotal: await page.getByTestId('calc-subtotal').textContent(), gst: await page.getByTestId('calc-gst').textContent(), total: await page.getByTestId('calc-total').textContent() };

  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').at(-1)!;
  const saved = await savedDocument(request, user, id);
  expect([formatNzd(BigInt(Math.round(saved.subtotal * 100))), formatNzd(BigInt(Math.round(saved.gst * 100))), formatNzd(BigInt(Math.round(saved.total * 100)))]).toEqual([shown.subtotal, shown.gst, shown.total]);
  expect(saved.line_items.map((l) => l.amount)).toEqual([5.5, 308.62]);
  await expect(page.getByTestId('detail-total')).toHaveText(shown.total!);
  // The list shows the same total, and the PDF prints it, with the 4-decimal unit price.
  expect(formatNzd(BigInt(Math.round((await listedTotal(request, user, id)) * 100)))).toBe(formatNzd(documentTotals(saved.line_items.map((l) => ({ qty: String(l.qty), unit_price: String(l.unit_price) }))).totalCents));
  const text = await pdfText(request, user, id, testInfo, 'margin');
  expect(text).toContain('$0.0055');
  expect(text).toMatch(new RegExp(`Total[^\\n]*${shown.total!.replace('$', '\\$')}`));
  await saveScreenshot(page, testInfo, '/app/calculator-margin-saved');

  // Margin on price, remembered for the account: 25% of the price is profit.
  await page.goto('/app/calculator');
  await fill(page, 1, 'Labour', '1', '300');
  await page.getByRole('button', { name: 'Profit 25% markup' }).click();
  await row(page, 1).cost.fill('300');
  await page.getByRole('radio', { name: 'Margin on price' }).check();
  await expect(page.getByTestId('margin-chip')).toHaveText('25% margin');
  await expect(page.getByLabel('Margin on price %')).toHaveValue('25');
  await page.getByLabel('Margin on price %').fill('10');
  await expect(page.getByText('Your margin is quite low.', { exact: false })).toBeVisible();
  await page.getByLabel('Margin on price %').fill('25');
  await saveScreenshot(page, testInfo, '/app/calculator-margin-on-price-words');
  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(page.getByText('Priced each line with a cost at 25% margin on price.', { exact: false })).toBeVisible();
  await expect(row(page, 1).price).toHaveValue('400');
  // 25 % of the $400 price is profit: a 33.3 % markup on the $300 cost.
  await expect(page.getByTestId('calc-profit-margin')).toHaveText('25.0%');
  await expect(page.getByTestId('calc-profit-markup')).toHaveText('33.3%');
  await expect.poll(async () => ((await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as { margin_basis: string }).margin_basis).toBe('margin');
  await page.reload();
  // The unsaved quote is offered back; starting again shows the basis came from the account, not the draft.
  await expect(page.getByRole('heading', { name: 'Carry on with your unsaved quote?' })).toBeVisible();
  await page.getByRole('button', { name: 'Start again' }).click();
  await page.getByRole('button', { name: 'Profit 25% margin' }).click();
  await expect(page.getByRole('radio', { name: 'Margin on price' })).toBeChecked();
  await expectNoHorizontalOverflow(page);
  await a11yWithoutStickyBars(page);
  await saveScreenshot(page, testInfo, '/app/calculator-margin-on-price');
  expect(errors).toEqual([]);
});
