import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const screenshotRoot = fileURLToPath(new URL('../test-output/screenshots', import.meta.url));

/** axe-core over the whole page: no serious or critical violations (WCAG 2.2 A/AA rules). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, serious.join('\n')).toEqual([]);
}

/** Nothing wider than the viewport: the page never scrolls sideways. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const doc = document.documentElement;
    const width = doc.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { scrollWidth: doc.scrollWidth, clientWidth: width, culprits: wide };
  });
  expect(scrollWidth, `overflowing: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
}

/** Every control in the header, footer and nav is at least 44 px tall (text links inside prose are exempt). */
export async function expectTapTargets(page: Page, selector: string): Promise<void> {
  const small = await page.evaluate((sel) => {
    return [...document.querySelectorAll<HTMLElement>(sel)]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), rect: el.getBoundingClientRect() }))
      .filter(({ rect }) => rect.height < 44 || rect.width < 24)
      .map(({ text, rect }) => `${text} ${Math.round(rect.width)}×${Math.round(rect.height)}`);
  }, selector);
  expect(small, `tap targets under 44 px: ${small.join('; ')}`).toEqual([]);
}

export function routeFileName(route: string): string {
  const name = route.replace(/^\//, '').replace(/[/?=&$]+/g, '_');
  return name === '' ? 'home' : name;
}

export async function saveScreenshot(page: Page, testInfo: TestInfo, route: string): Promise<void> {
  await page.screenshot({ path: join(screenshotRoot, testInfo.project.name, `${routeFileName(route)}.png`), fullPage: true });
}

/** Collects console errors and uncaught exceptions (hydration mismatches are reported as errors). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * Types a new password and its confirmation into the form in `scope`, submits it, and returns the
 * form's alert (to check what it says).
 */
export async function submitPasswords(
  scope: Page | Locator,
  form: { password: string; confirm: string; submit: string },
  password: string,
  confirm = password,
): Promise<Locator> {
  await scope.getByLabel(form.password, { exact: true }).fill(password);
  await scope.getByLabel(form.confirm).fill(confirm);
  await scope.getByRole('button', { name: form.submit }).click();
  return scope.getByRole('alert');
}

/**
 * Opens More actions on a document's detail (when there is a More, and it is closed), so every
 * action that applies is on the screen: to tap one, or to check one is not offered.
 */
export async function openMoreActions(page: Page): Promise<void> {
  const actions = page.getByRole('group', { name: 'Actions', exact: true });
  await actions.waitFor();
  const more = actions.getByRole('button', { name: 'More actions' });
  if ((await more.count()) > 0) await more.click();
  else if ((await actions.getByRole('button', { name: 'Fewer actions' }).count()) === 0) return;
  await page.getByRole('group', { name: 'More actions' }).waitFor();
}

/**
 * Taps one of a document detail's actions: the one for its state stands by itself above the
 * others; any other is under More actions, opened first.
 */
export async function detailAction(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('group', { name: 'Actions', exact: true }).waitFor();
  const exact = typeof name === 'string';
  const primary = page.locator('.detail__primary').getByRole('button', { name, exact });
  if ((await primary.count()) > 0) {
    await primary.click();
    return;
  }
  const inRow = page.getByRole('group', { name: 'Actions', exact: true }).getByRole('button', { name, exact });
  if ((await inRow.count()) > 0) {
    await inRow.click();
    return;
  }
  await openMoreActions(page);
  await page.getByRole('group', { name: 'More actions' }).getByRole('button', { name, exact }).click();
}
