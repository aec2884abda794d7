// "Export for my accountant" (GET /reports/export/accountant-zip): the ZIP is opened with fflate
// and every CSV read back with csv-parse. Its figures are checked against the JSON reports and
// against sums worked out here in plain whole cents (money.ts), its report files byte for byte
// against the CSV exports, its PDFs with pdftotext; formula text, another account's data, bad
// periods, signed links and the size limit.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocuments, type SeedDocument } from '../../../cli/src/bench/seed.ts';
import { PdfRenderError, type PdfInput } from '@tradie/pdf';
import { ACCOUNTANT_EXPORT_MAX_INVOICES, ACCOUNTANT_EXPORTS_AT_ONCE, EXPORT_BUSY } from '../../src/reports/accountantExport.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { cents, toCents } from './money.ts';

let t: TestApp;
let token: string;
let tokenB: string;
const FORMULA = '=HYPERLINK("http://x","y")';
const RANGE = 'start_date=2025-04-01&end_date=2026-03-31';
const line = (unit_price: number | string, extra: Record<string, unknown> = {}) => ({ description: 'Work', qty: 1, unit_price, ...extra });
const kowhai = { name: 'Kōwhai Builders', business_name: 'Kōwhai Builders Ltd', is_business: 'true' as const, gst_number: '49-091-850' };
const inv2 = randomUUID();

beforeAll(async () => {
  t = await createTestApp(); // today: 5 May 2026 in NZ
  const a = await signUp(t);
  token = a.token;
  for (const c of [{ name: kowhai.name, business_name: kowhai.business_name, is_business: true, gst_number: kowhai.gst_number }, { name: FORMULA }, { name: 'Hemi Walker', email: 'hemi@example.nz' }]) {
    const r = await t.post('/clients', c, token);
    if (r.status !== 201) throw new Error(`client: ${r.status} ${r.text}`);
  }
  const docs: SeedDocument[] = [
    // Issued before the period, paid in part inside it: only its payment is in the export.
    { number: 1, at: '2025-03-20T00:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(100)], issued: true, payments: [{ amount: '50.00', date: '2025-04-10' }] },
    // Part-paid (and overdue today): 1000 at 15% and 100 zero-rated.
    { documentId: inv2, number: 2, at: '2025-05-01T00:00:00.000Z', client: kowhai, lines: [line(1000), line(100, { tax_rate: 0 })], sent: true, payments: [{ amount: '500.00', date: '2025-06-01' }] },
    { number: 3, at: '2025-08-15T00:00:00.000Z', client: { name: FORMULA, gst_number: '=1+2' }, lines: [line(230, { tax_included: true })], markPaidOn: '2025-08-20' },
    // Issued at the end of the period, paid after it.
    { number: 4, at: '2026-03-25T00:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(400)], issued: true, payments: [{ amount: '100.00', date: '2026-04-05' }] },
    // Issued and voided inside the period: its row and its reversal.
    { number: 5, at: '2025-09-01T00:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(80)], issued: true, voided: true, voidedAt: '2025-10-01T00:00:00.000Z' },
    // Issued before the period, voided inside it: the reversal only.
    { number: 6, at: '2025-02-01T00:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(50)], issued: true, voided: true, voidedAt: '2025-05-05T00:00:00.000Z' },
    // Two payments, the first removed later: a payment-removed row.
    { number: 8, at: '2025-11-01T00:00:00.000Z', client: kowhai, lines: [line(200)], sent: true, payments: [{ amount: '100.00', date: '2025-11-05', paymentId: 'p8a' }, { amount: '50.00', date: '2025-11-06' }], removePayments: ['p8a'], removedAt: '2025-11-10T00:00:00.000Z' },
    // Neither a quote nor a draft is a supply.
    { number: 1, type: 'quote', at: '2025-06-01T00:00:00.000Z', client: { name: 'Quote person' }, lines: [line(777)], sent: true },
    { number: 7, at: '2025-07-01T00:00:00.000Z', client: { name: 'Draft person' }, lines: [line(666)] },
  ];
  await seedDocuments(t.deps.store, a.userId, docs);
  const cash = await t.post(`/invoices/${inv2}/payments`, { amount: '100.00', date: '2025-07-01', method: 'cash', reference: 'Till 2' }, token);
  if (cash.status !== 201) throw new Error(`payment: ${cash.status} ${cash.text}`);

  const b = await signUp(t, 'Other Business');
  tokenB = b.token;
  await t.post('/clients', { name: 'Secret client of B' }, tokenB);
  await seedDocuments(t.deps.store, b.userId, [{ number: 1, at: '2025-06-01T00:00:00.000Z', client: { name: 'Secret client of B' }, lines: [line(4321)], sent: true, payments: [{ amount: '100.00', date: '2025-06-02' }] }]);
}, 60_000);
afterAll(() => t.close());

async function download(path: string, bearer?: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await t.app.request(`/api/v1${path}`, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const read = (b: Uint8Array): string[][] => parse(text(b), { bom: true }) as string[][];
const BOM = [0xef, 0xbb, 0xbf];
const sumCol = (rows: string[][], col: number): bigint => rows.reduce((a, r) => a + (r[col] === '' ? 0n : cents(r[col]!)), 0n);

// The oracle: GST at 15% on whole cents (half up), and a payment's GST share as the difference of
// the invoice's GST shared over the money received before and after it (half up).
const gstOf = (exclCents: bigint): bigint => (exclCents * 15n + 50n) / 100n;
const shareOf = (gst: bigint, paid: bigint, total: bigint): bigint => (2n * gst * paid + total) / (2n * total);
const paymentGst = (gst: bigint, total: bigint, before: bigint, amount: bigint): bigint => shareOf(gst, before + amount, total) - shareOf(gst, before, total);

describe('the ZIP for a tax year', () => {
  let zip: Record<string, Uint8Array>;
  let res: Awaited<ReturnType<typeof download>>;
  beforeAll(async () => {
    res = await download('/reports/export/accountant-zip?year=2026', token);
    zip = unzipSync(res.bytes);
  }, 60_000);

  it('is one ZIP download named for its period, with every file', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="accountant-export-2025-04-01-to-2026-03-31.zip"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(zip).sort()).toEqual([
      'README.txt', 'annual-summary.csv', 'clients.csv', 'expenses.csv', 'gst-report.csv', 'hours.csv', 'invoices.csv', 'payments.csv',
      'pdfs/INV-0002.pdf', 'pdfs/INV-0003.pdf', 'pdfs/INV-0004.pdf', 'pdfs/INV-0005.pdf', 'pdfs/INV-0006.pdf', 'pdfs/INV-0008.pdf', 'profit-report.csv', 'purchases.csv',
    ]);
    for (const name of Object.keys(zip).filter((n) => n.endsWith('.csv'))) expect([...zip[name]!.slice(0, 3)], name).toEqual(BOM);
  });

  it('invoices.csv: one row per invoice issued in the period and per void in it, adding up to the GST report and the annual summary', async () => {
    const rows = read(zip['invoices.csv']!);
    expect(rows[0]).toEqual(['Invoice number', 'Issue date', 'Due date', 'Client', 'Client GST number', 'Status', 'Excl. GST', 'GST', 'Incl. GST', 'Paid', 'Balance', 'Voided on']);
    const body = rows.slice(1);
    expect(body.map((r) => [r[0], r[5]])).toEqual([
      ['INV-0002', 'Overdue'], ['INV-0006', 'Reversal of void'], ['INV-0003', 'Paid'], ['INV-0005', 'Void'],
      ['INV-0005', 'Reversal of void'], ['INV-0008', 'Overdue'], ['INV-0004', 'Overdue'],
    ]);
    const byRow = (ref: string, status: string) => body.find((r) => r[0] === ref && r[5] === status)!;
    expect(byRow('INV-0002', 'Overdue')).toEqual(['INV-0002', '2025-05-01', '2025-05-08', 'Kōwhai Builders Ltd (Kōwhai Builders)', '49-091-850', 'Overdue', '1100.00', '150.00', '1250.00', '600.00', '650.00', '']);
    expect(byRow('INV-0005', 'Void').slice(6)).toEqual(['80.00', '12.00', '92.00', '0.00', '', '2025-10-01']);
    expect(byRow('INV-0006', 'Reversal of void').slice(6)).toEqual(['-50.00', '-7.50', '-57.50', '', '', '2025-05-05']);

    // The oracle: what was issued in the period less what was voided in it.
    const issued = [100000n + 10000n, 20000n, 40000n, 8000n, 20000n]; // INV-0002 (1000 + 100 zero-rated), 0003, 0004, 0005, 0008
    const taxable = [100000n, 20000n, 40000n, 8000n, 20000n];
    const voided = [{ excl: 8000n }, { excl: 5000n }]; // INV-0005, INV-0006
    const exclOracle = issued.reduce((a, x) => a + x, 0n) - voided.reduce((a, v) => a + v.excl, 0n);
    const gstOracle = taxable.reduce((a, x) => a + gstOf(x), 0n) - voided.reduce((a, v) => a + gstOf(v.excl), 0n);
    expect(sumCol(body, 6)).toBe(exclOracle);
    expect(sumCol(body, 7)).toBe(gstOracle);
    expect(sumCol(body, 8)).toBe(exclOracle + gstOracle);
    expect([exclOracle, gstOracle]).toEqual([185000n, 26250n]);

    const gst = (await t.get(`/reports/gst?${RANGE}&basis=invoice`, token)).json;
    const annual = (await t.get('/reports/annual?year=2026', token)).json;
    expect(sumCol(body, 8)).toBe(toCents(gst.total_sales));
    expect(sumCol(body, 7)).toBe(toCents(gst.total_gst_collected));
    expect(sumCol(body, 6)).toBe(toCents(annual.total_revenue));
    expect(sumCol(body, 7)).toBe(toCents(annual.total_gst));
  });

  it('payments.csv: every payment received in the period with its method, reference and GST share, adding up to the payments-basis report', async () => {
    const rows = read(zip['payments.csv']!);
    expect(rows[0]).toEqual(['Payment date', 'Invoice number', 'Client', 'Amount', 'GST share', 'Method', 'Payment reference', 'Entry']);
    const body = rows.slice(1);
    expect(body.map((r) => [r[0], r[1], r[3], r[7]])).toEqual([
      ['2025-04-10', 'INV-0001', '50.00', 'Payment'],
      ['2025-06-01', 'INV-0002', '500.00', 'Payment'],
      ['2025-07-01', 'INV-0002', '100.00', 'Payment'],
      ['2025-08-20', 'INV-0003', '230.00', 'Payment'],
      ['2025-11-05', 'INV-0008', '100.00', 'Payment'],
      ['2025-11-06', 'INV-0008', '50.00', 'Payment'],
      ['2025-11-10', 'INV-0008', '-100.00', 'Payment removed'],
    ]);
    expect(body[2]!.slice(5, 7)).toEqual(['Cash', 'Till 2']);
    expect(body[0]!.slice(5, 7)).toEqual(['Bank transfer', '']);
    expect(body[6]!.slice(5, 7)).toEqual(['Bank transfer', '']);

    // The oracle, payment by payment, over each invoice's running total received.
    const shares = [
      paymentGst(1500n, 11500n, 0n, 5000n), // INV-0001: 115.00, GST 15.00
      paymentGst(15000n, 125000n, 0n, 50000n), // INV-0002: 1250.00, GST 150.00
      paymentGst(15000n, 125000n, 50000n, 10000n),
      paymentGst(3000n, 23000n, 0n, 23000n), // INV-0003: 230.00 incl., paid in full
      paymentGst(3000n, 23000n, 0n, 10000n), // INV-0008: 230.00, GST 30.00
      paymentGst(3000n, 23000n, 10000n, 5000n),
      paymentGst(3000n, 23000n, 15000n, -10000n), // the removal
    ];
    expect(body.map((r) => cents(r[4]!))).toEqual(shares);
    const report = (await t.get(`/reports/gst?${RANGE}&basis=payments`, token)).json;
    expect(sumCol(body, 4)).toBe(shares.reduce((a, s) => a + s, 0n));
    expect(sumCol(body, 4)).toBe(toCents(report.total_gst_collected));
    expect(sumCol(body, 3)).toBe(toCents(report.total_sales));
  });

  it('gst-report.csv and annual-summary.csv are byte for byte the CSV exports of the period', async () => {
    const gst = await download(`/reports/export/gst-csv?${RANGE}&basis=invoice`, token);
    const annual = await download('/reports/export/annual-csv?year=2026', token);
    expect(Buffer.from(zip['gst-report.csv']!).equals(Buffer.from(gst.bytes))).toBe(true);
    expect(Buffer.from(zip['annual-summary.csv']!).equals(Buffer.from(annual.bytes))).toBe(true);
  });

  it('clients.csv: the account’s clients, formula text neutralised', () => {
    const rows = read(zip['clients.csv']!);
    expect(rows[0]).toEqual(['Name', 'Business name', 'Business', 'Email', 'Phone', 'Address', 'GST number', 'Company number', 'Payment terms']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([`'${FORMULA}`, 'Hemi Walker', 'Kōwhai Builders']);
    expect(rows.find((r) => r[0] === 'Kōwhai Builders')!.slice(1, 3)).toEqual(['Kōwhai Builders Ltd', 'Yes']);
  });

  it('neutralises formula text in every CSV; amounts stay plain numbers', () => {
    const invoices = read(zip['invoices.csv']!);
    const inv3 = invoices.find((r) => r[0] === 'INV-0003')!;
    expect(inv3.slice(3, 5)).toEqual([`'${FORMULA}`, "'=1+2"]);
    expect(read(zip['payments.csv']!).find((r) => r[1] === 'INV-0003')![2]).toBe(`'${FORMULA}`);
    for (const name of ['invoices.csv', 'payments.csv', 'clients.csv', 'gst-report.csv', 'annual-summary.csv']) {
      for (const r of read(zip[name]!)) for (const c of r) expect(c, name).not.toMatch(/^[=+@\t\r＝]|^-(?!\d+\.\d{2}$)/);
    }
    for (const r of invoices.slice(1)) for (const c of [6, 7, 8, 9, 10]) if (r[c] !== '') expect(r[c]).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('has a PDF of every invoice in invoices.csv, made by the app’s PDF path', () => {
    const refs = new Set(read(zip['invoices.csv']!).slice(1).map((r) => r[0]));
    for (const ref of refs) expect(text(zip[`pdfs/${ref}.pdf`]!.slice(0, 5))).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'accountant-zip-'));
    const file = join(dir, 'INV-0002.pdf');
    writeFileSync(file, zip['pdfs/INV-0002.pdf']!);
    const pdfText = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(pdfText).toContain('INV-0002');
    expect(pdfText).toContain('Kōwhai Builders');
  });

  it('explains itself in README.txt', () => {
    const readme = text(zip['README.txt']!);
    expect(readme).toContain('Period: 1 April 2025 to 31 March 2026');
    for (const f of ['invoices.csv', 'payments.csv', 'clients.csv', 'gst-report.csv', 'annual-summary.csv', 'pdfs/', 'NZD', 'Excl. GST', 'Incl. GST', 'GST share', 'invoice basis']) expect(readme).toContain(f);
    // Boxes 9 and 13 are typed on the return, never kept: the README says they are 0.00 here and why.
    expect(readme).toContain('Boxes 9 and 13 (debit and');
    expect(readme).toContain('actual-cost profit');
  });

  it('holds nothing of another account, and nothing that is not a supply', () => {
    const all = Object.entries(zip).filter(([n]) => !n.endsWith('.pdf')).map(([, b]) => text(b)).join('\n');
    for (const s of ['Secret client of B', '4321', 'Quote person', 'Draft person', 'QUO-', 'INV-0007']) expect(all).not.toContain(s);
  });
});

describe('periods, bases and links', () => {
  it('start_date and end_date give the same files as the tax year; basis=payments puts that GST report in', async () => {
    const res = await download(`/reports/export/accountant-zip?${RANGE}&basis=payments`, token);
    expect(res.status).toBe(200);
    const zip = unzipSync(res.bytes);
    const gst = await download(`/reports/export/gst-csv?${RANGE}&basis=payments`, token);
    expect(Buffer.from(zip['gst-report.csv']!).equals(Buffer.from(gst.bytes))).toBe(true);
    expect(text(zip['README.txt']!)).toContain('payments basis');
    const q1 = unzipSync((await download('/reports/export/accountant-zip?start_date=2025-04-01&end_date=2025-06-30', token)).bytes);
    expect(read(q1['invoices.csv']!).slice(1).map((r) => r[0])).toEqual(['INV-0002', 'INV-0006']);
    expect(Object.keys(q1).filter((n) => n.startsWith('pdfs/')).sort()).toEqual(['pdfs/INV-0002.pdf', 'pdfs/INV-0006.pdf']);
  }, 60_000);

  it('another account’s export holds only its own data', async () => {
    const zip = unzipSync((await download('/reports/export/accountant-zip?year=2026', tokenB)).bytes);
    const all = Object.entries(zip).filter(([n]) => !n.endsWith('.pdf')).map(([, b]) => text(b)).join('\n');
    expect(all).toContain('Secret client of B');
    for (const s of ['Kōwhai Builders', 'Hemi Walker', 'HYPERLINK', 'Till 2']) expect(all).not.toContain(s);
    expect(Object.keys(zip).filter((n) => n.startsWith('pdfs/'))).toEqual(['pdfs/INV-0001.pdf']);
  }, 60_000);

  it('bad periods are 422 with a detail; no sign-in is 401', async () => {
    const cases: [string, string | RegExp][] = [
      ['', 'Please select both start and end dates'],
      ['start_date=2025-04-01', 'Please select both start and end dates'],
      ['start_date=2026-04-01&end_date=2025-04-01', 'The start date must be on or before the end date'],
      ['start_date=2025-02-30&end_date=2025-04-01', 'Dates must be real calendar days written as YYYY-MM-DD'],
      ['year=soon', /Please choose a tax year/],
      ['year=2026&start_date=2025-04-01&end_date=2025-06-30', 'Choose either a tax year or start and end dates, not both'],
      [`${RANGE}&basis=cash`, "basis must be 'invoice' or 'payments'"],
    ];
    for (const [q, detail] of cases) {
      const r = await t.get(`/reports/export/accountant-zip?${q}`, token);
      expect(r.status, q).toBe(422);
      if (typeof detail === 'string') expect(r.json.detail, q).toBe(detail);
      else expect(r.json.detail, q).toMatch(detail);
    }
    const none = await t.get('/reports/export/accountant-zip?year=2026');
    expect(none.status).toBe(401);
  });

  it('a download link opens the ZIP without the bearer header; altered, of another export, or of another account it is 403', async () => {
    const made = await t.post('/reports/accountant-export-links', { year: 2026 }, token);
    expect(made.status).toBe(200);
    expect(made.json.url).toMatch(/^\/api\/v1\/reports\/export\/accountant-zip\?start_date=2025-04-01&end_date=2026-03-31&basis=invoice&token=[\w-]{43}$/);
    const ok = await download(made.json.url.slice('/api/v1'.length));
    expect(ok.status).toBe(200);
    expect(Object.keys(unzipSync(ok.bytes))).toContain('invoices.csv');
    const altered = await t.get(made.json.url.replace('end_date=2026-03-31', 'end_date=2026-06-30'));
    expect(altered.status).toBe(403);
    expect(altered.json.detail).toMatch(/not valid/);
    // A CSV export's link does not open the ZIP.
    const csvLink = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2025-04-01', end_date: '2026-03-31' }, token);
    const borrowed = await t.get(csvLink.json.url.replace('/export/gst-csv?', '/export/accountant-zip?'));
    expect(borrowed.status).toBe(403);
    // B's link names no account: it opens B's own data, never A's, whatever is added to it.
    const mine = await t.post('/reports/accountant-export-links', { year: 2026 }, tokenB);
    const theirs = await download(`${mine.json.url.slice('/api/v1'.length)}&account=${encodeURIComponent(made.json.url)}`);
    expect(theirs.status).toBe(200);
    const files = unzipSync(theirs.bytes);
    expect(Object.values(files).map(text).join('\n')).not.toContain('Kōwhai Builders');
    const bad = await t.post('/reports/accountant-export-links', { start_date: '2025-04-01' }, token);
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe('Please select both start and end dates');
    expect((await t.post('/reports/accountant-export-links', { year: 2026 })).status).toBe(401);
  }, 60_000);

  it(`refuses a period with more than ${ACCOUNTANT_EXPORT_MAX_INVOICES} invoices before making anything`, async () => {
    const big = await signUp(t, 'Busy Sparky');
    const docs: SeedDocument[] = Array.from({ length: ACCOUNTANT_EXPORT_MAX_INVOICES + 1 }, (_, i) => ({
      number: i + 1, at: '2025-06-01T00:00:00.000Z', lines: [line(10)], issued: true,
    }));
    await seedDocuments(t.deps.store, big.userId, docs);
    const r = await t.get('/reports/export/accountant-zip?year=2026', big.token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(`This period has ${ACCOUNTANT_EXPORT_MAX_INVOICES + 1} invoices; one export can hold at most ${ACCOUNTANT_EXPORT_MAX_INVOICES}. Choose a shorter period (for example each GST period) and export each one.`);
    // A shorter period of the same account is fine.
    expect((await download('/reports/export/accountant-zip?start_date=2025-07-01&end_date=2025-09-30', big.token)).status).toBe(200);
  }, 120_000);
});

describe('bounded work', () => {
  // A renderer the test controls: it records each call and waits for the test, or fails.
  let mode: 'hold' | 'fail' = 'hold';
  const held: (() => void)[] = [];
  const renders: string[] = [];
  let u: TestApp;
  let tk: string;
  beforeAll(async () => {
    u = await createTestApp({
      overrides: {
        renderPdf: (input: PdfInput) => {
          renders.push(input.document.reference);
          if (mode === 'fail') return Promise.reject(new PdfRenderError('failed', 'broken on purpose'));
          return new Promise((resolve) => held.push(() => resolve(Buffer.from(`%PDF-1.7 ${input.document.reference}`))));
        },
      },
    });
    const a = await signUp(u);
    tk = a.token;
    await seedDocuments(u.deps.store, a.userId, [1, 2, 3].map((n) => ({ number: n, at: '2025-06-01T00:00:00.000Z', lines: [line(10 * n)], issued: true })));
  }, 60_000);
  afterAll(() => u.close());
  const open = () => u.app.request('/api/v1/reports/export/accountant-zip?year=2026', { headers: { Authorization: `Bearer ${tk}` } });

  it(`PDFs are made one at a time, as the download reads; at most ${ACCOUNTANT_EXPORTS_AT_ONCE} exports at once, then 503`, async () => {
    mode = 'hold';
    const first = await open();
    expect(first.status).toBe(200);
    // Nothing is rendered until the body is read.
    expect(renders).toEqual([]);
    const reader = first.body!.getReader();
    const chunks: Uint8Array[] = [];
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        chunks.push(value);
      }
    })();
    await expect.poll(() => renders.length).toBe(1);
    const second = await open();
    expect(second.status).toBe(200);
    const third = await open();
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('30');
    expect((await third.json()).detail).toBe(EXPORT_BUSY);
    // One PDF at a time: the next is asked for only when the one before is done.
    held.shift()!();
    await expect.poll(() => renders.length).toBe(2);
    held.shift()!();
    await expect.poll(() => renders.length).toBe(3);
    held.shift()!();
    await reading;
    const zip = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(zip).filter((n) => n.startsWith('pdfs/')).sort()).toEqual(['pdfs/INV-0001.pdf', 'pdfs/INV-0002.pdf', 'pdfs/INV-0003.pdf']);
    // The finished export gave its place back; the second, abandoned, gives its place back when cancelled.
    await second.body!.cancel();
    const again = await open();
    expect(again.status).toBe(200);
    await again.body!.cancel();
  }, 60_000);

  it('a PDF that cannot be made breaks the download instead of ending it as a ZIP that looks complete', async () => {
    mode = 'fail';
    // A new account: the PDFs above are in the PDF cache and would not be made again.
    const b = await signUp(u);
    await seedDocuments(u.deps.store, b.userId, [{ number: 1, at: '2025-06-01T00:00:00.000Z', lines: [line(10)], issued: true }]);
    const res = await u.app.request('/api/v1/reports/export/accountant-zip?year=2026', { headers: { Authorization: `Bearer ${b.token}` } });
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow(/PDF/);
    // And the place is free again.
    const next = await open();
    expect(next.status).toBe(200);
    await next.body!.cancel();
  }, 60_000);
});

describe('credit notes', () => {
  // Their own app: the accounts here have invoices in March to June 2026, which would change the
  // tax-year figures above. Today is 5 May 2026 in NZ until the credits are made, then 1 July.
  let c: TestApp;
  let tokenC: string;
  let tokenD: string;
  let cnC: string;
  let cnD: string;
  const invC = randomUUID();
  const invD = randomUUID();
  const MAR_APR = 'start_date=2026-03-01&end_date=2026-04-30';
  const MAY_JUN = 'start_date=2026-05-01&end_date=2026-06-30';
  const getZip = async (query: string, bearer: string) => {
    const res = await c.app.request(`/api/v1/reports/export/accountant-zip?${query}`, { headers: { Authorization: `Bearer ${bearer}` } });
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    return unzipSync(new Uint8Array(await res.arrayBuffer()));
  };
  const pdfTextOf = (bytes: Uint8Array): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'accountant-zip-cn-')), 'doc.pdf');
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  };
  const credit = async (invoiceId: string, body: Record<string, unknown>, bearer: string): Promise<{ id: string; reference: string }> => {
    const r = await c.post(`/invoices/${invoiceId}/credit-notes`, body, bearer);
    if (r.status !== 201) throw new Error(`credit note: ${r.status} ${r.text}`);
    return r.json;
  };

  const signInAgain = async (u: { email: string; password: string }): Promise<string> => {
    const r = await c.post('/auth/login', { email: u.email, password: u.password });
    if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);
    return r.json.access_token as string;
  };
  beforeAll(async () => {
    c = await createTestApp(); // today: 5 May 2026 in NZ
    const uc = await signUp(c, 'Kōwhai Plumbing');
    const ud = await signUp(c, 'Other Business');
    await seedDocuments(c.deps.store, uc.userId, [
      // Issued in March–April: 1 × 100 work + 2 × 50 parts = 200.00 + GST 30.00 = 230.00.
      { documentId: invC, number: 1, at: '2026-03-16T00:00:00.000Z', client: { name: 'Aroha Ngata' }, lines: [line(100), { description: 'Parts', qty: 2, unit_price: 50 }], issued: true },
      { number: 2, at: '2026-05-01T00:00:00.000Z', client: kowhai, lines: [line(300)], sent: true },
      { number: 3, at: '2026-05-04T20:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(80)], issued: true }, // 5 May, 8 am in NZ
    ]);
    // Credited in May–June: the parts line, 2 × 50 = 100.00 + GST 15.00 = 115.00.
    cnC = (await credit(invC, { lines: [{ line_index: 1 }], reason: 'Parts returned' }, uc.token)).id;
    // Another account with credit notes of its own on the same day: CN-0001 and CN-0002.
    await seedDocuments(c.deps.store, ud.userId, [{ documentId: invD, number: 1, at: '2026-04-01T00:00:00.000Z', client: { name: 'Secret client of D' }, lines: [line(999)], issued: true }]);
    cnD = (await credit(invD, { amount: '11.50', reason: 'Discount' }, ud.token)).id;
    await credit(invD, { amount: '23.00', reason: 'Discount' }, ud.token);
    // A later invoice, so the credit row sits between others by date.
    c.clock.set('2026-06-30T22:00:00.000Z'); // 1 July in NZ
    await seedDocuments(c.deps.store, uc.userId, [{ number: 4, at: '2026-06-10T00:00:00.000Z', client: { name: 'Hemi Walker' }, lines: [line(40)], issued: true }]);
    tokenC = await signInAgain(uc);
    tokenD = await signInAgain(ud);
  }, 60_000);
  afterAll(() => c.close());

  it('the invoice stays whole in the period it was issued; the next period has the credit note as a negative row, in date order', async () => {
    const marApr = await getZip(MAR_APR, tokenC);
    const before = read(marApr['invoices.csv']!).slice(1);
    expect(before.map((r) => [r[0], r[1]])).toEqual([['INV-0001', '2026-03-16']]);
    // Its own amounts; its balance is after the credit.
    expect(before[0]!.slice(6)).toEqual(['200.00', '30.00', '230.00', '0.00', '115.00', '']);
    expect(Object.keys(marApr).filter((n) => n.startsWith('pdfs/'))).toEqual(['pdfs/INV-0001.pdf']);

    const mayJun = await getZip(MAY_JUN, tokenC);
    const rows = read(mayJun['invoices.csv']!).slice(1);
    expect(rows.map((r) => [r[0], r[1], r[5]])).toEqual([
      ['INV-0002', '2026-05-01', 'Overdue'],
      ['INV-0003', '2026-05-05', 'Overdue'],
      ['CN-0001', '2026-05-05', 'Credit note for INV-0001'],
      ['INV-0004', '2026-06-10', 'Overdue'],
    ]);
    // No due date, paid, balance or void for a credit note: only its negative amounts.
    expect(rows[2]).toEqual(['CN-0001', '2026-05-05', '', 'Aroha Ngata', '', 'Credit note for INV-0001', '-100.00', '-15.00', '-115.00', '', '', '']);
    // The oracle: 300 + 80 + 40 issued less the 100 credited, GST 15% of each.
    expect([sumCol(rows, 6), sumCol(rows, 7), sumCol(rows, 8)]).toEqual([32000n, 4800n, 36800n]);
    expect([sumCol(rows, 6), sumCol(rows, 7)]).toEqual([30000n + 8000n + 4000n - 10000n, gstOf(30000n) + gstOf(8000n) + gstOf(4000n) - gstOf(10000n)]);
  }, 60_000);

  it('invoices.csv adds up to the invoice-basis GST report in both periods, and gst-report.csv is the GST CSV export', async () => {
    for (const period of [MAR_APR, MAY_JUN]) {
      const zip = await getZip(period, tokenC);
      const rows = read(zip['invoices.csv']!).slice(1);
      const gst = (await c.get(`/reports/gst?${period}&basis=invoice`, tokenC)).json;
      expect(sumCol(rows, 8), period).toBe(toCents(gst.total_sales));
      expect(sumCol(rows, 7), period).toBe(toCents(gst.total_gst_collected));
      const res = await c.app.request(`/api/v1/reports/export/gst-csv?${period}&basis=invoice`, { headers: { Authorization: `Bearer ${tokenC}` } });
      expect(Buffer.from(zip['gst-report.csv']!).equals(Buffer.from(await res.arrayBuffer())), period).toBe(true);
    }
    expect(toCents((await c.get(`/reports/gst?${MAY_JUN}&basis=invoice`, tokenC)).json.total_sales)).toBe(36800n);
  }, 60_000);

  it('the credit note’s PDF is in pdfs/, named by its reference, the same bytes as its own PDF download', async () => {
    const zip = await getZip(MAY_JUN, tokenC);
    expect(Object.keys(zip).filter((n) => n.startsWith('pdfs/')).sort()).toEqual(['pdfs/CN-0001.pdf', 'pdfs/INV-0002.pdf', 'pdfs/INV-0003.pdf', 'pdfs/INV-0004.pdf']);
    const own = await c.app.request(`/api/v1/credit-notes/${cnC}/pdf`, { headers: { Authorization: `Bearer ${tokenC}` } });
    expect(own.status).toBe(200);
    expect(Buffer.from(zip['pdfs/CN-0001.pdf']!).equals(Buffer.from(await own.arrayBuffer()))).toBe(true);
    const pdf = pdfTextOf(zip['pdfs/CN-0001.pdf']!);
    for (const s of ['Credit note', 'CN-0001', 'INV-0001', 'Aroha Ngata']) expect(pdf).toContain(s);
    expect(pdf).not.toContain('Secret client of D');
  }, 60_000);

  it('README.txt says credit notes are in and how they are shown', async () => {
    const readme = text((await getZip(MAY_JUN, tokenC))['README.txt']!);
    expect(readme).toContain('every credit note issued in the period (1 of the rows)');
    expect(readme).toContain('"Credit note for INV-0001"');
    expect(readme).toContain('CN-0001.pdf');
    expect(readme).toContain('pdfs/ (4 files)');
  }, 60_000);

  it('another account’s credit notes never appear, and its own export has them', async () => {
    const zipC = await getZip(MAY_JUN, tokenC);
    const allC = Object.entries(zipC).filter(([n]) => !n.endsWith('.pdf')).map(([, b]) => text(b)).join('\n');
    for (const s of ['Secret client of D', 'CN-0002', '-11.50', '-23.00']) expect(allC).not.toContain(s);
    expect(read(zipC['invoices.csv']!).filter((r) => r[0]!.startsWith('CN-')).map((r) => [r[0], r[3]])).toEqual([['CN-0001', 'Aroha Ngata']]);

    const zipD = await getZip(MAY_JUN, tokenD);
    const rowsD = read(zipD['invoices.csv']!).slice(1);
    expect(rowsD.map((r) => [r[0], r[3], r[5], r[8]])).toEqual([
      ['CN-0001', 'Secret client of D', 'Credit note for INV-0001', '-11.50'],
      ['CN-0002', 'Secret client of D', 'Credit note for INV-0001', '-23.00'],
    ]);
    expect(Object.keys(zipD).filter((n) => n.startsWith('pdfs/')).sort()).toEqual(['pdfs/CN-0001.pdf', 'pdfs/CN-0002.pdf']);
    const allD = Object.entries(zipD).filter(([n]) => !n.endsWith('.pdf')).map(([, b]) => text(b)).join('\n');
    for (const s of ['Aroha Ngata', 'Kōwhai Builders', 'Hemi Walker', '-115.00']) expect(allD).not.toContain(s);
    const pdfD = pdfTextOf(zipD['pdfs/CN-0001.pdf']!);
    expect(pdfD).toContain('Secret client of D');
    expect(pdfD).not.toContain('Aroha Ngata');
    const own = await c.app.request(`/api/v1/credit-notes/${cnD}/pdf`, { headers: { Authorization: `Bearer ${tokenD}` } });
    expect(Buffer.from(zipD['pdfs/CN-0001.pdf']!).equals(Buffer.from(await own.arrayBuffer()))).toBe(true);
  }, 60_000);

  it(`counts credit notes in the ${ACCOUNTANT_EXPORT_MAX_INVOICES} an export can hold`, async () => {
    c.clock.set('2026-05-04T21:30:00.000Z'); // 5 May in NZ again, for the credits
    try {
      const big = await signUp(c, 'Busy Sparky');
      const ids = Array.from({ length: ACCOUNTANT_EXPORT_MAX_INVOICES - 1 }, () => randomUUID());
      await seedDocuments(c.deps.store, big.userId, ids.map((documentId, i) => ({ documentId, number: i + 1, at: '2026-05-01T00:00:00.000Z', lines: [line(10)], issued: true })));
      await credit(ids[0]!, { amount: '1.15', reason: 'Discount' }, big.token);
      await credit(ids[1]!, { amount: '1.15', reason: 'Discount' }, big.token);
      const r = await c.get(`/reports/export/accountant-zip?${MAY_JUN}`, big.token);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(
        `This period has ${ACCOUNTANT_EXPORT_MAX_INVOICES - 1} invoices and 2 credit notes; one export can hold at most ${ACCOUNTANT_EXPORT_MAX_INVOICES} together. Choose a shorter period (for example each GST period) and export each one.`,
      );
      // From the day of the credits: the two credit notes and their PDFs, not the invoices they credit.
      const zip = await getZip('start_date=2026-05-05&end_date=2026-05-31', big.token);
      expect(read(zip['invoices.csv']!).slice(1).map((r) => [r[0], r[5], r[8]])).toEqual([
        ['CN-0001', 'Credit note for INV-0001', '-1.15'],
        ['CN-0002', 'Credit note for INV-0002', '-1.15'],
      ]);
      expect(Object.keys(zip).filter((n) => n.startsWith('pdfs/')).sort()).toEqual(['pdfs/CN-0001.pdf', 'pdfs/CN-0002.pdf']);
    } finally {
      c.clock.set('2026-06-30T22:00:00.000Z');
    }
  }, 120_000);
});
