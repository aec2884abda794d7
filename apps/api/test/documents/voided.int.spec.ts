// Voided documents in the list: listed on their own under ?status=void (quotes and invoices, voided
// by POST /void or by DELETE of an issued one), out of the tab counts, and out of every other filter.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { listCalls, ok } from './listSupport.ts';

const t = useTestApp();
const { make } = listCalls(t);

const ids = (records: { id: string }[]): string[] => records.map((r) => r.id).sort();

describe('voided documents in GET /invoices and GET /invoices/counts', () => {
  it('lists them under status=void only, and leaves them out of the tab counts', async () => {
    const u = await signUp(t);
    const open = await make(u);
    const issued = await make(u);
    await ok(t.post(`/invoices/${issued.id}/issue`, undefined, u.token));
    const voided = await make(u);
    await ok(t.post(`/invoices/${voided.id}/issue`, undefined, u.token));
    await ok(t.post(`/invoices/${voided.id}/void`, { reason: 'Wrong client' }, u.token));
    // DELETE of an issued invoice voids it too.
    const discarded = await make(u);
    await ok(t.post(`/invoices/${discarded.id}/issue`, undefined, u.token));
    expect((await t.del(`/invoices/${discarded.id}`, u.token)).json).toEqual({ id: discarded.id, outcome: 'voided' });
    const quote = await make(u, { type: 'quote' });
    const voidQuote = await make(u, { type: 'quote' });
    await ok(t.post(`/invoices/${voidQuote.id}/void`, undefined, u.token));

    const onlyVoid = await t.get('/invoices?type=invoice&status=void', u.token);
    expect(onlyVoid.status).toBe(200);
    expect(ids(onlyVoid.json)).toEqual(ids([voided, discarded]));
    expect(onlyVoid.json.every((r: { status: string }) => r.status === 'void')).toBe(true);
    expect(onlyVoid.headers.get('X-Total-Count')).toBe('2');
    // The number stays used and the record keeps its figures: it is voided, not deleted.
    expect(onlyVoid.json.find((r: { id: string }) => r.id === voided.id)).toMatchObject({ reference: voided.reference, total: 115 });
    expect(ids((await t.get('/invoices?type=quote&status=void', u.token)).json)).toEqual([voidQuote.id]);

    // Every other status filter leaves them out.
    const live = await t.get('/invoices?type=invoice&status=draft,issued,sent,partial,paid,overdue', u.token);
    expect(ids(live.json)).toEqual(ids([open, issued]));
    expect(live.headers.get('X-Total-Count')).toBe('2');

    // The tab counts are the documents that are not void.
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 1, invoices: 2 });
    expect(ids((await t.get('/invoices?type=quote&status=draft', u.token)).json)).toEqual([quote.id]);
  });

  it('a voided invoice can be duplicated, and the copy counts while the voided one never does', async () => {
    const u = await signUp(t);
    const inv = await make(u);
    await ok(t.post(`/invoices/${inv.id}/issue`, undefined, u.token));
    await ok(t.post(`/invoices/${inv.id}/void`, undefined, u.token));
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 0, invoices: 0 });
    const copy = await t.post(`/invoices/${inv.id}/duplicate`, undefined, u.token);
    expect(copy.status).toBe(201);
    expect((await t.get('/invoices/counts', u.token)).json).toEqual({ quotes: 0, invoices: 1 });
    expect(ids((await t.get('/invoices?status=void', u.token)).json)).toEqual([inv.id]);
  });

  it("never shows another account's voided documents", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const theirs = await make(other);
    await ok(t.post(`/invoices/${theirs.id}/void`, undefined, other.token));
    expect((await t.get('/invoices?status=void', u.token)).json).toEqual([]);
    expect((await t.get('/invoices?status=void', u.token)).headers.get('X-Total-Count')).toBe('0');
  });
});
