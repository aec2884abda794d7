import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { BANK_ACCOUNT_MESSAGES, GST_NUMBER_WARNING, NZBN_WARNING } from '@tradie/domain';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// Settings end to end through the real API: every tab
// at this project's screen size, saving business/email settings, the logo on the next PDF, the
// message banner, and the Billing & Trial tab's 14-day trial.

/** A small opaque PNG (a two-colour block), made here so the test needs no fixture file. */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const orange = x < width / 2;
      row.set(orange ? [0xff, 0x8a, 0x1f] : [0x0d, 0x4a, 0x63], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Accepts (or dismisses) the next dialog and hands back its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      const text = d.message();
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(text));
    });
  });
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const banner = (page: Page) => page.getByTestId('settings-banner');

/** A full-page screenshot of a tab, scrolled to the top, and axe over it. */
async function checkTab(page: Page, testInfo: TestInfo, tabId: string) {
  await expectNoHorizontalOverflow(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, `/app/settings?tab=${tabId}`);
  // The app header is held at the top of the screen and the Save bar at the bottom, so wherever a
  // tall page stands one of them partly covers some control, and axe's target-size rule measures
  // only the uncovered part. For axe the Save bar stays in its own place at the end of the page, and
  // the page stands at its top, where the header covers nothing.
  const unstick = await page.addStyleTag({ content: '.settings-dock { position: static !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => el.parentNode?.removeChild(el));
}

/** Creates a quote through the API and returns how many images its PDF holds (pdfimages -list). */
async function imagesInNewQuotePdf(request: APIRequestContext, user: TestUser, testInfo: TestInfo, name: string): Promise<{ images: number; text: string }> {
  const created = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'quote', client_id: null, line_items: [{ description: 'Heat pump install', qty: 1, unit_price: 2400 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const pdf = await request.get(`/api/v1/invoices/${id}/pdf`, { headers: user.authHeaders });
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const file = testInfo.outputPath(`${name}.pdf`);
  writeFileSync(file, await pdf.body());
  const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
  // Two header lines, then one line per image.
  const images = list.trim().split('\n').slice(2).filter((l) => l.trim() !== '').length;
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { images, text };
}

test('Settings: every tab, saving business details, the logo on the next PDF, email settings and the banner', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'settings', fullName: 'Aroha Ngata' });

  // ---- Profile: the default tab, prefilled from the user, not saved ----
  await page.goto('/app/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByText('Manage your account, business details, and invoice preferences')).toBeVisible();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveText(['Profile', 'Account', 'Billing & Trial', 'Business & Logo', 'Pricing', 'Email Settings', 'Integrations', 'Payments', 'Reminders', 'Currency', 'Security']);
  await expect(tab(page, 'Profile')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Full Name')).toHaveValue('Aroha Ngata');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await expect(page.getByLabel('Phone')).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
  // Every tab is in view at once: no sideways scrolling of the tab bar or the page.
  for (const t of await tabs.all()) await expect(t).toBeInViewport();
  await checkTab(page, testInfo, 'profile');

  // ---- Billing & Trial: a new account is on day one of its 14-day trial ----
  await tab(page, 'Billing & Trial').click();
  await expect(page).toHaveURL(/\/app\/settings\?tab=billing$/);
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await expect(page.getByText('Your 14-day trial is active. 14 days remaining.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What You Get' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Unlimited invoices and quotes' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Priority support' })).toBeVisible();
  await checkTab(page, testInfo, 'billing');

  // ---- Business & Logo ----
  await tab(page, 'Business & Logo').click();
  await expect(page.getByText('No logo uploaded yet')).toBeVisible();
  await expect(page.getByText('PNG, JPG or SVG. Max 2MB. This appears on your invoices and quotes.')).toBeVisible();
  await expect(page.getByRole('button', { name: '📸 Upload Logo' })).toBeVisible();
  await expect(page.getByRole('button', { name: '🗑️ Remove Logo' })).toHaveCount(0);
  await expect(page.getByText('These will appear on your invoices so clients know where to pay you.')).toBeVisible();
  await expect(page.getByText('NZ format: XX-XXXX-XXXXXXX-XXX')).toBeVisible();

  await page.getByLabel('Business Name').fill('Ngata Plumbing Ltd');
  await page.getByLabel('Trading As (optional)').fill('Ngata Plumbing');
  await page.getByLabel('NZBN (NZ Business Number)').fill('9429041234568');
  await page.getByLabel('GST Number').fill('123-456-789');
  await page.getByLabel('Business Address').fill('12 Bank Street');
  await page.getByLabel('City').fill('Whangārei');
  await page.getByLabel('Postcode').fill('0110');
  await page.getByLabel('Bank Name').fill('Kiwibank');
  await page.getByLabel('Account Name').fill('Ngata Plumbing Ltd');
  // A bank account is checked (bank, branch, check digits): one digit wrong is refused by the field.
  await page.getByLabel('Account Number').fill('38 9000 0123457 00');
  // Check-digit warnings while typing.
  await expect(page.getByText(GST_NUMBER_WARNING)).toBeVisible();
  await expect(page.getByText(NZBN_WARNING)).toBeVisible();

  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(banner(page)).toHaveText('Error saving settings: Please check the 3 numbers marked below before saving.');
  await expect(banner(page)).toHaveClass(/settings-banner--error/);
  await expect(page.getByText('Settings saved successfully!')).toHaveCount(0);
  await expect(page.getByLabel('Account Number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(BANK_ACCOUNT_MESSAGES.checksum)).toBeVisible();
  await expect(page.getByLabel('GST Number')).toHaveAttribute('aria-invalid', 'true');
  // A digit that doesn't add up on a known branch cannot be kept; a GST number or NZBN can.
  await expect(page.getByRole('checkbox', { name: 'Keep this number as I typed it' })).toHaveCount(2);
  expect((await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as Record<string, unknown>).toMatchObject({ business_name: '', bank_account_number: '' });

  // Fixed, typed without the dashes: saved, and shown the usual way. The GST number and NZBN kept on purpose.
  await page.getByLabel('Account Number').fill('389000012345800');
  await expect(page.getByLabel('Account Number')).not.toHaveAttribute('aria-invalid', 'true');
  for (const keep of await page.getByRole('checkbox', { name: 'Keep this number as I typed it' }).all()) await keep.check();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(banner(page)).toHaveText('Settings saved. The numbers you kept as typed are marked below — please make sure they are right.');
  await expect(page.getByText('Settings saved successfully!')).toHaveCount(0);
  await expect(page.getByLabel('Account Number')).toHaveValue('38-9000-0123458-00');

  // Saved: a reload shows them, with the server's warnings.
  await page.reload();
  await expect(page.getByLabel('Business Name')).toHaveValue('Ngata Plumbing Ltd');
  await expect(page.getByLabel('Trading As (optional)')).toHaveValue('Ngata Plumbing');
  await expect(page.getByLabel('City')).toHaveValue('Whangārei');
  await expect(page.getByLabel('Postcode')).toHaveValue('0110');
  await expect(page.getByLabel('Account Number')).toHaveValue('38-9000-0123458-00');
  await expect(page.getByText(GST_NUMBER_WARNING)).toBeVisible();
  // A valid GST number (IRD check digit) clears its warning; the NZBN one stays.
  await page.getByLabel('GST Number').fill('49-091-850');
  await expect(page.getByText(GST_NUMBER_WARNING)).toHaveCount(0);
  await expect(page.getByText(NZBN_WARNING)).toBeVisible();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(banner(page)).toHaveText('Settings saved. The numbers you kept as typed are marked below — please make sure they are right.');
  const saved = (await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as Record<string, unknown>;
  expect(saved).toMatchObject({ business_name: 'Ngata Plumbing Ltd', gst_number: '49-091-850', bank_name: 'Kiwibank', default_currency: 'NZD' });

  // ---- the logo: none on the PDF before, on the next PDF after the upload ----
  const before = await imagesInNewQuotePdf(request, user, testInfo, 'before-logo');
  expect(before.images).toBe(0);
  expect(before.text).toContain('Ngata Plumbing Ltd');

  // Too large: refused in the browser.
  await page.getByTestId('logo-file').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
  await expect(banner(page)).toHaveText('Logo must be less than 2MB');
  // Not an image, whatever its name says: the server's detail.
  await page.getByTestId('logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
  await expect(banner(page)).toHaveText('Logo must be a PNG, JPG or SVG image');

  await page.getByTestId('logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makePng(160, 64) });
  await expect(banner(page)).toHaveText('Logo uploaded successfully!');
  const logo = page.getByRole('img', { name: 'Your business logo' });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await expect(page.getByText('No logo uploaded yet')).toHaveCount(0);
  await checkTab(page, testInfo, 'business');

  const after = await imagesInNewQuotePdf(request, user, testInfo, 'after-logo');
  expect(after.images).toBe(1);

  // Remove it: the confirm, then the empty preview.
  const confirmText = nextDialog(page);
  await page.getByRole('button', { name: '🗑️ Remove Logo' }).click();
  expect(await confirmText).toBe('Delete your business logo?');
  await expect(banner(page)).toHaveText('Logo deleted successfully!');
  await expect(page.getByText('No logo uploaded yet')).toBeVisible();
  expect((await imagesInNewQuotePdf(request, user, testInfo, 'removed-logo')).images).toBe(0);

  // ---- Email Settings ----
  await tab(page, 'Email Settings').click();
  await expect(page).toHaveURL(/\?tab=email$/);
  await expect(page.getByLabel('Default Email Subject')).toHaveValue('Invoice from [Business Name]');
  await expect(page.getByText('Available placeholders: [Business Name], [Invoice Number], [Client Name]')).toBeVisible();
  const message = page.getByLabel('Default Email Message');
  await expect(message).toHaveAttribute('rows', '8');
  await expect(message).toHaveValue(/\[Client Name\]/);
  await expect(page.getByLabel('CC Email (optional)', { exact: true })).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('BCC Email (optional)')).toHaveAttribute('type', 'email');
  await page.getByLabel('Default Email Subject').fill('Your invoice from [Business Name]');
  await page.getByLabel('CC Email (optional)', { exact: true }).fill('books@ngata.example.nz');
  await checkTab(page, testInfo, 'email');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  // The NZBN kept as typed above is still marked: never 'successfully' beside its warning.
  await expect(banner(page)).toHaveText('Settings saved. The numbers you kept as typed are marked below — please make sure they are right.');

  // One Save Settings saves everything together: the business details typed on the other tab stay.
  await page.reload();
  await expect(page.getByLabel('CC Email (optional)', { exact: true })).toHaveValue('books@ngata.example.nz');
  await expect(page.getByLabel('Default Email Subject')).toHaveValue('Your invoice from [Business Name]');
  await tab(page, 'Business & Logo').click();
  await expect(page.getByLabel('GST Number')).toHaveValue('49-091-850');

  // A failed save: red when the text says Error, and it clears by itself too.
  await page.route('**/api/v1/business-settings', (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream broke' }) : route.fallback(),
  );
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(banner(page)).toHaveText('Error saving settings. Please try again.');
  await expect(banner(page)).toHaveClass(/settings-banner--error/);
  await expect(banner(page)).toHaveCount(0, { timeout: 10_000 });
  await page.unroute('**/api/v1/business-settings');

  // ---- Integrations: the Xero card (the e2e server has Xero set up against a fake) ----
  await tab(page, 'Integrations').click();
  await expect(page.getByRole('heading', { name: 'Xero' })).toBeVisible();
  await expect(page.getByText('Send an invoice to Xero with one tap')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
  await checkTab(page, testInfo, 'integrations');

  // ---- Currency ----
  await tab(page, 'Currency').click();
  const currency = page.getByLabel('Default Currency');
  await expect(currency).toBeDisabled();
  await expect(currency.locator('option')).toHaveText(['NZD - New Zealand Dollar']);
  await expect(page.getByText('Multi-currency invoicing coming soon')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Need Overseas Currency Invoicing?' })).toBeVisible();
  const partner = page.getByRole('link', { name: /Wise Business/ });
  await expect(partner).toHaveAttribute('target', '_blank');
  await expect(partner).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(partner).toHaveAttribute('href', /^https:\/\//);
  await checkTab(page, testInfo, 'currency');

  // ---- Security: the account's recent activity (its sign-in) and Sign out everywhere ----
  await tab(page, 'Security').click();
  await expect(page).toHaveURL(/\/app\/settings\?tab=security$/);
  await expect(page.getByRole('heading', { name: 'Recent security activity' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recent security activity' }).getByRole('listitem').first()).toContainText('Signed in');
  await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
  await checkTab(page, testInfo, 'security');

  // Keyboard: arrow keys move between tabs (WAI-ARIA tabs).
  await tab(page, 'Security').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Profile')).toBeFocused();
  await expect(tab(page, 'Profile')).toHaveAttribute('aria-selected', 'true');

  // The refused logo (422) and the failed save (500) were deliberate; nothing else went wrong.
  expect(errors.filter((e) => !/Failed to load resource: the server responded with a status of (422|500)/.test(e))).toEqual([]);
});

test('Settings: Email Settings refuses an invalid CC address with the server\'s detail', async ({ page, request }) => {
  await signUpAndSignIn(page, request, { emailPrefix: 'settings-cc' });
  await page.goto('/app/settings?tab=email');
  await page.getByLabel('CC Email (optional)', { exact: true }).fill('not-an-address');
  // The browser's own check for type=email stops the save on this tab…
  await page.getByRole('button', { name: 'Save Settings' }).click();
  expect(await page.getByLabel('CC Email (optional)', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  await expect(banner(page)).toHaveCount(0);
  // …and from another tab the server's answer says what is wrong.
  await tab(page, 'Currency').click();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(banner(page)).toHaveText('CC email must be a valid email address');
});
