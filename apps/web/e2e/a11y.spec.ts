import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { nzDateOf } from '@tradie/domain';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectErrors, expectNoHorizontalOverflow, expectNoSeriousA11yViolations } from './helpers.ts';
import { TEST_GST_NUMBER, signInThroughApi, useTokens } from './support/session.ts';

// The accessibility sweep: every route of the route table — public, guest and signed in —
// at 360×740, 390×844 and 1280×800 (the narrow, phone and desktop projects). On each: the page's
// heading, axe-core with no serious or critical violations, no sideways scrolling, every form field
// labelled, every interactive element reached by Tab with a visible focus indicator, tap targets of
// at least 44 px on a phone, no console errors; and a screenshot per route and screen size in
// test-output/screenshots/a11y/<project>/ to look at.
//
// The signed-in routes use one account per worker, seeded through the API so nothing is empty: a
// business client, a quote, an invoice with a part payment and a paid invoice (dated today, so the
// GST report for this month has figures). Every test signs in afresh (refresh tokens rotate).

interface Seed {
  email: string;
  password: string;
  clientId: string;
  clientName: string;
  invoiceId: string;
  invoiceRef: string;
  /** The client's pages of the quote and the invoice ('/q/…', '/i/…'). */
  quoteLink: string;
  invoiceLink: string;
}

const test = base.extend<object, { seed: Seed }>({
  seed: [
    async ({ playwright }, use, workerInfo) => {
      const api = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      try {
        await use(await seedAccount(api));
      } finally {
        await api.dispose();
      }
    },
    { scope: 'worker' },
  ],
});

async function seedAccount(api: APIRequestContext): Promise<Seed> {
  const email = `a11y-${randomUUID()}@example.co.nz`;
  const password = 'correct horse battery';
  const reg = await api.post('/api/v1/auth/register', { data: { email, password, full_name: 'Hēmi Walker' } });
  expect(reg.status(), await reg.text()).toBe(201);
  const { accessToken } = await signInThroughApi(api, email, password);
  const headers = { Authorization: `Bearer ${accessToken}` };
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const res = await api.post(`/api/v1${path}`, { headers, data });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  // Registered for GST with its number, so its quotes and invoices may be shared by link.
  const gst = await api.put('/api/v1/business-settings', { headers, data: { gst_registered: true, gst_number: TEST_GST_NUMBER } });
  expect(gst.ok(), await gst.text()).toBe(true);
  const client = await post<{ id: string }>('/clients', {
    name: 'Mere Tāwhiao',
    is_business: 'true',
    business_name: 'Kōwhai Builders',
    email: 'mere@kowhai.example.nz',
    phone: '021 555 0199',
    address: '12 Rātā Street, Whangārei 0110',
    gst_number: '49-091-850',
  });
  const other = await post<{ id: string }>('/clients', { name: 'Ben Smith', email: 'ben@example.nz' });
  const today = nzDateOf(new Date());
  type Line = { description: string; qty: number; unit_price: number };
  const document = (type: 'quote' | 'invoice', clientId: string, lines: Line[]) =>
    post<{ id: string; reference: string }>('/invoices', { type, client_id: clientId, issue_date: today, line_items: lines });
  const quote = await document('quote', client.id, [
    { description: 'Deck build — kwila boards, 24 m²', qty: 1, unit_price: 6400 },
    { description: 'Labour', qty: 32, unit_price: 85 },
  ]);
  const invoice = await document('invoice', client.id, [
    { description: 'Bathroom strip-out', qty: 8, unit_price: 95.5 },
    { description: 'Materials (Whangārei supplier)', qty: 1, unit_price: 412.3 },
    { description: 'Call-out fee', qty: 1, unit_price: 85 },
  ]);
  await post(`/invoices/${invoice.id}/payments`, { amount: 500, date: today });
  const paid = await document('invoice', other.id, [{ description: 'Gate latch', qty: 1, unit_price: 45.5 }]);
  await post(`/invoices/${paid.id}/mark-paid`, { date: today });
  const linkPath = async (id: string) => new URL((await post<{ url: string }>(`/invoices/${id}/link`, undefined)).url).pathname;
  const [quoteLink, invoiceLink] = [await linkPath(quote.id), await linkPath(invoice.id)];
  return { email, password, clientId: client.id, clientName: 'Kōwhai Builders (Mere Tāwhiao)', invoiceId: invoice.id, invoiceRef: invoice.reference, quoteLink, invoiceLink };
}

interface Route {
  /** The address visited (a function of the seeded account for the routes with an id). */
  path: string | ((seed: Seed) => string);
  /** A file name for the screenshot. */
  name: string;
  h1: string | RegExp | ((seed: Seed) => string);
  signedIn?: boolean;
  /** A pre-rendered public page: checked once React has hydrated it. */
  prerendered?: boolean;
  /** Brings the screen to the state worth checking (a report generated, ...). */
  prepare?: (page: Page, seed: Seed) => Promise<void>;
  /** Where the visit must end up, when it is a redirect. */
  lands?: RegExp;
}

const routes: readonly Route[] = [
  { path: '/', name: 'landing', prerendered: true, h1: 'Know your real profit before you quote' },
  { path: '/features', name: 'features', prerendered: true, h1: /Everything between the first phone call/ },
  { path: '/pricing', name: 'pricing', prerendered: true, h1: 'One plan. Everything in it.' },
  { path: '/how-it-works', name: 'how-it-works', prerendered: true, h1: /From the driveway to the bank/ },
  { path: '/privacy', name: 'privacy', prerendered: true, h1: 'Privacy policy' },
  { path: '/terms', name: 'terms', prerendered: true, h1: 'Terms of service' },
  { path: '/about', name: 'about', prerendered: true, h1: 'Built for the people who build things' },
  { path: '/support', name: 'support', prerendered: true, h1: 'How can we help?' },
  { path: '/login', name: 'login', h1: 'Sign in' },
  { path: '/register', name: 'register', h1: 'Start your free trial' },
  { path: '/signup', name: 'signup', h1: 'Start your free trial' },
  { path: '/forgot-password', name: 'forgot-password', h1: 'Forgot password' },
  { path: '/reset-password?token=a11y-check', name: 'reset-password', h1: 'Reset password' },
  { path: '/no-such-page', name: 'not-found', h1: 'Page not found' },
  { path: '/app', name: 'app-home', h1: 'Hello!', signedIn: true, lands: /\/app\/home$/ },
  { path: '/app/calculator', name: 'app-calculator', h1: 'Quote & Profit Calculator', signedIn: true },
  {
    path: '/app/invoices',
    name: 'app-invoices',
    h1: 'Invoices & Quotes',
    signedIn: true,
    prepare: async (page, seed) => {
      // The Invoices tab: the payment badges ('Partial', '✓ Paid') are there.
      await page.getByRole('tab', { name: /^Invoices/ }).click();
      await expect(page.getByText(seed.invoiceRef).first()).toBeVisible();
    },
  },
  {
    path: (seed) => `/app/invoices/${seed.invoiceId}`,
    name: 'app-invoice-detail',
    h1: 'Invoice Detail',
    signedIn: true,
    prepare: async (page, seed) => void (await expect(page.getByText(seed.invoiceRef).first()).toBeVisible()),
  },
  { path: '/app/clients', name: 'app-clients', h1: 'Clients', signedIn: true, prepare: async (page) => void (await expect(page.getByText('Kōwhai Builders').first()).toBeVisible()) },
  {
    path: (seed) => `/app/clients/${seed.clientId}`,
    name: 'app-client-history',
    h1: (seed) => seed.clientName,
    signedIn: true,
    prepare: async (page, seed) => {
      await expect(page.getByText(seed.invoiceRef).first()).toBeVisible();
      // The client's switches ('No reminders', 'Construction client') are disabled until their
      // settings load, and a disabled control is not a tab stop: checked once they have.
      await expect(page.getByRole('switch')).toHaveCount(2);
      for (const s of await page.getByRole('switch').all()) await expect(s).toBeEnabled();
    },
  },
  {
    path: '/app/reports',
    name: 'app-reports',
    h1: 'Tax Reports',
    signedIn: true,
    prepare: async (page) => {
      // This month's GST report, so the summary, return boxes, chart and table are on the page.
      const today = nzDateOf(new Date());
      await page.getByLabel('Start Date').fill(`${today.slice(0, 7)}-01`);
      await page.getByLabel('End Date').fill(today);
      await page.getByRole('button', { name: 'Generate Report' }).click();
      await expect(page.getByRole('heading', { name: /^GST report:/ })).toBeVisible();
    },
  },
  { path: '/app/settings', name: 'app-settings', h1: 'Settings', signedIn: true },
  { path: (seed) => seed.quoteLink, name: 'client-quote', h1: /^Quote QTE-/ },
  { path: (seed) => seed.invoiceLink, name: 'client-invoice', h1: /^Tax invoice INV-/ },
];

const screenshotDir = fileURLToPath(new URL('../test-output/screenshots/a11y', import.meta.url));

/** The sticky header and bars let go, and toasts hidden: a full-page picture otherwise paints them mid-page, and axe's target-size rule counts what they cover. */
const UNSTICK = '.app-header, .site-header, .calc__generate, .settings-dock { position: static !important; } .doc-notice-region { display: none !important; }';

for (const route of routes) {
  test(`${route.name}: heading, axe, no sideways scroll, labelled fields, keyboard and focus, tap targets`, async ({ page, seed }, testInfo) => {
    test.setTimeout(90_000);
    const errors = collectErrors(page);
    if (route.signedIn) await useTokens(page, await signInThroughApi(page.request, seed.email, seed.password));
    const path = typeof route.path === 'function' ? route.path(seed) : route.path;
    await page.goto(path);
    if (route.lands) await expect(page).toHaveURL(route.lands);
    const h1 = typeof route.h1 === 'function' ? route.h1(seed) : route.h1;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    // Public pages: checked once hydrated, so what is checked is what stays.
    if (route.prerendered) await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
    await route.prepare?.(page, seed);

    await test.step('every field labelled', () => expectFieldsLabelled(page));
    await test.step('keyboard: every control reached, focus visible', () => expectKeyboardReachableWithVisibleFocus(page));
    if (testInfo.project.use.isMobile) await test.step('tap targets ≥ 44 px', () => expectTapTargets44(page));
    await test.step('no sideways scrolling', () => expectNoHorizontalOverflow(page));

    const unstick = await page.addStyleTag({ content: UNSTICK });
    // The page at rest: the keyboard walk can end on 'Skip to main content', which shows over the
    // header only while it has focus (and would then cover the header's first targets for axe).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect(page.locator('.skip-link')).not.toBeInViewport();
    await test.step('axe: no serious or critical violations', () => expectNoSeriousA11yViolations(page));
    await test.step('screenshot', async () => {
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
      });
      await page.screenshot({ path: join(screenshotDir, testInfo.project.name, `${route.name}.png`), fullPage: true });
    });
    await unstick.evaluate((el) => (el as Element).remove());
    expect(errors).toEqual([]);
  });
}

/** Every visible input, select and textarea has an accessible name (a label, aria-label or aria-labelledby). */
async function expectFieldsLabelled(page: Page): Promise<void> {
  const unlabelled = await page.evaluate(() => {
    const fields = [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')].filter(
      (el) => el.type !== 'hidden' && el.getClientRects().length > 0,
    );
    return fields
      .filter((el) => {
        const byLabel = [...(el.labels ?? [])].some((l) => (l.textContent ?? '').trim() !== '');
        const byAria = (el.getAttribute('aria-label') ?? '').trim() !== '';
        const byLabelledBy = (el.getAttribute('aria-labelledby') ?? '')
          .split(/\s+/)
          .some((id) => id && (document.getElementById(id)?.textContent ?? '').trim() !== '');
        return !byLabel && !byAria && !byLabelledBy;
      })
      .map((el) => `${el.tagName.toLowerCase()}#${el.id || '?'}[name=${el.getAttribute('name') ?? ''}]`);
  });
  expect(unlabelled, `fields without a label: ${unlabelled.join(', ')}`).toEqual([]);
}

/**
 * Tab through the whole page from the top: every visible, enabled interactive element is focused on
 * the way, and each shows a focus indicator while it has focus (an outline or a box-shadow on the
 * element, its ::before/::after, or — for a visually hidden native input — the control drawn next
 * to it).
 */
async function expectKeyboardReachableWithVisibleFocus(page: Page): Promise<void> {
  const count = await page.evaluate(() => {
    const w = window as unknown as { __focused: WeakSet<Element>; __focusLog: { visible: boolean; how: string }[] };
    w.__focused = new WeakSet();
    w.__focusLog = [];
    const shows = (style: CSSStyleDeclaration) =>
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && style.outlineColor !== 'transparent' && !style.outlineColor.endsWith(', 0)')) ||
      (style.boxShadow !== 'none' && style.boxShadow !== '');
    const visibleFocus = (el: Element): string | null => {
      if (shows(getComputedStyle(el))) return 'outline';
      if (shows(getComputedStyle(el, '::after'))) return '::after';
      if (shows(getComputedStyle(el, '::before'))) return '::before';
      const next = el.nextElementSibling;
      if (el instanceof HTMLInputElement && next && shows(getComputedStyle(next))) return 'next sibling';
      return null;
    };
    document.addEventListener(
      'focusin',
      (e) => {
        const el = e.target as Element;
        // Tabbing past the last control leaves the page for a moment: the document itself is not a control.
        if (el === document.body || el === document.documentElement) return;
        w.__focused.add(el);
        const how = visibleFocus(el);
        w.__focusLog.push({ visible: how !== null, how: how ?? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"` });
      },
      true,
    );
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    return document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]').length;
  });
  // Start from the top of the document, as a keyboard user arriving on the page does.
  await page.locator('body').evaluate((b) => {
    b.setAttribute('tabindex', '-1');
    b.focus();
    b.removeAttribute('tabindex');
  });
  for (let i = 0; i < count + 3; i++) await page.keyboard.press('Tab');

  const result = await page.evaluate(() => {
    const w = window as unknown as { __focused: WeakSet<Element>; __focusLog: { visible: boolean; how: string }[] };
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const candidates = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')].filter((el) => {
      if (el.tabIndex < 0) return false;
      if ((el as HTMLButtonElement).disabled) return false;
      if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
      if (el.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
      // Inside a closed <details> only its summary can be reached.
      const closed = el.closest('details:not([open])');
      if (closed && closed.querySelector(':scope > summary') !== el) return false;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      // Radio groups are one tab stop: only the checked radio (or the first when none is) is reached.
      if (el instanceof HTMLInputElement && el.type === 'radio' && el.name) {
        const group = [...document.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(el.name)}"]`)];
        const stop = group.find((r) => r.checked) ?? group[0];
        if (stop !== el) return false;
      }
      // Rendered (a visually hidden native input still has its box; display: none has none).
      return el.getClientRects().length > 0;
    });
    const unreached = candidates.filter((el) => !w.__focused.has(el)).map(describe);
    const invisible = w.__focusLog.filter((f) => !f.visible).map((f) => f.how);
    return { unreached, invisible, reached: w.__focusLog.length, candidates: candidates.length };
  });
  expect(result.unreached, `not reached with Tab (${result.reached} focus moves, ${result.candidates} controls): ${result.unreached.join('; ')}`).toEqual([]);
  expect(result.invisible, `focused without a visible indicator: ${result.invisible.join('; ')}`).toEqual([]);
}

/**
 * On a phone every control is at least 44 px tall (and 24 px wide): buttons, links that stand alone
 * (a link inside a sentence is exempt, as WCAG 2.5.8 allows), fields, summaries. A checkbox or radio
 * is measured by the label around it, which is what the thumb hits.
 */
async function expectTapTargets44(page: Page): Promise<void> {
  const small = await page.evaluate(() => {
    const inSentence = (a: Element): boolean => {
      if (getComputedStyle(a).display === 'inline') return true;
      const block = a.parentElement;
      if (!block) return false;
      const around = [...block.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
      return around.length > 0 && /[a-z]/i.test(around);
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [role="tab"], [role="switch"]')) {
      if (el.getClientRects().length === 0 || el.closest('.visually-hidden, [hidden], [aria-hidden="true"]')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      // A link in a sentence (text around it in the same block) is exempt, as WCAG 2.5.8 allows.
      if (el.tagName === 'A' && inSentence(el)) continue;
      // The skip link is off screen until focused.
      if (el.classList.contains('skip-link')) continue;
      let target: Element = el;
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) target = el.closest('label') ?? el;
      const r = target.getBoundingClientRect();
      if (r.height < 44 - 0.5 || r.width < 24) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  });
  expect(small, `tap targets under 44 px: ${small.join('; ')}`).toEqual([]);
}

