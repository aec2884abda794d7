// The proof every fault run ends with, once its report is in: nothing lost or doubled, no partial
// command, and a projection rebuild equal to the live read models.
import { expect, it } from 'vitest';
import type { RunReport } from '../../../cli/src/load/scenarios.ts';

/** The two closing tests of a fault spec; `report` gives the run's report, made by an earlier test. */
export function itKeptEveryAccountWhole(report: () => RunReport): void {
  it("nothing lost or doubled: every account's reports, list and documents equal the driver's ledger", () => {
    expect(report().ledgerProblems).toEqual([]);
  });

  it('no partial command, and the read models rebuild to exactly what they were', () => {
    const { store } = report();
    expect(store.problems).toEqual([]);
    expect(store.rebuildEqual).toBe(true);
    expect(store.events).toBeGreaterThan(0);
  });
}
