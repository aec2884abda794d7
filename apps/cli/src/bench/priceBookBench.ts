// Benchmark of the price book through the HTTP app (app.request, no port): a supplier's 20,000-row
// CSV price list imported (budget ≤ 3 s), the same list again with a tenth of its prices moved (the
// update path), and search as you type over the 20,000 items, another account's 5,000 beside them
// (budget p95 ≤ 30 ms). Called by `npm run bench` (suite price-book).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { v7 as uuidv7 } from 'uuid';
import { allMigrations } from '@tradie/api';
import { benchApp } from './benchApp.ts';
import { type Figure, percentile, round, seeded } from './figures.ts';

const MATERIALS = ['Copper', 'PEX', 'PVC', 'Brass', 'Galvanised', 'Stainless', 'Poly', 'Cast iron', 'HDPE', 'Chrome'];
const THINGS = ['pipe', 'elbow 90°', 'tee equal', 'coupler', 'reducer', 'valve', 'tap', 'clip', 'bend 45°', 'cap', 'union', 'flange', 'trap', 'waste'];
const SIZES = ['10 mm', '15 mm', '20 mm', '25 mm', '32 mm', '40 mm', '50 mm', '65 mm', '80 mm', '100 mm'];
const UNITS = ['ea', 'm', 'pk', 'length', 'coil'];

/** A merchant's price list of `rows` items: code, description, unit, list price (excl. GST). */
export function priceListCsv(rows: number, seed = 7, bump = 0): string {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const lines = ['Product Code,Description,UOM,List Price excl GST'];
  for (let i = 0; i < rows; i++) {
    const cents = 50 + Math.floor(rnd() * 250_000);
    const moved = bump > 0 && i % 10 === 0 ? cents + bump : cents;
    lines.push(`PW${String(i).padStart(6, '0')},"${pick(MATERIALS)} ${pick(THINGS)} ${pick(SIZES)} series ${i % 97}",${pick(UNITS)},${(moved / 100).toFixed(2)}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** This process's CPU time so far, in ms (user + system). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const MAPPING = { code: 'Product Code', description: 'Description', unit: 'UOM', price: 'List Price excl GST', price_kind: 'list', discount_percent: '32.5', gst: 'exclusive' };
/** What a tradie types, letter by letter, in a line's picker. */
const QUERIES = ['c', 'co', 'cop', 'copp', 'copper', 'copper e', 'copper elb', 'copper elbow 15', 'p', 'pv', 'pvc 100', 'pw0', 'pw012', 'pw01234', 'pw012345', 'stainless tee 50', 'series 96', 'zzz'];

export async function benchPriceBook(options: { databaseUrl?: string; items?: number; requests?: number } = {}): Promise<Figure[]> {
  const items = options.items ?? 20_000;
  const requests = options.requests ?? 180;
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-price-book-bench-'));
  const store = await openStore({ databaseUrl: options.databaseUrl }, projections, allMigrations);
  const db = store.db.kind;
  try {
    const { call } = benchApp(store, dataDir, 'price-book-bench-secret-0123456789abcdef');
    const signUp = async (): Promise<string> => {
      const account = { email: `price-book-${uuidv7()}@example.nz`, password: 'correct horse battery' };
      await call('POST', '/auth/register', { ...account, full_name: 'Bench Tradie' });
      return String((await call('POST', '/auth/login', account)).json.access_token);
    };
    const importList = async (token: string, csv: string): Promise<{ ms: number; cpu: number }> => {
      const t0 = performance.now();
      const c0 = cpuMs();
      const r = await call('POST', '/price-book/imports', { supplier: 'Plumbing World', csv, mapping: MAPPING }, token);
      const cpu = cpuMs() - c0;
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(r.json)}`);
      return { ms, cpu };
    };

    const other = await signUp();
    await importList(other, priceListCsv(Math.ceil(items / 4), 11));
    const token = await signUp();
    const first = await importList(token, priceListCsv(items));
    const again = await importList(token, priceListCsv(items, 7, 37));
    if (db === 'pglite') await store.db.exec('ANALYZE');

    const search = async (q: string): Promise<{ ms: number; cpu: number }> => {
      const t0 = performance.now();
      const c0 = cpuMs();
      const r = await call('GET', `/price-book/items?q=${encodeURIComponent(q)}&limit=20`, undefined, token);
      const cpu = cpuMs() - c0;
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`search ${q}: ${r.status}`);
      return { ms, cpu };
    };
    for (const q of QUERIES) await search(q);
    const times: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < requests; i++) times.push(await search(QUERIES[i % QUERIES.length]!));
    // Wall time, and this process's CPU time (PGlite runs in it): on a machine shared with other
    // work the wall time waits for the CPU; the CPU time is what the work itself costs.
    return [
      { name: `price_book.import_${items}_rows_${db}`, value: round(first.ms), unit: 'ms' },
      { name: `price_book.import_${items}_rows_cpu_${db}`, value: round(first.cpu), unit: 'ms' },
      { name: `price_book.reimport_${items}_rows_tenth_moved_${db}`, value: round(again.ms), unit: 'ms' },
      { name: `price_book.reimport_${items}_rows_tenth_moved_cpu_${db}`, value: round(again.cpu), unit: 'ms' },
      { name: `price_book.search_as_you_type_p95_${items}_items_${db}`, value: round(percentile(times.map((x) => x.ms), 95)), unit: 'ms' },
      { name: `price_book.search_as_you_type_p95_cpu_${items}_items_${db}`, value: round(percentile(times.map((x) => x.cpu), 95)), unit: 'ms' },
    ];
  } finally {
    await store.close();
  }
}
