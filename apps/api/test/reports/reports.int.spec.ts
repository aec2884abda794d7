// GET /reports/gst and /reports/annual through the HTTP app: range edges in NZ calendar days,
// what counts (invoices, not quotes, not voided or deleted), the payments basis with part
// payments, a deposit before the invoice, validation, tenant isolation, and agreement with the
// in-memory replay over many ranges.
import fc from 'fast-check';
import { annualSummary, centsToString, checkRange, gstReport, MISSING_DATES, reportRowsFromEvents, type LoggedEvent } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocuments, type SeedDocument } from '../../../cli/src/bench/seed.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const line = (unit_price: number | string, extra: Record<string, unknown> = {}) => ({ description: 'Work', qty: 1, unit_price, ...extra });
const gst = (token: string, from: string, to: string, basis = 'invoice') => t.get(`/reports/gst?start_date=${from}&end_date=${to}&basis=${basis}`, token);

/** A new account holding `docs`, seeded before the tests of the block it is called in run. */
function accountWith(docs: SeedDocument[]): { token: string; events: LoggedEvent[] } {
  const account = { token: '', events: [] as LoggedEvent[] };
  beforeAll(async () => {
    const u = await signUp(t);
    account.token = u.token;
    account.events = await seedDocuments(t.deps.store, u.userId, docs);
  });
  return account;
}

describe('range edges are NZ calendar days, first and last day inclusive', () => {
  const account = accountWith([
    { number: 1, at: '2026-03-31T10:00:00.000Z', lines: [line(10)], issued: true }, // NZ 31 March 23:00 (NZDT) → tax year 2026, Q1
    { number: 2, at: '2026-03-31T11:00:00.000Z', lines: [line(20)], issued: true }, // UTC still 31 March; NZ 1 April 00:00 → Q2, tax year 2027
    { number: 3, at: '2026-06-30T11:59:59.000Z', lines: [line(40)], issued: true }, // NZ 30 June 23:59:59 (NZST) → Q2
    { number: 4, at: '2026-06-30T12:00:00.000Z', lines: [line(80)], issued: true }, // UTC noon 30 June; NZ 1 July 00:00 → Q3
    { number: 5, at: '2026-07-01T00:00:00.000Z', lines: [line(160)], issued: true }, // UTC midnight; NZ 1 July 12:00 → Q3
  ]);

  it('Q2 (1 April – 30 June) holds the invoices of NZ 1 April and NZ 30 June, not 31 March or 1 July', async () => {
    const r = await gst(account.token, '2026-04-01', '2026-06-30');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ invoice_count: 2, total_sales: 69, total_gst_collected: 9 });
    expect(r.json.breakdown_by_month).toEqual([
      { month: '2026-04', sales: 23, gst: 3, count: 1 },
      { month: '2026-05', sales: 0, gst: 0, count: 0 },
      { month: '2026-06', sales: 46, gst: 6, count: 1 },
    ]);
  });

  it('a one-day range is that day only', async () => {
    expect((await gst(account.token, '2026-03-31', '2026-03-31')).json).toMatchObject({ invoice_count: 1, total_sales: 11.5 });
    expect((await gst(account.token, '2026-07-01', '2026-07-01')).json).toMatchObject({ invoice_count: 2, total_sales: 276 });
  });

  it('31 March closes tax year 2026 and 1 April opens 2027', async () => {
    const y2026 = (await t.get('/reports/annual?year=2026', account.token)).json;
    const y2027 = (await t.get('/reports/annual?year=2027', account.token)).json;
    expect(y2026).toMatchObject({ year: 2026, label: '2025–26', start_date: '2025-04-01', end_date: '2026-03-31', total_revenue: 10, total_gst: 1.5 });
    expect(y2026.monthly_breakdown.at(-1)).toEqual({ month: '2026-03', revenue: 10, gst: 1.5, count: 1, paid_count: 0 });
    expect(y2027).toMatchObject({ year: 2027, total_revenue: 300, total_gst: 45 });
    expect(y2027.monthly_breakdown.map((m: { month: string }) => m.month)).toEqual([
      '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03',
    ]);
  });
});

describe('what counts', () => {
  const account = accountWith([
    { number: 1, at: '2026-05-04T22:00:00.000Z', lines: [line(100)], sent: true, client: { name: 'Hemi' } }, // counts: 115
    { number: 1, type: 'quote', at: '2026-05-04T22:00:00.000Z', lines: [line(999)], sent: true }, // a quote: never
    { number: 2, type: 'quote', at: '2026-05-06T22:00:00.000Z', lines: [line(5000)], sent: true }, // accepted or not, a quote is no sale
    { number: 2, at: '2026-05-05T22:00:00.000Z', lines: [line(200)], sent: true, voided: true }, // voided: never
    { number: 3, at: '2026-05-06T22:00:00.000Z', lines: [line(300)], payments: [{ amount: '100.00', date: '2026-05-07' }], removePayments: [], sent: true, voided: false },
    { number: 4, at: '2026-05-07T22:00:00.000Z', lines: [line(400)], deleted: true }, // a deleted draft: never
    { number: 5, at: '2026-05-08T22:00:00.000Z', lines: [line(50)], payments: [{ amount: '10.00', date: '2026-05-09', paymentId: 'x' }], removePayments: ['x'], voided: true }, // paid, payment removed, voided
    { number: 6, at: '2026-05-09T22:00:00.000Z', lines: [line(60)] }, // a draft never issued: left out, and said so
  ]);

  it('invoice basis: issued invoices only — quotes, drafts and deleted drafts never count; a void in the same month nets out', async () => {
    const r = (await gst(account.token, '2026-05-01', '2026-05-31')).json;
    // 115.00 + 345.00 standing; INV-0002 (230.00) and INV-0005 (57.50) issued and voided in May.
    expect(r).toMatchObject({ invoice_count: 4, paid_invoices_count: 0, unpaid_invoices_count: 2, voided_invoices_count: 2, total_sales: 460, total_gst_collected: 60 });
    expect(r.corrections).toEqual({ count: 2, sales: -287.5, gst: -37.5, invoices_voided: 2, credit_notes: 0, payments_removed: 0, refunds: 0 });
    expect(r.drafts_left_out).toBe(1);
    expect(r).toEqual(gstReport(reportRowsFromEvents(account.events), checkRange('2026-05-01', '2026-05-31')));
  });

  it('payments basis: the payment on a live invoice counts; a payment removed the same month nets out', async () => {
    const r = (await gst(account.token, '2026-05-01', '2026-05-31', 'payments')).json;
    expect(r).toMatchObject({ basis: 'payments', invoice_count: 2, paid_invoices_count: 0, unpaid_invoices_count: 1, voided_invoices_count: 1, total_sales: 100, total_gst_collected: 13.04 });
    expect(r.corrections).toEqual({ count: 1, sales: -10, gst: -1.3, invoices_voided: 0, credit_notes: 0, payments_removed: 1, refunds: 0 });
    expect(r).toEqual(gstReport(reportRowsFromEvents(account.events), checkRange('2026-05-01', '2026-05-31'), 'payments'));
  });

  it('the annual summary skips them too and names only the invoices\' clients', async () => {
    const r = (await t.get('/reports/annual?year=2027', account.token)).json;
    expect(r).toMatchObject({ total_revenue: 400, total_gst: 60, paid_revenue: 0, unpaid_revenue: 400, drafts_left_out: 1 });
    expect(r.corrections).toEqual({ count: 2, revenue: -250, gst: -37.5 });
    expect(r.top_clients).toEqual([{ name: 'Hemi', revenue: 100 }]);
  });
});

describe('payments basis with part payments, and a deposit before the invoice', () => {
  const account = accountWith([
    // 115.00 paid 50.00 in April and 65.00 in May: GST 15.00 apportioned 6.52 + 8.48.
    { number: 1, at: '2026-04-02T22:00:00.000Z', lines: [line(100)], sent: true, payments: [{ amount: '50.00', date: '2026-04-20' }, { amount: '65.00', date: '2026-05-20' }] },
    // 230.00 with 40.00 received in April: part-paid, unpaid.
    { number: 2, at: '2026-04-09T22:00:00.000Z', lines: [line(200)], sent: true, payments: [{ amount: '40.00', date: '2026-04-25' }] },
    // As fixtures/deposit-before-invoice.md: a deposit of 500.00 on 20 March, invoice 2,300.00 incl. issued 5 April, balance 30 April.
    { number: 3, at: '2026-03-19T21:00:00.000Z', issueDate: '2026-04-05', lines: [line(2300, { tax_included: true })], payments: [{ amount: '500.00', date: '2026-03-20' }, { amount: '1800.00', date: '2026-04-30' }] },
  ]);

  it('April: the money received in April and its share of GST', async () => {
    const r = (await gst(account.token, '2026-04-01', '2026-04-30', 'payments')).json;
    // 50.00 (GST 6.52) + 40.00 (GST round(40×30/230) = 5.22) + 1800.00 (GST 300 − 65.22 = 234.78)
    expect(r).toMatchObject({ total_sales: 1890, total_gst_collected: 246.52, invoice_count: 3, paid_invoices_count: 2, unpaid_invoices_count: 1 });
  });

  it('May: the rest of the first invoice — the shares add up to its GST exactly', async () => {
    const r = (await gst(account.token, '2026-05-01', '2026-05-31', 'payments')).json;
    expect(r).toMatchObject({ total_sales: 65, total_gst_collected: 8.48, invoice_count: 1, paid_invoices_count: 1 });
  });

  it('invoice basis: the deposit puts the whole sale in March; April has the other two in full', async () => {
    const march = (await gst(account.token, '2026-02-01', '2026-03-31')).json;
    expect(march).toMatchObject({ total_sales: 2300, total_gst_collected: 300, invoice_count: 1, paid_invoices_count: 1 });
    expect(march.gst_return).toEqual({ box5: 2300, box6: 0, box7: 2300, box8: 300, box9: 0, box10: 300, box11: 0, box12: 0, box13: 0, box14: 0, box15: 300 });
    const april = (await gst(account.token, '2026-04-01', '2026-05-31')).json;
    expect(april).toMatchObject({ total_sales: 345, total_gst_collected: 45, invoice_count: 2, paid_invoices_count: 1, unpaid_invoices_count: 1 });
  });

  it('payments basis before the invoice: only the deposit, in March', async () => {
    expect((await gst(account.token, '2026-02-01', '2026-03-31', 'payments')).json).toMatchObject({ total_sales: 500, total_gst_collected: 65.22 });
  });

  it('every report equals the replay of the same account.events', async () => {
    const rows = reportRowsFromEvents(account.events);
    for (const [from, to] of [['2026-02-01', '2026-03-31'], ['2026-04-01', '2026-05-31'], ['2026-03-20', '2026-04-30']] as const) {
      for (const basis of ['invoice', 'payments'] as const) expect((await gst(account.token, from, to, basis)).json).toEqual(gstReport(rows, checkRange(from, to), basis));
    }
    expect((await t.get('/reports/annual?year=2027', account.token)).json).toEqual(annualSummary(rows, 2027));
  });
});

describe('validation', () => {
  let token: string;
  beforeAll(async () => {
    token = (await signUp(t)).token;
  });

  it.each([
    ['no dates', ''],
    ['no end date', 'start_date=2026-04-01'],
    ['no start date', 'end_date=2026-06-30'],
    ['empty dates', 'start_date=&end_date='],
  ])('%s → 422 with the screen\'s words', async (_label, qs) => {
    const r = await t.get(`/reports/gst?${qs}`, token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(MISSING_DATES);
  });

  it('reversed dates → 422 saying so', async () => {
    const r = await gst(token, '2026-06-30', '2026-04-01');
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe('The start date must be on or before the end date');
  });

  it.each(['2026-02-30', '2026-13-01', '01/04/2026', 'yesterday'])('a date that is not a calendar day (%s) → 422', async (d) => {
    const r = await gst(token, d, '2026-06-30');
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe('Dates must be real calendar days written as YYYY-MM-DD');
  });

  it('an unknown basis → 422', async () => {
    const r = await gst(token, '2026-04-01', '2026-06-30', 'cash');
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe("basis must be 'invoice' or 'payments'");
  });

  it.each(['', 'year=', 'year=abc', 'year=26', 'year=1999', 'year=2026.5'])('annual with %s → 422', async (qs) => {
    const r = await t.get(`/reports/annual?${qs}`, token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toMatch(/Please choose a tax year, for example 2026/);
  });

  it('without a sign-in → 401', async () => {
    expect((await t.get('/reports/gst?start_date=2026-04-01&end_date=2026-06-30')).status).toBe(401);
    expect((await t.get('/reports/annual?year=2026')).status).toBe(401);
    expect((await t.get('/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30')).status).toBe(401);
    expect((await t.post('/reports/export-links', { kind: 'annual-csv', year: 2026 })).status).toBe(401);
  });

  it('an empty period answers zeros with every month listed', async () => {
    const r = (await gst(token, '2025-11-15', '2026-02-10')).json;
    expect(r).toMatchObject({ total_sales: 0, total_gst_collected: 0, invoice_count: 0, paid_invoices_count: 0, unpaid_invoices_count: 0 });
    expect(r.breakdown_by_month.map((m: { month: string }) => m.month)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('tenant isolation', () => {
  it("another account's invoices and payments never appear in my reports or exports", async () => {
    const a = await signUp(t, 'Account A');
    const b = await signUp(t, 'Account B');
    await seedDocuments(t.deps.store, a.userId, [
      { number: 1, at: '2026-04-10T00:00:00.000Z', client: { name: 'A-only client' }, lines: [line(1000)], payments: [{ amount: '1150.00', date: '2026-04-11' }] },
    ]);
    await seedDocuments(t.deps.store, b.userId, [{ number: 1, at: '2026-04-12T00:00:00.000Z', client: { name: 'B client' }, lines: [line(10)], issued: true }]);
    const g = (await gst(b.token, '2026-04-01', '2026-06-30')).json;
    expect(g).toMatchObject({ invoice_count: 1, total_sales: 11.5 });
    expect((await gst(b.token, '2026-04-01', '2026-06-30', 'payments')).json).toMatchObject({ invoice_count: 0, total_sales: 0 });
    expect((await t.get('/reports/annual?year=2027', b.token)).json.top_clients).toEqual([{ name: 'B client', revenue: 10 }]);
    for (const path of ['/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30', '/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30&basis=payments', '/reports/export/annual-csv?year=2027']) {
      const csv = await t.get(path, b.token);
      expect(csv.status).toBe(200);
      expect(csv.text).not.toContain('A-only client');
    }
    expect((await gst(a.token, '2026-04-01', '2026-06-30')).json).toMatchObject({ invoice_count: 1, total_sales: 1150 });
  });
});

describe('a report asked for again', () => {
  it('shows every change made since: a payment, a new invoice', async () => {
    const u = await signUp(t);
    const [first] = await seedDocuments(t.deps.store, u.userId, [{ number: 1, documentId: `${u.userId}-one`, at: '2026-04-10T00:00:00.000Z', lines: [line(100)], sent: true }]);
    const q = () => gst(u.token, '2026-04-01', '2026-06-30', 'payments').then((r) => r.json);
    const annual = () => t.get('/reports/annual?year=2027', u.token).then((r) => r.json);
    expect(await q()).toMatchObject({ total_sales: 0 });
    expect(await q()).toMatchObject({ total_sales: 0 });
    expect(await annual()).toMatchObject({ paid_revenue: 0, unpaid_revenue: 100 });
    // A payment recorded on the invoice's stream, as the documents API would.
    const stream = first!.stream;
    const version = (await t.deps.store.readStream(stream)).version;
    await t.deps.store.append(stream, version, [{
      type: 'PaymentRecorded', version: 1,
      data: { documentId: `${u.userId}-one`, paymentId: 'p1', amount: '115.00', date: '2026-04-12', method: 'cash', reference: '' },
      meta: { accountId: u.userId, at: '2026-04-12T00:00:00.000Z' },
    }]);
    expect(await q()).toMatchObject({ total_sales: 115, total_gst_collected: 15, paid_invoices_count: 1 });
    expect(await annual()).toMatchObject({ paid_revenue: 100, unpaid_revenue: 0 });
    await seedDocuments(t.deps.store, u.userId, [{ number: 2, at: '2026-04-11T00:00:00.000Z', lines: [line(10)], markPaidOn: '2026-04-11' }]);
    expect(await q()).toMatchObject({ total_sales: 126.5, invoice_count: 2 });
    expect(await annual()).toMatchObject({ total_revenue: 110, paid_revenue: 110 });
  });
});

describe('agreement with the replay over many ranges', () => {
  it('any range, either basis, any tax year: the API equals the in-memory replay', async () => {
    const u = await signUp(t);
    const day = fc.integer({ min: 0, max: 760 }).map((n) => new Date(Date.UTC(2025, 2, 1) + n * 86_400_000).toISOString().slice(0, 10));
    const docArb = fc.record({
      issueDate: day,
      cents: fc.integer({ min: 1, max: 500_000 }),
      inclusive: fc.boolean(),
      zeroRated: fc.boolean(),
      client: fc.constantFrom('Aroha', 'Ben', 'Kōwhai Builders', '', 'Mere'),
      pay: fc.constantFrom('none', 'part', 'full', 'deposit'),
      payDay: fc.integer({ min: -40, max: 90 }),
      kind: fc.constantFrom('invoice', 'invoice', 'invoice', 'draft', 'quote', 'void'),
      // Voids and payment removals up to four months later: corrections in later periods.
      laterDays: fc.integer({ min: 0, max: 120 }),
      removePayment: fc.boolean(),
    });
    const samples = fc.sample(docArb, { seed: 20260401, numRuns: 150 });
    const docs: SeedDocument[] = samples.map((s, i) => {
      const amount = centsToString(BigInt(s.cents));
      const payDate = new Date(Date.parse(`${s.issueDate}T00:00:00Z`) + (s.pay === 'deposit' ? -Math.abs(s.payDay) - 1 : Math.abs(s.payDay)) * 86_400_000).toISOString().slice(0, 10);
      const later = new Date(Date.parse(`${s.issueDate}T00:00:00Z`) + s.laterDays * 86_400_000 + 3_600_000).toISOString();
      const base: SeedDocument = {
        documentId: `${u.userId}-d${i}`, number: i + 1, type: s.kind === 'quote' ? 'quote' : 'invoice', at: `${s.issueDate}T00:00:00.000Z`, issueDate: s.issueDate,
        client: s.client ? { name: s.client } : null,
        lines: [line(amount, { tax_included: s.inclusive, tax_rate: s.zeroRated ? 0 : 0.15 })],
        issued: s.kind !== 'draft',
        voided: s.kind === 'void',
        voidedAt: later,
      };
      if (s.kind === 'quote' || s.kind === 'draft' || s.pay === 'none') return { ...base, issued: s.kind === 'void' || s.kind === 'invoice' };
      // A third of the line amount is always less than the invoice total: a part payment.
      const part = centsToString(BigInt(Math.max(1, Math.floor(s.cents / 3))));
      const paid: SeedDocument = s.pay === 'full' ? { ...base, markPaidOn: payDate } : { ...base, payments: [{ amount: part, date: payDate, paymentId: `p${i}` }] };
      // A void needs its payments removed first; an open invoice may lose one too (a bounced payment).
      if (s.kind === 'void') return { ...paid, removePayments: [s.pay === 'full' ? `${base.documentId}-paid` : `p${i}`], removedAt: later };
      return s.removePayment && s.pay !== 'full' ? { ...paid, removePayments: [`p${i}`], removedAt: later } : paid;
    });
    const rows = reportRowsFromEvents(await seedDocuments(t.deps.store, u.userId, docs));
    await fc.assert(
      fc.asyncProperty(day, day, fc.constantFrom('invoice' as const, 'payments' as const), async (x, y, basis) => {
        const [from, to] = x <= y ? [x, y] : [y, x];
        const r = await gst(u.token, from, to, basis);
        expect(r.json).toEqual(gstReport(rows, checkRange(from, to), basis));
      }),
      { seed: 6, numRuns: 40 },
    );
    for (const year of [2025, 2026, 2027, 2028]) expect((await t.get(`/reports/annual?year=${year}`, u.token)).json).toEqual(annualSummary(rows, year));
  });
});
