// A variation after the client accepted a quote, end to end through the real API at phone size: the
// client accepted a $2,929.66 quote on its link; the tradie adds a variation (an extra downpipe,
// $120.00) on the quote's Stages card — the quote as accepted stays, the variation shows apart —
// and sends it (to the outbox: the e2e server has no mail server, and the screen says so); the
// client opens the quote's link from that email, sees the quote as they accepted it and the
// variation apart, and approves it with their name and a finger signature; the tradie sees it
// approved and invoices it: a new invoice of $120.00.
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets } from './helpers.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

/** Where the screenshots go (looked at by hand; not compared). */
const shotDir = join(tmpdir(), 'variations-shots');
const shot = (page: Page, testInfo: TestInfo, name: string, fullPage = true) =>
  page.screenshot({ path: join(shotDir, `${testInfo.project.name}-${name}.png`), fullPage });

/** The client's own phone: a fresh browser with nobody signed in, the same screen as the test's. */
async function clientPhone(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ viewport, isMobile, hasTouch, deviceScaleFactor, baseURL, locale, timezoneId });
  return context.newPage();
}

/** The quote's link in the newest email to `to` whose subject has `subject`. */
async function quoteLinkInEmail(to: string, subject: string): Promise<string> {
  const mail = await waitForEmailTo(to, subject);
  const found = /https?:\/\/\S+\/q\/[A-Za-z0-9_-]{32,64}/.exec(mail.mail.text ?? '');
  expect(found, `a /q/ link in: ${mail.mail.text ?? ''}`).not.toBeNull();
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
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 30 + i * 20, y - Math.sin(i) * 30, { steps: 2 });
  await page.mouse.up();
}

/** The notice at the foot of the screen lies over the buttons below it: dismissed before checking targets. */
async function dismissNotice(page: Page): Promise<void> {
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.isVisible()) await dismiss.click();
  await expect(dismiss).toHaveCount(0);
}

test('the tradie adds a variation to an accepted quote and sends it; the client approves it on the link; the tradie invoices it', async ({ page, request, browser }, testInfo) => {
  test.setTimeout(120_000);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'variations' });
  const clientEmail = `aroha-${Date.now()}@example.co.nz`;
  const auth = user.authHeaders;

  // ---- A quote of $1,812.50 + $735.03 + GST = $2,929.66, sent, and accepted by the client on its link ----
  const settings = await request.put('/api/v1/business-settings', { headers: auth, data: { business_name: 'Rata Plumbing' } });
  expect(settings.status(), await settings.text()).toBe(200);
  const client = await request.post('/api/v1/clients', { headers: auth, data: { name: 'Aroha Ngata', email: clientEmail } });
  const clientId = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', {
    headers: auth,
    data: { type: 'quote', client_id: clientId, line_items: [{ description: 'Hot water cylinder, supplied and fitted', qty: 1, unit_price: 1812.5 }, { description: 'Labour', qty: 1, unit_price: 735.03 }] },
  });
  expect(created.status()).toBe(201);
  const quote = (await created.json()) as { id: string; reference: string; total: number };
  expect(quote.total).toBe(2929.66);
  expect((await request.post(`/api/v1/invoices/${quote.id}/send`, { headers: { ...auth, 'Idempotency-Key': randomUUID() } })).status()).toBe(200);
  const quotePath = await quoteLinkInEmail(clientEmail, '');
  const token = quotePath.split('/').pop()!;
  const page0 = (await (await request.get(`/api/v1/public/quotes/${token}`)).json()) as { shown_sha256: string; version: number };
  const accepted = await request.post(`/api/v1/public/quotes/${token}/accept`, { data: { signer_name: 'Aroha Ngata', shown_sha256: page0.shown_sha256, version: page0.version } });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // ---- The tradie adds a variation on the Stages card ----
  await page.goto(`/app/invoices/${quote.id}`);
  const stages = page.getByRole('region', { name: 'Stages' });
  await expect(stages).toBeVisible();
  await stages.getByRole('button', { name: 'Add variation' }).click();
  await stages.getByLabel('Description').fill('Extra downpipe');
  await stages.getByLabel('Unit price').fill('104.35');
  await stages.getByLabel('Why (optional)').fill('The old downpipe is cracked');
  await stages.getByRole('button', { name: 'Save variation' }).click();
  await expect(page.getByText('Variation 1 ($120.00) added: send it to the client for their approval')).toBeVisible();

  // The quote as accepted stays; the variation shows apart.
  await expect(page.getByTestId('detail-total')).toHaveText('$2,929.66');
  await expect(page.getByTestId('detail-variations-summary')).toHaveText('Accepted $2,929.66 · Variation 1 $120.00 awaiting approval');
  await expect(page.getByTestId('stages-quoted')).toHaveText('$2,929.66');
  const row = stages.getByTestId('variation-1');
  await expect(row).toContainText('Awaiting approval');
  await expect(row).toContainText('Not sent to the client yet');
  await expect(row.getByRole('button', { name: /^Invoice Variation 1/ })).toHaveCount(0);

  // ---- Sent: to the outbox (no mail server here), and the screen says so, never 'sent' ----
  await row.getByRole('button', { name: 'Send to client' }).click();
  await expect(page.getByText('Saved to the outbox — email is not set up on this server').first()).toBeVisible();
  await expect(row).toContainText('Not sent: Saved to the outbox');
  await dismissNotice(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.stages button, .stages .input');
  await expectNoSeriousA11yViolations(page);
  await row.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'tradie-variation-waiting', false);
  await shot(page, testInfo, 'tradie-variation-waiting-full');

  // ---- The client: the quote's link from the variation's email, on their phone ----
  const linkInVariationEmail = await quoteLinkInEmail(clientEmail, `Variation 1 to quote ${quote.reference}`);
  expect(linkInVariationEmail).toBe(quotePath);
  const phone = await clientPhone(browser, testInfo);
  await phone.goto(quotePath);
  await expect(phone.getByTestId('quote-state')).toContainText('Accepted by Aroha Ngata');
  await expect(phone.getByTestId('client-total')).toHaveText('$2,929.66');
  await expect(phone.getByTestId('variations-summary')).toHaveText('Accepted $2,929.66 · Variation 1 $120.00 awaiting approval');
  await expect(phone.getByText('The old downpipe is cracked')).toBeVisible();
  await expectNoHorizontalOverflow(phone);
  await expectTapTargets(phone, '.client-page button, .client-page a.button');
  await expectNoSeriousA11yViolations(phone);
  await shot(phone, testInfo, 'client-variation-open');
  await phone.getByRole('button', { name: 'Approve Variation 1', exact: true }).click();
  await phone.getByLabel('Your full name').fill('Aroha Ngata');
  await sign(phone);
  await shot(phone, testInfo, 'client-variation-signing');
  await phone.getByRole('button', { name: 'Approve Variation 1 ($120.00)' }).click();
  await expect(phone.getByTestId('variations-summary')).toHaveText('Accepted $2,929.66 · Variation 1 $120.00 approved');
  await expect(phone.getByText(/^Approved by Aroha Ngata on \d{1,2} \w+ \d{4} \(signed\)$/)).toBeVisible();
  await expect(phone.getByTestId('client-total')).toHaveText('$2,929.66');
  await expectNoHorizontalOverflow(phone);
  await shot(phone, testInfo, 'client-variation-approved');
  await phone.context().close();

  // ---- The tradie: approved by the client; invoiced ----
  await page.reload();
  await expect(page.getByTestId('detail-variations-summary')).toHaveText('Accepted $2,929.66 · Variation 1 $120.00 approved');
  await expect(row).toContainText(/Approved by Aroha Ngata on \d{2}\/\d{2}\/\d{4} \(signed\)/);
  await expect(page.getByTestId('stages-quoted')).toHaveText('$3,049.66');
  await dismissNotice(page);
  await row.scrollIntoViewIfNeeded();
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.stages button');
  await shot(page, testInfo, 'tradie-variation-approved', false);
  await row.getByRole('button', { name: 'Invoice Variation 1 ($120.00)' }).click();
  await expect(page.getByTestId('draft-note')).toBeVisible();
  await expect(page.getByTestId('detail-total')).toHaveText('$120.00');
  await expect(page.getByText(/Progress \(100\s?% of the line\): Variation 1: Extra downpipe/)).toBeVisible();
  await shot(page, testInfo, 'variation-invoice');
  await page.getByRole('link', { name: 'View the quote' }).click();
  await expect(page.getByTestId('stages-invoiced')).toHaveText('$120.00');
  await expect(page.getByTestId('stages-remaining')).toHaveText('$2,929.66');
  await expect(stages.getByTestId('variation-1')).toContainText('Invoiced $120.00: all of it');
  await shot(page, testInfo, 'tradie-quote-after');
});
