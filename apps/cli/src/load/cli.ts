// The load and fault runs from the command line (the heavy variants that are not in `npm test`):
//
//   node apps/cli/src/load/cli.ts load      --db pglite|postgres --users 50 --seconds 60
//   node apps/cli/src/load/cli.ts kill      --db pglite|postgres --users 20 --seconds 30 --kill-after 10
//   node apps/cli/src/load/cli.ts db-restart              --users 20 --seconds 30 --stop-after 8 --down 5 [--signal SIGQUIT]
//
// Prints a summary per route on stderr and the whole report as JSON on stdout; exits 1 when an
// invariant failed (a 5xx other than a database-down 503, a ledger mismatch, a partial command,
// a rebuild that differs).
import { parseArgs } from 'node:util';
import { formatSummary } from './stats.ts';
import { type RunReport, databaseRestartRun, killRun, loadRun } from './scenarios.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string', default: 'pglite' },
    users: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '30' },
    think: { type: 'string', default: '0' },
    'kill-after': { type: 'string', default: '10' },
    'stop-after': { type: 'string', default: '8' },
    down: { type: 'string', default: '5' },
    signal: { type: 'string', default: 'SIGINT' },
    durable: { type: 'boolean' },
  },
});
const kind = positionals[0] ?? 'load';
const db = values.db === 'postgres' ? 'postgres' : 'pglite';
const shape = { db, users: Number(values.users), seconds: Number(values.seconds), thinkMs: Number(values.think), log: (l: string) => console.error(l) } as const;

let report: RunReport;
if (kind === 'load') report = await loadRun(shape);
else if (kind === 'kill') report = await killRun({ ...shape, killAfter: Number(values['kill-after']) });
else if (kind === 'db-restart') {
  report = await databaseRestartRun({
    ...shape, stopAfter: Number(values['stop-after']), downSeconds: Number(values.down), signal: values.signal as NodeJS.Signals,
    ...(values.durable !== undefined ? { durable: values.durable } : {}),
  });
} else {
  console.error(`Unknown run '${kind}': load, kill or db-restart`);
  process.exit(2);
}

console.error(formatSummary(report.summary));
console.error(`ledger: ${report.ledgerProblems.length === 0 ? 'every account adds up' : report.ledgerProblems.join('\n  ')}`);
console.error(`store: ${report.store.events} events, rows ${JSON.stringify(report.store.rows)}, rebuild ${report.store.rebuildMs} ms, ${report.store.problems.length === 0 ? 'consistent, rebuild equal' : report.store.problems.join('\n  ')}`);
console.error(`machine: load average ${report.loadAverage.before} → ${report.loadAverage.after} on ${report.loadAverage.cpus} CPUs`);
const { ledgers: _ledgers, ...printable } = report;
console.log(JSON.stringify(printable, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2));
const only503 = Object.keys(report.summary.statuses).every((s) => s === 'no answer' || Number(s) < 500 || (kind === 'db-restart' && s === '503'));
const ok = only503 && report.summary.unexpected === 0 && report.summary.unresolvedWrites === 0 && report.ledgerProblems.length === 0 && report.store.problems.length === 0;
process.exit(ok ? 0 : 1);
