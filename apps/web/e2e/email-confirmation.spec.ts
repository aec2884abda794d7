import { expect, test, type Page, type Route } from '@playwright/test';
import { EMAIL_UNCONFIRMED_CODE, SENDING_MESSAGES } from '@tradie/contracts';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, saveScreenshot, detailAction } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

// No free mail relay, in the browser. The e2e servers keep mail in their outbox, where nothing
// needs confirming, so the answers of a server that really sends mail (SMTP) are played with
// page.route; the made-up link is refused by the real server.

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (route: Route) =>
  route.fulfill({ status, contentType: 'application/json', headers, body: JSON.stringify(body) });

/** axe over the page with the sticky header let go (it would otherwise cover what it checks). */
async function expectAccessible(page: Page): Promise<void> {
  const unstick = await page.addStyleTag({ content: '.app-header { position: static !important; } .doc-notice-region { display: none !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => (el as Element).remove());
}

test('Send: an unconfirmed email address offers to resend the link; the limits say what to do', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request);
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hēmi Walker', email: 'hemi@example.co.nz' } });
  expect(client.status()).toBe(201);
  const created = await request.post('/api/v1/invoices', {
    headers: user.authHeaders,
    data: { type: 'invoice', client_id: ((await client.json()) as { id: string }).id, line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 100 }] },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  const unconfirmed = SENDING_MESSAGES.confirmFirst(user.email);
  await page.route('**/api/v1/invoices/*/send', json(403, { detail: unconfirmed, code: EMAIL_UNCONFIRMED_CODE }));
  await page.route('**/api/v1/auth/resend-confirmation', json(200, { detail: SENDING_MESSAGES.confirmationSent(user.email) }));

  await page.goto(`/app/invoices/${id}`);
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('alert')).toHaveText(unconfirmed);
  await page.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'confirmation link' })).toHaveText(`We sent a new confirmation link to ${user.email}.`);
  await saveScreenshot(page, testInfo, '/app/invoice-detail-send-unconfirmed');
  await expectAccessible(page);
  await expectNoHorizontalOverflow(page);

  // Too many new links: the server's sentence, in place of the last note.
  const tooManyLinks = "We've already sent you 3 confirmation links this hour. Please check your inbox (and spam folder), or try again in 40 minutes.";
  await page.unroute('**/api/v1/auth/resend-confirmation');
  await page.route('**/api/v1/auth/resend-confirmation', json(429, { detail: tooManyLinks }, { 'Retry-After': '2400' }));
  await page.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'confirmation links' })).toHaveText(tooManyLinks);

  // Over the trial's daily recipients: its sentence, and no resend button (the address is fine).
  const overLimit = "Trial accounts can email up to 50 recipients a day. You've reached today's limit — subscribe to send more, or try again tomorrow.";
  await page.unroute('**/api/v1/invoices/*/send');
  await page.route('**/api/v1/invoices/*/send', json(429, { detail: overLimit }, { 'Retry-After': '9000' }));
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByRole('alert')).toHaveText(overLimit);
  await expect(page.getByRole('button', { name: 'Resend confirmation email' })).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  expect(errors.filter((e) => !/status of 40[0-9]|status of 429/.test(e))).toEqual([]);
});

test('/confirm-email: a made-up link is refused; a good one confirms, signed in or not', async ({ page, request }, testInfo) => {
  await page.goto('/confirm-email?token=made-up-link');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email');
  await expect(page.getByRole('alert')).toHaveText(SENDING_MESSAGES.confirmLinkInvalid);
  await expect(page.getByRole('link', { name: 'Open Tradie Quotes' })).toHaveAttribute('href', '/app/home');
  await saveScreenshot(page, testInfo, '/confirm-email-invalid');
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);

  await page.goto('/confirm-email');
  await expect(page.getByRole('alert')).toHaveText(SENDING_MESSAGES.confirmLinkInvalid);

  // Signed in, the link opens here too (no redirect to the app), and the token is posted once.
  const user = await signUpAndSignIn(page, request);
  const posted: unknown[] = [];
  await page.route('**/api/v1/auth/confirm-email', async (route) => {
    posted.push(route.request().postDataJSON());
    await json(200, { detail: SENDING_MESSAGES.emailConfirmed, email: user.email })(route);
  });
  await page.goto('/confirm-email?token=good-link');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Email confirmed');
  await expect(page.getByText(SENDING_MESSAGES.emailConfirmed)).toBeVisible();
  expect(posted).toEqual([{ token: 'good-link' }]);
  await saveScreenshot(page, testInfo, '/confirm-email-done');
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await page.getByRole('link', { name: 'Go to Invoices & Quotes' }).click();
  await expect(page).toHaveURL(/\/app\/invoices$/);
});
