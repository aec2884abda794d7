// Jobs billed in stages and a credit note, end to end through the real API at phone size: a quote
// made through the API is accepted on its detail screen; a 30 % deposit, two progress invoices (60 %
// then 80 % complete) and the final invoice are created from the Stages card, each opening as a new
// draft invoice; the bar's figures follow, a stage past what is left shows the server's reason, and
// the four invoices add up to the quote. The final invoice is marked issued and one of its lines is
// credited from the Credit form: the credit note shows, and the balance takes it off.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, detailAction, openMoreActions } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

/**
 * Screenshots looked at by hand (not compared): what the screen shows, or the whole page with the
 * sticky header let go and the notice hidden (a full-page capture otherwise paints them mid-page).
 */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (!fullPage) {
    await page.screenshot({ path: `/tmp/stages-credit-${name}.png` });
    return;
  }
  const unstick = await page.addStyleTag({ content: '.app-header { position: static !important; } .doc-notice-region { display: none !important; }' });
  await page.screenshot({ path: `/tmp/stages-credit-${name}.png`, fullPage: true });
  await unstick.evaluate((el) => (el as Element).remove());
}

/**
 * axe over the whole page, scrolled to the top: its target-size rule counts a button that happens
 * to sit half under the sticky app header as too small (as reports.spec.ts says).
 */
async function expectAccessible(page: Page): Promise<void> {
  const y = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoSeriousA11yViolations(page);
  await page.evaluate((top) => window.scrollTo(0, top), y);
}

/** A quote of $1,265.00: 10 h labour at $80 and 2 heat pumps' brackets at $150, GST on top. */
async function quoteThroughApi(request: APIRequestContext, user: TestUser): Promise<{ id: string; reference: string }> {
  const res = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: {
      type: 'quote',
      line_items: [
        { description: 'Labour', qty: 10, unit_price: 80 },
        { description: 'Brackets', qty: 2, unit_price: 150 },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; reference: string };
}

/** Opens one of the Stages card's forms, types a value (when given) and creates the invoice; answers the new invoice's reference. */
async function invoiceStage(page: Page, button: string, fill?: { mode?: string; label: RegExp | string; value: string }): Promise<string> {
  const before = page.url();
  const stages = page.getByRole('region', { name: 'Stages' });
  await stages.getByRole('button', { name: button }).click();
  if (fill?.mode) await stages.getByRole('radio', { name: fill.mode, exact: true }).check();
  if (fill) await stages.getByLabel(fill.label).fill(fill.value);
  await stages.getByRole('button', { name: /^Create (final )?invoice$/ }).click();
  // The new draft invoice opens.
  await expect(page).not.toHaveURL(before);
  await expect(page.getByTestId('draft-note')).toBeVisible();
  const reference = (await page.locator('.detail__ref').textContent()) ?? '';
  expect(reference).toMatch(/^INV-\d{4}$/);
  return reference;
}

async function backToQuote(page: Page, quoteId: string): Promise<void> {
  await page.getByRole('link', { name: 'View the quote' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/invoices/${quoteId}$`));
  await expect(page.getByRole('region', { name: 'Stages' })).toBeVisible();
}

/** The notice at the foot of the screen lies over the buttons below it: dismissed before checking targets and taking pictures. */
async function dismissNotice(page: Page): Promise<void> {
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.isVisible()) await dismiss.click();
  await expect(dismiss).toHaveCount(0);
}

const figures = async (page: Page) => ({
  quoted: await page.getByTestId('stages-quoted').textContent(),
  invoiced: await page.getByTestId('stages-invoiced').textContent(),
  remaining: await page.getByTestId('stages-remaining').textContent(),
});

test('a quote invoiced as a deposit, two progress invoices and the final one; a line of the final invoice credited', async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'stages' });
  const quote = await quoteThroughApi(request, user);

  // ---- accept the quote: the Stages card appears, nothing invoiced yet ----
  await page.goto(`/app/invoices/${quote.id}`);
  await expect(page.locator('.detail__ref')).toHaveText(quote.reference);
  await expect(page.getByRole('region', { name: 'Stages' })).toHaveCount(0);
  await detailAction(page, 'Accept Quote');
  const stages = page.getByRole('region', { name: 'Stages' });
  await expect(stages).toBeVisible();
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,265.00', invoiced: '$0.00', remaining: '$1,265.00' });
  await expect(stages).toContainText('0 % of the quote invoiced');

  // ---- a 30 % deposit ----
  await stages.getByRole('button', { name: 'Invoice deposit' }).click();
  await stages.getByLabel('Percent of the quote').fill('30');
  await expect(stages).toContainText('About $379.50 of $1,265.00');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.stages button, .stages input[type=radio] + span, .stages .input');
  await expectAccessible(page);
  await stages.getByRole('heading', { name: 'Invoice a deposit' }).scrollIntoViewIfNeeded();
  await shot(page, 'deposit-form', false);
  await stages.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByTestId('draft-note')).toBeVisible();
  const deposit = (await page.locator('.detail__ref').textContent()) ?? '';
  await expect(page.getByTestId('detail-total')).toHaveText('$379.50');
  await expect(page.getByText(/Deposit \(30\s?% of the line\): Labour/)).toBeVisible();
  await shot(page, 'deposit-invoice');

  // ---- progress: 60 % complete, then 80 % complete ----
  await backToQuote(page, quote.id);
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,265.00', invoiced: '$379.50', remaining: '$885.50' });
  const first = await invoiceStage(page, 'Progress invoice', { label: /% complete\)/, value: '60' });
  await expect(page.getByTestId('detail-total')).toHaveText('$379.50');
  await backToQuote(page, quote.id);
  const second = await invoiceStage(page, 'Progress invoice', { label: /% complete\)/, value: '80' });
  await expect(page.getByTestId('detail-total')).toHaveText('$253.00');
  await backToQuote(page, quote.id);
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,265.00', invoiced: '$1,012.00', remaining: '$253.00' });
  await expect(stages).toContainText('80 % of the quote invoiced');

  // ---- more than is left: the server's reason, nothing created ----
  await stages.getByRole('button', { name: 'Progress invoice' }).click();
  await stages.getByRole('radio', { name: 'Amount', exact: true }).check();
  await stages.getByLabel('Amount (GST included)').fill('300');
  await stages.getByRole('button', { name: 'Create invoice' }).click();
  const refusal = stages.getByTestId('stage-error');
  await expect(refusal).toBeVisible();
  await expect(refusal).not.toBeEmpty();
  expect(await refusal.textContent()).toMatch(/left|100 %/);
  await expect(page).toHaveURL(new RegExp(`/app/invoices/${quote.id}$`));
  await refusal.scrollIntoViewIfNeeded();
  await shot(page, 'refused', false);
  await stages.getByRole('button', { name: 'Cancel' }).click();

  // ---- the final invoice: what is left ----
  await stages.getByRole('button', { name: 'Final invoice' }).click();
  await expect(stages.getByTestId('final-remainder')).toContainText('$253.00');
  await stages.getByRole('button', { name: 'Create final invoice' }).click();
  await expect(page.getByTestId('draft-note')).toBeVisible();
  const final = (await page.locator('.detail__ref').textContent()) ?? '';
  await expect(page.getByTestId('detail-total')).toHaveText('$253.00');
  const finalUrl = page.url();

  // ---- the quote: all invoiced; the four invoices add up to it ----
  await backToQuote(page, quote.id);
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,265.00', invoiced: '$1,265.00', remaining: '$0.00' });
  await expect(stages).toContainText('100 % of the quote invoiced');
  await expect(stages).toContainText('All of the quote is invoiced');
  await expect(stages.getByRole('button', { name: 'Final invoice' })).toHaveCount(0);
  const list = stages.getByRole('list', { name: 'Stage invoices' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  for (const ref of [deposit, first, second, final]) await expect(list).toContainText(ref);
  const totals = await list.locator('.stages__total').allTextContents();
  const cents = totals.map((t) => Math.round(Number(t.replace(/[$,]/g, '')) * 100));
  expect(cents).toEqual([37950, 37950, 25300, 25300]);
  expect(cents.reduce((a, b) => a + b, 0)).toBe(126500);
  await openMoreActions(page);
  await expect(page.getByRole('button', { name: 'Convert to Invoice' })).toHaveCount(0);
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.stages button, .stages__item');
  await expectAccessible(page);
  await stages.scrollIntoViewIfNeeded();
  await shot(page, 'quote-stages', false);
  await shot(page, 'quote-full');

  // ---- the final invoice: mark issued, credit its Brackets line ----
  await page.goto(finalUrl);
  await expect(page.locator('.detail__ref')).toHaveText(final);
  await openMoreActions(page);
  await expect(page.getByRole('button', { name: 'Credit', exact: true })).toHaveCount(0);
  await detailAction(page, 'Mark as issued');
  await expect(page.getByTestId('draft-note')).toHaveCount(0);
  await detailAction(page, 'Credit');
  const form = page.getByRole('form', { name: 'Credit this invoice' });
  await form.getByRole('radio', { name: /^Some lines/ }).check();
  await form.getByRole('checkbox', { name: /Brackets/ }).check();
  await form.getByLabel('Reason').fill('Brackets supplied by the client');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.credit-form button, .credit-form .choice, .credit-form .input');
  await expectAccessible(page);
  await form.scrollIntoViewIfNeeded();
  await shot(page, 'credit-form', false);
  await form.getByRole('button', { name: 'Issue credit note' }).click();

  const notes = page.getByRole('region', { name: 'Credit notes' });
  await expect(notes).toBeVisible();
  const note = notes.getByTestId('credit-note-CN-0001');
  await expect(note).toContainText('Credit note CN-0001 issued');
  await expect(note).toContainText('$69.00');
  await expect(note).toContainText('Brackets supplied by the client');
  await expect(note).toContainText('GST $9.00');
  await expect(note.getByRole('button', { name: 'PDF of credit note CN-0001' })).toBeVisible();
  // Nothing was paid: nothing is owed back.
  await expect(note.getByRole('button', { name: /Record refund/ })).toHaveCount(0);
  await expect(page.getByTestId('detail-balance')).toHaveText('$184.00');
  await expect(page.getByTestId('detail-summary-credited')).toHaveText('$69.00');
  await expect(page.getByTestId('detail-credited')).toHaveText('$69.00');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.credit-notes button');
  await expectAccessible(page);
  await shot(page, 'credited-top', false);
  await notes.scrollIntoViewIfNeeded();
  await shot(page, 'credit-notes', false);
  await shot(page, 'credited-full');

  // The credit note's PDF is served.
  const listed = await request.get(`/api/v1/invoices/${finalUrl.split('/').pop()}/credit-notes`, { headers: user.authHeaders });
  const [cn] = (await listed.json()) as { id: string; total: number }[];
  expect(cn?.total).toBe(69);
  const pdf = await request.get(`/api/v1/credit-notes/${cn!.id}/pdf`, { headers: user.authHeaders });
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
});

test('a variation, a fixed deposit paid in full, then credited: the money owed back is refunded from the Credit notes card', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'credit-refund' });
  const quote = await quoteThroughApi(request, user);
  const accepted = await request.post(`/api/v1/invoices/${quote.id}/accept`, { headers: user.authHeaders });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // A variation, approved on the client's word: what can be invoiced grows by it.
  await page.goto(`/app/invoices/${quote.id}`);
  const stages = page.getByRole('region', { name: 'Stages' });
  await stages.getByRole('button', { name: 'Add variation' }).click();
  await stages.getByLabel('Description').fill('Extra downpipe');
  await stages.getByLabel('Unit price').fill('50');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.stages button, .stages .input, .stages .choice');
  await stages.getByRole('heading', { name: 'Add variation' }).scrollIntoViewIfNeeded();
  await shot(page, 'variation-form', false);
  await stages.getByRole('button', { name: 'Save variation' }).click();
  await expect(page.getByText('Variation 1 ($57.50) added: send it to the client for their approval')).toBeVisible();
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,265.00', invoiced: '$0.00', remaining: '$1,265.00' });
  await stages.getByTestId('variation-1').getByRole('button', { name: 'Mark approved' }).click();
  await stages.getByRole('button', { name: 'Yes, mark approved' }).click();
  await expect(page.getByText('Variation 1 marked approved: it can be invoiced now')).toBeVisible();
  await expect.poll(() => figures(page)).toEqual({ quoted: '$1,322.50', invoiced: '$0.00', remaining: '$1,322.50' });
  await expect(page.getByText('Extra downpipe')).toBeVisible();

  // A fixed-amount deposit through the UI.
  await invoiceStage(page, 'Invoice deposit', { mode: 'Amount', label: 'Amount (GST included)', value: '500' });
  await expect(page.getByTestId('detail-total')).toHaveText('$500.00');

  // Paid in full, then $100 credited as an amount: $100 is owed back.
  page.once('dialog', (dialog) => void dialog.accept());
  await detailAction(page, 'Mark Paid');
  await expect(page.getByTestId('detail-balance')).toHaveText('$0.00');
  await detailAction(page, 'Credit');
  const form = page.getByRole('form', { name: 'Credit this invoice' });
  await form.getByRole('radio', { name: /^An amount/ }).check();
  await form.getByLabel('Amount (GST included)').fill('100');
  await form.getByLabel('Reason').fill('Discount for the delay');
  await form.getByRole('button', { name: 'Issue credit note' }).click();
  const notes = page.getByRole('region', { name: 'Credit notes' });
  await expect(notes.getByTestId('credit-notes-to-refund')).toHaveText('$100.00');
  await expect(page.getByTestId('detail-balance')).toHaveText('-$100.00');

  await notes.getByRole('button', { name: 'Record refund on CN-0001' }).click();
  await expect(notes.getByLabel('Amount paid back')).toHaveValue('100.00');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  await notes.scrollIntoViewIfNeeded();
  await shot(page, 'refund-form', false);
  await notes.getByRole('button', { name: 'Save refund' }).click();
  await expect(notes.getByTestId('credit-notes-to-refund')).toHaveCount(0);
  await expect(notes.getByTestId('credit-note-CN-0001')).toContainText('$100.00 refunded');
  await expect(page.getByTestId('detail-balance')).toHaveText('$0.00');
});
