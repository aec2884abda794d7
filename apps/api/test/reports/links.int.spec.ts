// Download links for the CSV exports: made by the signed-in app, opened without a bearer header,
// bound to the account, the export and its exact query, short-lived, and ended by signing out
// everywhere or changing the password (one-time tokens, security/oneTimeTokens.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_EXPIRED, LINK_INVALID, LINK_TTL_SECONDS } from '../../src/reports/links.ts';
import { seedDocuments } from '../../../cli/src/bench/seed.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

const START = '2026-05-04T21:30:00.000Z';
let t: TestApp;
let clock: TestClock;
let a: Awaited<ReturnType<typeof signUp>>;
let b: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  clock = new TestClock(START);
  t = await createTestApp({ clock });
  a = await signUp(t, 'Account A');
  b = await signUp(t, 'Account B');
  await seedDocuments(t.deps.store, a.userId, [{ number: 1, at: '2026-04-10T00:00:00.000Z', client: { name: 'Secret client of A' }, lines: [{ description: 'Work', qty: 1, unit_price: 1000 }], issued: true }]);
  await seedDocuments(t.deps.store, b.userId, [{ number: 1, at: '2026-04-11T00:00:00.000Z', client: { name: 'Client of B' }, lines: [{ description: 'Work', qty: 1, unit_price: 10 }], issued: true }]);
});
afterAll(() => t.close());

/** Opens a URL the way a new browser tab does: no Authorization header. */
const open = (url: string) => t.call('GET', url);
const link = async (token: string, body: Record<string, unknown>): Promise<string> => {
  const r = await t.post('/reports/export-links', body, token);
  expect(r.status, r.text).toBe(200);
  return r.json.url as string;
};
const withParam = (url: string, name: string, value: string): string => {
  const u = new URL(url, 'http://x');
  u.searchParams.set(name, value);
  return `${u.pathname}${u.search}`;
};

describe('export download links', () => {
  it('a link opens the CSV without a bearer header, the same bytes the bearer header gets', async () => {
    clock.set(START);
    const r = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30' }, a.token);
    expect(r.status).toBe(200);
    expect(r.json.url).toMatch(/^\/api\/v1\/reports\/export\/gst-csv\?start_date=2026-04-01&end_date=2026-06-30&basis=invoice&token=[\w-]{43}$/);
    expect(r.json.expires_at).toBe(new Date(Date.parse(START) + LINK_TTL_SECONDS * 1000).toISOString());
    expect(r.json.url).not.toContain(a.token);
    const viaLink = await open(r.json.url);
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get('content-disposition')).toBe('attachment; filename="gst-report-2026-04-01-to-2026-06-30.csv"');
    expect(viaLink.text).toContain('Secret client of A');
    const viaBearer = await t.get('/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30', a.token);
    expect(viaLink.text).toBe(viaBearer.text);
    // A browser may fetch a download twice: the link opens again within its five minutes.
    expect((await open(r.json.url)).text).toBe(viaBearer.text);
    // Kept only as a digest.
    const token = new URL(r.json.url, 'http://x').searchParams.get('token')!;
    expect(await t.deps.store.db.query('SELECT 1 FROM one_time_tokens WHERE token_hash = $1', [token])).toEqual([]);
    expect(await t.deps.store.db.query("SELECT 1 FROM one_time_tokens WHERE account_id = $1 AND kind = 'report_export'", [a.userId])).not.toEqual([]);
  });

  it('annual and payments-basis links work the same way', async () => {
    clock.set(START);
    const annual = await open(await link(a.token, { kind: 'annual-csv', year: 2027 }));
    expect(annual.status).toBe(200);
    expect(annual.headers.get('content-disposition')).toBe('attachment; filename="annual-report-2026-27.csv"');
    const payments = await open(await link(a.token, { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30', basis: 'payments' }));
    expect(payments.status).toBe(200);
    expect(payments.headers.get('content-disposition')).toMatch(/payments-basis\.csv"$/);
  });

  it('still works in its last second and not from its end: expired → 403 saying so', async () => {
    clock.set(START);
    const url = await link(a.token, { kind: 'annual-csv', year: '2027' });
    clock.advance(LINK_TTL_SECONDS * 1000 - 1000);
    expect((await open(url)).status).toBe(200);
    clock.advance(1000);
    const r = await open(url);
    expect(r.status).toBe(403);
    expect(r.json.detail).toBe(LINK_EXPIRED);
    clock.set(START);
  });

  it('a changed query, a made-up or shortened token or another export → 403, nothing leaks', async () => {
    clock.set(START);
    const url = await link(a.token, { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-04-30' });
    const token = new URL(url, 'http://x').searchParams.get('token')!;
    const tampered = [
      withParam(url, 'end_date', '2026-12-31'),
      withParam(url, 'start_date', '2020-01-01'),
      withParam(url, 'basis', 'payments'),
      withParam(url, 'token', 'A'.repeat(43)),
      withParam(url, 'token', ''),
      withParam(url, 'token', '!!!'),
      withParam(url, 'token', token.slice(0, -2)),
      url.replace('/export/gst-csv', '/export/annual-csv'),
    ];
    for (const u of tampered) {
      const r = await open(u);
      expect(r.status, u).toBe(403);
      expect(r.json.detail, u).toBe(LINK_INVALID);
      expect(r.text).not.toContain('Secret client');
    }
  });

  it("another account can't use its own link to read someone else's data", async () => {
    clock.set(START);
    const mine = await link(b.token, { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30' });
    const ok = await open(mine);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Client of B');
    expect(ok.text).not.toContain('Secret client of A');
    // The account is the token's own: naming A's in B's link changes nothing.
    const r = await open(withParam(mine, 'account', a.userId));
    expect(r.text).toContain('Client of B');
    expect(r.text).not.toContain('Secret client of A');
    // B's bearer header on B's link: still B's data.
    const both = await t.get(withParam(mine, 'account', a.userId), b.token);
    expect(both.text).not.toContain('Secret client of A');
  });

  it('signing out everywhere or changing the password ends every download link the account had', async () => {
    clock.set(START);
    const u = await signUp(t, 'Signed Out Tradie');
    const before = await link(u.token, { kind: 'annual-csv', year: 2027 });
    expect((await open(before)).status).toBe(200);
    expect((await t.post('/auth/logout-all', undefined, u.token)).status).toBe(200);
    const r = await open(before);
    expect(r.status).toBe(403);
    expect(r.json.detail).toBe(LINK_INVALID);
    const again = await link(u.token, { kind: 'annual-csv', year: 2027 });
    expect((await t.post('/auth/change-password', { current_password: u.password, new_password: 'a whole new password' }, u.token)).status).toBe(200);
    expect((await open(again)).status).toBe(403);
  });

  it('a link is asked for with a valid query, by a signed-in user', async () => {
    const missing = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01' }, a.token);
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toBe('Please select both start and end dates');
    const reversed = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-05-01', end_date: '2026-04-01' }, a.token);
    expect(reversed.status).toBe(422);
    const badKind = await t.post('/reports/export-links', { kind: 'pdf', year: 2026 }, a.token);
    expect(badKind.status).toBe(422);
    expect(badKind.json.detail).toBe("kind must be 'gst-csv', 'annual-csv' or 'profit-csv'");
    const badYear = await t.post('/reports/export-links', { kind: 'annual-csv', year: 'next' }, a.token);
    expect(badYear.status).toBe(422);
    const badBasis = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-04-30', basis: 'cash' }, a.token);
    expect(badBasis.status).toBe(422);
    expect((await t.post('/reports/export-links', { kind: 'annual-csv', year: 2026 })).status).toBe(401);
  });

  it('the export without a link or a bearer header → 401; with a bad bearer header → 401', async () => {
    const none = await open('/reports/export/annual-csv?year=2027');
    expect(none.status).toBe(401);
    expect(none.json.detail).toBe('Please sign in to continue.');
    expect((await t.get('/reports/export/annual-csv?year=2027', 'not-a-token')).status).toBe(401);
  });
});
