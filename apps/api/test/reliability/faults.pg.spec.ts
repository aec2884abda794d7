// Fault: PostgreSQL stopped and started again under load, the API left alone. A real API process
// on its own throw-away PostgreSQL server serves 6 signed-in users; 3 seconds in, PostgreSQL is
// shut down (fast shutdown, SIGINT) for 3 seconds, then started again on the same data.
//
// Meanwhile the API must keep answering — quickly, with 503 and a detail that says what is going
// on (and Retry-After) — never hang, never crash, never answer another 5xx; once PostgreSQL is back
// it must serve again by itself, the same process. Afterwards the usual proof: every account
// equals the driver's ledger (the users sent unanswered and 503 requests again with the same
// Idempotency-Key), no partial command, and a rebuild equals the live read models.
import { describe, expect, it } from 'vitest';
import { type DatabaseRestartReport, databaseRestartRun } from '../../../cli/src/load/scenarios.ts';
import { STORE_DOWN_DETAIL } from '../../src/http/problem.ts';
import { itKeptEveryAccountWhole } from './afterFault.ts';

describe('PostgreSQL stopped and restarted mid-load', () => {
  let report: DatabaseRestartReport;

  it('while it is down the API answers 503 with a clear detail and Retry-After, and never hangs', async () => {
    report = await databaseRestartRun({ users: 6, seconds: 6, stopAfter: 3, downSeconds: 3, seed: 5 });
    const s = report.summary;
    console.info(`PostgreSQL down ${report.downMs} ms: ${s.statuses['503'] ?? 0} answers 503 (slowest ${s.slowest503} ms), /health while down slowest ${report.healthWhileDown.slowestMs} ms, serving again ${report.recoveryMs} ms after it was back; ${s.requests} answered in all, statuses ${JSON.stringify(s.statuses)}`);
    expect(report.healthWhileDown.asked).toBeGreaterThan(0);
    expect(report.healthWhileDown.statuses).toEqual([503]);
    const answers503 = Object.values(report.summary.unavailable.details).reduce((a, b) => a + b, 0);
    expect(answers503).toBeGreaterThan(0);
    expect(Object.keys(report.summary.unavailable.details)).toEqual([STORE_DOWN_DETAIL]);
    expect(report.summary.unavailable.withRetryAfter).toBe(answers503);
    // Every request was answered (no connection dropped, none left waiting past its timeout).
    expect(report.summary.noAnswer).toBe(0);
  }, 300_000);

  it('no 5xx but those 503s, and the same API process serves again by itself once PostgreSQL is back', () => {
    const statuses = Object.keys(report.summary.statuses).map(Number);
    expect(statuses.filter((s) => s >= 500)).toEqual([503]);
    expect(report.summary.serverErrors).toBe(report.summary.statuses['503']);
    expect(report.pids[0]).toBe(report.pids[1]);
    expect(report.summary.unexpected).toBe(0);
    expect(report.summary.unresolvedWrites).toBe(0);
  });

  itKeptEveryAccountWhole(() => report);
});
