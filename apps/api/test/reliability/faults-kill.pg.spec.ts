// Fault: `kill -9` of the API process under load, on PostgreSQL. As faults.int.spec.ts (PGlite),
// on a fresh database of the test run's PostgreSQL server: a real API process serves 6 signed-in
// users, is killed with SIGKILL 3 seconds in and started again; the users send what got no answer
// again with the same Idempotency-Key. Nothing lost or doubled, no partial command, rebuild equal.
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { describe, expect, it } from 'vitest';
import { type KillReport, killRun } from '../../../cli/src/load/scenarios.ts';
import { itKeptEveryAccountWhole } from './afterFault.ts';

describe('kill -9 of the API mid-load on PostgreSQL, restarted', () => {
  let report: KillReport;

  it('the kill cut requests off, and every one was answered when sent again; no 5xx', async () => {
    report = await killRun({ db: 'postgres', databaseUrl: await freshDatabaseUrl('kill'), users: 6, seconds: 6, killAfter: 3, seed: 13 });
    const s = report.summary;
    console.info(`kill -9 on PostgreSQL: ${s.requests} answered, ${s.noAnswer} without an answer (sent again), down ${report.downMs} ms (restart included), statuses ${JSON.stringify(s.statuses)}; store ${report.store.events} events`);
    expect(report.summary.noAnswer).toBeGreaterThan(0);
    expect(report.summary.serverErrors).toBe(0);
    expect(report.summary.unexpected).toBe(0);
    expect(report.summary.unresolvedWrites).toBe(0);
  }, 300_000);

  itKeptEveryAccountWhole(() => report);
});
