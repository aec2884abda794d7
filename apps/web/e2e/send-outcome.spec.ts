// Send never claims 'sent' when the email was not delivered (docs/api/documents.md, "Delivered or
// not"). The e2e server has no SMTP_URL, so its mail goes to the outbox: the detail screen says
// 'Saved to the outbox — email is not set up on this server', the invoice stays a draft, and the
// attempt is listed with Try again. A refusal by a mail server (played here by the answer the API
// gives for one) is shown with the server's answer.
import { expect, test } from '@playwright/test';
import { detailAction } from './helpers.ts';
import { waitForEmailTo } from './support/outbox.ts';
import { signUpAndSignIn } from './support/session.ts';

const SAVED = 'Saved to the outbox — email is not set up on this server';

test('with no mail server: Send says saved to the outbox, the invoice stays a draft, Try again sends again', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request);
  const email = `outbox-${Date.now()}@example.co.nz`;
  const client = await request.post('/api/v1/clients', { headers: user.authHeaders, data: { name: 'Hēmi Walker', email } });
  expect(client.status()).toBe(201);
  const client_id = ((await client.json()) as { id: string }).id;
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', client_id, line_items: [{ description: 'Heat pump install', qty: 1, unit_price: 2400 }] } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  await page.goto(`/app/invoices/${id}`);
  await detailAction(page, 'Send');
  await page.getByRole('button', { name: 'Send Invoice' }).click();

  // The answer, in words: not 'sent'.
  await expect(page.getByRole('status').filter({ hasText: SAVED })).toBeVisible();
  await expect(page.getByText(`Invoice sent to ${email}`)).toHaveCount(0);
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByText('Sent', { exact: true })).toHaveCount(0);
  // The email is in the server's outbox, delivered to nobody.
  await waitForEmailTo(email);

  // The attempt is listed with its outcome, and Try again.
  const history = page.getByRole('region', { name: 'Emails' });
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history.getByRole('listitem')).toContainText(SAVED);
  await history.getByRole('button', { name: 'Try again' }).click();
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').last()).toContainText(SAVED);
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();

  const detail = (await (await request.get(`/api/v1/invoices/${id}`, { headers: user.authHeaders })).json()) as { status: string; sends: unknown[]; send_attempts: { outcome: string }[] };
  expect(detail.status).toBe('draft');
  expect(detail.sends).toEqual([]);
  expect(detail.send_attempts.map((s) => s.outcome)).toEqual(['saved_not_delivered', 'saved_not_delivered']);
});

test("a send the mail server refused shows its answer, and nothing says 'sent'", async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request);
  const created = await request.post('/api/v1/invoices', { headers: user.authHeaders, data: { type: 'invoice', client_id: null, line_items: [{ description: 'Call-out', qty: 1, unit_price: 85 }] } });
  const id = ((await created.json()) as { id: string }).id;
  // The detail as the API answers it after a refusal (the e2e server has no mail server to refuse).
  await page.route(`**/api/v1/invoices/${id}`, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    const refused = { to: ['gone@example.nz'], cc: [], bcc: [], subject: 'Invoice INV-0001', at: '2026-05-04T21:30:00.000Z', outcome: 'failed', detail: 'The mail server refused it: 550 5.1.1 <gone@example.nz>: Recipient address rejected: User unknown' };
    return route.fulfill({ response, json: { ...body, send_attempts: [refused] } });
  });
  await page.goto(`/app/invoices/${id}`);
  const history = page.getByRole('region', { name: 'Emails' });
  await expect(history.getByRole('listitem')).toContainText('Not delivered');
  await expect(history.getByRole('listitem')).toContainText('550 5.1.1 <gone@example.nz>: Recipient address rejected: User unknown');
  await expect(history.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
});
