// Benchmark of a job's real profit through the HTTP app (app.request, no port): an accepted quote
// with 2,000 costs and 200 hours entries recorded against it, and another job's entries beside
// them; GET /jobs/{quoteId}/profit timed (budget p95 ≤ 30 ms on PGlite). Called by `npm run bench`
// (suite job-profit). Then the jobs list: 200 accepted quotes, each with a few costs, and
// GET /jobs?sort=overrun timed after a change (every job's figures worked out again), and asked
// again unchanged (the kept answer).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { allMigrations } from '@tradie/api';
import { benchApp } from './benchApp.ts';
import { type Figure, percentile, round, seeded } from './figures.ts';

const CATEGORIES = ['materials', 'equipment', 'subcontractor', 'other'];

export async function benchJobProfit(options: { databaseUrl?: string; costs?: number; hours?: number; requests?: number; jobs?: number } = {}): Promise<Figure[]> {
  const jobCount = options.jobs ?? 200;
  const costs = options.costs ?? 2_000;
  const hours = options.hours ?? 200;
  const requests = options.requests ?? 200;
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-job-profit-bench-'));
  const store = await openStore({ databaseUrl: options.databaseUrl }, projections, allMigrations);
  const db = store.db.kind;
  try {
    // Reads of /jobs are limited per account a minute (a person never asks 200 times in one): between
    // batches, untimed, the bench's clock moves on a minute past that limit.
    let skipped = 0;
    const clock = { now: () => new Date(Date.now() + skipped) };
    const nextMinute = (): void => {
      skipped += 61_000;
    };
    const { call } = benchApp(store, dataDir, 'job-profit-bench-secret-0123456789abcdef', clock);
    const must = (r: { status: number; json: unknown }, status: number, what: string): void => {
      if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
    };
    const account = { email: `job-profit-${uuidv7()}@example.nz`, password: 'correct horse battery' };
    await call('POST', '/auth/register', { ...account, full_name: 'Bench Tradie' });
    const token = String((await call('POST', '/auth/login', account)).json.access_token);
    const job = async (): Promise<string> => {
      const lines = CATEGORIES.map((category, i) => ({ description: `Part ${i}`, qty: 10, unit_price: 120, tax_included: false, tax_rate: 0.15, cost: 80, category }));
      const q = await call('POST', '/invoices', { type: 'quote', line_items: [...lines, { description: 'Labour', qty: 40, unit_price: 95, tax_included: false, tax_rate: 0.15, cost: 45, category: 'labour' }] }, token);
      must(q, 201, 'quote');
      must(await call('POST', `/invoices/${String(q.json.id)}/accept`, undefined, token), 200, 'accept');
      return String(q.json.id);
    };
    const [mine, other] = [await job(), await job()];
    const rnd = seeded(37);
    const record = async (jobId: string, n: number, m: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const cents = 100 + Math.floor(rnd() * 60_000);
        must(await call('POST', '/costs', {
          kind: i % 5 === 0 ? 'bill' : 'receipt', supplier: `Supplier ${i % 40}`, date: `2026-0${1 + (i % 9)}-1${i % 10}`, amount: (cents / 100).toFixed(2),
          gst: i % 7 === 0 ? 'none' : 'standard', supply_information_held: i % 3 === 0, category: CATEGORIES[i % CATEGORIES.length], job_id: jobId,
        }, token), 201, 'cost');
      }
      for (let i = 0; i < m; i++) must(await call('POST', '/hours', { who: `Worker ${i % 4}`, date: '2026-05-05', hours: '7.5', rate: '42.50', job_id: jobId }, token), 201, 'hours');
    };
    await record(mine, costs, hours);
    await record(other, Math.ceil(costs / 4), Math.ceil(hours / 4));

    const times: number[] = [];
    for (let i = 0; i < requests + 10; i++) {
      if (i % 100 === 0) nextMinute();
      const t0 = performance.now();
      const r = await call('GET', `/jobs/${mine}/profit`, undefined, token);
      const ms = performance.now() - t0;
      must(r, 200, 'profit');
      if (i >= 10) times.push(ms);
    }
    // The jobs list: up to jobCount jobs (two made above), three costs and an hours entry on each.
    for (let i = 2; i < jobCount; i++) await record(await job(), 3, 1);
    // The list is kept until the account changes: each timed request here follows a change (an hours
    // entry recorded, untimed), so every job's figures are worked out again; then asked again unchanged.
    const listTimes: number[] = [];
    const repeatTimes: number[] = [];
    const list = async (into: number[] | null): Promise<void> => {
      const t0 = performance.now();
      const r = await call('GET', '/jobs?sort=overrun', undefined, token);
      const ms = performance.now() - t0;
      must(r, 200, 'jobs list');
      if ((r.json.jobs as unknown[]).length !== jobCount) throw new Error(`jobs list: ${(r.json.jobs as unknown[]).length} jobs, not ${jobCount}`);
      into?.push(ms);
    };
    nextMinute();
    for (let i = 0; i < 23; i++) {
      await record(mine, 0, 1);
      await list(i >= 3 ? listTimes : null);
    }
    for (let i = 0; i < 20; i++) await list(repeatTimes);
    return [
      { name: `jobs.profit_${costs}_costs_p50_ms[${db}]`, value: round(percentile(times, 50)), unit: 'ms' },
      { name: `jobs.profit_${costs}_costs_p95_ms[${db}]`, value: round(percentile(times, 95)), unit: 'ms' },
      { name: `jobs.list_${jobCount}_jobs_p50_ms[${db}]`, value: round(percentile(listTimes, 50)), unit: 'ms' },
      { name: `jobs.list_${jobCount}_jobs_p95_ms[${db}]`, value: round(percentile(listTimes, 95)), unit: 'ms' },
      { name: `jobs.list_${jobCount}_jobs_unchanged_p95_ms[${db}]`, value: round(percentile(repeatTimes, 95)), unit: 'ms' },
    ];
  } finally {
    await store.close();
  }
}
