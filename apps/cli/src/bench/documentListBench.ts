// Benchmark of GET /invoices through the HTTP app (app.request, no port) with 10,000 documents in
// the account (and another account's beside them): p95 of the first page, a deep page by cursor,
// and a filtered page. Budget: p95 ≤ 30 ms per page of 50. Called by `npm run bench`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { allMigrations } from '@tradie/api';
import { benchApp } from './benchApp.ts';
import { seedDocuments } from './seed.ts';
import { benchDocuments, type BenchFigure } from './reportsBench.ts';

const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1] ?? NaN;
const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function benchDocumentList(options: { databaseUrl?: string; documents?: number; requests?: number } = {}): Promise<BenchFigure[]> {
  const documents = options.documents ?? 10_000;
  const requests = options.requests ?? 150;
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-list-bench-'));
  const store = await openStore({ databaseUrl: options.databaseUrl }, projections, allMigrations);
  const db = store.db.kind;
  try {
    const { app } = benchApp(store, dataDir, 'list-bench-secret');
    const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
      (await (await app.request(`/api/v1${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
    const account = { email: `list-${uuidv7()}@example.nz`, password: 'correct horse battery' };
    const user = await post('/auth/register', { ...account, full_name: 'Bench Tradie' });
    const token = String((await post('/auth/login', account)).access_token);
    const docs = benchDocuments(documents).slice(0, documents);
    await seedDocuments(store, String(user.id), docs);
    await seedDocuments(store, `other-${String(user.id)}`, benchDocuments(Math.ceil(documents / 3), 11));
    if (db === 'pglite') await store.db.exec('ANALYZE');
    const headers = { Authorization: `Bearer ${token}` };
    const page = async (path: string): Promise<{ ms: number; next: string | null }> => {
      const t0 = performance.now();
      const res = await app.request(`/api/v1${path}`, { headers });
      const rows = (await res.json()) as unknown[];
      const ms = performance.now() - t0;
      if (res.status !== 200 || rows.length !== 50) throw new Error(`${path}: ${res.status}, ${rows.length} rows`);
      return { ms, next: res.headers.get('X-Next-Cursor') };
    };
    // A cursor deep into the list: follow 40 pages once.
    let cursor: string | null = null;
    for (let i = 0; i < 40; i++) cursor = (await page(`/invoices?type=invoice${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).next;
    const measure = async (path: string): Promise<number> => {
      for (let i = 0; i < 5; i++) await page(path);
      const times: number[] = [];
      for (let i = 0; i < requests; i++) times.push((await page(path)).ms);
      return round2(p95(times));
    };
    return [
      { name: `documents.list_first_page_p95_${db}`, value: await measure('/invoices?type=invoice'), unit: 'ms' },
      { name: `documents.list_deep_page_p95_${db}`, value: await measure(`/invoices?type=invoice&cursor=${encodeURIComponent(cursor ?? '')}`), unit: 'ms' },
      { name: `documents.list_status_filter_p95_${db}`, value: await measure('/invoices?type=invoice&status=paid'), unit: 'ms' },
    ];
  } finally {
    await store.close();
  }
}
