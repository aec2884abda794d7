// Templates belong to the account, not the browser (docs/api/templates.md): one saved in one browser
// shows in another signed in as the same user; a browser's old copy (from before the server kept
// templates) goes up to the server on sign-in; and after Logout on a shared browser the next user
// sees none of the first user's templates, on screen or in localStorage.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createUser, signInThroughApi, useTokens, type TestUser } from './support/session.ts';

/** A browser of its own (a new context: its own localStorage), signed in with `tokens`. */
async function browserFor(browser: Browser, tokens: { accessToken: string; refreshToken: string }): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await useTokens(page, tokens);
  return page;
}

/** The Templates tab, once the server's list has arrived. */
async function openTemplatesTab(page: Page): Promise<void> {
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/templates' && r.request().method() === 'GET');
  await page.goto('/app/invoices?tab=templates');
  expect((await listed).status()).toBe(200);
}

async function saveTemplate(page: Page, name: string, line: string): Promise<void> {
  await page.goto('/app/calculator');
  await page.getByLabel('Line 1 Description').fill(line);
  await page.getByLabel('Line 1 Unit price').fill('120');
  await page.getByLabel('Template name').fill(name);
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByText(`Template "${name}" saved!`)).toBeVisible();
}

const userIdOf = async (page: Page, user: TestUser): Promise<string> =>
  ((await (await page.request.get('/api/v1/auth/me', { headers: user.authHeaders })).json()) as { id: string }).id;

/** The localStorage keys of the page that hold templates. */
const templateKeysIn = (page: Page): Promise<string[]> =>
  page.evaluate(() => Object.keys(window.localStorage).filter((k) => k.startsWith('invoiceTemplates') || k === 'loadTemplate'));

test('a template saved in one browser is there in another signed in as the same user', async ({ browser, request }) => {
  const user = await createUser(request, { emailPrefix: 'tpl-sync' });
  const first = await browserFor(browser, user);
  await saveTemplate(first, 'Deck repair', 'Replace decking boards');

  // A second browser (its own storage), the same user signed in again.
  const second = await browserFor(browser, await signInThroughApi(request, user.email, user.password));
  await openTemplatesTab(second);
  const card = second.getByRole('list', { name: 'Templates' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Deck repair');
  await expect(second.getByRole('tab', { name: 'Templates (1)' })).toBeVisible();

  // Used from there: the calculator gets its lines.
  await card.getByRole('button', { name: 'Deck repair', exact: true }).click();
  await expect(second.getByText('Template "Deck repair" loaded!')).toBeVisible();
  await expect(second.getByLabel('Line 1 Description')).toHaveValue('Replace decking boards');

  // Deleted in the second browser: gone in the first on its next look.
  await openTemplatesTab(second);
  second.once('dialog', (d) => void d.accept());
  await second.getByRole('button', { name: 'Delete template Deck repair' }).click();
  await expect(second.getByText('No templates yet')).toBeVisible();
  await openTemplatesTab(first);
  await expect(first.getByText('No templates yet')).toBeVisible();

  await first.context().close();
  await second.context().close();
});

test("a browser's own templates from before are kept: uploaded to the account on sign-in", async ({ browser, request }) => {
  const user = await createUser(request, { emailPrefix: 'tpl-legacy' });
  const page = await browserFor(browser, user);
  const kept = [{ id: 1714000000000, name: 'Heat pump service', type: 'invoice', lineItems: [{ description: 'Service', qty: 1, unit_price: 180, tax_included: false, tax_rate: 0.15 }], profitMarginPercent: 20, includeGst: true, clientData: null, createdAt: '2026-04-25T00:00:00.000Z' }];
  await page.addInitScript((list) => {
    if (!window.sessionStorage.getItem('e2e-legacy-templates')) {
      window.localStorage.setItem('invoiceTemplates', list);
      window.sessionStorage.setItem('e2e-legacy-templates', '1');
    }
  }, JSON.stringify(kept));

  await openTemplatesTab(page);
  await expect(page.getByRole('list', { name: 'Templates' }).getByRole('listitem')).toContainText('Heat pump service');
  const onServer = (await (await request.get('/api/v1/templates', { headers: user.authHeaders })).json()) as { items: { name: string; type: string }[] };
  expect(onServer.items).toEqual([expect.objectContaining({ name: 'Heat pump service', type: 'invoice' })]);
  // The old copy is gone; the user's own copy holds the server's list.
  const userId = await userIdOf(page, user);
  expect(await templateKeysIn(page)).toEqual([`invoiceTemplates:${userId}`]);
  // Once only: a reload uploads nothing more.
  await openTemplatesTab(page);
  expect(((await (await request.get('/api/v1/templates', { headers: user.authHeaders })).json()) as { items: unknown[] }).items).toHaveLength(1);
  await page.context().close();
});

test("after Logout on a shared browser, the next user sees none of the first user's templates", async ({ browser, request }) => {
  const aroha = await createUser(request, { emailPrefix: 'tpl-first', fullName: 'Aroha First' });
  const tui = await createUser(request, { emailPrefix: 'tpl-second', fullName: 'Tui Second' });
  const page = await browserFor(browser, aroha);
  await saveTemplate(page, "Aroha's bathroom", 'Aroha only');
  const arohaId = await userIdOf(page, aroha);
  expect(await templateKeysIn(page)).toEqual([`invoiceTemplates:${arohaId}`]);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await templateKeysIn(page)).toEqual([]);

  // The second user signs in on the same browser.
  await page.getByLabel('Email').fill(tui.email);
  await page.getByLabel('Password').fill(tui.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/app\//);
  await openTemplatesTab(page);
  await expect(page.getByText('No templates yet')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Templates (0)' })).toBeVisible();
  await page.goto('/app/calculator');
  await expect(page.getByRole('button', { name: 'Save Template' })).toBeVisible();
  await expect(page.getByText("Aroha's bathroom")).toHaveCount(0);
  expect((await templateKeysIn(page)).filter((k) => k.includes(arohaId))).toEqual([]);
  await page.context().close();
});
