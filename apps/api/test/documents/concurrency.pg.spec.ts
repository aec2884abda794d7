// The concurrency-sensitive rules on a real PostgreSQL server (PGlite has one session, so it can't
// show a race): numbers handed out under 20 simultaneous creates, payments that never overpay,
// two edits of the same version, a double conversion, a double send with one Idempotency-Key —
// plus the list's money and dates through postgres.js (bigint and date as text).
import { freshDatabaseUrl } from '@tradie/testkit/pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_WRITE_DETAIL } from '../../src/http/problem.ts';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, line } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ databaseUrl: await freshDatabaseUrl('documents') });
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

async function make(u: User, body: Record<string, unknown> = {}) {
  const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Work', 2, 100)], ...body }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json as { id: string; reference: string; total: number };
}

describe('documents on PostgreSQL under concurrency', () => {
  it('20 simultaneous creates from one account get INV-0001..INV-0020: distinct, sequential, no gaps', async () => {
    const u = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => t.post('/invoices', { type: 'invoice', line_items: [line(`Job ${i}`, 1, 10)] }, u.token)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const refs = answers.map((a) => a.json.reference as string).sort();
    expect(refs).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
    const list = await t.get('/invoices?limit=200', u.token);
    expect(list.headers.get('X-Total-Count')).toBe('20');
    // Newest first is creation order: numbers were handed out in the order the documents were stored.
    expect(list.json.map((r: { reference: string }) => r.reference)).toEqual([...refs].reverse());
    expect((await make(u)).reference).toBe('INV-0021');
  });

  it('simultaneous payments never pay more than the invoice: the balance is re-checked on every retry', async () => {
    const u = await signUp(t);
    const inv = await make(u); // $230.00
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.post(`/invoices/${inv.id}/payments`, { amount: 50 }, u.token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 422, 422]);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.json.detail).toBe('This payment is more than the $30.00 still owing');
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail).toMatchObject({ paid: 200, balance: 30, payment_status: 'partial' });

    const race = await Promise.all([t.post(`/invoices/${inv.id}/mark-paid`, undefined, u.token), t.post(`/invoices/${inv.id}/payments`, { amount: 30 }, u.token)]);
    expect(race.filter((a) => a.status < 300)).toHaveLength(1);
    expect(race.filter((a) => a.status === 409)).toHaveLength(1);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json).toMatchObject({ paid: 230, balance: 0, payment_status: 'paid' });
  });

  it('two edits of the same version: one is saved, the other answers 409 and is not', async () => {
    const u = await signUp(t);
    const inv = await make(u);
    const [a, b] = await Promise.all([
      t.put(`/invoices/${inv.id}`, { line_items: [line('Edit A', 1, 1)], version: 1 }, u.token),
      t.put(`/invoices/${inv.id}`, { line_items: [line('Edit B', 1, 2)], version: 1 }, u.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    expect(loser.json.detail).toBe(STALE_WRITE_DETAIL);
    const detail = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    expect(detail.version).toBe(2);
    expect(detail.line_items).toEqual(winner.json.line_items);
  });

  it('a quote converted twice at once makes one invoice and uses one number', async () => {
    const u = await signUp(t);
    const quote = await make(u, { type: 'quote' });
    const answers = await Promise.all([1, 2, 3].map(() => t.post(`/invoices/${quote.id}/convert`, undefined, u.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(answers.find((a) => a.status === 201)?.json.reference).toBe('INV-0001');
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 1, invoices: 1 });
    expect((await make(u)).reference).toBe('INV-0002');
  });

  it('a double tap on Send with one Idempotency-Key sends one email', async () => {
    const u = await signUp(t);
    const c = await addClient(t, u.userId, { name: 'Twice', email: 'twice@example.nz' });
    const inv = await make(u, { client_id: c });
    const headers = { 'Idempotency-Key': 'pg-send' };
    const before = t.mailer.sent.length;
    const answers = await Promise.all([1, 2].map(() => t.post(`/invoices/${inv.id}/send`, undefined, u.token, headers)));
    const statuses = answers.map((a) => a.status).sort();
    // The second either finds the first still sending (409) or its stored answer (200, replayed).
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(t.mailer.sent.length - before).toBe(1);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json.sends).toHaveLength(1);
  });

  it('a payment sent six times at once with one Idempotency-Key records one payment, and every answer is that one', async () => {
    const u = await signUp(t);
    const inv = await make(u); // $230.00
    const headers = { 'Idempotency-Key': 'pg-pay-race' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.post(`/invoices/${inv.id}/payments`, { amount: 50 }, u.token, headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    for (const a of answers) expect(a.json).toEqual(answers[0]!.json);
    // One did it; the others lost the race on the stream's version or the key's row, and replayed its answer.
    expect(answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(5);
    expect((await t.get(`/invoices/${inv.id}/payments`, u.token)).json).toHaveLength(1);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json).toMatchObject({ paid: 50, balance: 180 });
  });

  it('an invoice created four times at once with one Idempotency-Key is made once (each try is a new stream: only the key’s row races)', async () => {
    const u = await signUp(t);
    const headers = { 'Idempotency-Key': 'pg-create-race' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.post('/invoices', { type: 'invoice', line_items: [line('Once', 1, 10)] }, u.token, headers)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (const a of answers) expect(a.json).toEqual(answers[0]!.json);
    expect(answers.filter((a) => a.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(3);
    const list = await t.get('/invoices', u.token);
    expect(list.json.map((r: { reference: string }) => r.reference)).toEqual(['INV-0001']);
    // The numbers the losers took went back with them.
    expect((await make(u)).reference).toBe('INV-0002');
  });

  it('reads money, dates and the cursor the same through postgres.js', async () => {
    const u = await signUp(t);
    const a = await make(u, { issue_date: '2026-04-01', line_items: [line('Big job', 1, 99_999_999.99)] });
    const b = await make(u, { type: 'quote', line_items: [line('Small', 3, 0.3333)] });
    const p1 = await t.get('/invoices?limit=1', u.token);
    expect(p1.json).toEqual([expect.objectContaining({ id: b.id, total: 1.15, issue_date: '2026-05-05', due_date: '2026-05-12', paid_date: null })]);
    const p2 = await t.get(`/invoices?limit=1&cursor=${p1.headers.get('X-Next-Cursor')}`, u.token);
    expect(p2.json).toEqual([expect.objectContaining({ id: a.id, total: 114_999_999.99, balance: 114_999_999.99, issue_date: '2026-04-01' })]);
    expect(p2.headers.get('X-Next-Cursor')).toBeNull();
    expect((await t.get('/invoices?from=2026-04-01&to=2026-04-01', u.token)).json.map((r: { id: string }) => r.id)).toEqual([a.id]);
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 1, invoices: 1 });
  });
});
