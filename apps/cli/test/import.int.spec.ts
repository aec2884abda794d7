// What `npm run import` refuses to believe from a file, tried as someone hand-editing an export
// would: a subscription active until 2100, a trial ending in 2099, a confirmed address under
// --email, the paid daily sending limit. A changed or unsigned file is refused with a clear message
// (writing nothing) unless --unsigned, which first prints what it will restore; and even then the
// subscription, the trial and the confirmation never come from the file.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allMigrations } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore, type EventStore } from '@tradie/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialEndsAt } from '../../api/src/integrations/stripe/index.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../../api/test/support/testApp.ts';
import { exportAccount, type AccountExport } from '../src/export.ts';
import { ALTERED_FILE, importAccount, readExport, restorePlan, UNSIGNED_FILE } from '../src/import.ts';
import { TEST_EXPORT_KEY, TEST_SECRET } from './backupSupport.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const clock = new TestClock('2026-06-20T01:00:00.000Z');
const IMPORTED_AT = new Date('2026-07-01T02:00:00.000Z');
const FOREVER = '2100-01-01T00:00:00.000Z';

let source: TestApp;
let exported: AccountExport;
let owner: Awaited<ReturnType<typeof signUp>>;

/** The export as someone would hand-edit it: paid until 2100, a trial to 2099, the address confirmed. */
function handEdited(doc: AccountExport): AccountExport {
  const copy = structuredClone(doc);
  copy.account.trial_started_at = '2099-01-01T00:00:00.000Z';
  copy.account.email_confirmed_at = '2026-06-20T01:00:00.000Z';
  const subscription = { id: 'sub_forever', status: 'active', currentPeriodEnd: Date.parse(FOREVER) / 1000, trialEnd: null, cancelAtPeriodEnd: false, priceId: 'price_x' };
  copy.tables.billing_accounts = [{
    account_id: doc.account.id, customer_id: 'cus_forever', subscription_id: 'sub_forever', status: 'active', current_period_end: FOREVER, updated_at: '2026-06-20T01:00:00.000Z',
    state: { customerId: 'cus_forever', subscription: { ...subscription, provisional: false, version: null }, lastInvoice: null, customerVersion: null, subscriptions: { sub_forever: { ...subscription, provisional: false, version: null } } },
  }];
  return copy;
}

beforeAll(async () => {
  source = await createTestApp({ clock });
  owner = await signUp(source, 'Honest Tradie');
  expect((await source.post('/clients', { name: 'Kōwhai Builders', email: 'accounts@kowhai.example.nz' }, owner.token)).status).toBe(201);
  exported = await exportAccount(source.deps.store, owner.email, source.deps.secrets.exportKey, clock.now());
}, 120_000);
afterAll(() => source?.close());

describe('a signed file', () => {
  it('states its signature and what it covers; any change to it no longer matches', () => {
    expect(exported.signature).toMatchObject({ algorithm: 'HMAC-SHA256', value: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(exported.signature?.key).toContain('APP_SECRET');
    expect(exported.signature?.covers).toContain('without its "signature" member');
  });
});

describe('import of a hand-edited file', () => {
  let store: EventStore;
  let app: TestApp;
  beforeAll(async () => {
    store = await openStore({}, projections, allMigrations);
    app = await createTestApp({ clock: new TestClock(IMPORTED_AT.toISOString()), overrides: { store } });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });
  const written = async () => Number((await store.db.query<{ n: number }>('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM events) AS n'))[0]!.n);

  it('is refused, changed or unsigned, with a clear message, and nothing is written', async () => {
    const before = await written();
    await expect(importAccount(store, handEdited(exported), { keys: TEST_EXPORT_KEY })).rejects.toThrow(ALTERED_FILE);
    const { signature: _s, ...unsigned } = handEdited(exported);
    await expect(importAccount(store, unsigned, { keys: TEST_EXPORT_KEY })).rejects.toThrow(UNSIGNED_FILE);
    // The untouched file, from a server with another APP_SECRET: refused the same way.
    const other = (await import('@tradie/api')).secretsFrom(Buffer.from('another-servers-secret-entirely-0123456789')).exportKey;
    await expect(importAccount(store, exported, { keys: other })).rejects.toThrow(ALTERED_FILE);
    expect(await written()).toBe(before);
  });

  it('with --unsigned: the plan says what will and will not be restored; billing, the trial and the confirmation never come from the file', async () => {
    const file = handEdited(exported);
    const plan = restorePlan(file, { keys: TEST_EXPORT_KEY, email: 'new.owner@example.nz' }).join('\n');
    expect(plan).toContain('Restoring a file whose signature does not match (--unsigned)');
    expect(plan).toContain(`the account ${exported.account.id}: Honest Tradie <new.owner@example.nz>, unconfirmed (exported as ${exported.account.email})`);
    expect(plan).toMatch(/not restored: billing_accounts — the subscription comes from Stripe/);
    expect(plan).toContain("not restored: the trial in the file — a restored account's trial starts today");

    const done = await importAccount(store, file, { keys: TEST_EXPORT_KEY, unsigned: true, email: 'new.owner@example.nz', password: 'restored password', passwordCost: 10, now: IMPORTED_AT });
    expect(done).toMatchObject({ signature: 'altered', emailConfirmed: false });
    expect(await store.db.query('SELECT 1 FROM billing_accounts WHERE account_id = $1', [exported.account.id])).toEqual([]);
    const [user] = await store.db.query<{ trial_started_at: Date | string; email_confirmed_at: unknown }>('SELECT trial_started_at, email_confirmed_at FROM users WHERE id = $1', [exported.account.id]);
    expect(new Date(user!.trial_started_at).toISOString()).toBe(IMPORTED_AT.toISOString());
    expect(user!.email_confirmed_at).toBeNull();

    // What the restored account is allowed, through the API: a trial from the import, no subscription, the trial's sending limit, an unconfirmed address.
    const login = await app.post('/auth/login', { email: 'new.owner@example.nz', password: 'restored password' });
    expect(login.status).toBe(200);
    const token = login.json.access_token as string;
    const status = await app.get('/billing/subscription-status', token);
    expect(status.json).toMatchObject({ subscription_active: false, subscription_status: null, trial_ends_at: trialEndsAt(IMPORTED_AT).toISOString() });
    const fresh = await signUp(app, 'Brand New Trial');
    const sending = await app.get('/auth/sending-status', token);
    expect(sending.json).toMatchObject({ trial: true, email_confirmed: false, daily_recipient_limit: (await app.get('/auth/sending-status', fresh.token)).json.daily_recipient_limit });
    expect((await app.get('/auth/me', token)).json.email_confirmed).toBe(false);
  });

  it('a signed file under its own address keeps its confirmation, but not its trial', async () => {
    const lite = await openStore({}, projections, allMigrations);
    try {
      const done = await importAccount(lite, exported, { keys: TEST_EXPORT_KEY, now: IMPORTED_AT });
      expect(done).toMatchObject({ signature: 'signed', emailConfirmed: true });
      const [user] = await lite.db.query<{ trial_started_at: Date | string; email_confirmed_at: unknown }>('SELECT trial_started_at, email_confirmed_at FROM users WHERE id = $1', [exported.account.id]);
      expect(new Date(user!.trial_started_at).toISOString()).toBe(IMPORTED_AT.toISOString());
      expect(user!.email_confirmed_at).not.toBeNull();
    } finally {
      await lite.close();
    }
  });
});

describe('npm run import, as a person runs it', () => {
  const npm = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const r = await run('npm', ['run', '--silent', 'import', '--', ...args], { cwd: ROOT, env: { ...process.env, PASSWORD_COST: '10', LOG_LEVEL: 'error', DATABASE_URL: '', APP_SECRET: TEST_SECRET }, timeout: 120_000 });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  };

  it('refuses the hand-edited file, then with --unsigned prints what it will restore and restores it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tradie-edited-')), 'export.json');
    writeFileSync(file, JSON.stringify(handEdited(exported), null, 2));
    expect(readExport(JSON.stringify(handEdited(exported))).signature).toBeDefined();
    const dataDir = mkdtempSync(join(tmpdir(), 'tradie-restore-'));
    const refused = await npm(['--file', file, '--data-dir', dataDir, '--email', 'cli.owner@example.nz']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(ALTERED_FILE);
    const restored = await npm(['--file', file, '--data-dir', dataDir, '--email', 'cli.owner@example.nz', '--unsigned']);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('Restoring a file whose signature does not match (--unsigned). It will restore what the file says:');
    expect(restored.stdout).toContain('not restored: billing_accounts');
    expect(restored.stdout).toMatch(/^Imported cli\.owner@example\.nz \(account .+\): /m);
    expect(restored.stdout).toContain('The address cli.owner@example.nz is not confirmed');
  }, 240_000);
});
