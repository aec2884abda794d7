import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

// Settings → Account through the real API: Download my data (one ZIP: the documents as PDFs, the
// accountant's CSVs and the whole account as one JSON file for a restore), and Delete my account — the data offered first, the
// typed word and the password, then a goodbye screen, and sign-in refused from then on.

test('Settings → Account: Download my data saves a ZIP of the PDFs, the CSVs and the full JSON', async ({ page, request }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'account-export' });
  const client = await request.post('/api/v1/clients', { data: { name: 'Kōwhai Builders', email: 'accounts@kowhai.example.nz' }, headers: user.authHeaders });
  expect(client.status(), await client.text()).toBe(201);
  const quote = await request.post('/api/v1/invoices', {
    data: { type: 'quote', client_id: ((await client.json()) as { id: string }).id, line_items: [{ description: 'Deck build', qty: 1, unit_price: 4000 }] },
    headers: user.authHeaders,
  });
  expect(quote.status(), await quote.text()).toBe(201);
  const { reference } = (await quote.json()) as { reference: string };

  await page.goto('/app/settings?tab=account');
  await expect(page.getByRole('tab', { name: 'Account', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Download my data' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/settings?tab=account');
  const unstick = await page.addStyleTag({ content: '.settings-dock, .app-header { position: static !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => el.parentNode?.removeChild(el));

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download My Data', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tradie-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const names = Object.keys(zip);
  expect(names).toEqual(expect.arrayContaining(['README.txt', `documents/${reference}.pdf`, 'accountant/invoices.csv', 'accountant/clients.csv']));
  expect(new TextDecoder().decode(zip[`documents/${reference}.pdf`]!.slice(0, 5))).toBe('%PDF-');
  const jsonName = names.find((n) => /^tradie-export-\d{4}-\d{2}-\d{2}\.json$/.test(n));
  expect(jsonName).toBeDefined();
  const doc = JSON.parse(new TextDecoder().decode(zip[jsonName!])) as { format: string; account: { email: string }; events: { type: string; data: { name?: string } }[] };
  expect(doc.format).toBe('tradie-quotes/account-export');
  expect(doc.account.email).toBe(user.email);
  expect(doc.events.some((e) => e.data.name === 'Kōwhai Builders')).toBe(true);
  await expect(page.getByText('Your data has been downloaded.')).toBeVisible();

  // The password is changed in the Security tab: the Account tab leads there.
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('tab', { name: 'Security', exact: true })).toHaveAttribute('aria-selected', 'true');
});

test('Settings → Account: Delete my account (typed DELETE and the password), goodbye, then sign-in is refused', async ({ page, request }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'account-delete' });
  await page.goto('/app/settings?tab=account');
  await page.getByRole('button', { name: 'Delete My Account...' }).click();

  // The data is offered first; the delete button waits for the typed word and the password.
  await expect(page.getByRole('button', { name: 'Download My Data First' })).toBeVisible();
  const confirm = page.getByLabel('Type DELETE to confirm');
  const remove = page.getByRole('button', { name: 'Delete My Account Permanently' });
  await expect(remove).toBeDisabled();
  await confirm.fill('delete');
  await page.getByLabel('Password', { exact: true }).last().fill(user.password);
  await expect(remove).toBeDisabled();
  await confirm.fill('DELETE');
  await expect(remove).toBeEnabled();
  await saveScreenshot(page, testInfo, '/app/settings?tab=account-delete');

  // A wrong password is refused with the API's words, and nothing is deleted.
  await page.getByLabel('Password', { exact: true }).last().fill('not the password');
  await remove.click();
  await expect(page.getByRole('alert')).toHaveText('Your password is incorrect. Your account has not been deleted.');

  await page.getByLabel('Password', { exact: true }).last().fill(user.password);
  const deleted = page.waitForResponse((r) => r.url().endsWith('/api/v1/account/delete') && r.request().method() === 'POST');
  await remove.click();
  expect((await deleted).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Your account has been deleted' })).toBeVisible();
  await expect(page.getByText(/erased within 30 days/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, '/account-deleted');
  expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();

  // Sign-in is refused at once, exactly as for a wrong password.
  const login = await request.post('/api/v1/auth/login', { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(401);
  const refresh = await request.post('/api/v1/auth/refresh', { data: { refresh_token: user.refreshToken } });
  expect(refresh.status()).toBe(401);
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please check and try again.');
  await expect(page).toHaveURL(/\/login$/);
});
