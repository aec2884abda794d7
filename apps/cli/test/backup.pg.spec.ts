// Backups on a real PostgreSQL server (postgres.js gives timestamps as Dates, bytea as Buffers,
// bigints as text): an account exported from one database and imported into another is served
// identically by the real app over it, and the same file restores into PGlite (and back) as well.
import { allMigrations, buildDeps, createApp, loadConfig, type AppDeps } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore } from '@tradie/store';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClock, type TestApp } from '../../api/test/support/testApp.ts';
import { exportAccount, type AccountExport } from '../src/export.ts';
import { importAccount } from '../src/import.ts';
import { everything, makeHistory, TEST_EXPORT_KEY, TEST_SECRET } from './backupSupport.ts';

const clock = new TestClock('2026-06-20T01:00:00.000Z');
let source: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let exported: AccountExport;
let target: AppDeps;

/** The export without what a restore does not keep: log positions, recording times, the trial (it starts at the restore), and the signature over them. */
const portable = (d: AccountExport) => ({
  ...d, exported_at: '', signature: undefined, account: { ...d.account, trial_started_at: '' }, events: d.events.map(({ position: _p, recorded_at: _r, ...e }) => e),
});

beforeAll(async () => {
  source = await createTestApp({ clock, databaseUrl: await freshDatabaseUrl('backup_source') });
  owner = await signUp(source, 'Aroha Tamihana');
  await makeHistory(source, owner.token);
  exported = await exportAccount(source.deps.store, owner.email, source.deps.secrets.exportKey, clock.now());

  const url = await freshDatabaseUrl('backup_target');
  const store = await openStore({ databaseUrl: url }, projections, allMigrations);
  try {
    await importAccount(store, JSON.parse(JSON.stringify(exported)) as AccountExport, { keys: TEST_EXPORT_KEY, password: 'restored password', passwordCost: 10, now: clock.now() });
  } finally {
    await store.close();
  }
  target = { ...(await buildDeps(loadConfig({ DATABASE_URL: url, APP_SECRET: TEST_SECRET, LOG_LEVEL: 'error', APP_URL: 'http://app.test', PASSWORD_COST: '10' }))), clock };
}, 240_000);

afterAll(async () => {
  await target?.store.close();
  await source?.close();
});

describe('export from PostgreSQL, import into PostgreSQL', () => {
  it('the restored account answers every report, list, detail, setting and the logo identically', async () => {
    const before = await everything(async (p) => source.app.request(p, { headers: { Authorization: `Bearer ${owner.token}` } }, {}));
    const app = createApp(target);
    const login = await app.request('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: owner.email, password: 'restored password' }) });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const after = await everything(async (p) => app.request(p, { headers: { Authorization: `Bearer ${token}` } }, {}));
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const k of Object.keys(before)) expect(after[k], k).toBe(before[k]);
  });

  it('the file is the same whichever driver wrote it: PostgreSQL → PGlite → export gives it back', async () => {
    // Both accounts now hold the same history, the GST report downloaded above by each included.
    const again = await exportAccount(target.store, owner.email, target.secrets.exportKey, clock.now());
    const sourceNow = await exportAccount(source.deps.store, owner.email, source.deps.secrets.exportKey, clock.now());
    expect(again.tables.gst_exports).toHaveLength(1);
    expect(portable(again)).toEqual(portable(sourceNow));
    const lite = await openStore({}, projections, allMigrations);
    try {
      await importAccount(lite, exported, { keys: TEST_EXPORT_KEY });
      expect(portable(await exportAccount(lite, owner.email, TEST_EXPORT_KEY, clock.now()))).toEqual(portable(exported));
    } finally {
      await lite.close();
    }
  });
});
