// Scale out: two API processes (two `node apps/api/src/start.ts`, no shared memory, no APP_SECRET:
// the signing key is kept in the database) on one PostgreSQL database, serving the same accounts.
// Each test sends its requests to both, at once where it matters:
// - two revisions of one draft with the same version: exactly one is saved, the other is 409 and
//   tells the user to reload;
// - failed sign-ins split across the two count together: the limit holds (429);
// - an Idempotency-Key sent again to the other process replays the answer and creates nothing;
// - creates for one account on both at once get sequential references, no duplicates, no gaps.
import { rmSync } from 'node:fs';
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, type HttpClient, httpClient } from '../../../cli/src/load/http.ts';
import { type ApiProcess, startApiProcess } from '../../../cli/src/load/server.ts';
import { LoadStats } from '../../../cli/src/load/stats.ts';
import { LOGIN_THROTTLE } from '../../src/auth/commands/shared.ts';
import { STALE_WRITE_DETAIL } from '../../src/http/problem.ts';

let a: ApiProcess;
let b: ApiProcess;
let A: HttpClient;
let B: HttpClient;

let started: ApiProcess[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl('scaleout');
  // Started together: migrations are settled between them in the database; the harness gives both one APP_SECRET, as a deployment must.
  const both = await Promise.allSettled([startApiProcess({ databaseUrl }), startApiProcess({ databaseUrl })]);
  started = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = both.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  [a, b] = started as [ApiProcess, ApiProcess];
  A = httpClient(a.url, new LoadStats());
  B = httpClient(b.url, new LoadStats());
}, 240_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  for (const p of started) rmSync(p.dataDir, { recursive: true, force: true });
});

const call = async (api: HttpClient, method: string, path: string, init: { token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> => {
  const answer = await api.call(`${method} ${path}`, method, path, init);
  if (!answer) throw new Error(`${method} ${path}: no answer`);
  return answer;
};

let n = 0;
/** Registers on one process and signs in on the other: the token works on both. */
async function account(): Promise<{ email: string; password: string; token: string }> {
  const email = `scale${++n}-${Date.now().toString(36)}@example.nz`;
  const password = 'correct horse battery';
  expect((await call(A, 'POST', '/auth/register', { json: { email, password, full_name: 'Wiremu Scale' } })).status).toBe(201);
  const login = await call(B, 'POST', '/auth/login', { json: { email, password } });
  expect(login.status).toBe(200);
  return { email, password, token: login.json.access_token };
}

const line = (description: string, unitPrice: number) => ({ description, qty: 1, unit_price: unitPrice });

describe('two API processes on one PostgreSQL database', () => {
  it('are two processes, and a token signed by one is accepted by the other', async () => {
    expect(a.pid).not.toBe(b.pid);
    const u = await account();
    expect((await call(A, 'GET', '/auth/me', { token: u.token })).status).toBe(200);
    expect((await call(B, 'GET', '/auth/me', { token: u.token })).status).toBe(200);
  });

  it('two revisions of one draft with the same version, one on each: exactly one saved, the other 409 "reload"', async () => {
    const u = await account();
    for (let round = 0; round < 5; round++) {
      const made = await call(A, 'POST', '/invoices', { token: u.token, json: { type: 'invoice', line_items: [line('Original', 100)] } });
      expect(made.status).toBe(201);
      const id = made.json.id as string;
      const [ra, rb] = await Promise.all([
        call(A, 'PUT', `/invoices/${id}`, { token: u.token, json: { line_items: [line('Edit from A', 111)], version: made.json.version } }),
        call(B, 'PUT', `/invoices/${id}`, { token: u.token, json: { line_items: [line('Edit from B', 222)], version: made.json.version } }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const [winner, loser] = ra.status === 200 ? [ra, rb] : [rb, ra];
      expect(loser.json.detail).toBe(STALE_WRITE_DETAIL);
      expect(loser.json.detail).toMatch(/reload/i);
      // Both processes now show the winner's lines, at the next version.
      for (const api of [A, B]) {
        const now = await call(api, 'GET', `/invoices/${id}`, { token: u.token });
        expect(now.json.version).toBe(made.json.version + 1);
        expect(now.json.line_items).toEqual(winner.json.line_items);
      }
    }
  });

  it('failed sign-ins split across both processes reach the limit together: then 429 on both, even with the right password', async () => {
    const u = await account();
    // Half on each, all at once.
    const failures = await Promise.all(
      Array.from({ length: LOGIN_THROTTLE.maxFailures }, (_, i) => call(i % 2 === 0 ? A : B, 'POST', '/auth/login', { json: { email: u.email, password: 'wrong password' } })),
    );
    expect(failures.map((f) => f.status)).toEqual(Array(LOGIN_THROTTLE.maxFailures).fill(401));
    for (const api of [A, B]) {
      const refused = await call(api, 'POST', '/auth/login', { json: { email: u.email, password: u.password } });
      expect(refused.status).toBe(429);
      const retry = Number(refused.headers.get('Retry-After'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(LOGIN_THROTTLE.windowMinutes * 60);
    }
  });

  it('40 wrong guesses at once, split across both processes: exactly the limit are checked, the rest are 429', async () => {
    const u = await account();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? A : B, 'POST', '/auth/login', { json: { email: u.email, password: `guess ${i}` } })),
    );
    const statuses = answers.map((x) => x.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_THROTTLE.maxFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LOGIN_THROTTLE.maxFailures);
  });

  it('one short of the limit on one process, then the last failure on the other: 429', async () => {
    const u = await account();
    for (let i = 0; i < LOGIN_THROTTLE.maxFailures - 1; i++) expect((await call(A, 'POST', '/auth/login', { json: { email: u.email, password: 'nope' } })).status).toBe(401);
    expect((await call(B, 'POST', '/auth/login', { json: { email: u.email, password: 'nope' } })).status).toBe(401);
    expect((await call(A, 'POST', '/auth/login', { json: { email: u.email, password: u.password } })).status).toBe(429);
  });

  it('an Idempotency-Key sent again to the other process replays the answer and creates nothing', async () => {
    const u = await account();
    const body = { type: 'invoice', line_items: [line('Hot water cylinder', 1450)] };
    const headers = { 'Idempotency-Key': 'double-tap-1' };
    const first = await call(A, 'POST', '/invoices', { token: u.token, json: body, headers });
    const again = await call(B, 'POST', '/invoices', { token: u.token, json: body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    // The same key to both at the same moment: one creates, the other waits for it and replays.
    const both = await Promise.all([A, B].map((api) => call(api, 'POST', '/invoices', { token: u.token, json: body, headers: { 'Idempotency-Key': 'double-tap-2' } })));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[0]!.json.id).toBe(both[1]!.json.id);
    expect(both.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(1);

    // A payment retried on the other process is one payment.
    const id = first.json.id as string;
    const pay = { amount: '100.00' };
    const paid = await Promise.all([A, B].map((api) => call(api, 'POST', `/invoices/${id}/payments`, { token: u.token, json: pay, headers: { 'Idempotency-Key': 'pay-1' } })));
    expect(paid.map((r) => r.status)).toEqual([201, 201]);
    expect(paid[0]!.json.id).toBe(paid[1]!.json.id);

    const list = await call(B, 'GET', '/invoices', { token: u.token });
    expect(list.headers.get('X-Total-Count')).toBe('2');
    const detail = await call(A, 'GET', `/invoices/${id}`, { token: u.token });
    expect(detail.json.payments).toHaveLength(1);
  });

  it('creates for one account on both processes at once: INV-0001…INV-0020, no duplicate, no gap', async () => {
    const u = await account();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? A : B, 'POST', '/invoices', { token: u.token, json: { type: 'invoice', line_items: [line(`Job ${i}`, 10 + i)] } })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const references = answers.map((r) => r.json.reference as string).sort();
    expect(references).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
    // Both processes list the same twenty, newest first in the order the numbers were given.
    for (const api of [A, B]) {
      const list = await call(api, 'GET', '/invoices?limit=50', { token: u.token });
      expect(list.json.map((r: { reference: string }) => r.reference)).toEqual([...references].reverse());
    }
  });
});
