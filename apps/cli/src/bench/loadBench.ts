// npm run bench -- load: 50 signed-in users (each its own account) for 60 seconds against a real
// API process on loopback, on PGlite and on PostgreSQL (apps/cli/src/load). Figures: p95 per route,
// throughput, and the counts that must be 0 (5xx, answers a client did not expect, requests with
// no answer, ledger mismatches, store problems). LOAD_USERS / LOAD_SECONDS change the shape.
import { loadavg } from 'node:os';
import { type DbKind, loadRun } from '../load/scenarios.ts';
import { formatSummary } from '../load/stats.ts';
import type { Figure } from './figures.ts';

export async function loadFigures(env: Readonly<Record<string, string | undefined>> = process.env): Promise<Figure[]> {
  const users = Number(env.LOAD_USERS ?? 50);
  const seconds = Number(env.LOAD_SECONDS ?? 60);
  const figures: Figure[] = [];
  for (const db of ['pglite', 'postgres'] as DbKind[]) {
    process.stderr.write(`bench: load on ${db}: ${users} users × ${seconds} s (load average ${loadavg()[0]!.toFixed(2)})\n`);
    const r = await loadRun({ db, users, seconds, log: (line) => process.stderr.write(`${line}\n`) });
    process.stderr.write(`${formatSummary(r.summary)}\n`);
    const p = `load.${db}`;
    for (const route of r.summary.routes) figures.push({ name: `${p}.${route.route}.p95`, value: route.p95, unit: 'ms' });
    figures.push(
      { name: `${p}.throughput`, value: r.summary.throughput, unit: 'req/s' },
      { name: `${p}.requests`, value: r.summary.requests, unit: 'count' },
      { name: `${p}.operations`, value: r.operations, unit: 'count' },
      { name: `${p}.5xx`, value: r.summary.serverErrors, unit: 'count' },
      { name: `${p}.unexpected`, value: r.summary.unexpected, unit: 'count' },
      { name: `${p}.no_answer`, value: r.summary.noAnswer, unit: 'count' },
      { name: `${p}.ledger_mismatches`, value: r.ledgerProblems.length, unit: 'count' },
      { name: `${p}.store_problems`, value: r.store.problems.length, unit: 'count' },
      { name: `${p}.rebuild`, value: r.store.rebuildMs, unit: 'ms' },
      { name: `${p}.load_average`, value: Math.round(((r.loadAverage.before + r.loadAverage.after) / 2) * 100) / 100, unit: `per ${r.loadAverage.cpus} CPUs` },
    );
    for (const problem of [...r.ledgerProblems, ...r.store.problems].slice(0, 20)) process.stderr.write(`bench: load on ${db}: ${problem}\n`);
  }
  return figures;
}
