// Payment claims under the Construction Contracts Act 2002 at phone size, against the real API: a
// client set as a construction client on their page; a stage invoice of their accepted quote starts
// as a claim with the details suggested; the card lists what the Act still needs and handing it over
// is refused until it is there; once served the card shows the schedule deadline, a payment schedule
// received for less, and the retention held. The figures on the card are the API's claim record.
import { expect, test } from '@playwright/test';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, detailAction } from './helpers.ts';
import { signUpAndSignIn } from './support/session.ts';

test('a construction client’s progress invoice is a payment claim: fill in what the Act needs, serve it, record the schedule', async ({ page, request }) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'claims' });
  const headers = user.authHeaders;
  // No address: the claim will need its site.
  const client = await request.post('/api/v1/clients', { headers, data: { name: 'Hemi Parata', email: 'hemi@example.com' } });
  expect(client.status(), await client.text()).toBe(201);
  const clientId = ((await client.json()) as { id: string }).id;

  // The client's page: 'Construction client'.
  await page.goto(`/app/clients/${clientId}`);
  const construction = page.getByRole('switch', { name: 'Construction client' });
  await expect(construction).not.toBeChecked();
  await construction.check();
  await expect(page.getByText('New invoices for this client start as payment claims under the Construction Contracts Act 2002.')).toBeVisible();
  await expectNoHorizontalOverflow(page);

  // Framing $20,000 + GST and roofing $10,000 + GST, accepted; 40 % complete → $13,800.00.
  const quote = await request.post('/api/v1/invoices', {
    headers,
    data: { type: 'quote', client_id: clientId, line_items: [{ description: 'Framing', qty: 1, unit_price: 20000 }, { description: 'Roofing', qty: 1, unit_price: 10000 }] },
  });
  expect(quote.status(), await quote.text()).toBe(201);
  const quoteId = ((await quote.json()) as { id: string }).id;
  expect((await request.post(`/api/v1/invoices/${quoteId}/accept`, { headers })).status()).toBe(200);
  const stage = await request.post(`/api/v1/invoices/${quoteId}/stages`, { headers, data: { kind: 'progress', percent_complete: 40 } });
  expect(stage.status(), await stage.text()).toBe(201);
  const invoice = (await stage.json()) as { id: string; reference: string; is_payment_claim: boolean };
  expect(invoice.is_payment_claim).toBe(true);

  await page.goto(`/app/invoices/${invoice.id}`);
  const card = page.getByTestId('payment-claim');
  await expect(card.getByText('This is a payment claim made under the Construction Contracts Act 2002.')).toBeVisible();
  await expect(card.getByTestId('claim-missing')).toContainText('The site address');
  await expect(card.getByLabel('Construction contract')).toHaveValue(/^Quote QTE-/);

  // Handing it over is refused with the list; nothing changes.
  await detailAction(page, 'Mark as issued');
  await expect(page.getByText("This payment claim can't be sent yet. Add: the site address.")).toBeVisible();

  // The claim did not move the invoice's due date on its own: the card says both dates and asks which applies.
  await expect(card.getByTestId('claim-due-question')).toHaveText(/^The Construction Contracts Act due date is \d{1,2} \w+ \d{4}; the invoice's own terms say \d{1,2} \w+ \d{4} — which applies\?$/);
  await expect(card.getByRole('radio', { name: /^The invoice's own terms/ })).toBeChecked();

  await card.getByLabel('Site address').fill('12 Kahikatea Drive, Hamilton');
  await card.getByLabel('Retention withheld (%)').fill('5');
  await card.getByRole('button', { name: 'Save claim details' }).click();
  await expect(card.getByTestId('claim-missing')).toHaveCount(0);
  // 13,800.00 less 5 % (690.00): claimed 13,110.00.
  await expect(card.getByTestId('claim-claimed')).toHaveText('$13,110.00');
  const record = await (await request.get(`/api/v1/invoices/${invoice.id}/payment-claim`, { headers })).json();
  expect(record.calculation.claimed).toBe(13110);
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: '/tmp/claim-draft.png', fullPage: true });

  await detailAction(page, 'Mark as issued');
  await expect(page.getByText(/is marked issued: it now counts in your GST report$/)).toBeVisible();
  const served = await (await request.get(`/api/v1/invoices/${invoice.id}/payment-claim`, { headers })).json();
  await expect(card.getByTestId('claim-schedule-status')).toHaveText(served.schedule_status);
  expect(served.schedule_status).toMatch(/^Payment schedule due by \d{1,2} \w+ \d{4}$/);
  await expect(card.getByTestId('claim-retention-held')).toContainText('$690.00');

  await card.getByRole('button', { name: 'Record payment schedule' }).click();
  await card.getByLabel('Scheduled amount ($)').fill('12000');
  await card.getByLabel('Their reasons (if less than claimed)').fill('Roof flashing not finished');
  await card.getByRole('button', { name: 'Save payment schedule' }).click();
  await expect(card.getByTestId('claim-schedule-status')).toContainText('$12,000.00 scheduled, $1,110.00 less than the $13,110.00 claimed');
  await expect(card.getByText('Their reasons: Roof flashing not finished')).toBeVisible();

  await card.getByText('How the claimed amount was calculated').click();
  await expect(card.getByRole('row', { name: /Framing/ })).toContainText('40 %');
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: '/tmp/claim-served.png', fullPage: true });
  await card.screenshot({ path: '/tmp/claim-card-served.png' });
});
