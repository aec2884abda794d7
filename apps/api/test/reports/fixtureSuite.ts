// The main equality test, shared by the PGlite (*.int.spec.ts) and PostgreSQL (*.pg.spec.ts)
// runs: every fixture loaded into its own account through the store gives, through the API,
// exactly the hand-worked reports beside it — and exactly what the in-memory replay gives.
import { annualSummary, checkRange, gstReport, reportRowsFromEvents, type LoggedEvent } from '@tradie/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type TestApp } from '../support/testApp.ts';
import { fixtureNames, loadFixture, type FixtureExpectation } from './fixtures.ts';

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
          expect(r.json).toEqual(annualSummary(rows.invoices, a.year));
        }
      });
    }

    it('after a rebuild of the projections from the log, the reports are unchanged', async () => {
      await t.deps.store.rebuildProjections(['report_rows']);
      for (const [name, f] of loaded) {
        for (const g of f.expected.gst ?? []) {
          const r = await t.get(`/reports/gst?start_date=${g.from}&end_date=${g.to}&basis=${g.basis ?? 'invoice'}`, f.token);
          expect(r.json, name).toEqual(g.report);
        }
        for (const a of f.expected.annual ?? []) expect((await t.get(`/reports/annual?year=${a.year}`, f.token)).json, name).toEqual(a.report);
      }
    });
  });
}
