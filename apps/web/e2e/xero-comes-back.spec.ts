import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectTapTargets, saveScreenshot } from './helpers.ts';
import { changeInXero } from './support/fakes.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// Xero's word coming back, on the phone (390×844), against the fake Xero: the bookkeeper pays one
// overdue invoice in Xero and voids another there; Xero's signed webhook arrives; the outbox reads
// both back. The paid one says 'Paid (in Xero)' on its screen and in the list with no reminders
// part (so no Send reminder); the voided one says 'Voided in Xero', offers no Send reminder, and
// 'Void here too' voids it with that reason; the Overdue card is empty. Phone only, like
// settings-xero.spec.ts: the fake has one organisation.

interface Detail {
  id: string;
  reference: string;
  total: number;
  extra_data: Record<string, string>;
}

/** Connects Xero through the Connect window, as the tradie does in Settings. */
async function connectXero(page: Page): Promise<void> {
  await page.goto('/app/settings?tab=integrations');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await (await popup).waitForEvent('close');
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();
}

/**
 * Overdue invoices issued a month ago, synced to Xero. Xero invoice numbers are unique in its one
 * organisation, so these are the account's INV-0005 and on (settings-xero.spec.ts syncs its first two).
 */
async function overdueSyncedInvoices(request: APIRequestContext, user: TestUser, count: number): Promise<Detail[]> {
  const h = { headers: user.authHeaders };
  const settings = await request.put('/api/v1/business-settings', { ...h, data: { business_name: 'Rewi Electrical Ltd', gst_number: '49-091-850' } });
  expect(settings.status(), await settings.text()).toBe(200);
  const client = await request.post('/api/v1/clients', { ...h, data: { name: 'Mere Parata', email: 'mere@example.co.nz' } });
  const clientId = ((await client.json()) as { id: string }).id;
  const out: Detail[] = [];
  for (let n = 1; n <= 4 + count; n++) {
    const made = await request.post('/api/v1/invoices', {
      ...h,
      data: { type: 'invoice', client_id: clientId, issue_date: '2026-01-05', due_date: '2026-01-20', line_items: [{ description: `Switchboard upgrade ${n}`, qty: 1, unit_price: 400 }] },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    if (n <= 4) continue;
    expect((await request.post(`/api/v1/invoices/${id}/issue`, h)).status()).toBe(200);
    const synced = await request.post(`/api/v1/integrations/xero/sync/${id}`, h);
    expect(synced.status(), await synced.text()).toBe(200);
    out.push((await (await request.get(`/api/v1/invoices/${id}`, h)).json()) as Detail);
  }
  return out;
}

/** Delivers the webhook Xero posts about a change, and waits for the outbox to have read it back. */
async function deliverAndWait(request: APIRequestContext, user: TestUser, id: string, delivery: { body: string; signature: string }, key: string): Promise<void> {
  const res = await request.post('/api/v1/integrations/xero/webhook', { data: delivery.body, headers: { 'content-type': 'application/json', 'x-xero-signature': delivery.signature } });
  expect(res.status()).toBe(200);
  // The webhook only queues the read; the outbox's sweep (every 30 s) does it.
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/invoices/${id}`, { headers: user.authHeaders })).json()) as Detail).extra_data[key], { timeout: 75_000, intervals: [1_000] })
    .toBe('xero');
}

test("an invoice paid in Xero says 'Paid (in Xero)', one voided there says 'Voided in Xero'; neither gets a reminder and the Overdue card empties", async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'xero-back' });
  await connectXero(page);
  const [paid, voided] = await overdueSyncedInvoices(request, user, 2);
  if (!paid || !voided) throw new Error('no invoices');
  await page.goto('/app');
  await expect(page.getByTestId('overdue-card')).toContainText('2 invoices');

  // ---- the bookkeeper reconciles a bank transfer for one in Xero ----
  await deliverAndWait(request, user, paid.id, await changeInXero({ invoiceId: paid.extra_data['xero_invoice_id'] ?? '', pay: paid.total.toFixed(2) }), 'paid_in');
  await page.goto(`/app/invoices/${paid.id}`);
  const summary = page.locator('.detail__summary');
  await expect(summary.getByText('Paid (in Xero)')).toBeVisible();
  await expect(page.getByTestId('detail-balance')).toHaveText('$0.00');
  await expect(page.getByRole('button', { name: /Send reminder/ })).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices/id-paid-in-xero');

  // ---- and voids the other there ----
  await deliverAndWait(request, user, voided.id, await changeInXero({ invoiceId: voided.extra_data['xero_invoice_id'] ?? '', void: true }), 'voided_in');
  await page.goto('/app/invoices?tab=invoices');
  const cards = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(cards.filter({ hasText: paid.reference }).getByText('Paid (in Xero)')).toBeVisible();
  await expect(cards.filter({ hasText: voided.reference }).getByText('Voided in Xero')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/invoices-xero-came-back');

  // The Overdue card has nothing left to chase.
  await page.goto('/app');
  await expect(page.getByTestId('overdue-card')).toHaveCount(0);

  // ---- the voided one: said on its screen, no Send reminder, and one tap voids it here too ----
  await page.goto(`/app/invoices/${voided.id}`);
  const notice = page.getByTestId('voided-in-xero');
  await expect(notice).toContainText('Voided in Xero. No reminders go for it.');
  await expect(page.getByRole('button', { name: /Send reminder/ })).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '[data-testid="voided-in-xero"] .button');
  await saveScreenshot(page, testInfo, '/app/invoices/id-voided-in-xero');
  await notice.getByRole('button', { name: 'Void here too' }).click();
  await expect(page.locator('.detail__summary').getByText('Void: Voided in Xero')).toBeVisible();
  await expect(notice).toHaveCount(0);
});
