// A line's cost travels with it wherever the document's lines go: duplicate, void and issue again,
// quote → invoice, stage invoices (each carrying its share, adding up to the quote's cost), a
// variation's stage invoice, a credit note (a credited line gives back its cost share) and templates.
// Every profit figure is the tradie's: worked by hand in the comments.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';
import { addClient } from './support.ts';

const t = useTestApp();
type User = Awaited<ReturnType<typeof signUp>>;

/** Rinnai: 1 × $1,812.50 costing $1,450 (materials); labour 8 × $85 costing $45 an hour; fittings $39.38, cost not recorded. */
const JOB = [
  { description: 'Rinnai water heater', qty: 1, unit_price: '1812.50', cost: '1450', category: 'materials' },
  { description: 'Labour', qty: 8, unit_price: 85, cost: 45, category: 'labour' },
  { description: 'Fittings and sundries', qty: 1, unit_price: '39.38' },
];
// Sell 2531.88; costed sell 2492.50; cost 1450 + 360 = 1810; gross profit 682.50; margin 27.4 %; markup 37.7 %.
const JOB_PROFIT = { sell: 2531.88, costed_sell: 2492.5, cost: 1810, gross_profit: 682.5, margin_percent: 27.4, markup_percent: 37.7, costed_lines: 2, uncosted_lines: 1, uncosted_sell: 39.38 };
const costs = (d: { line_items: { cost: number | null; category: string }[] }) => d.line_items.map((l) => [l.cost, l.category]);
const JOB_COSTS = [[1450, 'materials'], [45, 'labour'], [null, 'other']];

async function quote(u: User): Promise<{ id: string }> {
  const client_id = await addClient(t, u.userId, { name: 'Aroha Ngata', email: 'aroha@example.nz' });
  const r = await t.post('/invoices', { type: 'quote', client_id, line_items: JOB }, u.token);
  expect(r.status).toBe(201);
  return r.json;
}

describe('a line keeps its cost wherever it goes', () => {
  it('the quote reads with each line’s cost and its profit, per category; a line typed without a cost says so', async () => {
    const u = await signUp(t);
    const q = await t.get(`/invoices/${(await quote(u)).id}`, u.token);
    expect(costs(q.json)).toEqual(JOB_COSTS);
    expect(q.json.line_items[1]).toMatchObject({ cost: 45, cost_amount: 360, markup: null });
    expect(q.json.profit).toMatchObject({ ...JOB_PROFIT, formatted: { gross_profit: '$682.50', cost: '$1,810.00' } });
    expect(q.json.profit.categories.map((c: { category: string; gross_profit: number }) => [c.category, c.gross_profit])).toEqual([['materials', 362.5], ['labour', 320], ['other', 0]]);
  });

  it('duplicate, and a voided invoice issued again, keep every cost', async () => {
    const u = await signUp(t);
    const q = await quote(u);
    const copy = await t.post(`/invoices/${q.id}/duplicate`, undefined, u.token);
    expect(copy.status).toBe(201);
    expect(costs(copy.json)).toEqual(JOB_COSTS);
    const inv = (await t.post('/invoices', { type: 'invoice', line_items: JOB }, u.token)).json;
    expect((await t.post(`/invoices/${inv.id}/issue`, undefined, u.token)).status).toBe(200);
    expect((await t.post(`/invoices/${inv.id}/void`, { reason: 'Wrong client' }, u.token)).status).toBe(200);
    const again = await t.post(`/invoices/${inv.id}/duplicate`, undefined, u.token);
    expect(costs(again.json)).toEqual(JOB_COSTS);
    expect(again.json.profit).toMatchObject(JOB_PROFIT);
  });

  it('quote → invoice keeps every cost and the same profit', async () => {
    const u = await signUp(t);
    const q = await quote(u);
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const inv = await t.post(`/invoices/${q.id}/convert`, undefined, u.token);
    expect(inv.status).toBe(201);
    expect(costs(inv.json)).toEqual(JOB_COSTS);
    expect(inv.json.profit).toMatchObject(JOB_PROFIT);
  });

  it('stage invoices carry their share of cost: a 30 % deposit and the final add up to the quote’s $1,810.00', async () => {
    const u = await signUp(t);
    const q = await quote(u);
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const deposit = await t.post(`/invoices/${q.id}/stages`, { kind: 'deposit', percent: 30 }, u.token);
    expect(deposit.status).toBe(201);
    // 30 % of $1,450 = $435.00; of $360 = $108.00; the fittings carry no cost.
    expect(deposit.json.line_items.map((l: { cost_amount: number | null }) => l.cost_amount)).toEqual([435, 108, null]);
    expect(deposit.json.profit.cost).toBe(543);
    const final = await t.post(`/invoices/${q.id}/stages`, { kind: 'final' }, u.token);
    expect(final.json.line_items.map((l: { cost_amount: number | null }) => l.cost_amount)).toEqual([1015, 252, null]);
    expect(deposit.json.profit.cost + final.json.profit.cost).toBe(1810);
    // The stages' profit adds up to the quote's: sells 759.57 + 1772.31 = 2531.88.
    expect(Math.round((deposit.json.profit.gross_profit + final.json.profit.gross_profit) * 100)).toBe(68250);
  });

  it('a variation keeps its lines’ cost, and its stage invoice carries it', async () => {
    const u = await signUp(t);
    const q = await quote(u);
    expect((await t.post(`/invoices/${q.id}/accept`, undefined, u.token)).status).toBe(200);
    const varied = await t.post(`/invoices/${q.id}/variations`, { line: { description: 'Extra downpipe', qty: 1, unit_price: 120, cost: '70.5', category: 'materials' } }, u.token);
    expect(varied.status).toBe(201);
    expect((await t.post(`/invoices/${q.id}/variations/${varied.json.variations[0].id}/approve`, undefined, u.token)).status).toBe(200);
    const stage = await t.post(`/invoices/${q.id}/stages`, { kind: 'progress', variation_id: varied.json.variations[0].id }, u.token);
    expect(stage.status).toBe(201);
    expect(stage.json.line_items.map((l: { cost_amount: number | null; category: string }) => [l.cost_amount, l.category])).toEqual([[70.5, 'materials']]);
    expect(stage.json.profit).toMatchObject({ sell: 120, cost: 70.5, gross_profit: 49.5 });
  });

  it('a credited line gives back its share of cost: 2 of 8 hours credited take $170 of sell and $90 of cost off the profit', async () => {
    const u = await signUp(t);
    const inv = (await t.post('/invoices', { type: 'invoice', line_items: JOB }, u.token)).json;
    expect((await t.post(`/invoices/${inv.id}/issue`, undefined, u.token)).status).toBe(200);
    const cn = await t.post(`/invoices/${inv.id}/credit-notes`, { lines: [{ line_index: 1, qty: 2 }], reason: 'Finished early' }, u.token);
    expect(cn.status).toBe(201);
    const after = (await t.get(`/invoices/${inv.id}`, u.token)).json;
    // 682.50 − (170 − 90) = 602.50.
    expect(after.profit).toMatchObject({ sell: 2361.88, cost: 1720, gross_profit: 602.5 });
    expect(after.profit.categories.find((c: { category: string }) => c.category === 'labour')).toMatchObject({ sell: 510, cost: 270, gross_profit: 240 });
  });

  it('a template keeps each line’s cost and category; one saved before costs reads as cost not recorded', async () => {
    const u = await signUp(t);
    const line = { description: 'Rinnai water heater', qty: 1, unit_price: 1812.5, tax_included: false, tax_rate: 0.15 };
    const saved = await t.post('/templates', { name: 'Hot water', line_items: [{ ...line, cost: 1450, category: 'materials', markup: 25 }, line] }, u.token);
    expect(saved.status).toBe(201);
    const read = (await t.get('/templates', u.token)).json.items[0];
    expect(read.line_items.map((l: { cost: number | null; category: string; markup: number | null }) => [l.cost, l.category, l.markup])).toEqual([[1450, 'materials', 25], [null, 'other', null]]);
    expect((await t.post('/templates', { name: 'Bad', line_items: [{ ...line, cost: -1 }] }, u.token)).status).toBe(422);
  });

  it('refuses a cost that is not a number of 0 or more, writing nothing', async () => {
    const u = await signUp(t);
    for (const cost of [-5, 'abc', '1.23456']) {
      const r = await t.post('/invoices', { type: 'quote', line_items: [{ description: 'Pipe', qty: 1, unit_price: 10, cost }] }, u.token);
      expect(r.status, String(cost)).toBe(422);
      expect(r.json.detail).toMatch(/Cost/);
    }
    expect((await t.get('/invoices', u.token)).json.items ?? (await t.get('/invoices', u.token)).json).toHaveLength(0);
  });
});
