import { expect, test } from '@playwright/test';
import { documentTotals, formatNzd } from '@tradie/domain';
import { signUpAndSignIn } from './support/session.ts';

// A long calculator stays right: a 50-line template (handed over the way the Templates tab does it)
// opens with every line, and typing a price into a line in the middle gives the domain's totals.
// How fast typing paints is measured by the web benchmark (apps/web/scripts/perf.ts, `npm run bench
// -- web`), not here: tests assert behaviour, never time. Runs at phone size only (playwright.config.ts).

test('typing a price on a 50-line calculator keeps every total equal to the domain', async ({ page, request }) => {
  await signUpAndSignIn(page, request);
  const count = 50;
  const lines = Array.from({ length: count }, (_, i) => ({ description: `Item ${i + 1}`, qty: 1 + (i % 3), unit_price: 10 + i, tax_included: false, tax_rate: 0.15 }));
  const template = { id: 1, name: `${count} lines`, type: 'quote', lineItems: lines, profitMarginPercent: 25, includeGst: true, clientData: null, createdAt: '2026-05-05T00:00:00.000Z' };
  await page.addInitScript((t) => window.localStorage.setItem('loadTemplate', t), JSON.stringify(template));
  await page.goto('/app/calculator');
  await expect(page.getByLabel(`Line ${count} Unit price`, { exact: true })).toHaveValue(String(10 + count - 1));

  const middle = count / 2;
  const price = page.getByLabel(`Line ${middle} Unit price`, { exact: true });
  await price.click();
  await price.selectText();
  const typed = '123.45';
  await page.keyboard.type(typed);

  const expected = documentTotals(lines.map((l, i) => ({ qty: String(l.qty), unit_price: i === middle - 1 ? typed : String(l.unit_price), tax_rate: '0.15' })));
  await expect(page.getByTestId('calc-subtotal')).toHaveText(formatNzd(expected.subtotalCents));
  await expect(page.getByTestId('calc-gst')).toHaveText(formatNzd(expected.gstCents));
  await expect(page.getByTestId('calc-total')).toHaveText(formatNzd(expected.totalCents));
  // The line itself: qty 1 × $123.45.
  await expect(page.locator('.calc-line').nth(middle - 1).locator('output')).toHaveText(formatNzd(expected.lines[middle - 1]!.amountCents));
});
