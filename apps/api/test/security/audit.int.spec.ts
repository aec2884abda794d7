// GET /api/v1/security/audit: the signed-in account's security activity, newest first, paged with
// `before`, never another account's. Entries are written with recordAudit as the features do;
// signing up may add entries of its own (a sign-in), so each test looks at the ones it wrote.
import { AUDIT_DESCRIPTIONS } from '@tradie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KINDS, type AuditEntry, recordAudit } from '../../src/security/audit.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type User = Awaited<ReturnType<typeof signUp>>;

/** An instant `minutes` after the test clock's now (so the entries written here are the newest). */
const later = (minutes: number): Date => new Date(t.clock.now().getTime() + minutes * 60_000);

async function write(user: User, entries: Omit<AuditEntry, 'accountId'>[]): Promise<void> {
  for (const e of entries) await recordAudit(t.deps.store.db, { accountId: user.userId, ...e });
}

/** Every page from the first, following next_before; the items in order and the page sizes. */
async function allPages(user: User, limit: number): Promise<{ items: { id: string; kind: string; at: string; detail: Record<string, unknown> }[]; sizes: number[] }> {
  const items = [];
  const sizes: number[] = [];
  let before: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const r = await t.get(`/security/audit?limit=${limit}${before ? `&before=${before}` : ''}`, user.token);
    expect(r.status, r.text).toBe(200);
    items.push(...r.json.items);
    sizes.push(r.json.items.length);
    before = r.json.next_before;
    if (before === null) return { items, sizes };
  }
  throw new Error('next_before never ended');
}

describe('GET /security/audit', () => {
  it('answers the entries with a sentence each, newest first', async () => {
    const user = await signUp(t);
    const ua = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
    await write(user, [
      { kind: 'password_changed', at: later(1), ip: '203.0.113.7', userAgent: ua },
      { kind: 'xero_connected', at: later(3), ip: '203.0.113.7', userAgent: ua, detail: { organisation: 'Ngata Plumbing Ltd' } },
      // Recorded after, but happened before: the time decides the order.
      { kind: 'sign_in_failed', at: later(2), ip: '198.51.100.4' },
    ]);
    const r = await t.get('/security/audit', user.token);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const mine = r.json.items.slice(0, 3);
    expect(mine).toEqual([
      { id: expect.stringMatching(/^\d+$/), at: later(3).toISOString(), kind: 'xero_connected', ip: '203.0.113.7', user_agent: ua, detail: { organisation: 'Ngata Plumbing Ltd' }, description: 'Connected to Xero (Ngata Plumbing Ltd)' },
      { id: expect.stringMatching(/^\d+$/), at: later(2).toISOString(), kind: 'sign_in_failed', ip: '198.51.100.4', user_agent: null, detail: {}, description: 'Failed sign-in attempt' },
      { id: expect.stringMatching(/^\d+$/), at: later(1).toISOString(), kind: 'password_changed', ip: '203.0.113.7', user_agent: ua, detail: {}, description: 'Password changed' },
    ]);
    // Anything else is older than what this test wrote (signing up's own entries).
    for (const e of r.json.items.slice(3)) expect(Date.parse(e.at)).toBeLessThanOrEqual(later(0).getTime());
    expect(r.json.next_before).toBeNull();
  });

  it('every kind has its plain-English sentence', async () => {
    const user = await signUp(t);
    await write(
      user,
      AUDIT_KINDS.map((kind, i) => ({ kind, at: later(10 + i), ...(kind === 'xero_connected' ? { detail: { organisation: 'Demo Company (NZ)' } } : {}) })),
    );
    const r = await t.get('/security/audit?limit=100', user.token);
    const byKind = new Map<string, string>(r.json.items.map((e: { kind: string; description: string }) => [e.kind, e.description]));
    expect(Object.fromEntries(AUDIT_KINDS.map((k) => [k, byKind.get(k)]))).toEqual({
      signed_in: 'Signed in',
      sign_in_failed: 'Failed sign-in attempt',
      signed_out: 'Signed out',
      signed_out_everywhere: 'Signed out of every device',
      password_changed: 'Password changed',
      password_reset_requested: 'Password reset link requested',
      password_reset: 'Password reset',
      session_reuse_detected: 'A reused session token was detected — every device was signed out',
      email_confirmed: 'Email address confirmed',
      xero_connected: 'Connected to Xero (Demo Company (NZ))',
      xero_disconnected: 'Disconnected from Xero',
      data_exported: 'Downloaded a copy of your data',
      account_deleted: 'Asked for the account to be deleted',
      email_change_requested: 'Asked to change the email address',
      email_changed: 'Email address changed',
      email_change_cancelled: 'Cancelled the change of the email address from the emailed link — every device was signed out',
    });
    // One sentence per kind the API can record, in one place (packages/contracts).
    expect(Object.keys(AUDIT_DESCRIPTIONS).sort()).toEqual([...AUDIT_KINDS].sort());
  });

  it("shows only the signed-in account's entries: another account's never appear, even named in before", async () => {
    const a = await signUp(t, 'Aroha');
    const b = await signUp(t, 'Ben');
    await write(a, [
      { kind: 'password_changed', at: later(1), ip: '203.0.113.1' },
      { kind: 'xero_connected', at: later(2), detail: { organisation: 'Aroha Builders' } },
    ]);
    await write(b, [
      { kind: 'xero_connected', at: later(1), detail: { organisation: "Ben's Secret Org" } },
      { kind: 'data_exported', at: later(5), ip: '198.51.100.99' },
    ]);
    const bIds = (await t.deps.store.db.query<{ id: string }>('SELECT id::text AS id FROM audit_log WHERE account_id = $1', [b.userId])).map((r) => r.id);
    expect(bIds.length).toBeGreaterThanOrEqual(2);

    const pages = await allPages(a, 1);
    expect(pages.items.map((e) => e.id).filter((id) => bIds.includes(id))).toEqual([]);
    expect(JSON.stringify(pages.items)).not.toContain("Ben's Secret Org");
    expect(JSON.stringify(pages.items)).not.toContain('198.51.100.99');
    expect(pages.items.slice(0, 2).map((e) => e.kind)).toEqual(['xero_connected', 'password_changed']);
    const aCount = (await t.deps.store.db.query('SELECT 1 FROM audit_log WHERE account_id = $1', [a.userId])).length;
    expect(pages.items).toHaveLength(aCount);

    // B's id as A's cursor names nothing of A's.
    const foreign = await t.get(`/security/audit?before=${bIds[0]}`, a.token);
    expect(foreign.status).toBe(200);
    expect(foreign.json).toEqual({ items: [], next_before: null });
    // And B sees B's.
    const own = await t.get('/security/audit', b.token);
    expect(own.json.items[0]).toMatchObject({ kind: 'data_exported', description: 'Downloaded a copy of your data' });
    expect(JSON.stringify(own.json)).not.toContain('Aroha Builders');
  });

  it('pages with before: every entry once, in order, including entries at the same instant', async () => {
    const user = await signUp(t);
    const same = later(30);
    await write(user, [
      { kind: 'signed_in', at: later(21) },
      { kind: 'signed_out', at: later(22) },
      { kind: 'password_reset_requested', at: later(23) },
      { kind: 'password_reset', at: later(24) },
      // Three at one instant: the later id is the newer.
      { kind: 'signed_in', at: same, detail: { n: 1 } },
      { kind: 'signed_in', at: same, detail: { n: 2 } },
      { kind: 'signed_in', at: same, detail: { n: 3 } },
    ]);
    const total = (await t.deps.store.db.query('SELECT 1 FROM audit_log WHERE account_id = $1', [user.userId])).length;
    const { items, sizes } = await allPages(user, 3);
    expect(items).toHaveLength(total);
    expect(new Set(items.map((e) => e.id)).size).toBe(total);
    expect(sizes.slice(0, -1).every((n) => n === 3)).toBe(true);
    expect(items.slice(0, 7).map((e) => [e.kind, e.detail.n ?? null])).toEqual([
      ['signed_in', 3],
      ['signed_in', 2],
      ['signed_in', 1],
      ['password_reset', null],
      ['password_reset_requested', null],
      ['signed_out', null],
      ['signed_in', null],
    ]);
    // Newest first throughout.
    for (let i = 1; i < items.length; i++) expect(Date.parse(items[i - 1]!.at)).toBeGreaterThanOrEqual(Date.parse(items[i]!.at));

    // A page that ends exactly at the last entry says there is no next one.
    const exact = await t.get(`/security/audit?limit=${total}`, user.token);
    expect(exact.json.items).toHaveLength(total);
    expect(exact.json.next_before).toBeNull();
    const short = await t.get(`/security/audit?limit=${total - 1}`, user.token);
    expect(short.json.next_before).toBe(short.json.items.at(-1).id);
  });

  it('50 a page unless asked, at most 100', async () => {
    const user = await signUp(t);
    await write(user, Array.from({ length: 105 }, (_, i) => ({ kind: 'signed_in' as const, at: later(100 + i) })));
    const first = await t.get('/security/audit', user.token);
    expect(first.json.items).toHaveLength(50);
    expect(first.json.next_before).toBe(first.json.items[49].id);
    expect((await t.get('/security/audit?limit=100', user.token)).json.items).toHaveLength(100);
    expect((await t.get('/security/audit?limit=1', user.token)).json.items).toHaveLength(1);
    expect((await t.get('/security/audit?limit=', user.token)).json.items).toHaveLength(50);
  });

  it('a bad query is 422 with a detail', async () => {
    const user = await signUp(t);
    for (const q of ['limit=0', 'limit=101', 'limit=-1', 'limit=1.5', 'limit=abc', 'limit=99999', 'before=abc', 'before=0', 'before=-3', 'before=1.5', `before=${'9'.repeat(19)}`, 'before=%00']) {
      const r = await t.get(`/security/audit?${q}`, user.token);
      expect(r.status, `${q} → ${r.status} ${r.text}`).toBe(422);
      expect(typeof r.json.detail === 'string' && r.json.detail !== '', q).toBe(true);
    }
    expect((await t.get('/security/audit?limit=101', user.token)).json.detail).toBe('limit must be a whole number from 1 to 100');
    expect((await t.get('/security/audit?before=abc', user.token)).json.detail).toBe('before must be the id of an entry (a whole number)');
    // Unknown parameters are ignored.
    expect((await t.get('/security/audit?page=2', user.token)).status).toBe(200);
  });

  it('401 without a token or with a bad one', async () => {
    const none = await t.get('/security/audit');
    expect(none.status).toBe(401);
    expect(none.json.detail).toBeTruthy();
    expect((await t.get('/security/audit', 'not-a-token')).status).toBe(401);
  });
});
