// Two API processes on one PostgreSQL database (two apps, each with its own in-process locks
// and its own adapter), one fake Xero: a single-use refresh token must be spent exactly once,
// and one invoice synced from both at once must become one Xero invoice.
import { startFakeXero, type FakeXero } from '@tradie/testkit/fake-xero';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../support/testApp.ts';
import { connectedUser, makeDocument, REDIRECT_URI, startXeroApp, tokenCalls, until, type XeroTestApp } from './support.ts';

let fake: FakeXero;
let one: XeroTestApp;
let two: XeroTestApp;
const clock = new TestClock('2026-05-04T21:30:00.000Z');

beforeAll(async () => {
  fake = await startFakeXero({ redirectUris: [REDIRECT_URI], now: () => clock.now() });
  const databaseUrl = await freshDatabaseUrl('xero');
  one = await startXeroApp({ databaseUrl, clock, sharedFake: fake });
  two = await startXeroApp({ databaseUrl, clock, sharedFake: fake });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await fake?.stop();
});

/** Sessions blocked on a row lock of xero_connections (the second process waiting for the first's refresh). */
async function waitingOnConnectionRow(): Promise<number> {
  const [row] = await one.t.deps.store.db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM xero_connections%FOR UPDATE%'`,
  );
  return Number(row?.n ?? 0);
}

describe('two API processes, one database', () => {
  it('both find the access token expired and sync at once: one refresh at Xero, both syncs go through', async () => {
    const user = await connectedUser(one);
    const a = await makeDocument(one.t, user);
    const b = await makeDocument(one.t, user);
    clock.advance(31 * 60_000);
    const before = tokenCalls(fake, 'refresh_token').length;
    const release = fake.hold('/connect/token');
    let answers;
    try {
      const syncs = [one.t.post(`/integrations/xero/sync/${a.id}`, undefined, user.token), two.t.post(`/integrations/xero/sync/${b.id}`, undefined, user.token)];
      // One process is refreshing (its request held at Xero, the row locked); the other waits
      // for the row — or, were the lock broken, sends a second refresh of its own.
      await until(() => tokenCalls(fake, 'refresh_token').length > before);
      await until(async () => (await waitingOnConnectionRow()) > 0 || tokenCalls(fake, 'refresh_token').length > before + 1);
      release();
      answers = await Promise.all(syncs);
    } finally {
      release();
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(tokenCalls(fake, 'refresh_token')).toHaveLength(before + 1);
    expect(fake.state.refreshTokenUses.map((u) => u.outcome)).not.toContain('reused');
    expect(fake.state.invoices.filter((i) => i.Reference === a.reference || i.Reference === b.reference)).toHaveLength(2);
  });

  it('one invoice synced from both at once: the second process is told it is busy, then finds it synced; one Xero invoice', async () => {
    const user = await connectedUser(one);
    const doc = await makeDocument(one.t, user);
    const release = fake.hold('PUT /Invoices');
    let first;
    let second;
    try {
      const pending = one.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
      await until(() => fake.state.requests.some((r) => r.method === 'PUT' && r.body.includes(doc.reference)));
      second = await two.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
      release();
      first = await pending;
    } finally {
      release();
    }
    expect(first.status).toBe(200);
    expect(first.json.already_synced).toBe(false);
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('5');
    const again = await two.t.post(`/integrations/xero/sync/${doc.id}`, undefined, user.token);
    expect(again.json).toEqual({ already_synced: true, xero_invoice_number: doc.reference, xero_invoice_id: first.json.xero_invoice_id });
    expect(fake.state.invoices.filter((i) => i.Reference === doc.reference)).toHaveLength(1);
  });
});
