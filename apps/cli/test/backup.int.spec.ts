// Backups: an account made through the API (clients, quotes, invoices, payments, a removed
// payment, a void, a conversion, settings, a logo) is exported, imported with `npm run import`
// into a fresh data directory, and served again by the real app over that directory: the GST
// reports, annual summaries, CSVs, lists, details, client histories, settings and logo are the
// same, byte for byte. Exporting the restored account gives the same file (but for the trial,
// which starts at the restore). Refusals write nothing. (What the import refuses to believe from
// a file: import.int.spec.ts.)
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allMigrations, buildDeps, createApp, loadConfig, type AppDeps } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore, type EventStore } from '@tradie/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, TestClock, type TestApp } from '../../api/test/support/testApp.ts';
import { exportAccount, type AccountExport } from '../src/export.ts';
import { importAccount, NO_PASSWORD, readExport } from '../src/import.ts';
import { everything, makeHistory, TEST_EXPORT_KEY, TEST_SECRET } from './backupSupport.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');

const clock = new TestClock('2026-06-20T01:00:00.000Z');
let source: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let exported: AccountExport;
let file: string;
let dataDir: string;
let restored: { deps: AppDeps; request: (path: string, init?: RequestInit) => Promise<Response> };

/** The npm scripts, as a person runs them (cheap password hashing for the test). */
async function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // The source's APP_SECRET: the restoring server checks the file's signature with it.
    const r = await run('npm', ['run', '--silent', ...args], { cwd: ROOT, env: { ...process.env, PASSWORD_COST: '10', LOG_LEVEL: 'error', DATABASE_URL: '', APP_SECRET: TEST_SECRET }, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

let before: Record<string, string>;

beforeAll(async () => {
  source = await createTestApp({ clock });
  owner = await signUp(source, 'Aroha Tamihana');
  await makeHistory(source, owner.token);
  // Another account in the same store: none of it may travel with the export.
  const other = await signUp(source, 'Someone Else');
  await source.post('/clients', { name: 'Not in the export' }, other.token);
  // A card payment to sort out in Stripe (written as the Stripe webhook writes it), and another
  // account's, which must not travel.
  const issue = `INSERT INTO payment_issues (account_id, document_id, kind, stripe_object_id, amount_cents, detail, created_at) VALUES ($1, NULL, $2, $3, $4, $5, $6)`;
  await source.deps.store.db.query(issue, [owner.userId, 'dispute', 'dp_backup_1', 11500, 'The client disputed $115.00 with their bank: fraudulent.', clock.now()]);
  await source.deps.store.db.query(issue, [other.userId, 'overpaid', 'pi_backup_other', 1500, 'Not in the export', clock.now()]);
  await source.put('/business-settings', { business_name: 'Other business' }, other.token);

  before = await everything(async (p) => source.app.request(p, { headers: { Authorization: `Bearer ${owner.token}` } }, {}));
  exported = await exportAccount(source.deps.store, owner.email.toUpperCase(), source.deps.secrets.exportKey, clock.now());
  file = join(mkdtempSync(join(tmpdir(), 'tradie-export-')), 'export.json');
  writeFileSync(file, JSON.stringify(exported, null, 2));

  dataDir = mkdtempSync(join(tmpdir(), 'tradie-restore-'));
  const imported = await npm(['import', '--', '--file', file, '--data-dir', dataDir, '--password', 'restored password']);
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
  expect(imported.stdout).toMatch(/^Imported .+ \(account .+\): \d+ events \(3 clients, 9 quotes and invoices\), business settings, a logo\.$/m);

  // The real composition over the restored directory, on the source's clock and secret.
  const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: TEST_SECRET, LOG_LEVEL: 'error', APP_URL: 'http://app.test', PASSWORD_COST: '10' });
  const deps = { ...(await buildDeps(config)), clock };
  const app = createApp(deps);
  restored = { deps, request: async (path, init) => app.request(path, init, {}) };
}, 240_000);

afterAll(async () => {
  await restored?.deps.store.close();
  await source?.close();
});

/** Signs the owner in on the restored app (the password given to the import). */
async function signInRestored(): Promise<string> {
  const login = await restored.request('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: owner.email, password: 'restored password' }) });
  expect(login.status).toBe(200);
  return ((await login.json()) as { access_token: string }).access_token;
}

describe('npm run export', () => {
  it('writes the whole event log of the account, and only that account', async () => {
    const [row] = await source.deps.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE account_id = $1', [owner.userId]);
    expect(exported.events.length).toBe(Number(row!.n));
    expect(exported.events.length).toBeGreaterThan(30);
    expect(new Set(exported.events.map((e) => e.meta.accountId))).toEqual(new Set([owner.userId]));
    const positions = exported.events.map((e) => BigInt(e.position));
    expect(positions.every((p, i) => i === 0 || p > positions[i - 1]!)).toBe(true);
    expect(exported.account).toMatchObject({ id: owner.userId, email: owner.email, full_name: 'Aroha Tamihana' });
    expect(exported).toMatchObject({ format: 'tradie-quotes/account-export', version: 1 });
  });

  it('holds the settings and the logo (base64), and never a password hash or a token', async () => {
    expect(exported.tables.business_settings).toHaveLength(1);
    expect(exported.tables.business_settings![0]).toMatchObject({ business_name: 'Sparky Tamihana Ltd', gst_number: '49-091-850' });
    // The logo as the API keeps it: re-encoded at upload, so a PNG but not the uploaded bytes.
    const [stored] = await source.deps.store.db.query<{ bytes: Uint8Array }>('SELECT bytes FROM business_logos WHERE account_id = $1', [owner.userId]);
    const logo = Buffer.from(String(exported.tables.business_logos![0]!.bytes), 'base64');
    expect(logo.equals(Buffer.from(stored!.bytes))).toBe(true);
    expect(logo.subarray(1, 4).toString('latin1')).toBe('PNG');
    const text = JSON.stringify(exported);
    for (const secret of ['password_hash', 'scrypt$', 'token_hash', 'refresh_token', 'access_token', owner.refresh, owner.token, owner.password, 'Not in the export', 'Other business']) {
      expect(text, secret).not.toContain(secret);
    }
  });
});

describe('npm run import into a fresh data directory', () => {
  it('serves the same reports, CSVs, lists, details, client histories, settings and logo', async () => {
    const token = await signInRestored();
    const after = await everything((p) => restored.request(p, { headers: { Authorization: `Bearer ${token}` } }));
    expect(Object.keys(after)).toEqual(Object.keys(before));
    // The trial is the one thing not restored: it starts at the import, by the importing server's clock.
    const trial = '/api/v1/billing/subscription-status';
    for (const k of Object.keys(before).filter((x) => x !== trial)) expect(after[k], k).toBe(before[k]);
    expect(Date.parse(JSON.parse(after[trial]!).trial_ends_at)).toBeGreaterThan(Date.parse(JSON.parse(before[trial]!).trial_ends_at));
    expect(JSON.parse(after[trial]!)).toMatchObject({ subscription_status: null, subscription_active: false });
    // Not vacuous: the reports count the invoices, the lists hold the documents.
    expect(JSON.parse(before['/api/v1/reports/annual?year=2027']!).total_revenue).toBeGreaterThan(0);
    expect(JSON.parse(before['/api/v1/invoices?limit=200']!)).toHaveLength(8);
    expect(Buffer.from(before.logo!, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('carries the card payments to sort out, numbered afresh on import, and never another account’s', async () => {
    expect(exported.tables.payment_issues).toEqual([
      expect.objectContaining({ kind: 'dispute', stripe_object_id: 'dp_backup_1', amount_cents: '11500', done_at: null }),
    ]);
    expect(exported.tables.payment_issues![0]).not.toHaveProperty('id');
    const res = await restored.request('/api/v1/payments/issues', { headers: { Authorization: `Bearer ${await signInRestored()}` } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('$115.00');
  });

  it('the read models are what a rebuild from the log makes', async () => {
    const tables = ['clients', 'documents_list', 'report_invoices', 'report_payments', 'report_credits', 'reminder_targets', 'credit_notes'];
    const dump = async () => Object.fromEntries(await Promise.all(tables.map(async (tb) => [tb, await restored.deps.store.db.query(`SELECT * FROM ${tb} ORDER BY 1, 2`)])));
    const live = await dump();
    await restored.deps.store.rebuildProjections();
    expect(await dump()).toEqual(live);
  });

  it('exporting the restored account gives the same file (but for positions, recording times, the trial and the signature over them)', async () => {
    const again = await exportAccount(restored.deps.store, owner.email, restored.deps.secrets.exportKey, clock.now());
    const strip = (d: AccountExport) => ({ ...d, signature: undefined, account: { ...d.account, trial_started_at: '' }, events: d.events.map(({ position: _p, recorded_at: _r, ...e }) => e) });
    expect(strip(again)).toEqual(strip(exported));
  });

  it('refuses to import the same account again, and writes nothing', async () => {
    await restored.deps.store.close();
    const second = await npm(['import', '--', '--file', file, '--data-dir', dataDir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already exists in this store/);
    const exportedAgain = await npm(['export', '--', '--account', owner.email, '--data-dir', dataDir, '--out', `${file}.again`]);
    expect(exportedAgain.code).toBe(0);
    expect(exportedAgain.stdout).toMatch(/^Exported .+: \d+ events .+→ .+export\.json\.again$/m);
    const doc = readExport(readFileSync(`${file}.again`, 'utf8'));
    expect(doc.events.length).toBe(exported.events.length);
    expect(doc.tables).toEqual(exported.tables);
  }, 240_000); // two npm commands, each a process of its own
});

describe('import into a store (in process)', () => {
  let store: EventStore;
  beforeAll(async () => {
    store = await openStore({}, projections, allMigrations);
  });
  afterAll(() => store.close());

  const counts = async () => (await store.db.query<{ n: number }>('SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM users) + (SELECT count(*) FROM business_settings) AS n'))[0]!.n;

  it('under a new email, without a password: nobody can sign in until the password is reset', async () => {
    const done = await importAccount(store, exported, { keys: TEST_EXPORT_KEY, email: ' New.Address@Example.NZ ' });
    expect(done).toEqual({ accountId: owner.userId, email: 'new.address@example.nz', events: exported.events.length, signature: 'signed', emailConfirmed: false });
    const [user] = await store.db.query<{ email: string; password_hash: string }>('SELECT email, password_hash FROM users WHERE id = $1', [owner.userId]);
    expect(user).toEqual({ email: 'new.address@example.nz', password_hash: NO_PASSWORD });
  });

  it('refuses an existing email or account, a file of another format or a newer version, and a broken log — writing nothing', async () => {
    const n = await counts();
    await expect(importAccount(store, exported, { keys: TEST_EXPORT_KEY, email: 'new.address@example.nz' })).rejects.toThrow(/already exists/);
    await expect(importAccount(store, exported, { keys: TEST_EXPORT_KEY, email: 'another@example.nz' })).rejects.toThrow(/already exists/);
    expect(() => readExport('{"format":"something else"}')).toThrow(/not a Tradie Quotes account export/);
    expect(() => readExport(JSON.stringify({ ...exported, version: 99 }))).toThrow(/format version 99/);
    expect(() => readExport('not json')).toThrow(/not JSON/);
    const longStream = exported.events.find((e) => e.stream_version === 2)!.stream_id;
    const gap = exported.events.filter((e) => !(e.stream_id === longStream && e.stream_version === 1));
    expect(() => readExport(JSON.stringify({ ...exported, events: gap }))).toThrow(/not complete/);
    const foreign = exported.events.map((e, i) => (i === 3 ? { ...e, meta: { ...e.meta, accountId: 'someone-else' } } : e));
    expect(() => readExport(JSON.stringify({ ...exported, events: foreign }))).toThrow(/belongs to another account/);
    expect(await counts()).toBe(n);
  });
});
