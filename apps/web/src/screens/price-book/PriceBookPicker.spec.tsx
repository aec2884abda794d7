// @vitest-environment jsdom
// The calculator line's price book picker against a mocked fetch: it searches as the tradie types,
// shows each item at the price the line will get, and picking fills the line through the domain's
// lineFromPriceBookItem (a sell price wins; otherwise the cost priced as 'Price from cost' prices it).
import type { PriceBookItemRecord } from '@tradie/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_COST_CATEGORIES, priceFromCost } from '@tradie/domain';
import { calculatorReducer, initialCalculatorState, lineItemsToSend, pricingOf, type PickedLine } from '../calculator/calculatorModel.ts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { PriceBookPicker } from './PriceBookPicker.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const item = (over: Partial<PriceBookItemRecord>): PriceBookItemRecord => ({
  id: 'i1', name: 'Copper pipe 15 mm', description: '', unit: 'm', category: 'materials', cost: '3.8', sell: null, supplier: 'Plumbing World',
  supplier_code: 'CU15-HH', gst_rate: '0.15', version: 1, created_at: '2026-05-04T21:30:00.000Z', updated_at: '2026-05-04T21:30:00.000Z', ...over,
});
const search = () => h.container.querySelector('input[type="search"]') as HTMLInputElement;
/** Every category at one percentage: the calculator once a percentage is typed for the job. */
const at = (percent: number, basis: 'markup' | 'margin') => () => ({ basis, categories: DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: String(percent) })) });

describe('the price book picker', () => {
  it('searches as you type and fills the line with the price from cost by the calculator markup', async () => {
    h.serve((_m, path) =>
      json({ items: path.includes('q=cop') ? [item({}), item({ id: 'i2', name: 'Copper elbow 15 mm', unit: 'ea', cost: '2', sell: '3.5', gst_rate: '0', supplier_code: '' })] : [], has_more: false }),
    );
    const picked: PickedLine[] = [];
    h.render(<PriceBookPicker lineLabel="Line 1" pricing={at(25, 'markup')} onPick={(l) => picked.push(l)} onClose={() => {}} />);
    h.type(search(), 'cop');
    await h.until(() => expect(h.text()).toContain('Copper elbow 15 mm'));
    expect(h.calls.at(-1)).toMatchObject({ method: 'GET', path: '/price-book/items?q=cop&limit=8' });
    // 3.80 × 1.25 = 4.75; the elbow's own sell price, 3.50.
    expect(h.text()).toContain('CU15-HH · $4.75 / m');
    expect(h.text()).toContain('$3.50 / ea');
    h.click(h.button(/^Copper pipe 15 mm/));
    h.click(h.button(/^Copper elbow 15 mm/));
    expect(picked).toEqual([
      { description: 'Copper pipe 15 mm', qty: '1', unit_price: '4.75', tax_included: false, tax_rate: '0.15', price_book_item_id: 'i1', cost: '3.8', category: 'materials' },
      { description: 'Copper elbow 15 mm', qty: '1', unit_price: '3.5', tax_included: false, tax_rate: '0', price_book_item_id: 'i2', cost: '2', category: 'materials' },
    ]);
  });

  it("prices a picked item at its category's rate from Settings, as 'Price from cost' prices the line, not at the panel's percentage", async () => {
    h.serve(() => json({ items: [item({}), item({ id: 'i3', name: 'Apprentice hour', unit: 'h', category: 'Labour', cost: '30', supplier_code: '' })], has_more: false }));
    // Settings: materials 20 % and labour 40 % markup; the panel shows its own 25 %, untouched for this job.
    let state = calculatorReducer(initialCalculatorState(), {
      type: 'setPricing',
      pricing: { categories: DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: c.id === 'labour' ? '40' : '20' })), labour: { chargeOutRate: null, costRate: null } },
    });
    const picked: PickedLine[] = [];
    h.render(<PriceBookPicker lineLabel="Line 1" pricing={() => pricingOf(state)} onPick={(l) => picked.push(l)} onClose={() => {}} />);
    h.type(search(), 'a');
    await h.until(() => expect(h.text()).toContain('Apprentice hour'));
    // 3.80 × 1.20 = 4.56 (not 4.75 at the panel's 25 %); 30 × 1.40 = 42.
    expect(h.text()).toContain('CU15-HH · $4.56 / m');
    expect(h.text()).toContain('$42.00 / h');
    h.click(h.button(/^Copper pipe 15 mm/));
    h.click(h.button(/^Apprentice hour/));
    expect(picked.map((l) => [l.unit_price, l.category])).toEqual([['4.56', 'materials'], ['42', 'labour']]);
    // The same as pressing 'Price from cost' on the filled rows.
    for (const [i, line] of picked.entries()) {
      state = calculatorReducer(state, { type: 'fillLine', key: 1, line: { ...line, unit_price: '0' } });
      state = calculatorReducer(state, { type: 'priceFromCost' });
      expect(state.lines[0]!.unit_price, `item ${i}`).toBe(line.unit_price);
      expect(priceFromCost([{ ...line, cost: line.cost ?? null }], pricingOf(state)).lines[0]!.unit_price).toBe(line.unit_price);
    }
  });

  it('says when nothing matches, and shows the API detail when the search fails', async () => {
    h.serve((_m, path) => (path.includes('q=zz') ? json({ items: [], has_more: false }) : problem(422, 'The search can be at most 200 characters')));
    h.render(<PriceBookPicker lineLabel="Line 1" pricing={at(20, 'margin')} onPick={() => {}} onClose={() => {}} />);
    h.type(search(), 'zz');
    await h.until(() => expect(h.text()).toContain('Nothing in your price book matches “zz”.'));
    h.type(search(), 'bad');
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('The search can be at most 200 characters'));
  });
});

describe("the calculator's fillLine", () => {
  it('replaces the row with the picked line and keeps the others', () => {
    let s = calculatorReducer(initialCalculatorState(), { type: 'addLine' });
    s = calculatorReducer(s, { type: 'editLine', key: 2, field: 'description', value: 'Labour' });
    s = calculatorReducer(s, { type: 'fillLine', key: 1, line: { description: 'Copper pipe 15 mm', qty: '1', unit_price: '4.75', tax_included: false, tax_rate: '0' } });
    expect(s.lines).toEqual([
      { key: 1, description: 'Copper pipe 15 mm', qty: '1', unit_price: '4.75', tax_included: false, tax_rate: '0', cost: '', category: 'materials' },
      { key: 2, description: 'Labour', qty: '1', unit_price: '0', cost: '', category: 'materials' },
    ]);
  });

  it("keeps the item's cost and category on the line, so the profit panel counts it", () => {
    let s = calculatorReducer(initialCalculatorState(), { type: 'fillLine', key: 1, line: { description: 'Copper pipe 15 mm', qty: '1', unit_price: '4.75', tax_included: false, tax_rate: '0.15', cost: '3.8', category: 'materials' } });
    expect(s.lines[0]).toMatchObject({ cost: '3.8', category: 'materials', unit_price: '4.75' });
    s = calculatorReducer(s, { type: 'fillLine', key: 1, line: { description: 'Call-out', qty: '1', unit_price: '95', tax_included: false, tax_rate: '0.15', cost: null, category: 'labour' } });
    expect(s.lines[0]).toMatchObject({ cost: '', category: 'labour' });
    expect(s.lines[0]!.price_book_item_id).toBeUndefined();
  });

  it('keeps the price book item the row was picked from, and sends it with the line', () => {
    const s = calculatorReducer(initialCalculatorState(), { type: 'fillLine', key: 1, line: { description: 'Copper pipe 15 mm', qty: '1', unit_price: '4.75', tax_included: false, tax_rate: '0.15', cost: '3.8', category: 'materials', price_book_item_id: 'i1' } });
    expect(s.lines[0]!.price_book_item_id).toBe('i1');
    expect(lineItemsToSend(s)).toMatchObject({ ok: true, lines: [{ description: 'Copper pipe 15 mm', cost: '3.8', price_book_item_id: 'i1' }] });
  });
});
