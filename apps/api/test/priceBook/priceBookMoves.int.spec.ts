// A quote keeps the cost it was priced at; when the price book moves, the quote says so, and a draft
// can take the new price line by line. Through the HTTP app on PGlite: the line keeps the item it was
// picked from, the notice names each moved line, 'Update' re-prices only that line (at the
// category's markup from Settings), and a sent or issued document is never changed.
import type { PriceBookItemRecord } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';

const t = useTestApp();
type User = Awaited<ReturnType<typeof signUp>>;

async function pipeItem(u: User): Promise<PriceBookItemRecord> {
  const r = await t.post('/price-book/items', { name: 'Copper pipe 15 mm', unit: 'm', category: 'Materials', cost: '3.80', supplier: 'Plumbing World', supplier_code: 'CU15-HH' }, u.token);
  expect(r.status).toBe(201);
  return r.json;
}

/** Six metres of pipe picked from the book at $3.80 (× 1.25 = $4.75), and a line typed by hand. */
const linesOf = (item: PriceBookItemRecord) => [
  { description: 'Copper pipe 15 mm', qty: 6, unit_price: '4.75', cost: '3.8', category: 'materials', price_book_item_id: item.id },
  { description: 'Labour', qty: 2, unit_price: 85, cost: 45, category: 'labour' },
];

const moveCost = async (u: User, item: PriceBookItemRecord, cost: string) => expect((await t.put(`/price-book/items/${item.id}`, { name: item.name, unit: item.unit, category: item.category, cost, supplier: item.supplier, supplier_code: item.supplier_code }, u.token)).status).toBe(200);

describe('a quote priced from the price book', () => {
  it('keeps the item and the cost it was priced at, says when the book moves, and a draft takes the new price on Update', async () => {
    const u = await signUp(t);
    const item = await pipeItem(u);
    const q = await t.post('/invoices', { type: 'quote', line_items: linesOf(item) }, u.token);
    expect(q.status).toBe(201);
    expect(q.json.line_items.map((l: { price_book_item_id: string | null }) => l.price_book_item_id)).toEqual([item.id, null]);
    expect((await t.get(`/invoices/${q.json.id}/price-book-moves`, u.token)).json).toEqual({ moves: [], can_update: true, version: q.json.version });

    await moveCost(u, item, '4.10');
    const moves = await t.get(`/invoices/${q.json.id}/price-book-moves`, u.token);
    expect(moves.json).toEqual({
      moves: [{ line_index: 0, item_id: item.id, name: 'Copper pipe 15 mm', was_cost: '3.8', now_cost: '4.1', message: 'Copper pipe 15 mm is now $4.10, was $3.80' }],
      can_update: true,
      version: q.json.version,
    });
    // The quote itself has not moved: it keeps what it was priced at until the tradie says so.
    expect((await t.get(`/invoices/${q.json.id}`, u.token)).json.line_items[0]).toMatchObject({ cost: 3.8, unit_price: 4.75 });

    // Materials at 20 % in Settings: 4.10 × 1.2 = $4.92 a metre; 6 m = $29.52. The labour line is untouched.
    const pricing = (await t.get('/business-settings/pricing', u.token)).json;
    expect((await t.put('/business-settings/pricing', { categories: pricing.categories.map((c: { id: string; name: string; percent: string }) => ({ id: c.id, name: c.name, percent: c.id === 'materials' ? '20' : c.percent })) }, u.token)).status).toBe(200);
    const updated = await t.post(`/invoices/${q.json.id}/price-book-moves/update`, { line_index: 0, version: moves.json.version }, u.token);
    expect(updated.status).toBe(200);
    expect(updated.json.line_items.map((l: { description: string; qty: number; unit_price: number; cost: number; amount: number; price_book_item_id: string | null }) => [l.description, l.qty, l.unit_price, l.cost, l.amount, l.price_book_item_id])).toEqual([
      ['Copper pipe 15 mm', 6, 4.92, 4.1, 29.52, item.id],
      ['Labour', 2, 85, 45, 170, null],
    ]);
    expect((await t.get(`/invoices/${q.json.id}/price-book-moves`, u.token)).json.moves).toEqual([]);
    // Nothing has moved now: a second Update is refused and changes nothing.
    const again = await t.post(`/invoices/${q.json.id}/price-book-moves/update`, { line_index: 0, version: updated.json.version }, u.token);
    expect([again.status, again.json.detail]).toEqual([409, "That line's price book item hasn't moved since it was priced. Reload to see what has."]);
  });

  it('never changes an issued document: the notice shows, Update is refused, the lines stay', async () => {
    const u = await signUp(t);
    const item = await pipeItem(u);
    const inv = (await t.post('/invoices', { type: 'invoice', line_items: linesOf(item) }, u.token)).json;
    const issued = await t.post(`/invoices/${inv.id}/issue`, undefined, u.token);
    expect(issued.status).toBe(200);
    await moveCost(u, item, '4.10');
    const moves = await t.get(`/invoices/${inv.id}/price-book-moves`, u.token);
    expect(moves.json).toMatchObject({ can_update: false, moves: [{ line_index: 0, message: 'Copper pipe 15 mm is now $4.10, was $3.80' }] });
    const r = await t.post(`/invoices/${inv.id}/price-book-moves/update`, { line_index: 0, version: moves.json.version }, u.token);
    expect(r.status).toBe(409);
    expect(r.json.detail).toMatch(/can't be changed/);
    expect((await t.get(`/invoices/${inv.id}`, u.token)).json.line_items[0]).toMatchObject({ cost: 3.8, unit_price: 4.75, amount: 28.5 });
  });

  it("answers a stale version with 409, bad input with 422, and another account's document or item as not there", async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const item = await pipeItem(u);
    const q = (await t.post('/invoices', { type: 'quote', line_items: linesOf(item) }, u.token)).json;
    await moveCost(u, item, '4.10');
    expect((await t.post(`/invoices/${q.id}/price-book-moves/update`, { line_index: 0, version: q.version + 1 }, u.token)).status).toBe(409);
    const bad = await t.post(`/invoices/${q.id}/price-book-moves/update`, { line_index: -1, version: q.version }, u.token);
    expect([bad.status, bad.json.detail]).toEqual([422, expect.stringContaining('line_index must be 0 or more')]);
    expect((await t.get(`/invoices/${q.id}/price-book-moves`, other.token)).status).toBe(404);
    expect((await t.post(`/invoices/${q.id}/price-book-moves/update`, { line_index: 0, version: q.version }, other.token)).status).toBe(404);
    // A line naming another account's item finds nothing in this account's book: no notice.
    const theirs = (await t.post('/invoices', { type: 'quote', line_items: linesOf(item) }, other.token)).json;
    expect((await t.get(`/invoices/${theirs.id}/price-book-moves`, other.token)).json.moves).toEqual([]);
    // The item's id is text of at most 64 characters.
    const long = await t.post('/invoices', { type: 'quote', line_items: [{ ...linesOf(item)[0], price_book_item_id: 'x'.repeat(65) }] }, u.token);
    expect(long.status).toBe(422);
    expect((await t.get('/invoices', u.token)).json.length).toBe(1);
  });
});
