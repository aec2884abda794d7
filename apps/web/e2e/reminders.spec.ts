// Payment reminders at phone size against the real API (real clock, outbox mailer): Settings →
// Reminders saves and reloads the steps; the home screen's Overdue card follows the data; 'Send
// reminder now' says honestly that the reminder went to the outbox; the invoice detail pauses and
// resumes; a client can be set to get no reminders. Nothing here may scroll sideways at 390 px.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations } from './helpers.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

const SAVED = 'Saved to the outbox — email is not set up on this server';

/** A New Zealand calendar day `days` from today (negative: in the past). */
function nzDay(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/** A client with an email, and an invoice for them issued 40 days ago and due 20 days ago (sent, so issued). */
async function overdueInvoice(request: APIRequestContext, headers: Record<string, string>, email: string) {
  const client = await request.post('/api/v1/clients', { headers, data: { name: 'Mere Parata', email } });
  expect(client.status(), await client.text()).toBe(201);
  const clientId = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', {
    headers,
    data: { type: 'invoice', client_id: clientId, issue_date: nzDay(-40), due_date: nzDay(-20), line_items: [{ description: 'Hot water cylinder', qty: 1, unit_price: 1500 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()) as { id: string; reference: string };
  // Sent: the e2e server keeps the email in its outbox, so the invoice stays a draft until marked issued.
  const sent = await request.post(`/api/v1/invoices/${invoice.id}/send`, { headers: { ...headers, 'Idempotency-Key': randomUUID() } });
  expect(sent.status(), await sent.text()).toBe(200);
  await waitForEmailTo(email);
  const issued = await request.post(`/api/v1/invoices/${invoice.id}/issue`, { headers });
  expect(issued.status(), await issued.text()).toBe(200);
  return { clientId, ...invoice };
}

test('Settings → Reminders: turn on, add the 3 days before step, save, and it is there after a reload', async ({ page, request }) => {
  await signUpAndSignIn(page, request, { emailPrefix: 'reminders-settings' });
  await page.goto('/app/settings?tab=reminders');
  await expect(page.getByRole('tab', { name: 'Reminders' })).toHaveAttribute('aria-selected', 'true');
  const on = page.getByRole('switch', { name: 'Send payment reminders automatically' });
  await expect(on).not.toBeChecked();
  await on.check();
  await expect(page.getByLabel('New reminder')).toHaveValue('-3');
  await expect(page.getByLabel('New reminder').locator('option').first()).toHaveText('3 days before the due date');
  await page.getByRole('button', { name: 'Add reminder' }).click();
  const before = page.getByRole('group', { name: '3 days before the due date' });
  await expect(before).toBeVisible();
  await expect(before.getByLabel('Subject')).toHaveValue('Invoice [Invoice Number] is due on [Due Date]');
  await expect(page.getByText('[Pay Link]', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Nothing due in the next 7 days')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: '/tmp/reminders-settings.png', fullPage: true });
  await page.screenshot({ path: '/tmp/reminders-settings-top.png' });
  await page.getByRole('button', { name: 'Add reminder' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/reminders-settings-add.png' });

  await page.getByRole('button', { name: 'Save reminders' }).click();
  await expect(page.getByTestId('settings-banner')).toHaveText('Reminder settings saved');

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Send payment reminders automatically' })).toBeChecked();
  await expect(page.getByRole('group', { name: '3 days before the due date' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'On the due date' })).toBeVisible();

  // Two steps on one day: the API's own words.
  await page.getByRole('group', { name: '3 days before the due date' }).getByLabel('When').selectOption({ label: '1 day before the due date' });
  await page.getByRole('group', { name: '1 day before the due date' }).getByLabel('Subject').fill('  ');
  await page.getByRole('button', { name: 'Save reminders' }).click();
  await expect(page.getByTestId('reminders-save-error')).toBeVisible();
  await page.screenshot({ path: '/tmp/reminders-settings-error.png' });
  await expect(page.getByRole('group', { name: '1 day before the due date' }).getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
});

test('Home: the Overdue card follows the data, and Send reminder now says it went to the outbox', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'reminders-home' });
  // Nothing overdue yet: once the server has answered, there is no Overdue card.
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/reminders/overdue') && r.ok());
  await page.goto('/app');
  expect(((await (await answered).json()) as { count: number }).count).toBe(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Overdue' })).toHaveCount(0);

  const email = `reminders-${Date.now()}@example.co.nz`;
  const invoice = await overdueInvoice(request, user.authHeaders, email);

  await page.reload();
  const card = page.getByRole('region', { name: 'Overdue' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('1 invoice');
  await expect(card).toContainText('$1,725.00');
  await expect(card).toContainText(invoice.reference);
  await expect(card).toContainText('Mere Parata');
  await expect(card).toContainText('20 days overdue');
  await expectNoHorizontalOverflow(page);

  await card.getByRole('button', { name: `Send reminder now for ${invoice.reference}` }).click();
  await expect(card.getByRole('status').filter({ hasText: SAVED })).toBeVisible();
  await expect(page.getByText(/Reminder sent/)).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: '/tmp/reminders-home.png' });

  // The invoice, from its row: Pause and Resume.
  await card.getByRole('link', { name: new RegExp(invoice.reference) }).click();
  await expect(page).toHaveURL(new RegExp(`/app/invoices/${invoice.id}$`));
  const part = page.getByRole('region', { name: 'Reminders' });
  await expect(part).toContainText('Reminders are on for this invoice');
  await part.getByRole('button', { name: 'Pause reminders' }).click();
  await expect(part).toContainText('Reminders are paused for this invoice');
  await expect(part.getByRole('button', { name: 'Resume reminders' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await part.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/reminders-invoice.png' });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Reminders' })).toContainText('Reminders are paused for this invoice');
  await page.getByRole('region', { name: 'Reminders' }).getByRole('button', { name: 'Resume reminders' }).click();
  await expect(page.getByRole('region', { name: 'Reminders' })).toContainText('Reminders are on for this invoice');

  // The client: no reminders.
  await page.goto(`/app/clients/${invoice.clientId}`);
  const optOut = page.getByRole('switch', { name: 'No reminders for this client' });
  await expect(optOut).toBeEnabled();
  await expect(optOut).not.toBeChecked();
  await optOut.check();
  await expect(optOut).toBeChecked();
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: '/tmp/reminders-client.png' });
  await page.reload();
  await expect(page.getByRole('switch', { name: 'No reminders for this client' })).toBeChecked();
});
