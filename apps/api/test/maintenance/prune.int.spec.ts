// Tables that only grow are pruned: spent rows go, live ones stay, the event log is untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneSpentRows } from '../../src/maintenance/prune.ts';
import { createTestApp, signUp, TestClock, type TestApp } from '../support/testApp.ts';

const clock = new TestClock('2026-06-01T00:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number): string => new Date(clock.now().getTime() - ms).toISOString();
const count = async (table: string, where = 'true', params: unknown[] = []): Promise<number> =>
  (await t.deps.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params))[0]!.n;

describe('pruning spent rows', () => {
  it('removes expired tokens, old throttle rows, old idempotency keys, stale Connect states and old webhook records; keeps the rest', async () => {
    const u = await signUp(t);
    const db = t.deps.store.db;
    const mark = `prune-${u.userId}`;
    const token = (name: string, expiresAgo: number) =>
      db.query('INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [`${mark}-${name}`, u.userId, mark, ago(expiresAgo + 30 * DAY), ago(expiresAgo)]);
    await token('long-expired', 2 * DAY);
    await token('just-expired', HOUR); // within the day's grace
    await token('live', -10 * DAY);
    const reset = (name: string, expiresAgo: number) =>
      db.query("INSERT INTO one_time_tokens (token_hash, account_id, kind, created_at, expires_at) VALUES ($1, $2, 'password_reset', $3, $4)", [`${mark}-${name}`, u.userId, ago(expiresAgo + HOUR), ago(expiresAgo)]);
    await reset('old', 3 * DAY);
    await reset('live', -HOUR / 2);
    for (const minutes of [60, 16, 5]) await db.query('INSERT INTO login_failures (email, at) VALUES ($1, $2)', [`${mark}@example.nz`, ago(minutes * 60_000)]);
    for (const [key, age] of [['old', 31 * DAY], ['recent', 2 * DAY]] as const) {
      await db.query('INSERT INTO idempotency_keys (account_id, scope, key, request_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [u.userId, 'test', `${mark}-${key}`, 'h', ago(age)]);
    }
    for (const [name, expiresAgo] of [['stale', 60_000], ['open', -5 * 60_000]] as const) {
      await db.query('INSERT INTO xero_oauth_states (state_hash, account_id, code_verifier_enc, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [`${mark}-${name}`, u.userId, 'x', ago(expiresAgo + 10 * 60_000), ago(expiresAgo)]);
    }
    for (const [name, age] of [['old', 40 * DAY], ['recent', DAY]] as const) {
      await db.query('INSERT INTO billing_webhook_events (event_id, type, account_id, outcome, created, received_at) VALUES ($1, $2, $3, $4, $5, $6)', [`${mark}-${name}`, 'invoice.paid', u.userId, 'applied', 0, ago(age)]);
    }
    const events = await count('events');

    const removed = await pruneSpentRows(t.deps);
    expect(removed).toMatchObject({ refresh_tokens: 1, one_time_tokens: 1, login_failures: 2, idempotency_keys: 1, xero_oauth_states: 1, billing_webhook_events: 1 });
    expect(await count('refresh_tokens', 'family_id = $1', [mark])).toBe(2);
    expect(await count('one_time_tokens', 'token_hash = $1', [`${mark}-live`])).toBe(1);
    expect(await count('login_failures', 'email = $1', [`${mark}@example.nz`])).toBe(1);
    expect(await count('idempotency_keys', 'key = $1', [`${mark}-recent`])).toBe(1);
    expect(await count('xero_oauth_states', 'state_hash = $1', [`${mark}-open`])).toBe(1);
    expect(await count('billing_webhook_events', 'event_id = $1', [`${mark}-recent`])).toBe(1);
    expect(await count('events')).toBe(events);
    // The signed-in session's own refresh token is live and still works.
    expect((await t.post('/auth/refresh', { refresh_token: u.refresh })).status).toBe(200);
    // Nothing more to do the second time.
    expect(Object.values(await pruneSpentRows(t.deps)).reduce((a, b) => a + b, 0)).toBe(0);
  });
});
