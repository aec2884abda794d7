import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { applyMargin, documentTotals, formatNzd, formatNzDate, marginFigures, nzDateOf, toCents } from '@tradie/domain';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot, detailAction, openMoreActions } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';
import { waitForEmailTo } from './support/outbox.ts';

// Quotes and invoices end to end through the real API: the Calculator, Invoices & Quotes and
// Invoice detail screens; document creation, status, payment status and accounting sync. Every
// figure the screens show is checked against @tradie/domain.

const LINES = [
  { description: 'Labour — bathroom strip-out', qty: '8', unit_price: '95.50' },
  { description: 'Materials (Whangārei supplier)', qty: '1', unit_price: '412.30' },
  { description: 'Call-out fee', qty: '1', unit_price: '85' },
];

/**
 * Two pictures: what the screen shows at the top (`…-top`), and the whole page with the sticky
 * header and Generate bar let go (a full-page capture otherwise paints them mid-page).
 */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const y = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshotPath(testInfo, `${name}-top`) });
  const unstick = await page.addStyleTag({ content: '.app-header, .calc__generate { position: static !important; } .doc-notice-region { display: none !important; }' });
  await saveScreenshot(page, testInfo, `/app/${name}`);
  await unstick.evaluate((el) => (el as Element).remove());
  await page.evaluate((top) => window.scrollTo(0, top), y);
}

const screenshotPath = (testInfo: TestInfo, name: string) => fileURLToPath(new URL(`../test-output/screenshots/${testInfo.project.name}/app_${name}.png`, import.meta.url));

/** Accepts (or dismisses) the next dialog and hands back its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      const text = d.message();
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(text));
    });
  });
}

async function seedClient(request: APIRequestContext, user: TestUser, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await request.post('/api/v1/clients', { headers: user.authHeaders, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string };
}

const row = (page: Page, n: number) => ({
  description: page.getByLabel(`Line ${n} Description`),
  qty: page.getByLabel(`Line ${n} Qty`),
  price: page.getByLabel(`Line ${n} Unit price`),
  remove: page.getByRole('button', { name: `Remove line ${n}` }),
});

/**
 * axe with the sticky header and Generate bar let go (and the toast hidden) for the check. Wherever
 * a long page stands, some control is partly under a sticky bar, and axe's target-size rule then
 * measures only the uncovered part; with the bars in their own place the rule sees real sizes.
 * (Keyboard focus is kept clear of the bars by scroll-padding.)
 */
async function expectAccessible(page: Page): Promise<void> {
  const unstick = await page.addStyleTag({ content: '.app-header, .calc__generate { position: static !important; } .doc-notice-region { display: none !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => (el as Element).remove());
}

const pricedTotals = (lines: { qty: string; unit_price: string }[], gst = true) =>
  documentTotals(lines.map((l) => ({ qty: l.qty, unit_price: l.unit_price, tax_rate: gst ? '0.15' : '0' })));

test('a quote with three lines, a 25% margin and a template becomes a paid invoice, with every badge and total right', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request);
  const clientEmail = `aroha-${randomUUID()}@example.co.nz`;
  await seedClient(request, user, { name: 'Aroha Ngata', is_business: 'true', business_name: 'Ngata Plumbing', email: clientEmail });
  await seedClient(request, user, { name: 'Bob Builder', email: 'bob@example.co.nz' });
  const settings = (await (await request.get('/api/v1/business-settings', { headers: user.authHeaders })).json()) as Record<string, unknown>;
  const { logo_url: _logo, warnings: _warnings, ...editable } = settings;
  const cc = `office-${randomUUID()}@example.co.nz`;
  const put = await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { ...editable, business_name: 'Ngata Plumbing Co', cc_email: cc } });
  expect(put.status(), await put.text()).toBe(200);

  // ---- the calculator, as it opens ----
  await page.goto('/app/calculator');
  await expect(page.getByRole('heading', { level: 1, name: 'Quote & Profit Calculator' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Quote' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Generate Quote' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Include GST (15%)' })).toBeChecked();
  await expect(row(page, 1).qty).toHaveValue('1');
  await expect(row(page, 1).price).toHaveValue('0');
  await expect(row(page, 1).price).toHaveAttribute('inputmode', 'decimal');
  await expect(row(page, 1).price).toHaveAttribute('step', '0.0001');
  await expect(row(page, 1).price).toHaveAttribute('min', '0');
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Profit 25% markup' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('Total (incl. GST)')).toBeVisible();

  // ---- client picker: typeahead, business display name ----
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.click();
  await expect(page.getByRole('option', { name: 'No client' })).toBeVisible();
  await expect(page.getByRole('option', { name: '+ Add New Client' })).toBeVisible();
  await picker.fill('ngata');
  await expect(page.getByRole('option', { name: /Bob Builder/ })).toHaveCount(0);
  await page.getByRole('option', { name: /Ngata Plumbing \(Aroha Ngata\)/ }).click();
  await expect(picker).toHaveValue('Ngata Plumbing (Aroha Ngata)');

  // ---- three lines ----
  for (const [i, line] of LINES.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Add Line Item' }).click();
    const r = row(page, i + 1);
    await expect(r.qty).toHaveValue('1');
    await expect(r.price).toHaveValue('0');
    await r.description.fill(line.description);
    await r.qty.fill(line.qty);
    await r.price.fill(line.unit_price);
  }
  await expect(row(page, 1).remove).toBeVisible();
  const before = pricedTotals(LINES);
  await expect(page.getByTestId('calc-subtotal')).toHaveText(formatNzd(before.subtotalCents));
  await expect(page.getByTestId('calc-gst')).toHaveText(formatNzd(before.gstCents));
  await expect(page.getByTestId('calc-total')).toHaveText(formatNzd(before.totalCents));

  // Empty input counts as 0 and shows 0 when the field is left.
  await row(page, 3).qty.fill('');
  await expect(page.getByTestId('calc-subtotal')).toHaveText(formatNzd(pricedTotals([LINES[0]!, LINES[1]!]).subtotalCents));
  await row(page, 3).qty.blur();
  await expect(row(page, 3).qty).toHaveValue('0');
  await row(page, 3).qty.fill('1');

  // GST off: 0 GST, '(excl. GST)'; back on.
  await page.getByRole('switch', { name: 'Include GST (15%)' }).click();
  await expect(page.getByTestId('calc-gst')).toHaveText('$0.00');
  await expect(page.getByText('Total (excl. GST)')).toBeVisible();
  await expect(page.getByTestId('calc-total')).toHaveText(formatNzd(before.subtotalCents));
  await page.getByRole('switch', { name: 'Include GST (15%)' }).click();
  await expect(page.getByText('Total (incl. GST)')).toBeVisible();

  // ---- the profit panel: each line costs what it was typed at; 'Price from cost' marks the costs up ----
  // (with cost = the typed price, pricing from cost at 25 % is the domain's applyMargin of the lines)
  await page.getByRole('button', { name: 'Profit 25% markup' }).click();
  for (const [i, line] of LINES.entries()) await page.getByLabel(`Line ${i + 1} Cost (excl. GST)`).fill(line.unit_price);
  const margin = page.getByLabel('Markup on cost %');
  await expect(margin).toHaveValue('25');
  await expect(page.getByText('Typical range: 20-30%')).toBeVisible();
  const figures = marginFigures(LINES, 25);
  await expect(page.getByTestId('calc-profit-cost')).toHaveText(formatNzd(figures.costsCents));
  await expect(page.getByTestId('calc-profit-gross')).toHaveText('$0.00');
  await margin.fill('10');
  await expect(page.getByText('Your markup is quite low. Most tradies aim for 20-30% to cover all business costs.')).toBeVisible();
  await margin.fill('25');
  await expect(page.getByText('Your markup is quite low.', { exact: false })).toHaveCount(0);
  await shot(page, testInfo, 'calculator');
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);

  await page.getByRole('button', { name: 'Price from cost' }).click();
  await expect(page.getByText('Priced each line with a cost at 25% markup on cost.', { exact: false })).toBeVisible();
  const marked = applyMargin(LINES, 25);
  for (const [i, line] of marked.entries()) await expect(row(page, i + 1).price).toHaveValue(line.unit_price);
  const after = pricedTotals(marked);
  await expect(page.getByTestId('calc-total')).toHaveText(formatNzd(after.totalCents));
  // The profit shown is the marked-up subtotal less the costs, which did not change.
  await expect(page.getByTestId('calc-subtotal')).toHaveText(formatNzd(figures.chargeClientCents));
  await expect(page.getByTestId('calc-profit-gross')).toHaveText(formatNzd(figures.profitCents));
  await expect(page.getByTestId('calc-profit-cost')).toHaveText(formatNzd(figures.costsCents));

  // ---- templates: blank name refused, save, change, load back ----
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a template name' })).toBeVisible();
  await expect(page.getByLabel('Template name')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Template name').fill('Bathroom refit');
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByText('Template "Bathroom refit" saved!')).toBeVisible();
  // Kept by the account on the server (templates-sync.spec.ts covers other browsers and users).
  const stored = ((await (await request.get('/api/v1/templates', { headers: user.authHeaders })).json()) as { items: Record<string, unknown>[] }).items;
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ name: 'Bathroom refit', type: 'quote', profit_margin_percent: 25, include_gst: true, client: null });
  expect(stored[0]!.line_items).toHaveLength(3);

  await row(page, 3).remove.click();
  await expect(page.getByRole('button', { name: /^Remove line/ })).toHaveCount(2);
  await page.getByRole('button', { name: 'Load template Bathroom refit' }).click();
  await expect(page.getByText('Template "Bathroom refit" loaded!')).toBeVisible();
  for (const [i, line] of marked.entries()) {
    await expect(row(page, i + 1).description).toHaveValue(LINES[i]!.description);
    await expect(row(page, i + 1).price).toHaveValue(String(Number(line.unit_price)));
  }
  await expect(page.getByTestId('calc-total')).toHaveText(formatNzd(after.totalCents));

  // ---- generate → detail ----
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quote Detail' })).toBeVisible();
  await expect(page.getByText('QTE-0001')).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByText('Ngata Plumbing (Aroha Ngata)')).toBeVisible();
  await expect(page.getByTestId('detail-total')).toHaveText(formatNzd(after.totalCents));
  await expect(page.getByTestId('detail-subtotal')).toHaveText(formatNzd(after.subtotalCents));
  await expect(page.getByTestId('detail-gst')).toHaveText(formatNzd(after.gstCents));
  const today = nzDateOf(new Date());
  await expect(page.getByText(formatNzDate(today), { exact: true }).first()).toBeVisible();

  // View PDF opens the PDF from an object URL in a new tab.
  const popup = page.waitForEvent('popup');
  await detailAction(page, 'View PDF');
  const pdfTab = await popup;
  await expect.poll(() => pdfTab.url()).toMatch(/^blob:/);
  await pdfTab.close();
  await shot(page, testInfo, 'invoice-detail-quote');
  await expectAccessible(page);

  // ---- convert → the invoice ----
  const quoteUrl = page.url();
  await detailAction(page, 'Convert to Invoice');
  await expect(page.getByText('INV-0001')).toBeVisible();
  expect(page.url()).not.toBe(quoteUrl);
  await expect(page.getByRole('link', { name: 'View the quote' })).toBeVisible();
  await expect(page.getByText('Unpaid', { exact: true })).toBeVisible();
  await expect(page.getByTestId('detail-balance')).toHaveText(formatNzd(after.totalCents));

  // ---- send: recipient shown, email in the outbox with the PDF ----
  // This server has no mail server (no SMTP_URL): the email is kept in its outbox, and the screen
  // says so rather than 'sent' — the invoice stays a draft (send-outcome.spec.ts).
  await detailAction(page, 'Send');
  const sheet = page.getByRole('dialog', { name: /^Send invoice/ });
  await expect(sheet.getByLabel('To', { exact: true })).toHaveValue(clientEmail);
  await expect(sheet.getByLabel('CC', { exact: true })).toHaveValue(cc); // CC from the business settings
  await expect(sheet.getByLabel('Subject', { exact: true })).not.toHaveValue('');
  // The tradie's own words go as typed.
  await sheet.getByLabel('Subject', { exact: true }).fill('Your invoice for the hot water cylinder');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved to the outbox — email is not set up on this server' })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  const mail = await waitForEmailTo(clientEmail);
  expect(mail.mail.subject).toBe('Your invoice for the hot water cylinder');
  const pdf = mail.mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(pdf?.filename).toBe('INV-0001.pdf');
  expect(pdf?.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(JSON.stringify(mail.mail.cc)).toContain(cc);

  // ---- a part payment ----
  await detailAction(page, 'Record payment');
  await expect(page.getByLabel('Amount')).toHaveValue(formatNzd(after.totalCents).replace(/[$,]/g, ''));
  await expect(page.getByLabel('Date')).toHaveValue(today);
  await expect(page.getByLabel('Method')).toHaveValue('bank_transfer');
  // The server's own sentence for too much.
  await page.getByLabel('Amount').fill('99999');
  await page.getByRole('button', { name: 'Save payment' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'still owing' })).toBeVisible();
  await page.getByLabel('Amount').fill('500');
  await page.getByLabel('Method').selectOption('cash');
  await page.getByLabel('Reference').fill('Deposit');
  await page.getByRole('button', { name: 'Save payment' }).click();
  await expect(page.getByText('Payment of $500 recorded')).toBeVisible();
  await expect(page.getByText('Partial', { exact: true })).toBeVisible();
  const owing = after.totalCents - toCents('500');
  await expect(page.getByTestId('detail-balance')).toHaveText(formatNzd(owing));
  await expect(page.getByText(`${formatNzDate(today)} · Cash · Deposit`)).toBeVisible();
  await shot(page, testInfo, 'invoice-detail-partial');
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.detail__actions .button, .detail-payments .button');

  // ---- mark paid ----
  const confirmPaid = nextDialog(page);
  await detailAction(page, 'Mark Paid');
  expect(await confirmPaid).toBe('Mark this invoice as paid?');
  await expect(page.getByText('✓ Paid', { exact: true })).toBeVisible();
  await expect(page.getByTestId('detail-balance')).toHaveText('$0.00');
  await expect(page.getByRole('button', { name: 'Mark Paid' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Record payment' })).toHaveCount(0);

  // ---- the list: every badge and total ----
  await page.getByRole('link', { name: 'Invoices & Quotes' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices & Quotes' })).toBeVisible();
  await page.getByRole('tab', { name: 'Quotes (1)' }).click();
  const quoteCard = page.getByRole('list', { name: 'Quotes' }).getByRole('listitem');
  await expect(quoteCard).toHaveCount(1);
  await expect(quoteCard).toContainText('QTE-0001');
  await expect(quoteCard).toContainText('Converted');
  await expect(quoteCard).toContainText('Ngata Plumbing (Aroha Ngata)');
  await expect(quoteCard).toContainText(formatNzd(after.totalCents));

  await page.getByRole('tab', { name: 'Invoices (1)' }).click();
  const invoiceCard = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(invoiceCard).toHaveCount(1);
  await expect(invoiceCard).toContainText('INV-0001');
  await expect(invoiceCard.getByText('Paid', { exact: true })).toBeVisible();
  await expect(invoiceCard.getByText('✓ Paid', { exact: true })).toBeVisible();
  await expect(invoiceCard).toContainText(`Ngata Plumbing (Aroha Ngata) • Paid ${formatNzDate(today)}`);
  await expect(invoiceCard).toContainText(formatNzd(after.totalCents));
  await expect(invoiceCard.getByRole('button', { name: /Mark Paid/ })).toHaveCount(0);
  await expect(invoiceCard.getByText('✓ Xero')).toHaveCount(0);
  await shot(page, testInfo, 'invoices');
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);

  // Not connected to Xero: no 'Sync to Xero' to press (it could only fail), once the screen knows.
  const status = page.waitForResponse((r) => r.url().endsWith('/api/v1/integrations/xero/status') && r.status() === 200);
  await page.reload();
  expect(((await (await status).json()) as { connected: boolean }).connected).toBe(false);
  await expect(invoiceCard).toContainText(formatNzd(after.totalCents));
  await expect(page.getByRole('button', { name: /Sync to Xero/ })).toHaveCount(0);

  // ---- the Templates tab hands the template to the calculator ----
  await page.getByRole('tab', { name: 'Templates (1)' }).click();
  const templateCard = page.getByRole('list', { name: 'Templates' }).getByRole('listitem');
  await expect(templateCard).toContainText('Bathroom refit');
  await expect(templateCard).toContainText('Quote');
  await expect(templateCard).toContainText('3 line items • 25% margin');
  await templateCard.getByRole('button', { name: 'Bathroom refit', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/calculator$/);
  await expect(page.getByText('Template "Bathroom refit" loaded!')).toBeVisible();
  await expect(row(page, 3).description).toHaveValue(LINES[2]!.description);
  expect(await page.evaluate(() => window.localStorage.getItem('loadTemplate'))).toBeNull();

  // Delete it from the tab: confirm, then the empty state.
  await page.goto('/app/invoices');
  await page.getByRole('tab', { name: 'Templates (1)' }).click();
  const del = nextDialog(page);
  await page.getByRole('button', { name: 'Delete template Bathroom refit' }).click();
  expect(await del).toBe('Delete template "Bathroom refit"?');
  await expect(page.getByText('No templates yet')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Templates (0)' })).toBeVisible();

  // The 422 (too much paid) and the 400 (Xero not connected) above were asked for; nothing else.
  expect(errors.filter((e) => !/^Failed to load resource: the server responded with a status of (422|400)/.test(e))).toEqual([]);
});

test('a fresh account sees the three empty states', async ({ page, request }, testInfo) => {
  await signUpAndSignIn(page, request);
  await page.goto('/app/invoices');
  await expect(page.getByRole('link', { name: '+ New Quote/Invoice' })).toHaveAttribute('href', '/app/calculator');
  await expect(page.getByRole('tab', { name: 'Quotes (0)' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No quotes yet')).toBeVisible();
  await expect(page.getByText('Create a quote to send pricing to potential clients')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Quote' })).toHaveAttribute('href', '/app/calculator');
  await shot(page, testInfo, 'invoices-empty');
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);
  await page.getByRole('tab', { name: 'Invoices (0)' }).click();
  await expect(page.getByText('No invoices yet')).toBeVisible();
  await expect(page.getByText('Create an invoice to bill clients for completed work')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Invoice' })).toBeVisible();
  await page.getByRole('tab', { name: 'Templates (0)' }).click();
  await expect(page.getByText('No templates yet')).toBeVisible();
  await expect(page.getByText('Save commonly used quotes or invoices as templates for quick reuse')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Template' })).toBeVisible();
});

test('an invoice for a quick-added client with GST off carries no GST, and a blank line is dropped', async ({ page, request }, testInfo) => {
  const user = await signUpAndSignIn(page, request);
  await page.goto('/app/calculator');
  await page.getByRole('radio', { name: 'Invoice' }).check();
  await expect(page.getByRole('button', { name: 'Generate Invoice' })).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.click();
  await page.getByRole('option', { name: '+ Add New Client' }).click();
  await expect(page.getByRole('group', { name: 'Add New Client' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Phone')).toHaveAttribute('type', 'tel');
  await page.getByLabel('Name (required)').fill('Mere Tāwhiao');
  await page.getByLabel('Email').fill('mere@example.co.nz');
  await page.getByLabel('Phone').fill('021 555 0199');
  await row(page, 1).description.fill('Fence repair');
  await row(page, 1).qty.fill('2.5');
  await row(page, 1).price.fill('80');
  await page.getByRole('button', { name: 'Add Line Item' }).click();
  await page.getByRole('switch', { name: 'Include GST (15%)' }).click();
  await expect(page.getByTestId('calc-total')).toHaveText('$200.00');
  await shot(page, testInfo, 'calculator-quick-add');
  await expectAccessible(page);

  // 'Generating...' while busy: the PDF step is held until the busy state has been seen.
  let releasePdf: () => void = () => undefined;
  const pdfHeld = new Promise<void>((r) => (releasePdf = r));
  await page.route('**/api/v1/invoices/*/generate-pdf', async (route) => {
    await pdfHeld;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Generate Invoice' }).click();
  await expect(page.getByRole('button', { name: 'Generating...' })).toBeDisabled();
  releasePdf();
  await expect(page.getByText('INV-0001')).toBeVisible();
  await expect(page.getByText('Mere Tāwhiao')).toBeVisible();
  await expect(page.getByTestId('detail-gst')).toHaveText('$0.00');
  await expect(page.getByTestId('detail-total')).toHaveText('$200.00');
  await expect(page.getByText('Fence repair')).toBeVisible();
  await expect(page.getByText('2.5 × $80.00 · no GST')).toBeVisible();

  const clients = (await (await request.get('/api/v1/clients', { headers: user.authHeaders })).json()) as { name: string; email: string; phone: string }[];
  expect(clients).toEqual([expect.objectContaining({ name: 'Mere Tāwhiao', email: 'mere@example.co.nz', phone: '021 555 0199' })]);

  // Mark Paid from the list: cancelling the confirm changes nothing; confirming marks it paid.
  await page.getByRole('link', { name: 'Invoices & Quotes' }).first().click();
  await page.getByRole('tab', { name: 'Invoices (1)' }).click();
  const card = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(card.getByText('Unpaid', { exact: true })).toBeVisible();
  await expect(card).toContainText('$200.00');
  const cancelled = nextDialog(page, false);
  await card.getByRole('button', { name: /Mark Paid/ }).click();
  expect(await cancelled).toBe('Mark this invoice as paid?');
  await expect(card.getByText('Unpaid', { exact: true })).toBeVisible();
  const confirmed = nextDialog(page);
  await card.getByRole('button', { name: /Mark Paid/ }).click();
  expect(await confirmed).toBe('Mark this invoice as paid?');
  await expect(card.getByText('✓ Paid', { exact: true })).toBeVisible();
  await expect(card).toContainText(`Mere Tāwhiao • Paid ${formatNzDate(nzDateOf(new Date()))}`);
  await expect(card.getByRole('button', { name: /Mark Paid/ })).toHaveCount(0);
});

test('a lost answer and a second tap on Generate still make one quote (Idempotency-Key)', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request);
  await page.goto('/app/calculator');
  await row(page, 1).description.fill('Gutter clean');
  await row(page, 1).price.fill('180');
  // The first create reaches the server and is done, but its answer never arrives.
  let lost = false;
  await page.route('**/api/v1/invoices', async (route) => {
    if (route.request().method() !== 'POST' || lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  // Said under the button, not in a browser alert.
  await expect(page.getByTestId('calc-generate-error')).toHaveText('Could not create the quote: Network Error');
  await expect(page.getByRole('button', { name: 'Generate Quote' })).toBeEnabled();
  await page.getByRole('button', { name: 'Generate Quote' }).click();
  await expect(page.getByText('QTE-0001')).toBeVisible();
  const counts = (await (await request.get('/api/v1/invoices/counts', { headers: user.authHeaders })).json()) as { quotes: number };
  expect(counts.quotes).toBe(1);
});

test('the list pages 50 at a time as you scroll; the tab count is the whole number', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await signUpAndSignIn(page, request);
  const total = 120;
  for (let i = 0; i < total; i++) {
    const res = await request.post('/api/v1/invoices', {
      headers: user.authHeaders,
      data: { type: 'quote', client_id: null, line_items: [{ description: `Job ${i + 1}`, qty: 1, unit_price: 10 + i }] },
    });
    expect(res.status()).toBe(201);
  }
  const pages: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/invoices?')) pages.push(r.url());
  });
  await page.goto('/app/invoices');
  await expect(page.getByRole('tab', { name: `Quotes (${total})` })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Quotes' }).getByRole('listitem');
  await expect(cards).toHaveCount(50);
  // Newest first.
  await expect(cards.first()).toContainText('QTE-0120');
  await expect(cards.first()).toContainText('No client');
  await expect(cards.first()).toContainText('$148.35'); // (10 + 119) × 1.15

  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(100);
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(120);
  await expect(cards.last()).toContainText('QTE-0001');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  expect(pages).toHaveLength(3);
  expect(pages.every((u) => u.includes('limit=50'))).toBe(true);
});

test('the detail: send refused without an email or with mail down, remove a payment, void, accept a quote, not found', async ({ page, request }, testInfo) => {
  const user = await signUpAndSignIn(page, request);
  const create = async (type: 'quote' | 'invoice') => {
    const res = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type, client_id: null, line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 100 }] } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const invoiceId = await create('invoice');
  const quoteId = await create('quote');
  const paid = await request.post(`/api/v1/invoices/${invoiceId}/payments`, { headers: user.authHeaders, data: { amount: '15.00', method: 'card' } });
  expect(paid.status()).toBe(201);

  await page.goto(`/app/invoices/${invoiceId}`);
  await expect(page.getByTestId('detail-balance')).toHaveText('$100.00');

  // No client: said before the Send sheet opens.
  await detailAction(page, 'Send');
  await expect(page.getByText('Add a client to this invoice before sending it.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A client with no email address: the sheet says so and takes one typed in; mail down is the 503's sentence, nothing marked sent.
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hēmi Walker' } });
  const noEmail = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', client_id: ((await client.json()) as { id: string }).id, line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 100 }] } });
  await page.goto(`/app/invoices/${((await noEmail.json()) as { id: string }).id}`);
  await detailAction(page, 'Send');
  const sheet = page.getByRole('dialog', { name: /^Send invoice/ });
  await expect(sheet.getByText('This client has no email address saved: type it here.')).toBeVisible();
  // Where the thumb is: on a phone the sheet sits on the bottom edge of the screen, its Send button in view.
  const viewport = page.viewportSize()!;
  const box = (await sheet.boundingBox())!;
  if (viewport.width < 768) expect(Math.abs(box.y + box.height - viewport.height)).toBeLessThan(2);
  await expect(sheet.getByRole('button', { name: 'Send Invoice' })).toBeInViewport();
  await expectNoHorizontalOverflow(page);
  await expect(sheet.getByLabel('To', { exact: true })).toHaveValue('');
  await sheet.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(sheet.getByRole('alert')).toHaveText('This client has no email address. Type the address to send it to.');
  await page.route('**/api/v1/invoices/*/send', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: "We couldn't send the email right now. Please try again in a few minutes." }) }),
  );
  await sheet.getByLabel('To', { exact: true }).fill('hemi@example.nz');
  await sheet.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(sheet.getByRole('alert')).toHaveText("We couldn't send the email right now. Please try again in a few minutes.");
  await page.unroute('**/api/v1/invoices/*/send');
  await shot(page, testInfo, 'invoice-detail-send-error');
  await expectAccessible(page);
  await sheet.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible(); // not 'Sent'
  await page.goto(`/app/invoices/${invoiceId}`);
  await expect(page.getByTestId('detail-balance')).toHaveText('$100.00');

  // Remove the payment.
  const removeAsk = nextDialog(page);
  await page.getByRole('button', { name: /^Remove payment of \$15\.00/ }).click();
  expect(await removeAsk).toBe('Remove this payment?');
  await expect(page.getByText('No payments recorded yet.')).toBeVisible();
  await expect(page.getByTestId('detail-balance')).toHaveText('$115.00');

  // Void.
  const voidAsk = nextDialog(page);
  await detailAction(page, 'Void');
  expect(await voidAsk).toContain('stays in the GST report for the period it was issued, and is taken off again in the period you void it');
  await expect(page.getByText('Void: Voided by user')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark Paid' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);

  // Accept a quote.
  await page.goto(`/app/invoices/${quoteId}`);
  await expect(page.getByText('QTE-0001')).toBeVisible();
  await openMoreActions(page);
  await expect(page.getByRole('button', { name: 'Record payment' })).toHaveCount(0);
  await detailAction(page, 'Accept Quote');
  await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
  await openMoreActions(page);
  await expect(page.getByRole('button', { name: 'Accept Quote' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Convert to Invoice' })).toBeVisible();

  // Someone else's or a deleted document.
  await page.goto(`/app/invoices/${randomUUID()}`);
  await expect(page.getByText('This quote or invoice was not found. It may have been deleted.')).toBeVisible();
});
