// The main equality test, shared by the PGlite (*.int.spec.ts) and PostgreSQL (*.pg.spec.ts)
// runs: every fixture loaded into its own account through the store gives, through the API,
// exactly the hand-worked reports beside it — and exactly what the in-memory replay gives.
import fc from 'fast-check';
import { annualSummary, checkRange, gstReport, reportRowsFromEvents, type LoggedEvent } from '@tradie/domain';
import { annualSummaryFor, gstReportFor } from '../../src/reports/queries.ts';
import { seedDocuments, type SeedDocument } from '../../../cli/src/bench/seed.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestApp } from '../support/testApp.ts';
import { fixtureNames, loadFixture, type FixtureExpectation } from './fixtures.ts';

const line = (unit_price: number) => [{ description: 'Work', qty: 1, unit_price }];

export function fixtureEqualitySuite(label: string, makeApp: () => Promise<TestApp>): void {
  describe(`reports over the fixtures equal the hand-worked expectations and the replay (${label})`, () => {
    let t: TestApp;
    const loaded = new Map<string, { token: string; events: LoggedEvent[]; expected: FixtureExpectation }>();

    beforeAll(async () => {
      t = await makeApp();
      // Every fixture in its own account, all in one database: isolation is part of the test.
      for (const name of fixtureNames()) {
        const user = await signUp(t);
        const { events, expected } = await loadFixture(t.deps.store, name, user.userId);
        loaded.set(name, { token: user.token, events, expected });
      }
    });
    afterAll(() => t?.close());

    it('has fixtures to check', () => {
      expect(fixtureNames().length).toBeGreaterThanOrEqual(6);
    });

    for (const name of fixtureNames()) {
      it(`${name}: every GST report and annual summary`, async () => {
        const f = loaded.get(name)!;
        const rows = reportRowsFromEvents(f.events);
        for (const g of f.expected.gst ?? []) {
          const basis = g.basis ?? 'invoice';
          const r = await t.get(`/reports/gst?start_date=${g.from}&end_date=${g.to}&basis=${basis}`, f.token);
          expect(r.status, r.text).toBe(200);
          expect(r.json, `${name} GST ${g.from}–${g.to} ${basis}`).toEqual(g.report);
          expect(r.json).toEqual(gstReport(rows, checkRange(g.from, g.to), basis));
        }
        for (const a of f.expected.annual ?? []) {
          const r = await t.get(`/reports/annual?year=${a.year}`, f.token);
          expect(r.status, r.text).toBe(200);
          expect(r.json, `${name} annual ${a.year}`).toEqual(a.report);
          expect(r.json).toEqual(annualSummary(rows, a.year));
        }
      });
    }

    it('top clients: ten at most, by revenue, ties by name in code-point order (as the replay ranks them)', async () => {
      const u = await signUp(t);
      const names = ['Zebra Ltd', 'apple', 'Ōtaki Plumbing', 'Aroha', 'Ben', 'Kōwhai Builders', 'Mere', 'Tama', 'Wiremu', 'Hine', 'Rangi', 'Zed'];
      const docs: SeedDocument[] = names.map((name, i) => ({ number: i + 1, at: '2026-08-01T00:00:00.000Z', client: { name }, lines: line(i < 4 ? 100 : 10 * i + 1), issued: true }));
      docs.push({ number: 99, at: '2026-08-02T00:00:00.000Z', client: { name: 'Ben' }, lines: line(500), issued: true }); // Ben twice: 541
      docs.push({ number: 100, at: '2026-08-02T00:00:00.000Z', client: { name: 'Co', is_business: 'true', business_name: 'Kauri Co' }, lines: line(1), issued: true });
      docs.push({ number: 101, at: '2026-08-02T00:00:00.000Z', client: null, lines: line(10_000), issued: true }); // no client: not a top client
      const events = await seedDocuments(t.deps.store, u.userId, docs);
      const r = (await t.get('/reports/annual?year=2027', u.token)).json;
      expect(r.top_clients).toHaveLength(10);
      expect(r.top_clients[0]).toEqual({ name: 'Ben', revenue: 541 });
      // 'Aroha', 'Zebra Ltd', 'apple', 'Ōtaki Plumbing' all 100: upper case before lower, macrons after ASCII.
      expect(r.top_clients.filter((c: { revenue: number }) => c.revenue === 100).map((c: { name: string }) => c.name)).toEqual(['Aroha', 'Zebra Ltd', 'apple', 'Ōtaki Plumbing']);
      expect(r).toEqual(annualSummary(reportRowsFromEvents(events), 2027));
    });

    it('payments basis: an invoice paid several times is counted once a month and once a range, over any range (as the replay counts it)', async () => {
      const u = await signUp(t);
      const day = (n: number) => new Date(Date.UTC(2026, 3, 1) + n * 86_400_000).toISOString().slice(0, 10);
      // Up to five payments each: several on one day, several in one month, some across months,
      // some before the invoice (deposits); some invoices then paid in full.
      const docArb = fc.record({
        issue: fc.integer({ min: 20, max: 100 }),
        payments: fc.array(fc.record({ offset: fc.integer({ min: -25, max: 70 }), cents: fc.integer({ min: 1, max: 2000 }) }), { minLength: 1, maxLength: 5 }),
        paidInFull: fc.option(fc.integer({ min: 0, max: 80 }), { nil: undefined }),
      });
      const docs: SeedDocument[] = fc.sample(docArb, { seed: 20270331, numRuns: 60 }).map((d, i) => ({
        number: i + 1, at: `${day(d.issue)}T00:00:00.000Z`, issueDate: day(d.issue), client: { name: `Client ${i % 7}` }, lines: line(5000),
        payments: d.payments.map((p, k) => ({ amount: `${Math.floor(p.cents / 100)}.${String(p.cents % 100).padStart(2, '0')}`, date: day(d.issue + p.offset), paymentId: `p${(k * 7919) % 13}-${i}` })),
        ...(d.paidInFull === undefined ? {} : { markPaidOn: day(d.issue + d.paidInFull) }),
      }));
      const rows = reportRowsFromEvents(await seedDocuments(t.deps.store, u.userId, docs));
      const ranges = fc.sample(fc.tuple(fc.integer({ min: -10, max: 180 }), fc.integer({ min: 0, max: 120 })), { seed: 7, numRuns: 40 });
      for (const [from, length] of [[0, 365], [31, 0], ...ranges]) {
        const [a, b] = [day(from!), day(from! + length!)];
        const r = await t.get(`/reports/gst?start_date=${a}&end_date=${b}&basis=payments`, u.token);
        expect(r.status, r.text).toBe(200);
        expect(r.json, `${a}–${b}`).toEqual(gstReport(rows, checkRange(a, b), 'payments'));
      }
      // The data has what the test is for: invoices with two payments in one month and in two months.
      const months = new Map<string, string[]>();
      for (const p of rows.payments) months.set(p.documentId, [...(months.get(p.documentId) ?? []), p.month]);
      expect([...months.values()].some((ms) => new Set(ms).size < ms.length)).toBe(true);
      expect([...months.values()].some((ms) => new Set(ms).size > 1)).toBe(true);
    });

    it('after a rebuild of the projections from the log, the report rows give the same reports', async () => {
      await t.deps.store.rebuildProjections(['report_rows']);
      // Straight from the rebuilt tables, not through the API and its memo.
      for (const [name, f] of loaded) {
        const accountId = f.events[0]!.meta!.accountId!;
        for (const g of f.expected.gst ?? []) {
          expect(await gstReportFor(t.deps.store.db, accountId, checkRange(g.from, g.to), g.basis ?? 'invoice'), name).toEqual(g.report);
        }
        for (const a of f.expected.annual ?? []) expect(await annualSummaryFor(t.deps.store.db, accountId, a.year), name).toEqual(a.report);
      }
    });
  });
}
