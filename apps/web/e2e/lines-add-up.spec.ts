// Every figure adds up on the page it is shown, at phone size: a 30 % deposit of a $2,911.66 quote
// shows its lines without GST ($543.75 for the Rinnai, 30 % of $1,812.50) adding up to the $759.57
// subtotal on the tradie's screen and on the client's page; after the invoice is paid, credited
// $80.00 and the $80.00 paid back, the client's page lists the credit note (its amount, reason and
// PDF) and figures that add up to the balance; the credit note's Email button says what happened to
// the email (on this server, only the outbox: never 'sent'); the annual summary names paid,
// credited and refunded apart. Money figures are the independent oracle's.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { oracleTotals } from '@tradie/testkit/oracle/oracle';
import { formatNzd, nzDateOf, taxYearLabel, taxYearOf } from '@tradie/domain';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

const cents = (text: string | null): bigint => BigInt((text ?? '').replace(/[^\d-]/g, '').replace(/^$/, '0')) * ((text ?? '').includes('−') ? -1n : 1n);

async function post(request: APIRequestContext, user: TestUser, path: string, data?: unknown): Promise<Record<string, unknown>> {
  const res = await request.post(`/api/v1${path}`, { headers: user.authHeaders, ...(data === undefined ? {} : { data }) });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** The amounts of the lines shown (the list of line items) and the subtotal shown under them. */
async function shownLines(page: Page, subtotalTestId: string): Promise<{ amounts: bigint[]; subtotal: bigint }> {
  const amounts = (await page.getByTestId('line-item-amount').allTextContents()).map(cents);
  return { amounts, subtotal: cents(await page.getByTestId(subtotalTestId).textContent()) };
}

/** Full-page pictures with the sticky header let go and the notice hidden. */
async function shot(page: Page, testInfo: Parameters<typeof saveScreenshot>[1], name: string): Promise<void> {
  const unstick = await page.addStyleTag({ content: '.app-header { position: static !important; } .doc-notice-region { display: none !important; }' });
  await saveScreenshot(page, testInfo, name);
  await unstick.evaluate((el) => (el as Element).remove());
}

test('a deposit invoice, a credit note and a refund: every page adds up, and the client sees the credit', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'lines-add-up' });
  const client = await post(request, user, '/clients', { name: 'Aroha Ngata', email: 'aroha@example.nz' });
  const quote = await post(request, user, '/invoices', {
    type: 'quote',
    client_id: client.id,
    line_items: [
      { description: 'Rinnai Infinity 26 water heater, supplied and fitted', qty: 1, unit_price: '1812.50' },
      { description: 'Labour', qty: 8, unit_price: 85 },
      { description: 'Fittings and sundries', qty: 1, unit_price: '39.38' },
    ],
  });
  expect(quote.total).toBe(2911.66);
  await post(request, user, `/invoices/${String(quote.id)}/accept`);
  const deposit = await post(request, user, `/invoices/${String(quote.id)}/stages`, { kind: 'deposit', percent: 30 });
  const id = String(deposit.id);
  // The deposit's lines as priced (GST included), and the oracle's subtotal of them.
  const priced = (deposit.line_items as { unit_price: number }[]).map((l) => ({ qty: '1', unitPrice: l.unit_price.toFixed(2), inclusive: true, rate: '0.15' as const }));
  const oracle = oracleTotals(priced, 'total');
  expect([oracle.total, oracle.subtotal]).toEqual([87350n, 75957n]);

  // ---- the tradie's screen: lines without GST, adding up to the subtotal ----
  await page.goto(`/app/invoices/${id}`);
  await expect(page.getByTestId('detail-subtotal')).toHaveText(formatNzd(oracle.subtotal));
  const onScreen = await shownLines(page, 'detail-subtotal');
  expect(onScreen.amounts).toEqual([54375n, 20400n, 1182n]);
  expect(onScreen.amounts.reduce((a, b) => a + b, 0n)).toBe(onScreen.subtotal);
  await expect(page.locator('.line-items').first()).toContainText('1 × $543.75');
  await expect(page.locator('.line-items').first()).not.toContainText('$625.31');
  await expect(page.getByText('Subtotal (excl. GST)')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, '/app/invoices/deposit-lines');

  // ---- paid in full, credited $80.00, the $80.00 paid back (through the API) ----
  const link = await post(request, user, `/invoices/${id}/link`);
  await post(request, user, `/invoices/${id}/mark-paid`, {});
  const note = await post(request, user, `/invoices/${id}/credit-notes`, { amount: '80.00', reason: 'Labour not needed' });
  await post(request, user, `/credit-notes/${String(note.id)}/refunds`, { amount: 80, method: 'bank_transfer', reference: 'Refund' });

  // ---- the client's page, on a phone: the credit note, and figures that add up ----
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await phone.goto(new URL(String(link.url)).pathname);
  await expect(phone.getByRole('heading', { level: 1, name: /^Tax invoice INV-/ })).toBeVisible();
  const clientLines = await shownLines(phone, 'client-subtotal');
  expect(clientLines.amounts.reduce((a, b) => a + b, 0n)).toBe(oracle.subtotal);
  expect(clientLines.subtotal).toBe(oracle.subtotal);
  const figure = async (testId: string) => cents(await phone.getByTestId(testId).textContent());
  const [total, credited, paid, refunded, balance] = await Promise.all(['client-total', 'client-credited', 'client-paid', 'client-refunded', 'client-balance'].map(figure));
  // Total, less the credit note, less what was paid, plus what was paid back: the balance.
  expect([total, credited, paid, refunded, balance]).toEqual([oracle.total, -8000n, 87350n, 8000n, 0n]);
  expect(total! + credited! - paid! + refunded!).toBe(balance);
  const notes = phone.getByRole('region', { name: 'Credit notes' });
  await expect(notes).toContainText('CN-0001');
  await expect(notes).toContainText('Labour not needed');
  await expect(notes).toContainText('−$80.00');
  await expect(notes).toContainText('$80.00 paid back to you');
  const pdfLink = notes.getByRole('link', { name: /Download the PDF of credit note CN-0001/ });
  const pdf = await phone.request.get(String(await pdfLink.getAttribute('href')));
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await saveScreenshot(phone, testInfo, '/i/credit-note');
  await phone.context().close();

  // ---- the tradie emails the credit note: the outbox is not 'sent' ----
  await page.reload();
  const card = page.getByRole('region', { name: 'Credit notes' });
  await card.getByRole('button', { name: /Email to client/ }).click();
  await expect(page.getByText('Credit note CN-0001 was not emailed: Saved to the outbox — email is not set up on this server')).toBeVisible();
  await expect(card.getByRole('list', { name: 'Emails of CN-0001' })).toContainText('To aroha@example.nz');
  await expect(card.getByRole('list', { name: 'Emails of CN-0001' })).toContainText('Saved to the outbox');
  await expectNoHorizontalOverflow(page);
  await card.scrollIntoViewIfNeeded();
  await shot(page, testInfo, '/app/invoices/credit-note-emailed');

  // ---- the annual summary: paid $690.00 (759.57 − 69.57), credited and refunded apart ----
  const year = taxYearOf(nzDateOf(new Date()));
  await page.goto('/app/reports');
  await page.getByRole('tab', { name: 'Annual Summary' }).click();
  await page.getByRole('tabpanel', { name: 'Annual Summary' }).getByRole('button', { name: 'Generate Report' }).click();
  const results = page.getByRole('region', { name: `${taxYearLabel(year)} Annual Summary` });
  await expect(results.getByTestId('annual-total-revenue')).toHaveText('$690.00');
  await expect(results.getByTestId('annual-paid-revenue')).toHaveText('$690.00');
  await expect(results.getByTestId('annual-unpaid-revenue')).toHaveText('$0.00');
  await expect(results.getByTestId('annual-credited')).toHaveText('-$69.57');
  await expect(results.getByTestId('annual-refunded')).toHaveText('$80.00');
  await expect(results.getByTestId('report-corrections')).toContainText('Includes 1 credit note in this tax year');
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, '/app/reports/annual-credited');
  expect(errors).toEqual([]);
});
