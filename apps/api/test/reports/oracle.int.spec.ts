// The API against the independent oracle (packages/testkit/src/oracle): random invoice histories
// made through the HTTP app the way a tradie makes them — create (some dated ahead of the day they
// are issued), mark issued, record payments, remove some later, void some in a later period — then
// the GST report (both bases), the annual summary and their CSV exports must equal what the oracle
// works out on its own, to the cent.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, oracleInvoicesArb, withCreditsArb } from '@tradie/testkit/oracle/arbitraries';
import { oracleAnnualSummary, oracleGstReport, type OracleInvoice } from '@tradie/testkit/oracle/oracle';
import { toDomainLine } from '@tradie/testkit/oracle/toEvents';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';
import { cents, dollars, toCents } from './money.ts';

const clock = new TestClock('2026-01-01T00:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  // Tokens that outlive the clock's trips through two years of history.
  t = await createTestApp({ clock, env: { ACCESS_TOKEN_TTL_SECONDS: String(5 * 365 * 86_400) } });
});
afterAll(() => t.close());

/** The NZ day `date` at midday (midnight UTC): what the app dates a removal or a void made then. */
const onDay = (date: string): void => clock.set(`${date}T00:00:00.000Z`);

async function make(token: string, inv: OracleInvoice, clients: Map<string, string>): Promise<void> {
  // Made and issued on the day it was issued, which is before its date when it is dated ahead.
  onDay(inv.issuedOn ?? inv.issueDate);
  let clientId = clients.get(inv.client) ?? null;
  if (inv.client !== '' && clientId === null) {
    const c = await t.post('/clients', { name: inv.client }, token);
    expect(c.status, c.text).toBe(201);
    clientId = c.json.id as string;
    clients.set(inv.client, clientId);
  }
  const created = await t.post('/invoices', { type: 'invoice', issue_date: inv.issueDate, line_items: inv.lines.map(toDomainLine), client_id: clientId }, token);
  expect(created.status, created.text).toBe(201);
  const id = created.json.id as string;
  if (inv.issued) expect((await t.post(`/invoices/${id}/issue`, {}, token)).status).toBe(200);
  const paymentIds = new Map<string, string>();
  for (const s of inv.steps) {
    if (s.kind === 'pay') {
      const r = await t.post(`/invoices/${id}/payments`, { amount: dollars(s.cents), date: s.date }, token);
      expect(r.status, r.text).toBe(201);
      paymentIds.set(s.id, r.json.id);
    } else {
      onDay(s.date);
      const r = await t.call('DELETE', `/invoices/${id}/payments/${paymentIds.get(s.id)}`, { token });
      expect(r.status, r.text).toBe(200);
    }
  }
  if (inv.voidDate !== null) {
    onDay(inv.voidDate);
    const r = await t.post(`/invoices/${id}/void`, { reason: 'Raised in error' }, token);
    expect(r.status, r.text).toBe(200);
  }
  for (const c of inv.credits ?? []) {
    onDay(c.date);
    const r = await t.post(`/invoices/${id}/credit-notes`, { amount: dollars(c.cents), reason: 'Part of the job not done' }, token);
    expect(r.status, r.text).toBe(201);
    for (const back of c.refunds) {
      onDay(back.date);
      const refund = await t.post(`/credit-notes/${r.json.id}/refunds`, { amount: dollars(back.cents), date: back.date, method: 'bank_transfer', reference: '' }, token);
      expect(refund.status, refund.text).toBe(201);
    }
  }
}

describe('reports through the API equal the oracle', () => {
  // Per-line rounding is a business setting; the histories below use each document's own setting
  // through the domain test, and the business default (on the total) here.
  const histories = fc.sample(oracleInvoicesArb({ maxInvoices: 15, maxLines: 8 }), { seed: 1407, numRuns: 8 })
    .map((invoices) => invoices.map((inv) => ({ ...inv, rounding: 'total' as const })));

  it.each(histories.map((h, i) => [i + 1, h] as const))('history %i: GST report, annual summary and CSVs', async (_n, invoices) => {
    const u = await signUp(t);
    const clients = new Map<string, string>();
    for (const inv of invoices) await make(u.token, inv, clients);
    // The reports are read (and the CSVs downloaded, which records them as exported) after all of it
    // happened: the clock went back and forth while the histories were made.
    onDay('2030-01-01');
    const ranges: [string, string][] = [['2026-01-01', '2027-12-31'], ['2026-04-01', '2026-05-31'], ['2026-06-01', '2026-07-31'], ['2027-02-01', '2027-03-31'], ['2025-12-01', '2028-06-30']];
    for (const basis of ['invoice', 'payments'] as const) {
      for (const [start, end] of ranges) {
        const r = await t.get(`/reports/gst?start_date=${start}&end_date=${end}&basis=${basis}`, u.token);
        expect(r.status).toBe(200);
        const { basis: _b, start_date: _s, end_date: _e, ...figures } = r.json;
        const oracle = oracleGstReport(invoices, start, end, basis);
        expect(figures, `${basis} ${start}–${end}`).toEqual(oracle);
        // The CSV of the same range adds up to the same figures: its Total row and its Box rows.
        const csv = await t.get(`/reports/export/gst-csv?start_date=${start}&end_date=${end}&basis=${basis}`, u.token);
        const rows = parse(csv.text, { bom: true }) as string[][];
        const total = rows.find((row) => row[0] === 'Total')!;
        expect(cents(total[6]!), `CSV total ${basis} ${start}–${end}`).toBe(toCents(oracle.total_sales));
        expect(cents(total[5]!)).toBe(toCents(oracle.total_gst_collected));
        const box = (n: number) => rows.find((row) => row[0] === `Box ${n}`)!;
        expect(cents(box(5)[6]!)).toBe(toCents(oracle.gst_return.box5));
        expect(cents(box(8)[5]!)).toBe(toCents(oracle.gst_return.box8));
      }
    }
    for (const year of [2026, 2027, 2028]) {
      const r = await t.get(`/reports/annual?year=${year}`, u.token);
      const { year: _y, label: _l, start_date: _s, end_date: _e, ...figures } = r.json;
      const oracle = oracleAnnualSummary(invoices, year);
      expect(figures, `tax year ${year}`).toEqual(oracle);
      const csv = parse((await t.get(`/reports/export/annual-csv?year=${year}`, u.token)).text, { bom: true }) as string[][];
      const total = csv.find((row) => row[0] === 'Total')!;
      expect(cents(total[4]!), `annual CSV ${year}`).toBe(toCents(oracle.total_revenue));
      expect(cents(total[5]!)).toBe(toCents(oracle.total_gst));
      expect(cents(csv.find((row) => row[0] === 'Unpaid')![4]!)).toBe(toCents(oracle.unpaid_revenue));
    }
  });

  // With credit notes on paid and unpaid invoices and money paid back: every figure of the annual
  // summary (paid, unpaid, credited, refunded named apart) and both GST bases equal the oracle's.
  const credited = fc.sample(withCreditsArb(oracleInvoicesArb({ maxInvoices: 8, maxLines: 4 })), { seed: 3232, numRuns: 40 })
    .filter((invoices) => invoices.filter((inv) => (inv.credits ?? []).length > 0).length >= 2)
    .slice(0, 3)
    .map((invoices) => invoices.map((inv) => ({ ...inv, rounding: 'total' as const })));

  it.each(credited.map((h, i) => [i + 1, h] as const))('credited history %i: GST report and annual summary', async (_n, invoices) => {
    const u = await signUp(t);
    const clients = new Map<string, string>();
    for (const inv of invoices) await make(u.token, inv, clients);
    for (const basis of ['invoice', 'payments'] as const) {
      for (const [start, end] of [['2026-01-01', '2028-12-31'], ['2026-04-01', '2026-09-30'], ['2027-01-01', '2027-06-30']] as const) {
        const { basis: _b, start_date: _s, end_date: _e, ...figures } = (await t.get(`/reports/gst?start_date=${start}&end_date=${end}&basis=${basis}`, u.token)).json;
        expect(figures, `${basis} ${start}–${end}`).toEqual(oracleGstReport(invoices, start, end, basis));
      }
    }
    for (const year of [2026, 2027, 2028]) {
      const { year: _y, label: _l, start_date: _s, end_date: _e, ...figures } = (await t.get(`/reports/annual?year=${year}`, u.token)).json;
      expect(figures, `tax year ${year}`).toEqual(oracleAnnualSummary(invoices, year));
    }
  });

  it('the credited histories cover credits on paid invoices and money paid back', () => {
    expect(credited).toHaveLength(3);
    const all = credited.flat();
    expect(all.some((inv) => (inv.credits ?? []).length > 0 && inv.steps.some((s) => s.kind === 'pay'))).toBe(true);
    expect(all.some((inv) => (inv.credits ?? []).some((c) => c.refunds.length > 0))).toBe(true);
  });

  it('the histories sampled cover voids, removals, deposits and drafts', () => {
    const all = histories.flat();
    expect(all.some((inv) => inv.voidDate !== null && inv.issued)).toBe(true);
    expect(all.some((inv) => inv.steps.some((s) => s.kind === 'remove'))).toBe(true);
    expect(all.some((inv) => inv.steps.some((s) => s.kind === 'pay' && s.date < inv.issueDate))).toBe(true);
    expect(all.some((inv) => !inv.issued && inv.steps.length === 0 && inv.voidDate === null)).toBe(true);
    expect(all.some((inv) => inv.issuedOn !== undefined && inv.issuedOn < inv.issueDate)).toBe(true);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
