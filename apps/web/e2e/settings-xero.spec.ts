import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot, detailAction, openMoreActions } from './helpers.ts';
import { denyNextXeroConsent, readFakes, xeroComputesOwnTax, xeroInvoices, xeroRefusesNext } from './support/fakes.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// Xero against the fake Xero the e2e server is configured with (the connection, sync and their
// messages in Settings and Invoices): Connect opens the sign-in window, the app watches it close
// and checks the connection; an invoice synced from the list gets the '✓ Xero' badge; syncing it again
// (from a second tab that still shows it unsynced) says 'Already synced' and creates nothing in
// Xero; Disconnect after the confirm; both are in Settings → Security. Runs at phone size only
// (see playwright.config.ts).

/** Accepts (or dismisses) the next dialog and hands back its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      const text = d.message();
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(text));
    });
  });
}

async function seedInvoice(request: APIRequestContext, user: TestUser): Promise<{ id: string; number: string }> {
  // GST-registered, so the 15% GST lines can go to Xero as they are.
  const settings = await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { business_name: 'Ngata Plumbing Ltd', gst_number: '49-091-850' } });
  expect(settings.status(), await settings.text()).toBe(200);
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hemi Walker', email: 'hemi@example.co.nz' } });
  expect(client.status(), await client.text()).toBe(201);
  const { id: clientId } = (await client.json()) as { id: string };
  const invoice = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'invoice', client_id: clientId, line_items: [{ description: 'Hot water cylinder swap', qty: 1, unit_price: 1850 }] },
  });
  expect(invoice.status(), await invoice.text()).toBe(201);
  const body = (await invoice.json()) as { id: string; reference: string };
  expect(body.reference).toBe('INV-0001');
  return { id: body.id, number: body.reference };
}

const banner = (page: Page) => page.getByTestId('settings-banner');
const connectButton = (page: Page) => page.getByRole('button', { name: 'Connect', exact: true });

test('Xero: cancelled sign-in, connect through the window, test, sync once (a second sync creates nothing), disconnect', async ({ page, context, request }, testInfo) => {
  test.setTimeout(120_000);
  const fakes = readFakes();
  const tenant = fakes.xeroTenants[0];
  if (!tenant) throw new Error('the fake Xero has no organisation');
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'xero' });
  const invoice = await seedInvoice(request, user);

  await page.goto('/app/settings?tab=integrations');
  await expect(connectButton(page)).toBeVisible();
  await expect(page.getByText('Connected', { exact: true })).toHaveCount(0);

  // ---- the user presses Cancel at Xero: the window closes, nothing is connected ----
  await denyNextXeroConsent();
  const cancelledWindow = page.waitForEvent('popup');
  await connectButton(page).click();
  const refused = await cancelledWindow;
  await expect(refused.getByRole('heading', { name: 'Authorization was cancelled or failed' })).toBeVisible();
  await refused.waitForEvent('close');
  await expect(banner(page)).toHaveText('Authorization was cancelled or failed');
  await expect(connectButton(page)).toBeVisible();

  // ---- Connect: the 600×700 window signs in at Xero, comes back to us and closes itself ----
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const popup = await popupPromise;
  await expect(page.getByRole('button', { name: 'Connecting...' })).toBeDisabled();
  await expect(popup.getByRole('heading', { name: 'Connected to Xero. You can close this window.' })).toBeVisible();
  await popup.waitForEvent('close');
  await expect(banner(page)).toHaveText('Successfully connected Xero!');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  await expect(page.getByText(tenant.tenantName)).toBeVisible();
  await expect(connectButton(page)).toHaveCount(0);

  // ---- Test Connection: the tenant id ----
  await page.getByRole('button', { name: 'Test Connection' }).click();
  await expect(banner(page)).toHaveText(`Connected (Tenant: ${tenant.tenantId})`);

  // ---- Where costs go: equipment to General Expenses instead of the standard chart's Repairs and Maintenance ----
  const equipment = page.getByLabel('Equipment', { exact: true });
  await expect(equipment).toHaveValue('');
  await expect(equipment.locator('option').first()).toHaveText('Standard: 473 Repairs and Maintenance');
  await equipment.selectOption('429');
  await expect(banner(page)).toHaveText('Equipment costs now go to 429 General Expenses in Xero');
  await expect(equipment).toHaveValue('429');
  await expectNoHorizontalOverflow(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, '/app/settings?tab=integrations-connected');
  await expectNoSeriousA11yViolations(page);

  // ---- a second tab opens the invoice before it is synced ----
  const secondTab = await context.newPage();
  await secondTab.goto(`/app/invoices/${invoice.id}`);
  await openMoreActions(secondTab);
  await expect(secondTab.getByRole('button', { name: 'Sync to Xero' })).toBeVisible();

  // ---- sync from the list: the message, the badge, the button gone ----
  await page.goto('/app/invoices');
  await page.getByRole('tab', { name: 'Invoices (1)' }).click();
  const card = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  await card.getByRole('button', { name: /Sync to Xero/ }).click();
  await expect(page.getByText(`✓ Synced Xero: ${invoice.number}`)).toBeVisible();
  await expect(card.getByText('✓ Xero')).toBeVisible();
  await expect(card.getByRole('button', { name: /Sync to Xero/ })).toHaveCount(0);
  await saveScreenshot(page, testInfo, '/app/invoices-xero-synced');

  // ---- sync again from the second tab: already synced, and still one invoice in Xero ----
  await detailAction(secondTab, 'Sync to Xero');
  await expect(secondTab.getByText(`Already synced Xero: ${invoice.number}`)).toBeVisible();
  const inXero = (await xeroInvoices()).filter((i) => i.reference === invoice.number && i.tenantId === tenant.tenantId);
  expect(inXero).toHaveLength(1);
  expect(inXero[0]?.status).toBe('AUTHORISED');
  expect(inXero[0]?.total).toBe('2127.50'); // $1,850 + 15% GST, as the app says
  await secondTab.close();

  // ---- one number in both: a Xero whose total differs is shown on the invoice, not accepted ----
  await expect(page.getByTestId('accounting-difference')).toHaveCount(0);
  const tama = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Tama Rewi', email: 'tama@example.co.nz' } });
  expect(tama.status(), await tama.text()).toBe(201);
  const odd = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'invoice', client_id: ((await tama.json()) as { id: string }).id, line_items: [1, 2, 3].map((n) => ({ description: `Tap washer ${n}`, qty: 1, unit_price: 1.11 })) },
  });
  expect(odd.status(), await odd.text()).toBe(201);
  const oddId = ((await odd.json()) as { id: string }).id;
  await page.goto(`/app/invoices/${oddId}`);
  await expect(page.getByTestId('detail-total')).toHaveText('$3.83');
  await xeroComputesOwnTax(true);
  try {
    await detailAction(page, 'Sync to Xero');
    await expect(page.getByText('✓ Synced Xero: INV-0002')).toBeVisible();
  } finally {
    await xeroComputesOwnTax(false);
  }
  await expect(page.getByTestId('accounting-difference')).toContainText("Xero shows $3.84 — this invoice is $3.83. Check the invoice in Xero before you rely on either figure, or send ours to put this invoice's lines back on it.");
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices/id-xero-difference');
  await expectNoSeriousA11yViolations(page);
  // Send ours: Xero (taking the GST sent again) gets this invoice's lines back, and the difference goes.
  await page.getByRole('button', { name: 'Send ours to Xero' }).click();
  await expect(page.getByTestId('accounting-difference')).toHaveCount(0);
  expect((await xeroInvoices()).find((i) => i.reference === 'INV-0002' && i.tenantId === tenant.tenantId)?.total).toBe('3.83');
  await expect(page.getByTestId('detail-total')).toHaveText('$3.83');

  // ---- a payment Xero refuses: the invoice says so in Xero's words, and Try again gets it there ----
  await page.goto(`/app/invoices/${invoice.id}`);
  await expect(page.getByTestId('accounting-push-error')).toHaveCount(0);
  await xeroRefusesNext('PUT /Payments', 'The account 090 is archived');
  await detailAction(page, 'Record payment');
  await page.getByLabel('Amount').fill('500');
  await page.getByRole('button', { name: 'Save payment' }).click();
  await expect(page.getByText('Payment of $500 recorded')).toBeVisible();
  const pushError = page.getByTestId('accounting-push-error');
  await expect(pushError).toContainText("Xero doesn't have the latest changes to this invoice.");
  await expect(pushError).toContainText('The account 090 is archived');
  const summary = page.locator('.detail__summary');
  await expect(summary.getByText('! Xero')).toBeVisible();
  await expect(summary.getByText('✓ Xero')).toHaveCount(0);
  const unpaid = (await xeroInvoices()).find((i) => i.reference === invoice.number && i.tenantId === tenant.tenantId);
  expect(unpaid?.amountPaid).toBe('0.00');
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '[data-testid="accounting-push-error"] .button');
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, '/app/invoices/id-xero-push-error');
  await expectNoSeriousA11yViolations(page);
  // Try again while Xero still refuses: its words again, and still behind.
  await xeroRefusesNext('PUT /Payments', 'The period is locked');
  await pushError.getByRole('button', { name: 'Try again' }).click();
  await expect(pushError).toContainText('The period is locked');
  // The list's badge says so too.
  await page.goto('/app/invoices?tab=invoices');
  const listed = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem').filter({ hasText: invoice.number });
  await expect(listed.getByText('! Xero')).toBeVisible();
  // The home screen lists it too; Try again there gets it into Xero and takes it off.
  await page.goto('/app');
  const behind = page.getByTestId('home-accounting-behind');
  await expect(behind).toContainText("An invoice isn't up to date in Xero");
  await expect(behind).toContainText(`${invoice.number}: Xero said: The period is locked`);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app-xero-behind');
  await behind.getByRole('button', { name: `Try again sending ${invoice.number} to Xero` }).click();
  await expect(behind).toHaveCount(0);
  const paidInXero = (await xeroInvoices()).find((i) => i.reference === invoice.number && i.tenantId === tenant.tenantId);
  expect(paidInXero?.amountPaid).toBe('500.00');
  await page.goto(`/app/invoices/${invoice.id}`);
  await expect(page.getByTestId('detail-balance')).toHaveText('$1,627.50');
  await expect(pushError).toHaveCount(0);
  await expect(summary.getByText('✓ Xero')).toBeVisible();

  // ---- Disconnect, after the confirm ----
  await page.goto('/app/settings?tab=integrations');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  const dismissed = nextDialog(page, false);
  await page.getByRole('button', { name: 'Disconnect' }).click();
  expect(await dismissed).toBe('Disconnect from Xero?');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  const confirmed = nextDialog(page, true);
  await page.getByRole('button', { name: 'Disconnect' }).click();
  expect(await confirmed).toBe('Disconnect from Xero?');
  await expect(banner(page)).toHaveText('Successfully disconnected Xero');
  await expect(connectButton(page)).toBeVisible();
  await expect(page.getByText('Connected', { exact: true })).toHaveCount(0);

  // Synced invoices stay synced, and nothing more was made in Xero.
  const status = (await (await request.get('/api/v1/integrations/xero/status', { headers: user.authHeaders })).json()) as { connected: boolean };
  expect(status.connected).toBe(false);
  expect((await xeroInvoices()).filter((i) => i.reference === invoice.number && i.tenantId === tenant.tenantId)).toHaveLength(1);

  // ---- Settings → Security: the connection and the disconnection are in the account's activity ----
  await page.getByRole('tab', { name: 'Security', exact: true }).click();
  const activity = page.getByRole('list', { name: 'Recent security activity' }).getByRole('listitem');
  await expect(activity.first()).toContainText('Disconnected from Xero');
  await expect(activity.nth(1)).toContainText(`Connected to Xero (${tenant.tenantName})`);
  // Made in this browser's Connect window: its browser is named.
  await expect(activity.nth(1)).toContainText('Chrome');
});
