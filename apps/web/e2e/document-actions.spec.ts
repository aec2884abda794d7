import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { documentTotals, formatNzd } from '@tradie/domain';
import { expectNoHorizontalOverflow, expectTapTargets, detailAction } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// What every invoicing app lets you do with a document once it exists, through the real API: edit a
// draft in the calculator (same number, PUT with the version it opened), duplicate, delete a draft,
// a sent invoice explained and replaced ('Void and re-issue'), void with the reports said first,
// voided documents under their own filter and out of the counts, and a quote accepted by hand.

const screenshotPath = (testInfo: TestInfo, name: string) => fileURLToPath(new URL(`../test-output/screenshots/${testInfo.project.name}/document-actions_${name}.png`, import.meta.url));

/** The screen as it stands, and the whole page (the sticky bars let go, so nothing is painted mid-page). */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: screenshotPath(testInfo, `${name}-top`) });
  const unstick = await page.addStyleTag({ content: '.app-header, .calc__generate { position: static !important; }' });
  await page.screenshot({ path: screenshotPath(testInfo, name), fullPage: true });
  await unstick.evaluate((el) => (el as Element).remove());
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

const row = (page: Page, n: number) => ({
  description: page.getByLabel(`Line ${n} Description`),
  qty: page.getByLabel(`Line ${n} Qty`),
  price: page.getByLabel(`Line ${n} Unit price`),
});

interface Doc {
  id: string;
  reference: string;
  total: number;
  version: number;
  status: string;
  formatted: { total: string };
}

async function apiDoc(request: APIRequestContext, user: TestUser, id: string): Promise<Doc> {
  const res = await request.get(`/api/v1/invoices/${id}`, { headers: user.authHeaders });
  expect(res.status()).toBe(200);
  return (await res.json()) as Doc;
}

async function seedDoc(request: APIRequestContext, user: TestUser, body: Record<string, unknown>): Promise<Doc> {
  const res = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', line_items: [{ description: 'Call-out', qty: 1, unit_price: 90 }], ...body } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Doc;
}

const idOf = (page: Page): string => new URL(page.url()).pathname.split('/').at(-1)!;

/** What must hold on every screen at this size: no sideways scroll, and the buttons big enough for a thumb. */
async function fits(page: Page) {
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.detail__actions .button, .detail__cannot-edit .button, .status-filter__chip, .calc__generate .button');
}

function documentActions(size: string) {
  test(`${size}: edit a draft in the calculator, duplicate it, delete the copy, void an issued invoice, accept a quote`, async ({ page, request }, testInfo) => {
    test.setTimeout(120_000);
    const user = await signUpAndSignIn(page, request);

    // ---- a draft made in the calculator ----
    await page.goto('/app/calculator');
    await page.getByRole('radio', { name: 'Invoice' }).check();
    await row(page, 1).description.fill('Heat pump service');
    await row(page, 1).qty.fill('2');
    await row(page, 1).price.fill('120');
    await page.getByRole('button', { name: 'Generate Invoice' }).click();
    await expect(page.getByText('INV-0001')).toBeVisible();
    const draftId = idOf(page);
    await expect(page.getByTestId('detail-total')).toHaveText(formatNzd(documentTotals([{ qty: '2', unit_price: '120', tax_rate: '0.15' }]).totalCents));
    await shot(page, testInfo, `${size}-draft-detail`);
    await fits(page);

    // ---- Edit: the calculator opens on it, a line changes, Save goes back to the same document ----
    await detailAction(page, 'Edit');
    await expect(page).toHaveURL(new RegExp(`/app/calculator\\?edit=${draftId}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Edit INV-0001' })).toBeVisible();
    await expect(row(page, 1).description).toHaveValue('Heat pump service');
    await expect(row(page, 1).qty).toHaveValue('2');
    await expect(row(page, 1).price).toHaveValue('120');
    await expect(page.getByLabel('Issue date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await row(page, 1).price.fill('135.50');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Filters replaced');
    await shot(page, testInfo, `${size}-calculator-edit`);
    await fits(page);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/app/invoices/${draftId}$`));
    await expect(page.getByText('INV-0001')).toBeVisible();
    const saved = await apiDoc(request, user, draftId);
    expect(saved.reference).toBe('INV-0001');
    expect(saved.formatted.total).toBe(formatNzd(documentTotals([{ qty: '2', unit_price: '135.50', tax_rate: '0.15' }]).totalCents));
    await expect(page.getByTestId('detail-total')).toHaveText(saved.formatted.total);
    await expect(page.getByText('Filters replaced')).toBeVisible();

    // ---- someone else changed it meanwhile: Save says so and changes nothing ----
    await detailAction(page, 'Edit');
    await expect(row(page, 1).price).toHaveValue('135.5');
    const current = await apiDoc(request, user, draftId);
    const elsewhere = await request.put(`/api/v1/invoices/${draftId}`, { headers: user.authHeaders, data: { line_items: [{ description: 'Changed on the other phone', qty: 1, unit_price: 10 }], version: current.version } });
    expect(elsewhere.status()).toBe(200);
    await row(page, 1).price.fill('999');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Someone else changed this at the same time. Please reload and try again.')).toBeVisible();
    expect((await apiDoc(request, user, draftId)).total).toBe(11.5);
    await page.goto(`/app/invoices/${draftId}`);

    // ---- Duplicate: a new draft with the next number ----
    await detailAction(page, 'Duplicate');
    await expect(page.getByText('INV-0002')).toBeVisible();
    const copyId = idOf(page);
    expect(copyId).not.toBe(draftId);
    expect((await apiDoc(request, user, copyId)).total).toBe(11.5);

    // ---- Delete draft: cancelled, nothing happens; confirmed, it is gone ----
    const cancelled = nextDialog(page, false);
    await detailAction(page, 'Delete draft');
    expect(await cancelled).toBe('Delete draft INV-0002?');
    await expect(page.getByText('INV-0002')).toBeVisible();
    const confirmed = nextDialog(page);
    await detailAction(page, 'Delete draft');
    expect(await confirmed).toBe('Delete draft INV-0002?');
    await expect(page).toHaveURL(/\/app\/invoices\?tab=invoices$/);
    expect((await request.get(`/api/v1/invoices/${copyId}`, { headers: user.authHeaders })).status()).toBe(404);

    // ---- an issued invoice: Edit says why not; Void says what happens to the reports ----
    await page.goto(`/app/invoices/${draftId}`);
    await detailAction(page, 'Mark as issued');
    // The button reads 'Saving...' while the call runs: wait for the answer, not for the label to change.
    await expect(page.getByText('INV-0001 is marked issued: it now counts in your GST report')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark as issued' })).toHaveCount(0);
    await detailAction(page, 'Edit');
    await expect(page.getByText("Issued invoices can't be changed — void it and issue a new one")).toBeVisible();
    await expect(page.getByRole('button', { name: 'Void and re-issue' })).toBeVisible();
    await page.getByRole('button', { name: 'Close' }).click();
    const voidAsk = nextDialog(page);
    await detailAction(page, 'Void');
    expect(await voidAsk).toBe(
      "Void INV-0001? It stays in the GST report for the period it was issued, and is taken off again in the period you void it (today). Its number stays used and it can't be changed again.",
    );
    await expect(page.getByText('Void: Voided by user')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);

    // ---- the list: voided only under 'Voided', never in the counts ----
    const open = await seedDoc(request, user, {});
    await page.goto('/app/invoices?tab=invoices');
    await expect(page.getByRole('tab', { name: 'Invoices (1)' })).toHaveAttribute('aria-selected', 'true');
    const cards = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
    await expect(cards).toHaveCount(1);
    await expect(cards).toContainText(open.reference);
    await expect(page.getByText('INV-0001')).toHaveCount(0);
    await page.getByRole('link', { name: 'Voided invoices' }).click();
    await expect(page).toHaveURL(/status=void/);
    await expect(page.getByRole('link', { name: 'Voided invoices' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'All invoices (not voided)' })).not.toHaveAttribute('aria-current', 'page');
    await expect(cards).toHaveCount(1);
    await expect(cards).toContainText('INV-0001');
    await expect(cards).toContainText('Void');
    await expect(page.getByRole('tab', { name: 'Invoices (1)' })).toBeVisible();
    await shot(page, testInfo, `${size}-list-voided`);
    await fits(page);
    const counts = (await (await request.get('/api/v1/invoices/counts', { headers: user.authHeaders })).json()) as { invoices: number };
    expect(counts.invoices).toBe(1);

    // ---- an issued invoice: 'Void and re-issue' voids it and opens a copy in the calculator ----
    // (A sent one says "Sent documents can't be changed — void it and issue a new one"; this server
    // has no mail server, so its sends stay in the outbox and leave the document as it was.)
    const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hemi Walker', email: 'hemi@example.co.nz' } });
    expect(client.status()).toBe(201);
    const sent = await seedDoc(request, user, { client_id: ((await client.json()) as { id: string }).id });
    expect((await request.post(`/api/v1/invoices/${sent.id}/issue`, { headers: user.authHeaders })).status()).toBe(200);
    await page.goto(`/app/invoices/${sent.id}`);
    await detailAction(page, 'Edit');
    await expect(page.getByText("Issued invoices can't be changed — void it and issue a new one")).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveAttribute('aria-expanded', 'true');
    await shot(page, testInfo, `${size}-issued-cannot-edit`);
    await fits(page);
    const reissueAsk = nextDialog(page);
    await page.getByRole('button', { name: 'Void and re-issue' }).click();
    expect(await reissueAsk).toContain(`Void ${sent.reference}?`);
    await expect(page).toHaveURL(/\/app\/calculator\?edit=/);
    await expect(page.getByRole('heading', { level: 1, name: /^Edit INV-\d{4}$/ })).toBeVisible();
    await expect(row(page, 1).description).toHaveValue('Call-out');
    await row(page, 1).price.fill('95');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
    const reissued = await apiDoc(request, user, idOf(page));
    expect(reissued.reference).not.toBe(sent.reference);
    expect(reissued.status).toBe('draft');
    expect(reissued.total).toBe(109.25);
    expect((await apiDoc(request, user, sent.id)).status).toBe('void');

    // ---- a quote accepted by hand ----
    const quote = await seedDoc(request, user, { type: 'quote' });
    await page.goto(`/app/invoices/${quote.id}`);
    await expect(page.getByText(quote.reference)).toBeVisible();
    await detailAction(page, 'Accept Quote');
    await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
    expect((await apiDoc(request, user, quote.id)).status).toBe('accepted');
    await shot(page, testInfo, `${size}-quote-accepted`);
    await fits(page);
  });
}

documentActions('phone');

test.describe('at desktop size', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });
  documentActions('desktop');
});
