import { expect, test, type APIRequestContext, type Download, type Locator, type Page, type TestInfo } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import { centsToString, formatMonth, formatNzd, nzDateOf, taxYearLabel, taxYearOf, toCents } from '@tradie/domain';
import type { AnnualReportResponse, GstReportResponse } from '@tradie/contracts';
import { collectErrors, expectNoSeriousA11yViolations, saveScreenshot } from './helpers.ts';
import { signUpAndSignIn, type TestUser } from './support/session.ts';

// Tax Reports (the GST report and the annual summary) against the real API. Every test signs up
// its own account and seeds invoices through the API, dated in Q1 of the current year (New Zealand
// time), some paid.

interface Seeded {
  ref: string;
  month: string;
  subtotal: bigint;
  gst: bigint;
  total: bigint;
  client: string;
}

interface Seed {
  year: number;
  invoices: Seeded[];
  /** The reference of the Q1 draft that was never issued. */
  draft: string;
}

const today = () => nzDateOf(new Date());

async function post<T>(request: APIRequestContext, user: TestUser, path: string, data: unknown): Promise<T> {
  const res = await request.post(`/api/v1${path}`, { headers: user.authHeaders, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

interface Detail {
  id: string;
  reference: string;
  issue_date: string;
  subtotal: number;
  gst: number;
  total: number;
}

/**
 * Four invoices in Q1 (one a GST-free, zero-rated job), two of them paid and one part-paid, plus a
 * quote in Q1 and an invoice on 1 April, which the Q1 report must leave out.
 */
async function seedQ1(request: APIRequestContext, user: TestUser): Promise<Seed> {
  const year = Number(today().slice(0, 4));
  const d = (md: string) => `${year}-${md}`;
  const kowhai = await post<{ id: string }>(request, user, '/clients', { name: 'Mere', is_business: 'true', business_name: 'Kōwhai Builders' });
  const aroha = await post<{ id: string }>(request, user, '/clients', { name: 'Aroha Ngata' });
  const ben = await post<{ id: string }>(request, user, '/clients', { name: 'Ben Smith' });

  const invoice = (client_id: string, issue_date: string, line_items: unknown[]) =>
    post<Detail>(request, user, '/invoices', { type: 'invoice', client_id, issue_date, line_items });

  const inv1 = await invoice(kowhai.id, d('01-15'), [{ description: 'Deck build', qty: 1, unit_price: 4000 }]);
  const inv2 = await invoice(aroha.id, d('02-10'), [
    { description: 'Fence repair', qty: 2.5, unit_price: 80 },
    { description: 'Gate latch', qty: 1, unit_price: 45.5 },
  ]);
  const inv3 = await invoice(ben.id, d('03-31'), [{ description: 'Bathroom reno', qty: 1, unit_price: 1234.56 }]);
  const inv4 = await invoice(aroha.id, d('03-05'), [{ description: 'Export crate (zero-rated)', qty: 1, unit_price: 150, tax_rate: 0 }]);
  await post(request, user, `/invoices/${inv1.id}/mark-paid`, { date: d('02-01') });
  await post(request, user, `/invoices/${inv2.id}/mark-paid`, { date: d('02-20') });
  await post(request, user, `/invoices/${inv3.id}/payments`, { amount: 500, date: d('03-31') });
  // Handed over on site, never emailed: marked issued by hand, so it counts.
  await post(request, user, `/invoices/${inv4.id}/issue`, {});
  // Not in Q1's report: a quote, a draft never issued (the report says it left one out), and an
  // invoice on the first day after the quarter.
  const draft = await invoice(ben.id, d('03-12'), [{ description: 'Still a draft', qty: 1, unit_price: 321 }]);
  await post(request, user, '/invoices', { type: 'quote', client_id: ben.id, issue_date: d('02-02'), line_items: [{ description: 'Quote only', qty: 1, unit_price: 999 }] });
  await invoice(ben.id, d('04-01'), [{ description: 'April job', qty: 1, unit_price: 700 }]);

  const seeded = (det: Detail, client: string): Seeded => ({
    ref: det.reference,
    month: det.issue_date.slice(0, 7),
    subtotal: toCents(det.subtotal),
    gst: toCents(det.gst),
    total: toCents(det.total),
    client,
  });
  return {
    year,
    invoices: [seeded(inv1, 'Kōwhai Builders (Mere)'), seeded(inv2, 'Aroha Ngata'), seeded(inv3, 'Ben Smith'), seeded(inv4, 'Aroha Ngata')],
    draft: draft.reference,
  };
}

const sum = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => a + b, 0n);

async function apiGet<T>(request: APIRequestContext, user: TestUser, path: string): Promise<T> {
  const res = await request.get(`/api/v1${path}`, { headers: user.authHeaders });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

async function openReports(page: Page): Promise<void> {
  await page.goto('/app/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Tax Reports' })).toBeVisible();
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await saveScreenshot(page, testInfo, `/app/reports/${name}`);
}

/**
 * The page never scrolls sideways. A table may scroll inside its own container (marked
 * data-scroll-x); what is inside it does not count.
 */
async function expectNoPageOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => !el.closest('[data-scroll-x]') || el.matches('[data-scroll-x]'))
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: width, culprits: wide };
  });
  expect(scrollWidth, `overflowing: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
  expect(culprits).toEqual([]);
}

/** The download this page starts next, in the page itself (the file is an attachment: the page stays, no tab is left behind). */
async function nextDownload(page: Page): Promise<{ download: Download }> {
  const download = await page.waitForEvent('download');
  expect(page.context().pages()).toHaveLength(1);
  return { download };
}

async function readCsv(download: Download): Promise<string[][]> {
  const path = await download.path();
  const bytes = await readFile(path);
  // UTF-8 with a byte-order mark, for Excel (docs/api/reports.md).
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes, { bom: true, relax_column_count: true }) as string[][];
}

const box = (page: Page, testId: string) => page.getByTestId(testId);

/**
 * The Monthly Breakdown table fits the screen (with ordinary figures it must, down to 360 px); if
 * it does not, only the table scrolls, with the hint showing and the scroller reachable by keyboard.
 */
async function expectTableReadable(results: Locator, mustFit: boolean): Promise<void> {
  const scroller = results.locator('[data-scroll-x]');
  const hint = results.getByText('Swipe sideways to see every column');
  const fits = await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
  if (mustFit) expect(fits, 'the table fits without scrolling').toBe(true);
  if (fits) {
    await expect(hint).toHaveCount(0);
  } else {
    await expect(hint).toBeVisible();
    await expect(scroller).toHaveAttribute('tabindex', '0');
    await expect(scroller).toHaveAttribute('role', 'region');
  }
}

/**
 * axe over the whole page, scrolled to the top: its target-size rule counts a button that happens
 * to sit half under the sticky app header (after the results scrolled into view) as too small.
 */
async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoSeriousA11yViolations(page);
}

test('GST report for Q1: the numbers equal the API and the invoices; the CSV downloads through a download link', async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'reports' });
  const seed = await seedQ1(request, user);
  const q1 = { start: `${seed.year}-01-01`, end: `${seed.year}-03-31` };

  await openReports(page);
  await expect(page).toHaveTitle('Tax Reports | Tradie Quotes');
  await expect(page.getByText('GST reports and annual summaries for tax time')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'GST Report' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Annual Summary' })).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByRole('heading', { name: 'GST Period' })).toBeVisible();
  const generate = page.getByRole('button', { name: 'Generate Report' });
  await expect(generate).toBeDisabled();
  await expect(page.getByText(`Quick periods (${seed.year})`)).toBeVisible();
  await expectAccessible(page);
  await expectNoPageOverflow(page);
  await shot(page, testInfo, 'gst-empty');

  // Only one date: still disabled.
  await page.getByLabel('Start Date').fill(q1.start);
  await expect(generate).toBeDisabled();

  // Q1 fills both dates and shows as chosen.
  const q1Button = page.getByRole('button', { name: 'Q1 (Jan-Mar)' });
  await q1Button.click();
  await expect(page.getByLabel('Start Date')).toHaveValue(q1.start);
  await expect(page.getByLabel('End Date')).toHaveValue(q1.end);
  await expect(q1Button).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('radio', { name: /Invoice basis/ })).toBeChecked();
  await expect(generate).toBeEnabled();
  await generate.click();

  const results = page.getByRole('region', { name: /^GST report:/ });
  await expect(results.getByRole('heading', { name: `GST report: 1 Jan ${seed.year} – 31 Mar ${seed.year}` })).toBeFocused();
  await expect(box(page, 'gst-basis')).toHaveText('Invoice basis');

  // The same numbers as GET /reports/gst …
  const api = await apiGet<GstReportResponse>(request, user, `/reports/gst?start_date=${q1.start}&end_date=${q1.end}`);
  await expect(box(page, 'gst-total-sales')).toHaveText(formatNzd(toCents(api.total_sales)));
  await expect(box(page, 'gst-collected')).toHaveText(formatNzd(toCents(api.total_gst_collected)));
  await expect(box(page, 'gst-invoice-count')).toHaveText(String(api.invoice_count));
  await expect(box(page, 'gst-paid-unpaid')).toHaveText(`${api.paid_invoices_count} / ${api.unpaid_invoices_count}`);
  // … and as the invoices created: four in Q1 (the quote and the April invoice left out), two paid.
  const totalSales = sum(seed.invoices.map((i) => i.total));
  const totalGst = sum(seed.invoices.map((i) => i.gst));
  expect(toCents(api.total_sales)).toBe(totalSales);
  expect(toCents(api.total_gst_collected)).toBe(totalGst);
  await expect(box(page, 'gst-total-sales')).toHaveText(formatNzd(totalSales));
  await expect(box(page, 'gst-collected')).toHaveText(formatNzd(totalGst));
  await expect(box(page, 'gst-invoice-count')).toHaveText('4');
  await expect(box(page, 'gst-paid-unpaid')).toHaveText('2 / 2');

  await expect(results.getByText('GST collected is on the invoices you issued.')).toBeVisible();
  expect(api.drafts_left_out).toBe(1);
  await expect(results.getByTestId('report-left-out')).toContainText('1 draft invoice dated in this period is not included: a draft counts once it is sent, marked issued or paid.');
  await expect(results.getByRole('link', { name: 'Costs' })).toHaveAttribute('href', '/app/costs');

  // The GST return: boxes 5–15 with the GST101A labels; Box 6 is the zero-rated job; no costs recorded, so Box 15 is Box 10.
  await expect(results.getByRole('heading', { name: 'Your GST return' })).toBeVisible();
  await expect(results.getByText('Zero-rated supplies included in Box 5')).toBeVisible();
  await expect(results.getByText('Total GST collected on sales and income (add Box 8 and Box 9)')).toBeVisible();
  for (const b of ['box5', 'box6', 'box7', 'box8', 'box9', 'box10', 'box11', 'box12', 'box13', 'box14', 'box15'] as const) await expect(box(page, `gst-${b}`)).toHaveText(formatNzd(toCents(api.gst_return[b])));
  await expect(box(page, 'gst-box11')).toHaveText('$0.00');
  await expect(box(page, 'gst-box15')).toHaveText(formatNzd(toCents(api.gst_return.box10)));
  await expect(box(page, 'gst-box5')).toHaveText(formatNzd(totalSales));
  await expect(box(page, 'gst-box6')).toHaveText('$150.00');

  // The chart above the Monthly Breakdown table, and one row per month.
  const chart = results.getByRole('img', { name: /Monthly sales and GST/ });
  await expect(chart).toBeVisible();
  const table = results.getByRole('table', { name: /Monthly Breakdown/ });
  expect((await chart.boundingBox())?.y ?? 0).toBeLessThan((await table.boundingBox())?.y ?? 0);
  await expect(table.getByRole('columnheader')).toHaveText(['Month', 'Sales', 'GST', 'Invoices']);
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4);
  for (const [i, m] of api.breakdown_by_month.entries()) {
    await expect(rows.nth(i + 1).getByRole('rowheader')).toHaveText(formatMonth(m.month));
    await expect(rows.nth(i + 1).getByRole('cell')).toHaveText([formatNzd(toCents(m.sales)), formatNzd(toCents(m.gst)), String(m.count)]);
  }
  const march = seed.invoices.filter((i) => i.month === `${seed.year}-03`);
  await expect(rows.nth(3).getByRole('cell').first()).toHaveText(formatNzd(sum(march.map((i) => i.total))));
  await expectTableReadable(results, true);

  await expectAccessible(page);
  await expectNoPageOverflow(page);
  await shot(page, testInfo, 'gst-q1');

  // Download CSV: a download link (never the bearer token), downloaded in the page; the file adds up.
  const linkAsked = page.waitForResponse((r) => r.url().endsWith('/api/v1/reports/export-links') && r.request().method() === 'POST');
  const downloaded = nextDownload(page);
  await results.getByRole('button', { name: 'Download CSV' }).click();
  expect((await linkAsked).status()).toBe(200);
  const { download } = await downloaded;
  expect(download.url()).toContain(`/api/v1/reports/export/gst-csv?start_date=${q1.start}&end_date=${q1.end}&basis=invoice&`);
  expect(download.url()).toMatch(/[?&]token=[^&]+/);
  expect(download.url()).not.toContain(user.accessToken);
  expect(download.suggestedFilename()).toBe(`gst-report-${q1.start}-to-${q1.end}.csv`);
  const csv = await readCsv(download);
  const header = csv[0] ?? [];
  expect(header.slice(0, 4)).toEqual(['Reference', 'Issue date', 'Client', 'Client GST number']);
  const col = (name: string) => header.indexOf(name);
  expect(col('Incl. GST')).toBeGreaterThan(0);
  const byRef = new Map(csv.map((r) => [r[0] ?? '', r]));
  for (const inv of seed.invoices) {
    const row = byRef.get(inv.ref);
    expect(row, inv.ref).toBeDefined();
    expect(row?.[col('Incl. GST')]).toBe(centsToString(inv.total));
    expect(row?.[col('GST')]).toBe(centsToString(inv.gst));
    expect(row?.[col('Client')]).toBe(inv.client);
  }
  const total = byRef.get('Total');
  expect(total?.[col('Incl. GST')]).toBe(centsToString(totalSales));
  expect(total?.[col('GST')]).toBe(centsToString(totalGst));
  expect(byRef.get('Box 5')?.[col('Incl. GST')]).toBe(centsToString(toCents(api.gst_return.box5)));
  expect(byRef.get('Box 10')?.[col('GST')]).toBe(centsToString(toCents(api.gst_return.box10)));

  // Payments basis: only the money received in Q1 — and the report says which basis it used.
  await page.getByRole('radio', { name: /Payments basis/ }).check();
  await generate.click();
  await expect(box(page, 'gst-basis')).toHaveText('Payments basis');
  const payments = await apiGet<GstReportResponse>(request, user, `/reports/gst?start_date=${q1.start}&end_date=${q1.end}&basis=payments`);
  const [inv1, inv2] = seed.invoices;
  expect(toCents(payments.total_sales)).toBe((inv1?.total ?? 0n) + (inv2?.total ?? 0n) + 50_000n);
  await expect(box(page, 'gst-total-sales')).toHaveText(formatNzd(toCents(payments.total_sales)));
  await expect(box(page, 'gst-collected')).toHaveText(formatNzd(toCents(payments.total_gst_collected)));
  await expect(box(page, 'gst-invoice-count')).toHaveText(String(payments.invoice_count));

  // The draft the report left out is one tap away: the invoice list, filtered to drafts of the period.
  await results.getByRole('link', { name: 'See the draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/invoices\\?.*status=draft`));
  await expect(page.getByRole('status').filter({ hasText: 'Showing draft invoices dated' })).toContainText('(1)');
  const listed = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText(seed.draft);
  await expectAccessible(page);
  await shot(page, testInfo, 'drafts-left-out');
  await page.getByRole('link', { name: 'Show all' }).click();
  await expect(page.getByRole('list', { name: 'Invoices' }).getByRole('listitem')).toHaveCount(6);

  expect(errors).toEqual([]);
});

test('Annual Summary: tax years from today, the top client, the monthly table and the CSV', async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const errors = collectErrors(page);
  const user = await signUpAndSignIn(page, request, { emailPrefix: 'reports-annual' });
  const seed = await seedQ1(request, user);
  const current = taxYearOf(today());
  const year = taxYearOf(`${seed.year}-03-31`); // the tax year Q1 falls in

  await openReports(page);
  await page.getByRole('tab', { name: 'Annual Summary' }).click();
  const select = page.getByLabel('Tax Year');
  // The current tax year and the three before it, the current one chosen.
  await expect(select.locator('option')).toHaveText([0, 1, 2, 3].map((i) => new RegExp(`^${taxYearLabel(current - i)} \\(1 Apr ${current - i - 1} – 31 Mar ${current - i}\\)$`)));
  await expect(select).toHaveValue(String(current));
  await select.selectOption(String(year));
  await page.getByRole('tabpanel', { name: 'Annual Summary' }).getByRole('button', { name: 'Generate Report' }).click();

  const results = page.getByRole('region', { name: `${taxYearLabel(year)} Annual Summary` });
  await expect(results.getByRole('heading', { name: `${taxYearLabel(year)} Annual Summary` })).toBeFocused();
  const api = await apiGet<AnnualReportResponse>(request, user, `/reports/annual?year=${year}`);
  const revenue = sum(seed.invoices.map((i) => i.subtotal));
  expect(toCents(api.total_revenue)).toBe(revenue);
  await expect(box(page, 'annual-total-revenue')).toHaveText(formatNzd(revenue));
  await expect(box(page, 'annual-total-gst')).toHaveText(formatNzd(toCents(api.total_gst)));
  await expect(box(page, 'annual-paid-revenue')).toHaveText(formatNzd(toCents(api.paid_revenue)));
  await expect(box(page, 'annual-unpaid-revenue')).toHaveText(formatNzd(toCents(api.unpaid_revenue)));
  const [inv1, inv2] = seed.invoices;
  expect(toCents(api.paid_revenue)).toBe((inv1?.subtotal ?? 0n) + (inv2?.subtotal ?? 0n));

  // Top 10 Clients by Revenue: numbered, the biggest first.
  await expect(results.getByRole('heading', { name: 'Top 10 Clients by Revenue' })).toBeVisible();
  const top = results.getByRole('list', { name: 'Top 10 Clients by Revenue' }).getByRole('listitem');
  await expect(top).toHaveCount(3);
  await expect(top.first()).toContainText('Kōwhai Builders (Mere)');
  await expect(top.first()).toContainText(formatNzd(inv1?.subtotal ?? 0n));
  await expect(top.first()).toContainText('1');
  await expect(top.nth(2)).toContainText('Aroha Ngata');

  const chart = results.getByRole('img', { name: /Monthly revenue and GST/ });
  await expect(chart).toBeVisible();
  const table = results.getByRole('table', { name: /Monthly Breakdown/ });
  await expect(table.getByRole('columnheader')).toHaveText(['Month', 'Revenue', 'GST', 'Invoices', 'Paid']);
  await expect(table.getByRole('row')).toHaveCount(13); // April … March
  await expect(table.getByRole('rowheader').first()).toHaveText(`Apr ${year - 1}`);
  const jan = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `Jan ${year}` }) });
  await expect(jan.getByRole('cell')).toHaveText([formatNzd(inv1?.subtotal ?? 0n), formatNzd(inv1?.gst ?? 0n), '1', '1']);
  await expectTableReadable(results, true);

  await expectAccessible(page);
  await expectNoPageOverflow(page);
  await shot(page, testInfo, 'annual');

  const downloaded = nextDownload(page);
  await results.getByRole('button', { name: 'Download CSV' }).click();
  const { download } = await downloaded;
  expect(download.url()).toContain(`/api/v1/reports/export/annual-csv?year=${year}&`);
  expect(download.suggestedFilename()).toBe(`annual-report-${taxYearLabel(year).replace('–', '-')}.csv`);
  const csv = await readCsv(download);
  const header = csv[0] ?? [];
  const total = csv.find((r) => r[0] === 'Total');
  expect(total?.[header.indexOf('Excl. GST')]).toBe(centsToString(revenue));
  expect(csv.find((r) => r[0] === inv1?.ref)?.[header.indexOf('Client')]).toBe('Kōwhai Builders (Mere)');

  expect(errors).toEqual([]);
});

test('period shortcuts fill the dates; errors say what failed', async ({ page, request }, testInfo) => {
  await signUpAndSignIn(page, request, { emailPrefix: 'reports-errors' });
  await openReports(page);
  const now = today();
  const y = Number(now.slice(0, 4));
  const taxYearEnd = taxYearOf(now);

  // NZ Tax Year by the April rule.
  await page.getByRole('button', { name: 'NZ Tax Year' }).click();
  await expect(page.getByLabel('Start Date')).toHaveValue(`${taxYearEnd - 1}-04-01`);
  await expect(page.getByLabel('End Date')).toHaveValue(`${taxYearEnd}-03-31`);
  await page.getByRole('button', { name: 'Q4 (Oct-Dec)' }).click();
  await expect(page.getByLabel('Start Date')).toHaveValue(`${y}-10-01`);
  await expect(page.getByLabel('End Date')).toHaveValue(`${y}-12-31`);
  await expect(page.getByRole('button', { name: 'NZ Tax Year' })).toHaveAttribute('aria-pressed', 'false');

  // Two-monthly and six-monthly GST periods from the 'More periods' select.
  const more = page.getByLabel('More periods');
  const twoMonthly = more.locator('optgroup[label="Two-monthly GST periods"] option');
  await expect(twoMonthly).toHaveCount(6);
  await expect(twoMonthly.first()).toHaveText(/\(current\)$/);
  const second = await twoMonthly.nth(1).getAttribute('value');
  await more.selectOption(second ?? '');
  const [start, end] = (second ?? '').split('/');
  await expect(page.getByLabel('Start Date')).toHaveValue(start ?? '');
  await expect(page.getByLabel('End Date')).toHaveValue(end ?? '');
  expect(Number(end?.slice(5, 7)) % 2).toBe(1); // two-monthly periods end in odd months
  const sixMonthly = more.locator('optgroup[label="Six-monthly GST periods"] option');
  await expect(sixMonthly).toHaveCount(3);
  const six = await sixMonthly.nth(1).getAttribute('value');
  await more.selectOption(six ?? '');
  expect([
    ['04-01', '09-30'],
    ['10-01', '03-31'],
  ]).toContainEqual([(six ?? '').slice(5, 10), (six ?? '').slice(16)]);
  await expect(page.getByLabel('Start Date')).toHaveValue((six ?? '').slice(0, 10));

  // The API refuses a reversed range: the screen says the report failed, and why.
  await page.getByLabel('Start Date').fill(`${y}-03-31`);
  await page.getByLabel('End Date').fill(`${y}-01-01`);
  await expect(more).toHaveValue('');
  await page.getByRole('button', { name: 'Generate Report' }).click();
  const alert = page.getByRole('tabpanel', { name: 'GST Report' }).getByRole('alert');
  await expect(alert).toContainText('Failed to load GST report');
  await expect(alert).toContainText('The start date must be on or before the end date');
  await expectAccessible(page);
  await shot(page, testInfo, 'gst-error');

  // The annual report failing on the server.
  await page.route('**/api/v1/reports/annual?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is busy. Please try again.' }) }));
  await page.getByRole('tab', { name: 'Annual Summary' }).click();
  await page.getByRole('tabpanel', { name: 'Annual Summary' }).getByRole('button', { name: 'Generate Report' }).click();
  const annualAlert = page.getByRole('tabpanel', { name: 'Annual Summary' }).getByRole('alert');
  await expect(annualAlert).toContainText('Failed to load annual report');
  await expect(annualAlert).toContainText('The database is busy. Please try again.');

  // Figures in the hundreds of millions: on a phone only the table scrolls, and says so.
  await page.unroute('**/api/v1/reports/annual?*');
  const big = 123_456_789.01;
  const months = ['04', '05', '06', '07', '08', '09', '10', '11', '12', '01', '02', '03'].map((m, i) => `${i < 9 ? taxYearEnd - 1 : taxYearEnd}-${m}`);
  const huge: AnnualReportResponse = {
    year: taxYearEnd,
    label: taxYearLabel(taxYearEnd),
    start_date: `${taxYearEnd - 1}-04-01`,
    end_date: `${taxYearEnd}-03-31`,
    total_revenue: big,
    total_gst: big,
    paid_revenue: big,
    unpaid_revenue: 0,
    top_clients: [{ name: 'A client with a rather long business name Limited (Someone Else)', revenue: big }],
    monthly_breakdown: months.map((month) => ({ month, revenue: big, gst: big, count: 12_345, paid_count: 12_345 })),
    corrections: { count: 0, revenue: 0, gst: 0 },
    voided: { count: 0, revenue: 0, gst: 0 },
    credited: { count: 0, revenue: 0, gst: 0 },
    refunded: { count: 0, amount: 0 },
    drafts_left_out: 0,
  };
  await page.route('**/api/v1/reports/annual?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(huge) }));
  await page.getByRole('tabpanel', { name: 'Annual Summary' }).getByRole('button', { name: 'Generate Report' }).click();
  const hugeResults = page.getByRole('region', { name: `${taxYearLabel(taxYearEnd)} Annual Summary` });
  await expect(hugeResults.getByTestId('annual-total-revenue')).toHaveText('$123,456,789.01');
  await expectTableReadable(hugeResults, testInfo.project.name === 'desktop');
  await expectNoPageOverflow(page);
  await expectAccessible(page);
  await shot(page, testInfo, 'annual-huge');

  // The GST tab kept its state while the other tab was open.
  await page.getByRole('tab', { name: 'GST Report' }).click();
  await expect(page.getByLabel('Start Date')).toHaveValue(`${y}-03-31`);
  await expect(alert).toContainText('Failed to load GST report');
});
