// Settings → Business & Logo → 'Registered for GST'. A new account is registered and is asked for its
// GST number; a Send without it is refused with the reason on the screen. Switched off (saved at
// once), new documents carry no GST: the calculator adds none, and the invoice is titled 'Invoice'
// with only its total (no Subtotal or GST line). Screenshots in test-output/screenshots/gst-registration/.
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { detailAction } from './helpers.ts';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

const shotDir = fileURLToPath(new URL('../test-output/screenshots/gst-registration', import.meta.url));
const shot = (page: Page, testInfo: TestInfo, name: string) => page.screenshot({ path: join(shotDir, `${testInfo.project.name}-${name}.png`), fullPage: true });

const NUMBER_NEEDED = "You're registered for GST: add your GST number. Quotes and invoices can't be sent without it, because a tax invoice must show it.";
const REFUSED = /^You're registered for GST, but your GST number isn't in Settings yet\. A tax invoice must show it/;

const lines = [
  { description: 'Fence palings', qty: 10, unit_price: 55, tax_rate: 0.15, tax_included: false },
  { description: 'Gate', qty: 1, unit_price: 115, tax_rate: 0.15, tax_included: true },
];

/** A new account (registered for GST, no number yet) with a client to invoice. */
async function newBusiness(page: Page, request: APIRequestContext) {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'gst-registration', gst: 'new' });
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hēmi Walker', email: `hemi-${Date.now()}@example.co.nz` } });
  expect(client.status()).toBe(201);
  const client_id = ((await client.json()) as { id: string }).id;
  const invoice = async (): Promise<string> => {
    const r = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', client_id, line_items: lines } });
    expect(r.status()).toBe(201);
    return ((await r.json()) as { id: string }).id;
  };
  return { user, invoice };
}

test('Registered for GST: on for a new account, which is asked for its GST number; Send is refused without it, saying why', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const { user, invoice } = await newBusiness(page, request);
  await page.goto('/app/settings?tab=business');
  const registered = page.getByRole('switch', { name: 'Registered for GST' });
  await expect(registered).toBeChecked();
  await expect(page.getByText(NUMBER_NEEDED)).toBeVisible();
  await registered.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'settings-registered-no-number');

  const taxedId = await invoice();
  await page.goto(`/app/invoices/${taxedId}`);
  await expect(page.getByText('Tax invoice', { exact: true })).toBeVisible();
  await expect(page.getByTestId('detail-gst')).toHaveText('$97.50');
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('alert').filter({ hasText: REFUSED })).toBeVisible({ timeout: 15_000 });
  await shot(page, testInfo, 'send-refused-no-number');
  const after = (await (await request.get(`/api/v1/invoices/${taxedId}`, { headers: user.authHeaders })).json()) as { status: string; send_attempts: unknown[] };
  expect(after).toMatchObject({ status: 'draft', send_attempts: [] });

  // With the number it goes.
  const withNumber = await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_number: TEST_GST_NUMBER } });
  expect(withNumber.status()).toBe(200);
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved to the outbox — email is not set up on this server' })).toBeVisible({ timeout: 15_000 });
});

test("Not registered for GST (switched off in Settings): no GST in the calculator, and the invoice is an 'Invoice' with no GST line", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const { user, invoice } = await newBusiness(page, request);
  const taxedId = await invoice();

  // ---- switched off: saved at once ----
  await page.goto('/app/settings?tab=business');
  await page.getByRole('switch', { name: 'Registered for GST' }).click();
  await expect(page.getByRole('switch', { name: 'Registered for GST' })).not.toBeChecked();
  await expect(page.getByText("No GST is added to your quotes and invoices, and invoices are titled 'Invoice'.", { exact: false })).toBeVisible();
  await expect(page.getByText(NUMBER_NEEDED)).toHaveCount(0);
  await expect
    .poll(async () => ((await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as { gst_registered: boolean }).gst_registered)
    .toBe(false);
  await page.getByRole('switch', { name: 'Registered for GST' }).scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'settings-not-registered');

  // The calculator adds no GST and has no GST switch.
  await page.goto('/app/calculator');
  await expect(page.getByTestId('calc-not-registered')).toHaveText('Not registered for GST: no GST is added. Change this in Settings → Business.');
  await expect(page.getByRole('switch', { name: /Include GST/ })).toHaveCount(0);

  // ---- a not-registered business's invoice: 'Invoice', no GST line, the total as priced ----
  const plainId = await invoice();
  await page.goto(`/app/invoices/${plainId}`);
  const lineItems = page.getByRole('region', { name: 'Line items' });
  await expect(page.getByText('Invoice', { exact: true })).toBeVisible();
  await expect(page.getByText('Tax invoice', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('detail-gst')).toHaveCount(0);
  await expect(page.getByTestId('detail-subtotal')).toHaveCount(0);
  await expect(page.getByTestId('detail-total-no-gst')).toHaveText('$665.00');
  // No line says anything about GST: the document has none.
  await expect(lineItems.getByRole('list')).not.toContainText('GST');
  await expect(page.getByTestId('detail-total')).toHaveText('$665.00');
  await shot(page, testInfo, 'invoice-not-registered');

  // Sent without a GST number: nothing asks for one now.
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved to the outbox — email is not set up on this server' })).toBeVisible({ timeout: 15_000 });

  // The draft saved while registered must be saved again before it can go; registered again with
  // the number, it goes as it was.
  const stale = await request.post(`/api/v1/invoices/${taxedId}/send`, { headers: user.authHeaders });
  expect(stale.status()).toBe(409);
  const back = await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_registered: true, gst_number: TEST_GST_NUMBER } });
  expect(back.status()).toBe(200);
  expect((await request.post(`/api/v1/invoices/${taxedId}/send`, { headers: user.authHeaders })).status()).toBe(200);
});
