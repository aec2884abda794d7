// The client's side of a quote and an invoice, end to end through the real API at phone size: the
// tradie sends a quote (to the outbox: the e2e server has no mail server), the client opens the
// link in the email without signing in, types their name, signs with a finger, ticks the terms and
// accepts; the tradie sees who accepted and the timeline, converts the quote and sends the invoice;
// with card payments set up (Settings → Payments → Stripe's onboarding, played by the fake Stripe)
// the client pays the invoice on the fake Checkout page and the tradie's list shows it paid.
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, detailAction } from './helpers.ts';
import { readFakes } from './support/fakes.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

const TERMS = 'A 30% deposit is due when the quote is accepted. The balance is due on completion.';

/** Where the screenshots go (looked at by hand; not compared). */
const shotDir = join(tmpdir(), 'client-links-shots');
const shot = (page: Page, testInfo: TestInfo, name: string) => page.screenshot({ path: join(shotDir, `${testInfo.project.name}-${name}.png`), fullPage: true });

/** The client's own phone: a fresh browser with nobody signed in, the same screen as the test's. */
async function clientPhone(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId });
  return context.newPage();
}

/** The client's link in the newest email to `to`: '/q/…' for a quote, '/i/…' for an invoice. */
async function linkInEmail(to: string, subject: string, kind: 'q' | 'i'): Promise<string> {
  const mail = await waitForEmailTo(to, subject);
  const found = new RegExp(`https?://\\S+/${kind}/[A-Za-z0-9_-]{32,64}`).exec(mail.mail.text ?? '');
  expect(found, `a /${kind}/ link in: ${mail.mail.text ?? ''}`).not.toBeNull();
  return new URL(found![0]).pathname;
}

/** A finger signature: a few strokes across the pad. */
async function sign(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad has no box');
  const y = box.y + box.height * 0.6;
  await page.mouse.move(box.x + 30, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 20, y - Math.sin(i) * 30, { steps: 2 });
  await page.mouse.up();
  await page.mouse.move(box.x + 80, y - 40);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, y + 10, { steps: 6 });
  await page.mouse.up();
}

test('a client accepts a quote with a signature from the link, then pays the invoice by card', async ({ page, request, browser, context }, testInfo) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'links' });
  const clientEmail = `jo-${Date.now()}@example.co.nz`;

  // ---- The tradie: business name and quote terms (Settings → Business & Logo) ----
  await page.goto('/app/settings?tab=business');
  await page.getByLabel('Business Name').fill('Ngata Plumbing');
  await page.getByLabel('Quote terms').fill(TERMS);
  await page.getByLabel('Account Name').fill('Ngata Plumbing Ltd');
  await page.getByLabel('Account Number').fill('12-3456-7890103-00');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Settings saved successfully!');

  // ---- A quote for Jo, sent (to the outbox) ----
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Jo Bloggs', email: clientEmail } });
  expect(client.status()).toBe(201);
  const clientId = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'quote', client_id: clientId, notes: 'Parts are on order.', line_items: [{ description: 'Replace hot water cylinder', qty: 1, unit_price: 2000 }, { description: 'Call-out', qty: 1, unit_price: 100 }] },
  });
  expect(created.status()).toBe(201);
  const quoteId = ((await created.json()) as { id: string }).id;

  await page.goto(`/app/invoices/${quoteId}`);
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Quote' }).click();
  const linkCard = page.getByRole('region', { name: 'Client link' });
  await expect(linkCard).toBeVisible();
  await expect(linkCard.getByText('Not yet')).toBeVisible();
  const quotePath = await linkInEmail(clientEmail, '', 'q');

  // ---- The client: the quote from the email, on their phone, not signed in ----
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(quotePath);
  await expect(phone.getByRole('heading', { level: 1, name: /^Quote / })).toBeVisible();
  await expect(phone.getByText('Ngata Plumbing', { exact: true })).toBeVisible();
  await expect(phone.getByText('Replace hot water cylinder')).toBeVisible();
  await expect(phone.getByTestId('client-total')).toHaveText('$2,415.00');
  await expect(phone.getByText(TERMS)).toBeVisible();
  await expect(phone.getByRole('link', { name: /Download the PDF/ })).toHaveAttribute('href', /^\/api\/v1\/public\/quotes\/.+\/pdf$/);
  await expectNoHorizontalOverflow(phone);
  await expectTapTargets(phone, '.client-page button, .client-page a.button, .client-page .choice, .client-business__link');
  await expectNoSeriousA11yViolations(phone);
  await shot(phone, testInfo, 'quote-open');

  // Accept without a name or the tick: told what is missing.
  await phone.getByRole('button', { name: 'Accept quote' }).click();
  await expect(phone.getByRole('alert')).toHaveText('Please type your full name');
  await phone.getByLabel('Your full name').fill('Jo Bloggs');
  await phone.getByRole('button', { name: 'Accept quote' }).click();
  await expect(phone.getByRole('alert')).toHaveText('Please tick that you accept the terms');
  await phone.getByLabel('I have read and accept the terms').check();
  await sign(phone);
  await expect(phone.getByRole('button', { name: 'Clear the signature' })).toBeEnabled();
  await shot(phone, testInfo, 'quote-signed');
  // A double tap sends one acceptance.
  const accepts: string[] = [];
  phone.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/accept')) accepts.push(r.url());
  });
  await phone.getByRole('button', { name: 'Accept quote' }).dblclick();
  await expect(phone.getByTestId('quote-state')).toContainText(/Accepted by Jo Bloggs on \d{1,2} \w+ \d{4} \(signed\)/);
  expect(accepts).toHaveLength(1);
  await expect(phone.getByRole('button', { name: 'Accept quote' })).toHaveCount(0);
  await expectNoHorizontalOverflow(phone);
  await shot(phone, testInfo, 'quote-accepted');

  // ---- The tradie: who accepted, the timeline, the link's views — on the screen left open, without reloading ----
  await expect(page.getByTestId('accepted-online')).toHaveText(/^Accepted by Jo Bloggs on \d{1,2} \w+ \d{4} \(signed\)$/, { timeout: 25_000 });
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Accepted by Jo Bloggs' })).toBeVisible();
  await expect(linkCard.getByText('Once')).toBeVisible();
  await linkCard.getByRole('button', { name: 'Copy link' }).click();
  await expect(linkCard.getByRole('button', { name: 'Copied ✓' })).toBeVisible();
  expect(new URL(await page.evaluate(() => navigator.clipboard.readText())).pathname).toBe(quotePath);
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'tradie-quote-accepted');

  // ---- Card payments: Settings → Payments → Stripe's onboarding (the fake) → back; a 2% card fee ----
  const fakes = readFakes();
  await page.goto('/app/settings?tab=payments');
  await expect(page.getByTestId('payments-status')).toContainText('Not set up');
  await page.getByRole('button', { name: 'Accept card payments' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/connect/onboarding/`));
  await page.getByRole('button', { name: 'Complete' }).click();
  await page.waitForURL(/\/app\/settings/);
  await expect(page.getByTestId('payments-status')).toContainText('Card payments are on');
  await page.getByRole('switch', { name: 'Pass the card fee on to my clients' }).check();
  await page.getByLabel('Card fee (%)').fill('2');
  await page.getByRole('button', { name: 'Save card fee' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Payment settings saved');
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'tradie-payments');

  // ---- The quote becomes an invoice, sent to Jo ----
  await page.goto(`/app/invoices/${quoteId}`);
  await detailAction(page, 'Convert to Invoice');
  await expect(page.getByText('Made from a quote.')).toBeVisible();
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('region', { name: 'Client link' })).toBeVisible();
  const invoicePath = await linkInEmail(clientEmail, 'Invoice', 'i');

  // ---- The client pays by card: the fee and the total first, then the fake Checkout ----
  await phone.goto(invoicePath);
  await expect(phone.getByRole('heading', { level: 1, name: /^Tax invoice / })).toBeVisible();
  await expect(phone.getByTestId('client-balance')).toHaveText('$2,415.00');
  await expect(phone.getByTestId('client-surcharge')).toHaveText('$48.30');
  await expect(phone.getByTestId('client-pay-total')).toHaveText('$2,463.30');
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await shot(phone, testInfo, 'invoice-open');
  await phone.getByRole('button', { name: /^Pay now/ }).click();
  await phone.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/connect/checkout/`));
  await expect(phone.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await phone.getByRole('button', { name: 'Pay' }).click();
  await phone.waitForURL(/\/i\/[A-Za-z0-9_-]+\?paid=1/);
  await expect(phone.getByText(/Thank you — your payment is being confirmed|This invoice is paid. Thank you!/)).toBeVisible();
  await expect(phone.getByTestId('invoice-state')).toHaveText('This invoice is paid. Thank you!', { timeout: 20_000 });
  await expectNoHorizontalOverflow(phone);
  await shot(phone, testInfo, 'invoice-paid');

  // ---- The tradie's list: paid ----
  await page.goto('/app/invoices?tab=invoices');
  await expect(page.getByText('✓ Paid').first()).toBeVisible();
  await page.goto(`/app/invoices/${quoteId}`);
  await expect(page.getByRole('region', { name: 'Timeline' })).toBeVisible();
  await phone.context().close();
});

test('a withdrawn link shows why, full page', async ({ page, request, browser }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'links-withdrawn' });
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Mere Tane', email: `mere-${Date.now()}@example.co.nz` } });
  const clientId = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'quote', client_id: clientId, line_items: [{ description: 'Gutter clean', qty: 1, unit_price: 180 }] } });
  const id = ((await created.json()) as { id: string }).id;
  const sent = await request.post(`/api/v1/invoices/${id}/send`, { headers: { ...user.authHeaders, 'Idempotency-Key': randomUUID() } });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  const issued = await request.post(`/api/v1/invoices/${id}/link`, { headers: user.authHeaders });
  expect(issued.status()).toBeLessThan(300);
  const url = ((await issued.json()) as { url: string }).url;

  await page.goto(`/app/invoices/${id}`);
  const card = page.getByRole('region', { name: 'Client link' });
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Withdraw link' }).click();
  await expect(card.getByText('No link yet. Copy link makes one.')).toBeVisible();

  const phone = await clientPhone(browser, testInfo);
  await phone.goto(new URL(url).pathname);
  await expect(phone.getByRole('alert')).toContainText('This link was withdrawn by the business.');
  await expectNoHorizontalOverflow(phone);
  await shot(phone, testInfo, 'link-withdrawn');
  await phone.context().close();
});

test('a business that deleted its account: the links it sent say so plainly, also on a page left open', async ({ page, request, browser }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'links-closed' });
  const settings = await request.put('/api/v1/business-settings', { headers: user.authHeaders, data: { business_name: 'Rātā Roofing', phone: '021 555 0142' } });
  expect(settings.status(), await settings.text()).toBe(200);
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Wiremu Tane', email: `wiremu-${Date.now()}@example.co.nz` } });
  const clientId = ((await client.json()) as { id: string }).id;
  const linkTo = async (type: 'quote' | 'invoice') => {
    const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type, client_id: clientId, line_items: [{ description: 'Re-roof, long-run iron', qty: 1, unit_price: 14_500 }] } });
    const id = ((await created.json()) as { id: string }).id;
    const sent = await request.post(`/api/v1/invoices/${id}/send`, { headers: { ...user.authHeaders, 'Idempotency-Key': randomUUID() } });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    const issued = await request.post(`/api/v1/invoices/${id}/link`, { headers: user.authHeaders });
    return new URL(((await issued.json()) as { url: string }).url).pathname;
  };
  const quotePath = await linkTo('quote');
  const invoicePath = await linkTo('invoice');

  // The client has the quote open on their phone...
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(quotePath);
  await expect(phone.getByText('Rātā Roofing', { exact: true })).toBeVisible();
  await phone.getByLabel('Your full name').fill('Wiremu Tane');

  // ...when the business deletes its account.
  const deleted = await request.post('/api/v1/account/delete', { headers: user.authHeaders, data: { confirm: 'DELETE', password: user.password } });
  expect(deleted.status(), await deleted.text()).toBe(200);

  // Accepting now: the whole page says why, and nothing of the business or the quote is left on it.
  await phone.getByRole('button', { name: 'Accept quote' }).click();
  const problem = phone.getByRole('alert');
  await expect(problem.getByRole('heading', { level: 1 })).toHaveText('This link no longer works');
  await expect(problem).toContainText('This business has closed its account.');
  await expect(phone.getByText('Rātā Roofing')).toHaveCount(0);
  await expect(phone.getByRole('button', { name: 'Accept quote' })).toHaveCount(0);
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await shot(phone, testInfo, 'quote-business-closed');

  // The invoice's link, opened afresh: the same words, and no way to pay.
  await phone.goto(invoicePath);
  await expect(phone.getByRole('alert')).toContainText('This business has closed its account.');
  await expect(phone.getByRole('button', { name: /Pay now/ })).toHaveCount(0);
  await expect(phone.getByText('Rātā Roofing')).toHaveCount(0);
  await expectNoHorizontalOverflow(phone);
  await shot(phone, testInfo, 'invoice-business-closed');
  await phone.context().close();
});

test('a client declines a quote with reasons; an invoice without card payments shows the bank details', async ({ page, request, browser }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'links-bank' });
  const settings = await request.put('/api/v1/business-settings', {
    headers: user.authHeaders,
    data: { business_name: 'Kōwhai Electrical', phone: '021 555 0199', email: 'office@kowhai.example.nz', address: '12 Rātā Street', city: 'Whangārei', postcode: '0110', bank_name: 'Kiwibank', bank_account_name: 'Kōwhai Electrical Ltd', bank_account_number: '38-9000-0123458-00' },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const email = `mere-${Date.now()}@example.co.nz`;
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Mere Tāwhiao', email } });
  const clientId = ((await client.json()) as { id: string }).id;
  const make = async (type: 'quote' | 'invoice') => {
    const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type, client_id: clientId, line_items: [{ description: 'Heat pump install, Mitsubishi 6 kW, back-to-back', qty: 1, unit_price: 2400 }] } });
    const id = ((await created.json()) as { id: string }).id;
    const sent = await request.post(`/api/v1/invoices/${id}/send`, { headers: { ...user.authHeaders, 'Idempotency-Key': randomUUID() } });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    return id;
  };

  // ---- The quote: declined, with two reasons and a note ----
  await make('quote');
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(await linkInEmail(email, '', 'q'));
  await expect(phone.getByRole('link', { name: '021 555 0199' })).toHaveAttribute('href', 'tel:0215550199');
  // No terms set: nothing to tick.
  await expect(phone.getByRole('checkbox')).toHaveCount(0);
  await phone.getByRole('button', { name: 'Decline' }).click();
  await phone.getByLabel('Price is too high').check();
  await phone.getByLabel('Timing does not suit').check();
  await phone.getByLabel('Anything else to tell them? (optional)').fill('We will wait until winter.');
  await expectNoHorizontalOverflow(phone);
  await expectTapTargets(phone, '.client-page button, .client-reason, .client-business__link');
  await shot(phone, testInfo, 'quote-decline');
  await phone.getByRole('button', { name: 'Decline quote' }).click();
  await expect(phone.getByTestId('quote-state')).toContainText('You have already declined this quote.');
  await expect(phone.getByTestId('quote-state')).toContainText('Price is too high, Timing does not suit');
  await expect(phone.getByRole('button', { name: 'Accept quote' })).toHaveCount(0);

  // ---- The invoice: no card payments for this business, so the bank details ----
  const invoiceId = await make('invoice');
  const issued = await request.post(`/api/v1/invoices/${invoiceId}/link`, { headers: user.authHeaders });
  const invoiceUrl = ((await issued.json()) as { url: string }).url;
  await phone.goto(new URL(invoiceUrl).pathname);
  await expect(phone.getByRole('heading', { level: 1, name: /^Tax invoice / })).toBeVisible();
  const howToPay = phone.getByRole('region', { name: 'How to pay' });
  await expect(howToPay).toContainText('38-9000-0123458-00');
  await expect(howToPay).toContainText('Kōwhai Electrical Ltd');
  await expect(phone.getByTestId('client-balance')).toHaveText('$2,760.00');
  await expect(phone.getByRole('button', { name: /Pay now/ })).toHaveCount(0);
  await expectNoHorizontalOverflow(phone);
  await expectNoSeriousA11yViolations(phone);
  await shot(phone, testInfo, 'invoice-bank');
  await phone.context().close();
});

test('a card payment that comes in after the invoice was part paid by bank is flagged on the home screen until Done', async ({ page, request, browser }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'links-overpaid' });
  const fakes = readFakes();
  await page.goto('/app/settings?tab=payments');
  await page.getByRole('button', { name: 'Accept card payments' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fakes.stripe}/connect/onboarding/`));
  await page.getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByTestId('payments-status')).toContainText('Card payments are on');

  // An invoice of $115.00 sent with its link; the client opens Checkout for the whole of it.
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Aroha Ngata', email: `aroha-${Date.now()}@example.co.nz` } });
  const clientId = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', client_id: clientId, line_items: [{ description: 'Tap washer', qty: 1, unit_price: 100 }] } });
  const invoice = (await created.json()) as { id: string; reference: string };
  expect((await request.post(`/api/v1/invoices/${invoice.id}/send`, { headers: { ...user.authHeaders, 'Idempotency-Key': randomUUID() } })).status()).toBeLessThan(300);
  const url = ((await (await request.post(`/api/v1/invoices/${invoice.id}/link`, { headers: user.authHeaders })).json()) as { url: string }).url;
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(new URL(url).pathname);
  await phone.getByRole('button', { name: /^Pay now/ }).click();
  await phone.waitForURL((u) => u.href.startsWith(`${fakes.stripe}/connect/checkout/`));

  // Meanwhile $15.00 arrives by bank transfer; then the client pays the $115.00 by card.
  const part = await request.post(`/api/v1/invoices/${invoice.id}/payments`, { headers: { ...user.authHeaders, 'Idempotency-Key': randomUUID() }, data: { amount: 15, method: 'bank_transfer' } });
  expect(part.status()).toBe(201);
  await phone.getByRole('button', { name: 'Pay' }).click();
  await phone.waitForURL(/\/i\/[A-Za-z0-9_-]+\?paid=1/);
  await phone.context().close();

  // The home screen says what happened and what to do, with the invoice and Stripe's payments page.
  await expect
    .poll(async () => ((await (await request.get('/api/v1/payments/issues', { headers: user.authHeaders })).json()) as { items: unknown[] }).items.length, { timeout: 20_000 })
    .toBe(1);
  await page.goto('/app');
  const banner = page.getByTestId('home-payment-issues');
  await expect(banner.getByRole('heading', { name: 'A card payment needs you in Stripe' })).toBeVisible();
  await expect(banner).toContainText(`${invoice.reference}: The invoice was paid some other way while the client paid by card: $15.00 more than was owed. Refund the difference in Stripe.`);
  await expect(banner.getByRole('link', { name: /^Open Stripe/ })).toHaveAttribute('href', 'https://dashboard.stripe.com/payments');
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '[data-testid="home-payment-issues"] a, [data-testid="home-payment-issues"] button');
  await expectNoSeriousA11yViolations(page);
  await shot(page, testInfo, 'home-payment-issue');
  await banner.getByRole('link', { name: `Open ${invoice.reference}` }).click();
  await expect(page).toHaveURL(new RegExp(`/app/invoices/${invoice.id}$`));
  await page.goBack();
  await page.getByTestId('home-payment-issues').getByRole('button', { name: `Done with the card payment for ${invoice.reference}` }).click();
  await expect(page.getByTestId('home-payment-issues')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Hello!' })).toBeVisible();
  await expect(page.getByTestId('home-payment-issues')).toHaveCount(0);
});
