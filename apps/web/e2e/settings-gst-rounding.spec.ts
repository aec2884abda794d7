import { expect, test } from '@playwright/test';
import { signUpAndSignIn } from './support/session.ts';

// Settings → Business & Logo shows how GST is rounded, with a line explaining each choice; choosing
// 'On each line' is saved at once, and new invoices are made with it.

test('GST rounding: once per invoice by default; On each line is saved and new invoices follow it', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'gst-rounding' });
  await page.goto('/app/settings?tab=business');
  const group = page.getByRole('group', { name: 'Round GST on new quotes and invoices' });
  const once = group.getByRole('radio', { name: /^Once per invoice \(recommended\)/ });
  const perLine = group.getByRole('radio', { name: /^On each line/ });
  await expect(once).toBeChecked();
  await expect(group.getByText('GST is worked out on the invoice total and rounded once.')).toBeVisible();
  await expect(group.getByText('GST is rounded on every line, then added up; the total can differ by a cent.')).toBeVisible();

  await perLine.check();
  await expect(page.getByRole('status').filter({ hasText: /^Saved\. GST rounding must stay the same for a whole GST period/ })).toBeVisible();
  await expect(perLine).toBeChecked();
  const settings = (await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as { gst_rounding: string };
  expect(settings.gst_rounding).toBe('line');

  // Three lines of 1 × $1.11: GST per line is 3 × $0.17 = $0.51, so $3.84 (once on the total: $3.83).
  const lines = [1, 2, 3].map((n) => ({ description: `Part ${n}`, qty: 1, unit_price: 1.11, tax_rate: 0.15, tax_included: false }));
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', line_items: lines } });
  expect(created.status()).toBe(201);
  expect(await created.json()).toMatchObject({ gst_rounding: 'line', formatted: { gst: '$0.51', total: '$3.84' } });

  // A reload shows the saved choice.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Round GST on new quotes and invoices' }).getByRole('radio', { name: /^On each line/ })).toBeChecked();
});
