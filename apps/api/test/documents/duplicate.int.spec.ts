// POST /invoices/{id}/duplicate: a new draft numbered next on the source's own sequence, dated today
// with its dates worked out again, the client as the client book has them now (or the snapshot when
// the client was removed), the lines, notes and terms copied; the source unchanged; another account's
// id 404; Idempotency-Key replays the first answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../support/testApp.ts';
import { addClient, line, removeClient } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

/** A document as the API answers it (test code reads its fields loosely). */
type Detail = { id: string; reference: string; total: number; line_items: unknown[]; client: unknown };

async function make(u: User, body: Record<string, unknown>): Promise<Detail> {
  const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, 100)], ...body }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json;
}

const countDocs = async (accountId: string): Promise<number> =>
  Number((await t.deps.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM documents_list WHERE account_id = $1', [accountId]))[0]?.n);

describe('POST /invoices/{id}/duplicate', () => {
  it('makes a new draft invoice: the next INV- number, today, the lines, notes and terms copied, the client refreshed', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Hemi Walker', email: 'hemi@example.nz' });
    const source = await make(u, {
      client_id: clientId,
      line_items: [line('Labour', 2, 85), line('Parts', 1, 40.5, { tax_rate: 0 })],
      issue_date: '2026-04-01',
      payment_terms: '14 days',
      notes: 'Gate code 1234',
    });
    await make(u, { type: 'quote' }); // the quote sequence is not the invoice's
    expect((await t.post(`/invoices/${source.id}/issue`, undefined, u.token)).status).toBe(200);
    // The client's details changed after the invoice was drafted.
    const updated = await t.put(`/clients/${clientId}`, { name: 'Hemi Walker', email: 'accounts@walker.nz', version: 1 }, u.token);
    expect(updated.status).toBe(200);

    const r = await t.post(`/invoices/${source.id}/duplicate`, undefined, u.token);
    expect(r.status).toBe(201);
    expect(r.json.id).not.toBe(source.id);
    expect(r.json).toMatchObject({
      type: 'invoice',
      number: 2,
      reference: 'INV-0002',
      status: 'draft',
      issued_on: null,
      converted_from: null,
      client_id: clientId,
      client: { id: clientId, name: 'Hemi Walker', email: 'accounts@walker.nz' },
      // The test clock is 9:30 am on 5 May in New Zealand; 14 days' terms follow from it.
      issue_date: '2026-05-05',
      due_date: '2026-05-19',
      payment_terms: '14 days',
      notes: 'Gate code 1234',
      total: source.total,
      version: 1,
    });
    expect(r.json.line_items).toEqual(source.line_items);
    expect((await t.get(`/invoices/${r.json.id}`, u.token)).json).toEqual(r.json);
    // The source is read, never changed (issued 1 April on 14 days, it is overdue by now).
    const after = (await t.get(`/invoices/${source.id}`, u.token)).json;
    expect(after).toMatchObject({ reference: 'INV-0001', status: 'overdue', client: { email: 'hemi@example.nz' }, version: 2 });
  });

  it('a quote becomes a new quote on the quote sequence, valid for 30 days from today, even a voided or converted one', async () => {
    const u = await signUp(t);
    const quote = await make(u, { type: 'quote', issue_date: '2026-03-01' });
    expect((await t.post(`/invoices/${quote.id}/convert`, undefined, u.token)).status).toBe(201);
    const copy = await t.post(`/invoices/${quote.id}/duplicate`, undefined, u.token);
    expect(copy.status).toBe(201);
    expect(copy.json).toMatchObject({ type: 'quote', reference: 'QTE-0002', status: 'draft', issue_date: '2026-05-05', valid_until: '2026-06-04', converted_to: null });

    const voided = await make(u, {});
    expect((await t.post(`/invoices/${voided.id}/void`, undefined, u.token)).status).toBe(200);
    const again = await t.post(`/invoices/${voided.id}/duplicate`, undefined, u.token);
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ reference: 'INV-0003', status: 'draft', void_reason: null, voided_on: null });
  });

  it('keeps the snapshot when the client has been removed since, and no client stays no client', async () => {
    const u = await signUp(t);
    const clientId = await addClient(t, u.userId, { name: 'Mere Tāwhiao', email: 'mere@example.nz' });
    const source = await make(u, { client_id: clientId });
    await removeClient(t, u.userId, clientId);
    const r = await t.post(`/invoices/${source.id}/duplicate`, undefined, u.token);
    expect(r.status).toBe(201);
    expect(r.json.client).toEqual(source.client);
    expect(r.json.client_name).toBe('Mere Tāwhiao');

    const none = await make(u, { client_id: null });
    const copy = await t.post(`/invoices/${none.id}/duplicate`, undefined, u.token);
    expect(copy.json).toMatchObject({ client: null, client_id: null, client_name: '' });
  });

  it("answers 404 for another account's document, a deleted draft or an id that names nothing, and uses no number", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const theirs = await make(other, {});
    const r = await t.post(`/invoices/${theirs.id}/duplicate`, undefined, u.token);
    expect(r.status).toBe(404);
    expect(r.json.detail).toBe('Invoice or quote not found');
    const deleted = await make(u, {});
    expect((await t.del(`/invoices/${deleted.id}`, u.token)).status).toBe(200);
    expect((await t.post(`/invoices/${deleted.id}/duplicate`, undefined, u.token)).status).toBe(404);
    expect((await t.post('/invoices/not-an-id/duplicate', undefined, u.token, { 'Idempotency-Key': 'x' })).status).toBe(404);
    expect(await countDocs(other.userId)).toBe(1);
    // Nothing was numbered by the refusals: the next invoice is INV-0002 (INV-0001 was the deleted draft).
    expect((await make(u, {})).reference).toBe('INV-0002');
    expect((await t.post(`/invoices/${theirs.id}/duplicate`)).status).toBe(401);
  });

  it('a repeat with the same Idempotency-Key replays the first answer and makes one copy; a new key makes another', async () => {
    const u = await signUp(t);
    const source = await make(u, {});
    const first = await t.post(`/invoices/${source.id}/duplicate`, undefined, u.token, { 'Idempotency-Key': 'dup-1' });
    const second = await t.post(`/invoices/${source.id}/duplicate`, undefined, u.token, { 'Idempotency-Key': 'dup-1' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(await countDocs(u.userId)).toBe(2);

    // The same key for another document is a different request.
    const otherSource = await make(u, {});
    const misuse = await t.post(`/invoices/${otherSource.id}/duplicate`, undefined, u.token, { 'Idempotency-Key': 'dup-1' });
    expect(misuse.status).toBe(422);
    expect(misuse.json.detail).toMatch(/already used for a different request/);

    const third = await t.post(`/invoices/${source.id}/duplicate`, undefined, u.token, { 'Idempotency-Key': 'dup-2' });
    expect(third.json.reference).toBe('INV-0004');
    expect(await countDocs(u.userId)).toBe(4);
  });
});
