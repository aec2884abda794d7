// A receipt photographed on site with a weak signal, at phone size: the cost saves at once and the
// photo waits — through a failed upload and a reload of the page (it is kept on the phone) — and
// uploads when the signal is back. The photo the server keeps is upright and carries no location.
import { nzDateOf } from '@tradie/domain';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, TEST_GST_NUMBER } from './support/session.ts';

test('a receipt photo never holds up the save; it uploads when the signal is back, even after a reload', async ({ page, request, context }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'receipt-photo' });
  expect((await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { gst_number: TEST_GST_NUMBER } })).status()).toBe(200);
  // The phone's photo: 1,200 × 1,600, with where it was taken.
  const photo = await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#f4efe1' } })
    .jpeg()
    .withExifMerge({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '37/1 47/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '175/1 17/1 0/1' } })
    .toBuffer();

  // No signal for uploads.
  await page.route('**/api/v1/costs/*/receipt', (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue()));

  await page.goto('/app/costs');
  await page.getByRole('button', { name: 'Record a cost' }).click();
  await page.getByLabel('Supplier', { exact: true }).fill('Plumbing World');
  await page.getByLabel('Date on the receipt or bill').fill(nzDateOf(new Date()));
  await page.getByLabel('Amount including GST ($)').fill('46.00');
  await page.getByLabel('Photo or PDF of the receipt').setInputFiles({ name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByText('Saving does not wait for it: it uploads when your signal allows.')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.getByRole('button', { name: 'Save' }).click();

  // Saved at once; the photo waits.
  const item = page.getByRole('list', { name: 'Receipts, bills and expenses' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('cost-gst')).toHaveText('GST claimed $6.00');
  await expect(item.getByTestId('cost-receipt')).toHaveText(/Photo waiting to upload|Uploading the photo…/);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/app/costs-photo-waiting');

  // The page is reloaded (the browser was closed): the photo was kept on the phone and still waits.
  await page.reload();
  await expect(item.getByTestId('cost-receipt')).toHaveText(/Photo waiting to upload|Uploading the photo…/);

  // The signal is back.
  await page.unroute('**/api/v1/costs/*/receipt');
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(item.getByTestId('cost-receipt')).toHaveText(/^Receipt kept \(photo, \d+ KB\)$/);
  await saveScreenshot(page, testInfo, '/app/costs-photo-kept');

  // Opened again, the form says it is kept; the kept photo has no location in it.
  await item.getByRole('button').click();
  await expect(page.getByText(/Kept: a photo of \d+ KB\. Choose another to replace it\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'View the receipt' })).toBeVisible();
  const costs = (await (await request.get('/api/v1/costs', { headers: user.authHeaders })).json()) as { costs: { id: string }[] };
  const kept = await request.get(`/api/v1/costs/${costs.costs[0]!.id}/receipt`, { headers: user.authHeaders });
  expect(kept.headers()['content-type']).toBe('image/jpeg');
  const meta = await sharp(await kept.body()).metadata();
  expect([meta.width, meta.height, meta.exif]).toEqual([1200, 1600, undefined]);
  // The only complaints are the uploads the missing signal refused.
  expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e))).toEqual([]);
});
