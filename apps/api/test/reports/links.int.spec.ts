// Signed download links for the CSV exports: made by the signed-in app, opened without a bearer
// header, bound to the account, the export and its exact query, and short-lived.
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

describe('signed export links', () => {
  it('a link opens the CSV without a bearer header, the same bytes the bearer header gets', async () => {
    clock.set(START);
    const r = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-06-30' }, a.token);
    expect(r.status).toBe(200);
    expect(r.json.url).toMatch(/^\/api\/v1\/reports\/export\/gst-csv\?start_date=2026-04-01&end_date=2026-06-30&basis=invoice&account=[^&]+&exp=\d+&sig=[\w-]+$/);
    expect(r.json.expires_at).toBe(new Date(Date.parse(START) + LINK_TTL_SECONDS * 1000).toISOString());
    expect(r.json.url).not.toContain(a.token);
    const viaLink = await open(r.json.url);
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers.get('content-disposition')).toBe('attachment; filename="gst-report-2026-04-01-to-2026-06-30.csv"');
    expect(viaLink.text).toContain('Secret client of A');
    const viaBearer = await t.get('/reports/export/gst-csv?start_date=2026-04-01&end_date=2026-06-30', a.token);
    expect(viaLink.text).toBe(viaBearer.text);
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

  it('still works at the last second and not after: expired → 403 saying so', async () => {
    clock.set(START);
    const url = await link(a.token, { kind: 'annual-csv', year: '2027' });
    clock.advance(LINK_TTL_SECONDS * 1000);
    expect((await open(url)).status).toBe(200);
    clock.advance(1000);
    const r = await open(url);
    expect(r.status).toBe(403);
    expect(r.json.detail).toBe(LINK_EXPIRED);
    clock.set(START);
  });

  it('a changed query, a later expiry or another export → 403, nothing leaks', async () => {
    clock.set(START);
    const url = await link(a.token, { kind: 'gst-csv', start_date: '2026-04-01', end_date: '2026-04-30' });
    const exp = new URL(url, 'http://x').searchParams.get('exp')!;
    const tampered = [
      withParam(url, 'end_date', '2026-12-31'),
      withParam(url, 'start_date', '2020-01-01'),
      withParam(url, 'basis', 'payments'),
      withParam(url, 'exp', String(Number(exp) + 3600)),
      withParam(url, 'sig', 'A'.repeat(43)),
      withParam(url, 'sig', ''),
      withParam(url, 'sig', '!!!'),
      withParam(url, 'exp', 'later'),
      url.replace('/export/gst-csv', '/export/annual-csv'),
      url.replace(/&sig=[^&]+/, `&sig=${new URL(url, 'http://x').searchParams.get('sig')!.slice(0, -2)}`),
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
    // B puts A's account into B's signed link: the signature no longer matches.
    const r = await open(withParam(mine, 'account', a.userId));
    expect(r.status).toBe(403);
    expect(r.text).not.toContain('Secret client of A');
    // B's bearer header on A's-account link with B's signature changes nothing.
    const both = await t.get(withParam(mine, 'account', a.userId), b.token);
    expect(both.status).toBe(403);
  });

  it('a link is asked for with a valid query, by a signed-in user', async () => {
    const missing = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-04-01' }, a.token);
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toBe('Please select both start and end dates');
    const reversed = await t.post('/reports/export-links', { kind: 'gst-csv', start_date: '2026-05-01', end_date: '2026-04-01' }, a.token);
    expect(reversed.status).toBe(422);
    const badKind = await t.post('/reports/export-links', { kind: 'pdf', year: 2026 }, a.token);
    expect(badKind.status).toBe(422);
    expect(badKind.json.detail).toBe("kind must be 'gst-csv' or 'annual-csv'");
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
