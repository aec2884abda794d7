import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { signUpAndSignIn, type TestUser } from './support/session.ts';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot } from './helpers.ts';

// The Clients screen (the list, the client form, its checks and messages) and a client's
// history, against the real API. Every test signs up its own account.

const GST_WARNING = "This GST number doesn't look valid — please check it";

/** A fresh account, signed in (the shared helper: tokens through the API, into localStorage). */
const signIn = (page: Page, request: APIRequestContext): Promise<TestUser> => signUpAndSignIn(page, request, { emailPrefix: 'clients' });

async function seedClient(request: APIRequestContext, s: TestUser, body: Record<string, unknown>): Promise<{ id: string; version: number }> {
  const res = await request.post('/api/v1/clients', { headers: s.authHeaders, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; version: number };
}

async function openClients(page: Page, path = '/app/clients'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
}

const cards = (page: Page) => page.getByRole('list', { name: 'Client list' }).getByRole('listitem').filter({ has: page.getByRole('article') });
const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await saveScreenshot(page, testInfo, `/app/clients/${name}`);
}

test('an empty book says so; add an individual client', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const s = await signIn(page, request);
  await openClients(page);
  await expect(page).toHaveTitle('Clients | Tradie Quotes');
  await expect(page.getByText('Manage your customers and business contacts')).toBeVisible();
  await expect(page.getByText('No clients yet', { exact: true })).toBeVisible();
  await expect(page.getByText('Add your first client to get started')).toBeVisible();
  await expect(page.getByPlaceholder('Search clients...')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'empty');

  // The form: closed until 'Add Client', an individual by default.
  const add = page.getByRole('button', { name: 'Add Client' });
  await expect(page.getByRole('heading', { name: 'Add New Client' })).toHaveCount(0);
  await add.click();
  await expect(add).toHaveAttribute('aria-expanded', 'true');
  const form = page.getByRole('form', { name: 'Add New Client' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('radio', { name: 'Individual' })).toBeChecked();
  await expect(form.getByLabel('Full Name *')).toHaveAttribute('required', '');
  await expect(form.getByLabel('Email')).toHaveAttribute('type', 'email');
  await expect(form.getByLabel('Phone')).toHaveAttribute('type', 'tel');
  await expect(form.getByRole('group', { name: 'Business Details' })).toHaveCount(0);
  const terms = form.getByLabel('Default Payment Terms');
  await expect(terms).toHaveValue('7 days');
  await expect(terms.locator('option')).toHaveText(['Due on receipt', '7 days', '14 days', '20th of the month following', '30 days', '60 days', 'Another number of days…']);
  await expect(form.getByText(/^An invoice issued today \(.+\) is due .+\.$/)).toBeVisible();
  await expect(form.getByLabel('Address')).toHaveJSProperty('tagName', 'TEXTAREA');
  await expect(form.getByRole('button', { name: 'Save Client' })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Cancel' })).toBeVisible();

  await form.getByLabel('Full Name *').fill('Mere Tawhiri');
  await form.getByLabel('Email').fill('mere@example.co.nz');
  await form.getByLabel('Phone').fill('021 555 0199');
  await form.getByLabel('Address').fill('12 Kauri Road\nWhangārei 0110');
  await terms.selectOption('14 days');
  await form.getByLabel('Notes (Internal)').fill('Prefers texts');
  await expectNoSeriousA11yViolations(page);
  await expectTapTargets(page, '.client-form button, .client-form .client-input, .client-type__option');
  await shot(page, testInfo, 'form-individual');
  await form.getByRole('button', { name: 'Save Client' }).click();

  // Saved: the form resets and closes, the list reloads.
  await expect(page.getByRole('heading', { name: 'Add New Client' })).toHaveCount(0);
  await expect(add).toHaveAttribute('aria-expanded', 'false');
  const mere = card(page, 'Mere Tawhiri');
  await expect(mere).toBeVisible();
  await expect(mere).toContainText('mere@example.co.nz');
  await expect(mere).toContainText('021 555 0199');
  await expect(mere.getByText('BUSINESS', { exact: true })).toHaveCount(0);

  // Saved as typed, every field.
  const [saved] = (await (await request.get('/api/v1/clients', { headers: s.authHeaders })).json()) as Record<string, unknown>[];
  expect(saved).toMatchObject({ name: 'Mere Tawhiri', is_business: 'false', address: '12 Kauri Road\nWhangārei 0110', default_payment_terms: '14 days', notes: 'Prefers texts', business_name: '' });
  expect(errors).toEqual([]);
});

test('add a business client: Contact Name, Business Details, the BUSINESS badge and GST line', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Mere Tawhiri', email: 'mere@example.co.nz', phone: '021 555 0199' });
  await openClients(page);
  const add = page.getByRole('button', { name: 'Add Client' });
  const form = page.getByRole('form', { name: 'Add New Client' });

  // A business: the name label changes and the Business Details block appears.
  await add.click();
  await expect(form.getByLabel('Full Name *')).toBeVisible();
  await form.getByRole('radio', { name: 'Business' }).check();
  await expect(form.getByLabel('Contact Name *')).toBeVisible();
  await expect(form.getByLabel('Full Name *')).toHaveCount(0);
  const details = form.getByRole('group', { name: 'Business Details' });
  await expect(details).toBeVisible();
  await form.getByLabel('Contact Name *').fill('Hemi Walker');
  await form.getByLabel('Email').fill('accounts@walkerbuilders.nz');
  await details.getByLabel('Business/Trading Name').fill('Walker Builders Ltd');
  await details.getByLabel('NZBN / Company Number').fill('9429041234563');
  await details.getByLabel('GST Number').fill('49-091-850');
  await form.getByLabel('Notes (Internal)').click();
  await expect(form.getByText(GST_WARNING)).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'form-business');
  await form.getByRole('button', { name: 'Save Client' }).click();

  const hemi = card(page, 'Hemi Walker');
  await expect(hemi).toBeVisible();
  await expect(hemi.getByText('BUSINESS', { exact: true })).toBeVisible();
  await expect(hemi).toContainText('Walker Builders Ltd');
  await expect(hemi).toContainText('GST: 49-091-850');
  await expect(hemi.getByText(GST_WARNING)).toHaveCount(0);
  await expect(cards(page)).toHaveCount(2);
  // Sorted by name.
  await expect(cards(page).getByRole('heading')).toHaveText(['Hemi Walker', 'Mere Tawhiri']);

  // Saved as typed (the API is the judge).
  await page.getByRole('button', { name: 'Edit Hemi Walker' }).click();
  const edit = page.getByRole('form', { name: 'Edit Client' });
  await expect(edit.getByRole('radio', { name: 'Business' })).toBeChecked();
  await expect(edit.getByLabel('NZBN / Company Number')).toHaveValue('9429041234563');
  await expect(edit.getByLabel('Default Payment Terms')).toHaveValue('7 days');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.client-card button, .client-card a, .clients__add');
  await shot(page, testInfo, 'list');
  expect(errors).toEqual([]);
});

test('edit a client: the form says Edit Client / Update Client, Cancel resets and closes', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Aroha Ngata', email: 'aroha@example.co.nz', phone: '027 000 1111', default_payment_terms: '30 days', notes: 'Back gate' });
  await openClients(page);

  await page.getByRole('button', { name: 'Edit Aroha Ngata' }).click();
  const form = page.getByRole('form', { name: 'Edit Client' });
  await expect(form.getByLabel('Full Name *')).toHaveValue('Aroha Ngata');
  await expect(form.getByLabel('Default Payment Terms')).toHaveValue('30 days');
  await expect(form.getByLabel('Notes (Internal)')).toHaveValue('Back gate');
  await expect(form.getByRole('button', { name: 'Update Client' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeFocused();

  // Cancel throws the changes away and closes.
  await form.getByLabel('Full Name *').fill('Changed my mind');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  await expect(card(page, 'Aroha Ngata')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Aroha Ngata' }).click();
  await expect(form.getByLabel('Full Name *')).toHaveValue('Aroha Ngata');

  // 'Add Client' while editing closes the form; opening it again gives a blank Add form.
  await page.getByRole('button', { name: 'Add Client' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add Client' }).click();
  await expect(page.getByRole('form', { name: 'Add New Client' }).getByLabel('Full Name *')).toHaveValue('');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Edit Aroha Ngata' }).click();
  await form.getByLabel('Full Name *').fill('Aroha Ngata-Reid');
  await form.getByLabel('Phone').fill('027 000 2222');
  await form.getByLabel('Default Payment Terms').selectOption('Due on receipt');
  await shot(page, testInfo, 'form-edit');
  await form.getByRole('button', { name: 'Update Client' }).click();

  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  const updated = card(page, 'Aroha Ngata-Reid');
  await expect(updated).toContainText('027 000 2222');
  await expect(card(page, 'Aroha Ngata')).toHaveCount(0);
  await expect(cards(page)).toHaveCount(1);

  await page.reload();
  await page.getByRole('button', { name: 'Edit Aroha Ngata-Reid' }).click();
  await expect(form.getByLabel('Default Payment Terms')).toHaveValue('Due on receipt');
  await expect(form.getByLabel('Notes (Internal)')).toHaveValue('Back gate');
});

test('payment terms of any number of days: shown as typed, a wrong number refused in the form, the due date said', async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Hemi Walker', default_payment_terms: '21 days' });
  await openClients(page);

  await page.getByRole('button', { name: 'Edit Hemi Walker' }).click();
  const form = page.getByRole('form', { name: 'Edit Client' });
  const terms = form.getByLabel('Default Payment Terms');
  // Terms not in the list show as what they are, never as the first entry of the list.
  await expect(terms).toHaveValue('other-days');
  const days = form.getByLabel('Days to pay');
  await expect(days).toHaveValue('21');
  await expect(form.getByText(/^An invoice issued today \(.+\) is due .+\.$/)).toBeVisible();

  // Not a number of days: said under the box, and nothing is saved.
  await days.fill('0');
  await expect(form.getByText('Type a whole number of days from 1 to 365')).toBeVisible();
  await form.getByRole('button', { name: 'Update Client' }).click();
  await expect(days).toBeFocused();
  const before = (await (await request.get('/api/v1/clients', { headers: s.authHeaders })).json()) as { default_payment_terms: string }[];
  expect(before[0]?.default_payment_terms).toBe('21 days');

  await days.fill('45');
  await expect(form.getByText('Type a whole number of days from 1 to 365')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'form-terms-days');
  await form.getByRole('button', { name: 'Update Client' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  const after = (await (await request.get('/api/v1/clients', { headers: s.authHeaders })).json()) as { default_payment_terms: string }[];
  expect(after[0]?.default_payment_terms).toBe('45 days');

  // The 20th of the month following, picked from the list: the days box goes.
  await page.getByRole('button', { name: 'Edit Hemi Walker' }).click();
  await terms.selectOption('20th of the month following');
  await expect(form.getByLabel('Days to pay')).toHaveCount(0);
  await expect(form.getByText(/is due 20 /)).toBeVisible();
  expect(errors).toEqual([]);
});

test('Edit on a card far down the list brings the form into view, below the sticky header', async ({ page, request }) => {
  const s = await signIn(page, request);
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) await seedClient(request, s, { name: `Client ${n}`, email: `client${n}@example.co.nz`, phone: '021 000 000' });
  await openClients(page);
  await page.getByRole('button', { name: 'Edit Client 8' }).click();
  const title = page.getByRole('heading', { name: 'Edit Client', exact: true });
  await expect(title).toBeFocused();
  await expect(title).toBeInViewport();
  const header = (await page.locator('.app-header').boundingBox())!;
  // Polled: the page scrolls smoothly (no reduced motion here), so the title moves for a moment.
  await expect.poll(async () => (await title.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(header.y + header.height);
  await expect(page.getByRole('form', { name: 'Edit Client' }).getByLabel('Full Name *')).toHaveValue('Client 8');
});

test('search filters instantly on name, email or business name, ignoring case; no match says so', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Aroha Ngata', email: 'aroha@kiwimail.nz' });
  await seedClient(request, s, { name: 'Ben Smith', email: 'ben@example.com', is_business: 'true', business_name: 'Smith Sparkies', gst_number: '49091850' });
  await seedClient(request, s, { name: 'Chloé Dubois', phone: '09 555 0000' });
  await openClients(page);
  await expect(cards(page)).toHaveCount(3);

  const search = page.getByRole('searchbox', { name: 'Search clients' });
  await expect(search).toHaveAttribute('placeholder', 'Search clients...');
  await search.fill('SPARKIES');
  await expect(cards(page).getByRole('heading')).toHaveText(['Ben Smith']);
  await search.fill('kiwimail');
  await expect(cards(page).getByRole('heading')).toHaveText(['Aroha Ngata']);
  await search.fill('chloé');
  await expect(cards(page).getByRole('heading')).toHaveText(['Chloé Dubois']);
  // The phone is not searched.
  await search.fill('555');
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByText('No clients found', { exact: true })).toBeVisible();
  await expect(page.getByText('Try adjusting your search')).toBeVisible();
  await expect(page.getByText('No clients yet')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, testInfo, 'no-match');

  await search.fill('');
  await expect(cards(page)).toHaveCount(3);

  // The search is kept in the address: a client's history and Back return to the same search.
  await search.fill('smith');
  await expect(page).toHaveURL(/\/app\/clients\?q=smith$/);
  await card(page, 'Ben Smith').getByRole('link', { name: 'Ben Smith', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Smith Sparkies (Ben Smith)' })).toBeVisible();
  await page.goBack();
  await expect(search).toHaveValue('smith');
  await expect(cards(page).getByRole('heading')).toHaveText(['Ben Smith']);
});

test('delete asks first; Cancel keeps the client, OK removes it; a failed delete says so', async ({ page, request }) => {
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Keep Me' });
  await seedClient(request, s, { name: 'Remove Me' });
  await openClients(page);
  await expect(cards(page)).toHaveCount(2);

  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByRole('button', { name: 'Delete Remove Me' }).click();
  await expect.poll(() => asked).toEqual(['Are you sure you want to delete this client?']);
  await expect(cards(page)).toHaveCount(2);

  // The server fails once: 'Error deleting client', and the client stays.
  await page.route('**/api/v1/clients/*', (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { detail: 'Database unavailable' } }) : route.fallback(),
  );
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete Remove Me' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error deleting client');
  await expect(cards(page)).toHaveCount(2);
  await page.unroute('**/api/v1/clients/*');

  // Deleting the client whose form is open closes the form.
  await page.getByRole('button', { name: 'Edit Remove Me' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.accept();
  });
  await page.getByRole('button', { name: 'Delete Remove Me' }).click();
  await expect(card(page, 'Remove Me')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toHaveCount(0);
  await expect(card(page, 'Keep Me')).toBeVisible();
  expect(asked).toEqual(['Are you sure you want to delete this client?', 'Are you sure you want to delete this client?']);
  await expect(page.getByText('Error deleting client')).toHaveCount(0);

  // Gone on the server too.
  const list = await request.get('/api/v1/clients', { headers: s.authHeaders });
  expect(((await list.json()) as { name: string }[]).map((c) => c.name)).toEqual(['Keep Me']);

  // Deleting the last one gives the empty state.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete Keep Me' }).click();
  await expect(page.getByText('No clients yet', { exact: true })).toBeVisible();
});

test('a list that fails to load shows the error banner; Retry loads it', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  await seedClient(request, s, { name: 'Tui Herewini' });
  // The list query retries once on its own (apps/web/src/app/queryClient.ts), so the server fails
  // until Retry is pressed.
  let failing = true;
  let failures = 0;
  await page.route('**/api/v1/clients', (route) => {
    if (failing && route.request().method() === 'GET') {
      failures += 1;
      return route.fulfill({ status: 503, json: { detail: 'Service temporarily unavailable' } });
    }
    return route.fallback();
  });
  await openClients(page);
  const banner = page.getByRole('alert');
  await expect(banner).toContainText('Error: Service temporarily unavailable', { timeout: 10_000 });
  expect(failures).toBeGreaterThanOrEqual(1);
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByText('No clients yet')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'load-error');

  failing = false;
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(card(page, 'Tui Herewini')).toBeVisible();
  await expect(page.getByText(/^Error:/)).toHaveCount(0);
});

test("a network failure shows 'Error: Network Error'", async ({ page, request }) => {
  await signIn(page, request);
  await page.route('**/api/v1/clients', (route) => (route.request().method() === 'GET' ? route.abort('failed') : route.fallback()));
  await openClients(page);
  await expect(page.getByRole('alert')).toContainText('Error: Network Error', { timeout: 10_000 });
});

test('an invalid GST number shows the warning but saves', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  await openClients(page);
  await page.getByRole('button', { name: 'Add Client' }).click();
  const form = page.getByRole('form', { name: 'Add New Client' });
  await form.getByRole('radio', { name: 'Business' }).check();
  await form.getByLabel('Contact Name *').fill('Rangi Parata');
  await form.getByLabel('Business/Trading Name').fill('Parata Roofing');
  const gst = form.getByLabel('GST Number');
  await gst.fill('49091851');
  await gst.blur();
  await expect(form.getByText(GST_WARNING)).toBeVisible();
  await expect(gst).toHaveAccessibleDescription(GST_WARNING);
  await expect(form.getByRole('button', { name: 'Save Client' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await shot(page, testInfo, 'gst-warning');
  await form.getByRole('button', { name: 'Save Client' }).click();

  await expect(page.getByRole('heading', { name: 'Add New Client' })).toHaveCount(0);
  const rangi = card(page, 'Rangi Parata');
  await expect(rangi).toContainText('GST: 49091851');
  await expect(rangi.getByText(GST_WARNING)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Client saved' })).toContainText(GST_WARNING);

  const list = (await (await request.get('/api/v1/clients', { headers: s.authHeaders })).json()) as { gst_number: string }[];
  expect(list.map((c) => c.gst_number)).toEqual(['49091851']);

  // Editing shows the saved warning straight away; fixing the number clears it.
  await page.getByRole('button', { name: 'Edit Rangi Parata' }).click();
  const edit = page.getByRole('form', { name: 'Edit Client' });
  await expect(edit.getByText(GST_WARNING)).toBeVisible();
  await edit.getByLabel('GST Number').fill('49091850');
  await expect(edit.getByText(GST_WARNING)).toHaveCount(0);
  await edit.getByRole('button', { name: 'Update Client' }).click();
  await expect(card(page, 'Rangi Parata').getByText(GST_WARNING)).toHaveCount(0);
  await expect(card(page, 'Rangi Parata')).toContainText('GST: 49091850');
});

test("a refused save shows 'Error saving client: …' and keeps what was typed", async ({ page, request }) => {
  const s = await signIn(page, request);
  await openClients(page);
  await page.getByRole('button', { name: 'Add Client' }).click();
  const form = page.getByRole('form', { name: 'Add New Client' });
  // Spaces pass the browser's required check; the API refuses a blank name.
  await form.getByLabel('Full Name *').fill('   ');
  await form.getByLabel('Phone').fill('021 1234');
  await form.getByRole('button', { name: 'Save Client' }).click();
  await expect(form.getByRole('alert')).toHaveText('Error saving client: Name is required');
  await expect(form.getByLabel('Phone')).toHaveValue('021 1234');
  await form.getByLabel('Full Name *').fill('Ana Lee');
  await form.getByRole('button', { name: 'Save Client' }).click();
  await expect(card(page, 'Ana Lee')).toBeVisible();

  // Someone else changes the client while it is open here: 409, nothing overwritten.
  await page.getByRole('button', { name: 'Edit Ana Lee' }).click();
  const edit = page.getByRole('form', { name: 'Edit Client' });
  const [ana] = (await (await request.get('/api/v1/clients', { headers: s.authHeaders })).json()) as { id: string; version: number }[];
  const other = await request.put(`/api/v1/clients/${ana!.id}`, { headers: s.authHeaders, data: { name: 'Ana Lee (office)', version: ana!.version } });
  expect(other.status()).toBe(200);
  await edit.getByLabel('Phone').fill('021 9999');
  await edit.getByRole('button', { name: 'Update Client' }).click();
  await expect(edit.getByRole('alert')).toHaveText('Error saving client: Someone else changed this at the same time. Please reload and try again.');
  await expect(card(page, 'Ana Lee (office)')).toBeVisible();
});

test("a client's history lists its quotes and invoices with totals and the balance owing", async ({ page, request }, testInfo) => {
  const errors = collectErrors(page);
  const s = await signIn(page, request);
  const client = await seedClient(request, s, { name: 'Hemi Walker', email: 'hemi@walker.nz', phone: '021 888 777', is_business: 'true', business_name: 'Walker Builders' });
  const invoice = await request.post('/api/v1/invoices', {
    headers: s.authHeaders,
    data: { type: 'invoice', client_id: client.id, line_items: [{ description: 'Deck repairs', qty: 2, unit_price: 100 }] },
  });
  expect(invoice.status(), await invoice.text()).toBe(201);
  const inv = (await invoice.json()) as { id: string; reference: string };
  const quote = await request.post('/api/v1/invoices', {
    headers: s.authHeaders,
    data: { type: 'quote', client_id: client.id, line_items: [{ description: 'New fence', qty: 1, unit_price: 1000 }] },
  });
  expect(quote.status(), await quote.text()).toBe(201);
  const qte = (await quote.json()) as { id: string; reference: string };
  const paid = await request.post(`/api/v1/invoices/${inv.id}/payments`, { headers: s.authHeaders, data: { amount: 30 } });
  const partPaid = paid.status() === 201;

  await openClients(page);
  await card(page, 'Hemi Walker').getByRole('link', { name: 'History of Hemi Walker' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/clients/${client.id}$`));
  await expect(page).toHaveTitle('Client History | Tradie Quotes');
  await expect(page.getByRole('heading', { level: 1, name: 'Walker Builders (Hemi Walker)' })).toBeVisible();
  await expect(page.getByText('hemi@walker.nz · 021 888 777')).toBeVisible();

  // 2 × $100 + 15% GST = $230.00 invoiced.
  const summary = page.locator('.history-summary');
  await expect(summary.getByRole('definition').first()).toHaveText('$230.00');
  await expect(summary).toContainText(partPaid ? 'Paid$30.00' : 'Paid$0.00');
  await expect(summary).toContainText(partPaid ? 'Balance owing$200.00' : 'Balance owing$230.00');
  await expect(page.getByText('1 invoice · 1 quote')).toBeVisible();

  const invoiceLink = page.getByRole('link', { name: new RegExp(inv.reference) });
  await expect(invoiceLink).toHaveAttribute('href', `/app/invoices/${inv.id}`);
  await expect(invoiceLink).toContainText('Total $230.00');
  await expect(invoiceLink).toContainText(partPaid ? 'Balance owing $200.00' : 'Balance owing $230.00');
  await expect(invoiceLink).toContainText(partPaid ? 'Partial' : 'Unpaid');
  const quoteLink = page.getByRole('link', { name: new RegExp(qte.reference) });
  await expect(quoteLink).toHaveAttribute('href', `/app/invoices/${qte.id}`);
  await expect(quoteLink).toContainText('Total $1,150.00');
  await expect(quoteLink).not.toContainText('Balance owing');

  await expectNoSeriousA11yViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectTapTargets(page, '.client-history__back, .history-row');
  await shot(page, testInfo, 'history');

  // The invoice opens its detail page; Back returns to the history, and Back again to the list.
  await invoiceLink.click();
  await expect(page).toHaveURL(new RegExp(`/app/invoices/${inv.id}$`));
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Walker Builders (Hemi Walker)' })).toBeVisible();
  await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
  await expect(page).toHaveURL(/\/app\/clients$/);
  expect(errors).toEqual([]);
});

test('a history opened by its address works, and an unknown client says so', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  const client = await seedClient(request, s, { name: 'Sione Tupou' });
  await page.goto(`/app/clients/${client.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sione Tupou' })).toBeVisible();
  await expect(page.getByText('No quotes or invoices yet')).toBeVisible();
  await expect(page.locator('.history-summary')).toContainText('Balance owing$0.00');
  await expectNoSeriousA11yViolations(page);
  await shot(page, testInfo, 'history-empty');

  await page.goto('/app/clients/0190f3e0-0000-7000-8000-000000000001');
  await expect(page.getByRole('heading', { level: 1, name: 'Client not found' })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
  await expect(page).toHaveURL(/\/app\/clients$/);
});

test('long names and addresses never make the page scroll sideways (the narrow project is 360 px)', async ({ page, request }, testInfo) => {
  const s = await signIn(page, request);
  await seedClient(request, s, {
    name: 'Wiremu Te Rangihaeata-Kingi-Whakarongotai',
    email: 'a.very.long.email.address.for.accounts.payable@averylongbusinessdomainname.co.nz',
    is_business: 'true',
    business_name: 'Te Rangihaeata Whānau Construction & Landscaping Limited Partnership',
    gst_number: '136-410-132',
  });
  await openClients(page);
  await expectNoHorizontalOverflow(page);
  await page.getByRole('button', { name: 'Add Client' }).click();
  await page.getByRole('radio', { name: 'Business' }).check();
  await expectNoHorizontalOverflow(page);
  await shot(page, testInfo, 'long-content');
});
