// Fault: `kill -9` of the API process under load, on PGlite in a data directory. A real process
// (node apps/api/src/start.ts) serves 6 signed-in users; 3 seconds in it is killed with SIGKILL
// and started again on the same data directory. The users do what the app does on a flaky
// connection: a request that got no answer goes again, with the same Idempotency-Key.
//
// Then: the dead process's lock file was left behind and taken over by the new one; nothing was
// lost or doubled (every account equals the driver's ledger: what was answered is stored, what
// was retried is stored once); no partial command (every document has its number, every payment
// its report row); and a projection rebuild equals the live read models byte for byte.
import { describe, expect, it } from 'vitest';
import { type KillReport, killRun } from '../../../cli/src/load/scenarios.ts';
import { itKeptEveryAccountWhole } from './afterFault.ts';

describe('kill -9 of the API mid-load on PGlite, restarted on the same data', () => {
  let report: KillReport;

  it('the restarted process takes over the lock file the dead one left', async () => {
    report = await killRun({ db: 'pglite', users: 6, seconds: 6, killAfter: 3, seed: 11 });
    const s = report.summary;
    console.info(`kill -9 on PGlite: ${s.requests} answered, ${s.noAnswer} without an answer (sent again), down ${report.downMs} ms (restart included), statuses ${JSON.stringify(s.statuses)}; store ${report.store.events} events`);
    expect(report.lock).toMatchObject({ takenOver: true });
    expect(report.lock?.leftBehind).toBe(report.lock?.killedPid);
    expect(report.lock?.newPid).not.toBe(report.lock?.killedPid);
    // The kill really cut requests off: some got no answer and were sent again.
    expect(report.summary.noAnswer).toBeGreaterThan(0);
  }, 300_000);

  it('no 5xx, and every request that got no answer was answered when sent again', () => {
    expect(report.summary.serverErrors).toBe(0);
    expect(report.summary.unexpected).toBe(0);
    expect(report.summary.unresolvedWrites).toBe(0);
  });

  itKeptEveryAccountWhole(() => report);
});
