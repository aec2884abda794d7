// Payment reminders at phone size against the real API (real clock, outbox mailer): Settings →
// Reminders saves and reloads the steps; the home screen's Overdue card follows the data; 'Send
// reminder now' says honestly that the reminder went to the outbox; the invoice detail says what the
// reminders will actually do, pauses and resumes, and says why 'Send reminder now' is off; a client
// can be set to get no reminders. Nothing here may scroll sideways at 390 px.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations } from './helpers.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

const SAVED = 'Saved to the outbox — email is not set up on this server';
const OFF = 'Automatic reminders are off, so none will go for this invoice unless you send one.';
const ONCE_A_DAY = /^A reminder went for this invoice in the last 24 hours\. You can send another from \w{3}, \d{1,2} \w{3}, \d{1,2}:\d{2} [ap]m\.$/;

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

test("Invoice detail: what the reminders will do, what a reminder sent now will say, and why the button is off", async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'reminders-why' });
  // Automatic reminders on: the invoice's email only went to this server's outbox, so they never start for it.
  const settings = await request.get('/api/v1/reminders/settings', { headers: user.authHeaders });
  const { steps } = (await settings.json()) as { steps: unknown[] };
  expect((await request.put('/api/v1/reminders/settings', { headers: user.authHeaders, data: { enabled: true, minimum_balance: 0, steps } })).status()).toBe(200);
  const email = `reminders-why-${Date.now()}@example.co.nz`;
  const invoice = await overdueInvoice(request, user.authHeaders, email);

  await page.goto(`/app/invoices/${invoice.id}`);
  const part = page.getByRole('region', { name: 'Reminders' });
  await expect(part).toContainText('Automatic reminders go only for invoices emailed from the app. You can send one yourself.');
  await expect(part).not.toContainText('Reminders are on');
  // 20 days overdue and nothing sent yet: the first reminder is the overdue one, not the final one.
  const button = part.getByRole('button', { name: 'Send reminder now' });
  await expect(button).toBeEnabled();
  await expect(part).toContainText(`It will be headed “Invoice ${invoice.reference} is overdue”.`);
  await part.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/reminders-why-before.png' });
  await button.click();
  await expect(part.getByRole('status')).toContainText(SAVED);
  const reminder = await waitForEmailTo(email, `Invoice ${invoice.reference} is overdue`);
  expect(reminder.mail.text).toMatch(/View and pay the invoice online: https?:\/\/\S+\/i\//);

  // Once a day: the button is off, and says why, read out with it.
  await expect(button).toBeDisabled();
  const why = part.getByTestId('reminder-send-why');
  await expect(why).toHaveText(ONCE_A_DAY);
  await expect(button).toHaveAttribute('aria-describedby', (await why.getAttribute('id'))!);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: '/tmp/reminders-why-after.png' });

  // Paused: the pause holds for a reminder sent by hand too.
  await part.getByRole('button', { name: 'Pause reminders' }).click();
  await expect(why).toHaveText('Reminders are paused for this invoice. Resume them to send one.');
  await expect(part.getByTestId('reminders-state')).toHaveText('Reminders are paused for this invoice: none will go, automatic or sent by you, until you resume them.');
  await expectNoHorizontalOverflow(page);
});

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
  // Said once, under the field; the banner points there.
  await expect(page.getByTestId('settings-banner')).toHaveText('Error saving the reminder settings: check the boxes marked below');
  await expect(page.getByTestId('reminders-save-error')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/reminders-settings-error.png' });
  await expect(page.getByRole('group', { name: '1 day before the due date' }).getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('group', { name: '1 day before the due date' }).getByLabel('Subject').fill('A friendly reminder');
  // A minimum below $0: the tradie's words, not the validator's.
  await page.getByLabel('Only remind when the balance owing is at least').fill('-5');
  await page.getByRole('button', { name: 'Save reminders' }).click();
  await expect(page.getByText("The minimum balance can't be less than $0")).toHaveCount(1);
  await expect(page.getByLabel('Only remind when the balance owing is at least')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/Too small|expected number/)).toHaveCount(0);
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
  // Automatic reminders are off (the default): it says so, never 'on'. A reminder went from the
  // home screen a moment ago, so the button is off and says from when another can go.
  await expect(part).toContainText(OFF);
  await expect(part).not.toContainText('Reminders are on');
  await expect(part.getByRole('button', { name: 'Send reminder now' })).toBeDisabled();
  await expect(part.getByTestId('reminder-send-why')).toHaveText(ONCE_A_DAY);
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
  await expect(page.getByRole('region', { name: 'Reminders' })).toContainText(OFF);

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
