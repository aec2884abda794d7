// The CSV exports, read back with csv-parse: headers, one row per invoice (or payment), every
// number against the JSON report, UTF-8 with a BOM, the file name, and formula neutralisation.
import { parse } from 'csv-parse/sync';
import { toCents, centsToString } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocuments } from '../../../cli/src/bench/seed.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

let t: TestApp;
let token: string;

const NASTY = ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tTabbed', '\rReturn', '＝1+1'];

beforeAll(async () => {
  // Today is after everything seeded below happened: a GST CSV download records its range as exported.
  t = await createTestApp({ clock: new TestClock('2026-07-15T00:00:00.000Z') });
  const u = await signUp(t);
  token = u.token;
  const line = (unit_price: number | string, extra: Record<string, unknown> = {}) => ({ description: 'Work', qty: 1, unit_price, ...extra });
  await seedDocuments(t.deps.store, u.userId, [
    ...NASTY.map((name, i) => ({ number: i + 1, at: `2026-04-0${i + 1}T00:00:00.000Z`, client: { name, gst_number: i === 0 ? '=1+2' : '' }, lines: [line(100 + i)], issued: true })),
    { number: 10, at: '2026-04-20T00:00:00.000Z', client: { name: 'Kōwhai Builders', business_name: 'Kōwhai Builders Ltd', is_business: 'true', gst_number: '49-091-850' }, lines: [line(1234.56), line(100, { tax_rate: 0 })], payments: [{ amount: '500.00', date: '2026-05-02' }] },
    { number: 11, at: '2026-05-10T00:00:00.000Z', client: { name: 'Smith, "Jock"\nsecond line' }, lines: [line('19.99', { qty: 2.75 })], markPaidOn: '2026-05-15' },
    { number: 12, at: '2026-06-30T00:00:00.000Z', client: null, lines: [line(230, { tax_included: true })], payments: [{ amount: '100.00', date: '2026-06-30' }, { amount: '130.00', date: '2026-07-01' }] },
    { number: 13, at: '2026-03-19T21:00:00.000Z', issueDate: '2026-04-05', client: { name: 'Deposit first' }, lines: [line(2300, { tax_included: true })], payments: [{ amount: '500.00', date: '2026-03-20' }] },
    { number: 14, at: '2026-04-03T00:00:00.000Z', client: { name: 'Quote person' }, type: 'quote', lines: [line(777)] },
    { number: 15, at: '2026-04-03T00:00:00.000Z', client: { name: 'Voided person' }, lines: [line(888)], voided: true },
  ]);
});
afterAll(() => t.close());

const RANGE = 'start_date=2026-04-01&end_date=2026-06-30';
const AMOUNT = /^\d+\.\d{2}$/;
const cents = (s: string): bigint => {
  expect(s).toMatch(AMOUNT);
  return toCents(s);
};
const num = (c: bigint): number => Number(centsToString(c));
const sumCol = (rows: string[][], col: number): bigint => rows.reduce((a, r) => a + cents(r[col]!), 0n);
const read = (text: string): string[][] => parse(text, { bom: true, relax_column_count: false }) as string[][];

describe('GST CSV, invoice basis', () => {
  let res: Awaited<ReturnType<TestApp['get']>>;
  let rows: string[][];
  let report: Record<string, unknown> & { total_sales: number; total_gst_collected: number; invoice_count: number; paid_invoices_count: number; gst_return: Record<string, number> };
  beforeAll(async () => {
    res = await t.get(`/reports/export/gst-csv?${RANGE}`, token);
    rows = read(res.text);
    report = (await t.get(`/reports/gst?${RANGE}`, token)).json;
  });

  it('is a UTF-8 CSV download named for its period, with a BOM and CRLF line ends', async () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="gst-report-2026-04-01-to-2026-06-30.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const raw = await (await t.app.request(`/api/v1/reports/export/gst-csv?${RANGE}`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer();
    expect([...new Uint8Array(raw).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(raw)).toContain('Kōwhai Builders Ltd (Kōwhai Builders)');
    expect(res.text).toMatch(/\r\n$/);
  });

  it('has a header row, one row per invoice, the totals and the return boxes', () => {
    expect(rows[0]).toEqual(['Reference', 'Issue date', 'Client', 'Client GST number', 'Excl. GST', 'GST', 'Incl. GST', 'Paid/unpaid', 'Paid date', 'Time of supply']);
    const invoices = rows.slice(1, -12);
    expect(invoices).toHaveLength(report.invoice_count);
    expect(invoices.map((r) => r[0])).toEqual(['INV-0001', 'INV-0002', 'INV-0003', 'INV-0004', 'INV-0005', 'INV-0006', 'INV-0007', 'INV-0010', 'INV-0011', 'INV-0012']);
    expect(rows.slice(-12).map((r) => r[0])).toEqual(['Total', 'Box 5', 'Box 6', 'Box 7', 'Box 8', 'Box 9', 'Box 10', 'Box 11', 'Box 12', 'Box 13', 'Box 14', 'Box 15']);
    expect(rows.every((r) => r.length === 10)).toBe(true);
  });

  it('every number matches the JSON report: the rows add up to its totals and boxes', () => {
    const invoices = rows.slice(1, -12);
    for (const r of invoices) {
      expect(r[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(cents(r[4]!) + cents(r[5]!)).toBe(cents(r[6]!));
    }
    const total = rows.at(-12)!;
    expect(num(sumCol(invoices, 6))).toBe(report.total_sales);
    expect(num(sumCol(invoices, 5))).toBe(report.total_gst_collected);
    expect([cents(total[4]!), cents(total[5]!), cents(total[6]!)]).toEqual([sumCol(invoices, 4), sumCol(invoices, 5), sumCol(invoices, 6)]);
    expect(total[7]).toBe(`${report.paid_invoices_count} paid, ${report.invoice_count - report.paid_invoices_count} unpaid`);
    expect(invoices.filter((r) => r[7] === 'Paid')).toHaveLength(report.paid_invoices_count);
    const box = (n: number, col: number) => num(cents(rows.find((r) => r[0] === `Box ${n}`)![col]!));
    expect({
      box5: box(5, 6), box6: box(6, 6), box7: box(7, 6), box8: box(8, 5), box9: box(9, 5), box10: box(10, 5),
      box11: box(11, 6), box12: box(12, 5), box13: box(13, 5), box14: box(14, 5), box15: box(15, 5),
    }).toEqual(report.gst_return);
    expect(rows.find((r) => r[0] === 'Box 5')![2]).toBe('Total sales and income for the period (including GST and any zero-rated supplies)');
  });

  it('shows each invoice as the report counts it: paid date, time of supply, client GST number', () => {
    const byRef = new Map(rows.map((r) => [r[0], r]));
    expect(byRef.get('INV-0010')).toEqual(['INV-0010', '2026-04-20', 'Kōwhai Builders Ltd (Kōwhai Builders)', '49-091-850', '1334.56', '185.18', '1519.74', 'Unpaid', '', '2026-04-20']);
    expect(byRef.get('INV-0011')).toEqual(['INV-0011', '2026-05-10', 'Smith, "Jock"\nsecond line', '', '54.97', '8.25', '63.22', 'Paid', '2026-05-15', '2026-05-10']);
    expect(byRef.get('INV-0012')!.slice(4)).toEqual(['200.00', '30.00', '230.00', 'Paid', '2026-07-01', '2026-06-30']);
    // The deposit on 20 March made 20 March the time of supply: the invoice is not in this period.
    expect(byRef.has('INV-0013')).toBe(false);
    expect(res.text).not.toContain('Quote person');
    expect(res.text).not.toContain('Voided person');
  });

  it('neutralises text that a spreadsheet would run as a formula, and leaves amounts as numbers', () => {
    const clients = rows.slice(1, 8).map((r) => r[2]);
    expect(clients).toEqual(NASTY.map((n) => `'${n}`));
    expect(rows[1]![3]).toBe("'=1+2");
    expect(res.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const r of rows.slice(1)) for (const c of [4, 5, 6]) if (r[c] !== '') expect(r[c]).toMatch(AMOUNT);
    // No text cell begins with a formula character once read back.
    for (const r of rows) for (const c of r) expect(c).not.toMatch(/^[=+\-@\t\r＝]/);
  });
});

describe('GST CSV, payments basis', () => {
  it('one row per payment received in the range, adding up to the JSON report', async () => {
    const res = await t.get(`/reports/export/gst-csv?${RANGE}&basis=payments`, token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="gst-report-2026-04-01-to-2026-06-30-payments-basis.csv"');
    const report = (await t.get(`/reports/gst?${RANGE}&basis=payments`, token)).json;
    const rows = read(res.text);
    expect(rows[0]).toEqual(['Reference', 'Payment date', 'Client', 'Client GST number', 'Received excl. GST', 'GST', 'Received incl. GST', 'Invoice paid/unpaid', 'Invoice paid date', 'Invoice issue date']);
    const payments = rows.slice(1, -12);
    expect(payments.map((r) => [r[0], r[1], r[6]])).toEqual([
      ['INV-0010', '2026-05-02', '500.00'],
      ['INV-0011', '2026-05-15', '63.22'],
      ['INV-0012', '2026-06-30', '100.00'],
    ]);
    expect(num(sumCol(payments, 6))).toBe(report.total_sales);
    expect(num(sumCol(payments, 5))).toBe(report.total_gst_collected);
    const total = rows.at(-12)!;
    expect(total.slice(0, 8)).toEqual(['Total', '', '3 payments on 3 invoices', '', centsToString(sumCol(payments, 4)), centsToString(sumCol(payments, 5)), centsToString(sumCol(payments, 6)), `${report.paid_invoices_count} paid, ${report.unpaid_invoices_count} unpaid`]);
    const box = (n: number, col: number) => num(cents(rows.find((r) => r[0] === `Box ${n}`)![col]!));
    expect({
      box5: box(5, 6), box6: box(6, 6), box7: box(7, 6), box8: box(8, 5), box9: box(9, 5), box10: box(10, 5),
      box11: box(11, 6), box12: box(12, 5), box13: box(13, 5), box14: box(14, 5), box15: box(15, 5),
    }).toEqual(report.gst_return);
  });
});

describe('annual CSV', () => {
  it('one row per invoice issued in the tax year; Total, Paid and Unpaid rows equal the summary', async () => {
    const res = await t.get('/reports/export/annual-csv?year=2027', token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="annual-report-2026-27.csv"');
    const summary = (await t.get('/reports/annual?year=2027', token)).json;
    const rows = read(res.text);
    expect(rows[0]).toEqual(['Reference', 'Issue date', 'Client', 'Client GST number', 'Excl. GST', 'GST', 'Incl. GST', 'Paid/unpaid', 'Paid date']);
    const invoices = rows.slice(1, -5);
    // By issue date: the invoice with the March deposit was issued on 5 April, so it is in 2026–27.
    expect(invoices.map((r) => r[0])).toContain('INV-0013');
    expect(invoices).toHaveLength(summary.monthly_breakdown.reduce((a: number, m: { count: number }) => a + m.count, 0));
    const [total, paid, unpaid, credited, refunded] = rows.slice(-5) as [string[], string[], string[], string[], string[]];
    expect([total[0], paid[0], unpaid[0], credited[0], refunded[0]]).toEqual(['Total', 'Paid', 'Unpaid', 'Credited', 'Refunded']);
    expect(num(cents(credited[4]!))).toBe(summary.credited.revenue);
    expect(num(cents(refunded[6]!))).toBe(summary.refunded.amount);
    expect(num(sumCol(invoices, 4))).toBe(summary.total_revenue);
    expect(num(sumCol(invoices, 5))).toBe(summary.total_gst);
    expect(num(cents(total[4]!))).toBe(summary.total_revenue);
    expect(num(cents(total[5]!))).toBe(summary.total_gst);
    expect(num(cents(paid[4]!))).toBe(summary.paid_revenue);
    expect(num(cents(unpaid[4]!))).toBe(summary.unpaid_revenue);
    expect(num(sumCol(invoices.filter((r) => r[7] === 'Paid'), 4))).toBe(summary.paid_revenue);
    expect(cents(paid[5]!) + cents(unpaid[5]!)).toBe(cents(total[5]!));
  });

  it('validates its query like the report', async () => {
    const r = await t.get('/reports/export/annual-csv?year=soon', token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/Please choose a tax year/);
    const g = await t.get('/reports/export/gst-csv?start_date=2026-04-01', token);
    expect(g.status).toBe(422);
    expect(g.json.detail).toBe('Please select both start and end dates');
  });
});

describe('an empty period', () => {
  it('is a header, a zero total and the boxes', async () => {
    const rows = read((await t.get('/reports/export/gst-csv?start_date=2020-01-01&end_date=2020-01-31', token)).text);
    expect(rows).toHaveLength(13);
    expect(rows[1]!.slice(0, 8)).toEqual(['Total', '', '0 invoices', '', '0.00', '0.00', '0.00', '0 paid, 0 unpaid']);
  });
});
