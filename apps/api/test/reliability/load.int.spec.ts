// Load, the short variant for `npm test`: 10 signed-in users (each its own account) for 8 seconds
// against the real server (startServer: HTTP on loopback, PGlite in a data directory), each
// looping through clients, invoices with Idempotency-Keys, revisions, payments, mark-paid, deletes
// and the lists and reports. Then the invariants — never the timings (those are `npm run bench --
// load`): no 5xx; every account's GST report, annual summary, list and documents equal what the
// driver created by its own ledger; and with the server stopped, the store holds no partial
// command and a projection rebuild gives the live read models byte for byte.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@tradie/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad, type LoadResult } from '../../../cli/src/load/driver.ts';
import { httpClient } from '../../../cli/src/load/http.ts';
import { totalsOf, verifyLedgers } from '../../../cli/src/load/ledger.ts';
import { LoadStats } from '../../../cli/src/load/stats.ts';
import { checkStore, type StoreCheck } from '../../../cli/src/load/verify.ts';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/main.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'tradie-load-int-'));
let result: LoadResult;
let ledgerProblems: string[];
let tamperedLedger: string[];
let store: StoreCheck;
let tamperedStore: StoreCheck;

beforeAll(async () => {
  mkdirSync(join(dataDir, 'web'));
  const server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'web'), LOG_LEVEL: 'error', PASSWORD_COST: '10', IP_LIMIT_MULTIPLIER: '100000' }));
  const url = `http://127.0.0.1:${new URL(server.url).port}`;
  try {
    result = await runLoad({ baseUrl: url, users: 10, seconds: 8, seed: 7 });
    const http = httpClient(url, new LoadStats());
    ledgerProblems = await verifyLedgers(http, result.ledgers);
    // The check can fail: one invoice's total off by a cent in a copy of one ledger.
    const [first] = result.ledgers;
    const copy = { ...first!, documents: new Map([...first!.documents].map(([id, d]) => [id, { ...d }])) };
    const invoice = [...copy.documents.values()].find((d) => d.type === 'invoice');
    if (invoice) invoice.totalCents += 1n;
    tamperedLedger = await verifyLedgers(http, [copy]);
  } finally {
    await server.close();
  }
  const db = join(dataDir, 'db');
  store = await checkStore({ dataDir: db });
  // …and so can the store's: a read model row that the log does not give.
  const s = await openStore({ dataDir: db }, []);
  await s.db.query(`UPDATE documents_list SET total_cents = total_cents + 1 WHERE id = (SELECT min(id) FROM documents_list)`);
  await s.close();
  tamperedStore = await checkStore({ dataDir: db });
  const sum = result.summary;
  console.info(`load 10 users × 8 s on PGlite: ${sum.requests} requests (${result.operations} operations), ${sum.throughput} req/s, statuses ${JSON.stringify(sum.statuses)}; store ${store.events} events, rows ${JSON.stringify(store.rows)}, rebuild ${store.rebuildMs} ms`);
}, 240_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('10 users × 8 s on PGlite through HTTP', () => {
  it('did real work: every user created clients and invoices and recorded payments', () => {
    expect(result.ledgers).toHaveLength(10);
    for (const l of result.ledgers) {
      const t = totalsOf(l);
      expect(t.clients).toBeGreaterThan(0);
      expect(t.invoices).toBeGreaterThan(0);
    }
    const routes = result.summary.routes.map((r) => r.route);
    expect(routes).toEqual(expect.arrayContaining(['POST /invoices', 'POST /invoices/{id}/payments', 'POST /invoices/{id}/mark-paid', 'GET /reports/gst', 'GET /invoices']));
  });

  it('answered every request, none with a 5xx, none with an answer a careful client did not expect', () => {
    expect(result.summary.samples).toEqual([]);
    expect(result.summary.serverErrors).toBe(0);
    expect(result.summary.noAnswer).toBe(0);
    expect(result.summary.unexpected).toBe(0);
    expect(result.summary.unresolvedWrites).toBe(0);
  });

  it("every account's GST report (both bases), annual summary, list and documents equal the driver's ledger", () => {
    expect(ledgerProblems).toEqual([]);
    expect(tamperedLedger).toEqual([expect.stringContaining('total_sales'), ...tamperedLedger.slice(1)]);
  });

  it('no partial command in the store, and a projection rebuild equals the live read models byte for byte', () => {
    expect(store.problems).toEqual([]);
    expect(store.rebuildEqual).toBe(true);
    expect(store.rows.documents_list).toBe(result.ledgers.reduce((n, l) => n + l.documents.size, 0));
    expect(tamperedStore.rebuildEqual).toBe(false);
    expect(tamperedStore.problems).toEqual([expect.stringMatching(/^projection rebuild differs.*documents_list/)]);
  });
});
