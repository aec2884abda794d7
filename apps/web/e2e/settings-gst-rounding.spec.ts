import { expect, test } from '@playwright/test';
import { signUpAndSignIn } from './support/session.ts';

// Settings → Business & Logo shows how GST is rounded, with a line explaining each choice; choosing
// 'On each line' is saved at once but applies from the start of the next GST period (one method per
// period): the card says from when, and invoices made until then keep rounding once per invoice.

test('GST rounding: once per invoice by default; On each line is saved for the next GST period and the card says from when', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'gst-rounding' });
  await page.goto('/app/settings?tab=business');
  const group = page.getByRole('group', { name: 'Round GST on new quotes and invoices' });
  const once = group.getByRole('radio', { name: /^Once per invoice \(recommended\)/ });
  const perLine = group.getByRole('radio', { name: /^On each line/ });
  await expect(once).toBeChecked();
  await expect(group.getByText('GST is worked out on the invoice total and rounded once.')).toBeVisible();
  await expect(group.getByText('GST is rounded on every line, then added up; the total can differ by a cent.')).toBeVisible();

  await perLine.check();
  await expect(page.getByRole('status').filter({ hasText: /^Saved\. Applies from \d{1,2} \w+ \d{4}, the start of your next GST period/ })).toBeVisible();
  await expect(perLine).toBeChecked();
  const settings = (await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as { gst_rounding: string; gst_rounding_next: { rounding: string } | null };
  expect(settings.gst_rounding).toBe('total');
  expect(settings.gst_rounding_next).toMatchObject({ rounding: 'line' });

  // Three lines of 1 × $1.11: once on the total, $3.83 with $0.50 GST (per line it would be $0.51, $3.84),
  // as this GST period keeps the method in use.
  const lines = [1, 2, 3].map((n) => ({ description: `Part ${n}`, qty: 1, unit_price: 1.11, tax_rate: 0.15, tax_included: false }));
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', line_items: lines } });
  expect(created.status()).toBe(201);
  expect(await created.json()).toMatchObject({ gst_rounding: 'total', formatted: { gst: '$0.50', total: '$3.83' } });

  // A reload shows the waiting choice and from when it applies.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Round GST on new quotes and invoices' }).getByRole('radio', { name: /^On each line/ })).toBeChecked();
  await expect(page.getByTestId('gst-rounding-waiting')).toContainText('the start of your next GST period');
});
