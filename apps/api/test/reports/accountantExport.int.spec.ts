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
      'README.txt', 'annual-summary.csv', 'clients.csv', 'gst-report.csv', 'invoices.csv', 'payments.csv',
      'pdfs/INV-0002.pdf', 'pdfs/INV-0003.pdf', 'pdfs/INV-0004.pdf', 'pdfs/INV-0005.pdf', 'pdfs/INV-0006.pdf', 'pdfs/INV-0008.pdf',
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

  it('a signed link opens the ZIP without the bearer header; altered, of another export, or of another account it is 403', async () => {
    const made = await t.post('/reports/accountant-export-links', { year: 2026 }, token);
    expect(made.status).toBe(200);
    expect(made.json.url).toMatch(/^\/api\/v1\/reports\/export\/accountant-zip\?start_date=2025-04-01&end_date=2026-03-31&basis=invoice&account=.+&exp=\d+&sig=/);
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
    // B's link with A's account in it.
    const mine = await t.post('/reports/accountant-export-links', { year: 2026 }, tokenB);
    const theirs = await t.get(mine.json.url.replace(/account=[^&]+/, `account=${new URL(made.json.url, 'http://x').searchParams.get('account')}`));
    expect(theirs.status).toBe(403);
    expect(theirs.text).not.toContain('Kōwhai Builders');
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
