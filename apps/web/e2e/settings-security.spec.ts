import { expect, test, type Page } from '@playwright/test';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, expectTapTargets, saveScreenshot, submitPasswords } from './helpers.ts';
import { signInThroughApi, signUpAndSignIn } from './support/session.ts';

// Settings → Security through the real API: the account's recent security activity (each sign-in
// is recorded by the API), paged with 'Show more', and 'Sign out everywhere', which ends every
// session (the refresh tokens stop working) and signs this browser out to /login.

/** Accepts (or dismisses) the next dialog and hands back its text. */
function nextDialog(page: Page, accept = true): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      const text = d.message();
      void (accept ? d.accept() : d.dismiss()).then(() => resolve(text));
    });
  });
}

const activity = (page: Page) => page.getByRole('list', { name: 'Recent security activity' }).getByRole('listitem');

test('Settings → Security: recent activity with Show more, then Sign out everywhere', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'security' });
  // Another 21 sign-ins (as from other devices): more than one page of activity.
  const others = [];
  for (let i = 0; i < 21; i++) others.push(await signInThroughApi(request, user.email, user.password));
  const recorded = await request.get('/api/v1/security/audit?limit=100', { headers: user.authHeaders });
  expect(recorded.status(), await recorded.text()).toBe(200);
  const total = ((await recorded.json()) as { items: unknown[] }).items.length;
  expect(total).toBeGreaterThanOrEqual(22);

  await page.goto('/app/settings?tab=security');
  await expect(page.getByRole('tab', { name: 'Security', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Recent security activity' })).toBeVisible();
  await expect(activity(page)).toHaveCount(20);
  const newest = activity(page).first();
  await expect(newest).toContainText('Signed in');
  // The date and time in New Zealand, the browser, and the address the API saw.
  await expect(newest.locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} (am|pm)$/);
  await expect(newest).toContainText('IP 127.0.0.1');
  await expect(page.getByText('No security activity yet')).toHaveCount(0);

  // Thumb-sized controls and nothing wider than the phone.
  await expectTapTargets(page, '.settings-panel button');
  await expectNoHorizontalOverflow(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, '/app/settings?tab=security');
  const unstick = await page.addStyleTag({ content: '.settings-dock, .app-header { position: static !important; }' });
  await expectNoSeriousA11yViolations(page);
  await unstick.evaluate((el) => el.parentNode?.removeChild(el));

  // ---- Show more: the older entries, each once ----
  const more = page.getByRole('button', { name: 'Show more' });
  await more.click();
  await expect(activity(page)).toHaveCount(Math.min(total, 40));
  if (total <= 40) await expect(more).toHaveCount(0);
  const texts = await activity(page).allTextContents();
  expect(texts.every((t) => t.startsWith('Signed in'))).toBe(true);

  // ---- Sign out everywhere: asks first; Cancel changes nothing ----
  const signOut = page.getByRole('button', { name: 'Sign out everywhere' });
  await signOut.scrollIntoViewIfNeeded();
  const dismissed = nextDialog(page, false);
  await signOut.click();
  expect(await dismissed).toBe('Sign out of every device, including this one?');
  await expect(page).toHaveURL(/\/app\/settings\?tab=security$/);
  expect((await request.post('/api/v1/auth/refresh', { data: { refresh_token: others[0]!.refreshToken } })).status()).toBe(200);

  const confirmed = nextDialog(page, true);
  await signOut.click();
  expect(await confirmed).toBe('Sign out of every device, including this one?');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('access_token'), localStorage.getItem('refresh_token')])).toEqual([null, null]);

  // Every other device's session is over too, and the app stays signed out.
  for (const device of others.slice(1, 4)) {
    expect((await request.post('/api/v1/auth/refresh', { data: { refresh_token: device.refreshToken } })).status()).toBe(401);
  }
  expect((await request.post('/api/v1/auth/refresh', { data: { refresh_token: user.refreshToken } })).status()).toBe(401);
  await page.goto('/app/settings?tab=security');
  await expect(page).toHaveURL(/\/login/);

  // Signing in again, the activity says what happened.
  const again = await signInThroughApi(request, user.email, user.password);
  const after = (await (await request.get('/api/v1/security/audit?limit=5', { headers: { Authorization: `Bearer ${again.accessToken}` } })).json()) as { items: { description: string }[] };
  expect(after.items.map((e) => e.description)).toContain('Signed out of every device');
});

test('Settings → Security: change the password; other devices are signed out, this one carries on', async ({ page, request }, testInfo) => {
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'change-password' });
  const laptop = await signInThroughApi(request, user.email, user.password);
  await page.goto('/app/settings?tab=security');
  const card = page.getByRole('region', { name: 'Change password' });
  await expect(card).toBeVisible();

  // Checked here first, with the API's own words.
  await card.getByLabel('Current Password').fill(user.password);
  const form = { password: 'New Password', confirm: 'Confirm New Password', submit: 'Change Password' };
  await expect(await submitPasswords(card, form, 'short')).toHaveText('Password must be at least 8 characters');

  // The API refuses a common password and a wrong current one.
  await expect(await submitPasswords(card, form, 'iloveyou')).toContainText('most common');
  await card.getByLabel('Current Password').fill('not my password');
  await expect(await submitPasswords(card, form, 'kauri-ladder-42')).toHaveText('Your current password is incorrect');

  await card.getByLabel('Current Password').fill(user.password);
  await card.getByRole('button', { name: 'Change Password' }).click();
  await expect(card.getByRole('status')).toHaveText('Your password has been changed. Other devices have been signed out.');
  await expect(card.getByLabel('Current Password')).toHaveValue('');
  await expect(activity(page).first()).toContainText('Password changed');
  await expectNoHorizontalOverflow(page);
  await saveScreenshot(page, testInfo, '/app/settings?tab=security#password');

  // The laptop's session is over; this browser still works after a reload, on its new tokens.
  expect((await request.post('/api/v1/auth/refresh', { data: { refresh_token: laptop.refreshToken } })).status()).toBe(401);
  await page.reload();
  await expect(page).toHaveURL(/\/app\/settings\?tab=security$/);
  const stored = await page.evaluate(() => localStorage.getItem('refresh_token'));
  expect((await request.post('/api/v1/auth/refresh', { data: { refresh_token: stored } })).status()).toBe(200);
  expect((await request.post('/api/v1/auth/login', { data: { email: user.email, password: 'kauri-ladder-42' } })).status()).toBe(200);
});
