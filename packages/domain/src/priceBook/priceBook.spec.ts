import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMargin } from '../margin/margin.ts';
import { roundLineAmount } from '../money/rounding.ts';
import { decimalString } from '../../test/arbitraries.ts';
import { DEFAULT_COST_CATEGORIES, type PricingSettings } from '../profit/categories.ts';
import { priceFromCost } from '../profit/pricing.ts';
import { itemSearchWords, itemSellPrice, lineCategoryOf, lineFromPriceBookItem, parseMoneyText, unitPriceFromCost, queryWords, type PriceBookItem } from './items.ts';
import { priceBookMoves, repricedFromBook } from './moves.ts';
import { costFromListPrice, guessMapping, mapPriceListRows, mappingProblems, type PriceListMapping } from './priceList.ts';

const pipe: PriceBookItem = {
  id: 'item-1',
  name: 'Copper pipe 15 mm',
  description: 'Half-hard, 5.8 m lengths',
  unit: 'm',
  category: 'materials',
  cost: '3.8',
  sell: null,
  supplier: 'Plumbing World',
  supplier_code: 'CU15-HH',
  gst_rate: '0.15',
};

/** Units of 10⁻⁴ dollars of a decimal string with at most 4 places (an oracle of its own: no Decimal). */
const units = (s: string): bigint => {
  const [w, f = ''] = s.split('.');
  return BigInt(w!) * 10_000n + BigInt(f.padEnd(4, '0'));
};
/** n/d rounded half up, for n, d > 0. */
const halfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/** Every category at one percentage, as the calculator prices once a percentage is typed for the job. */
const at = (percent: number, basis: 'markup' | 'margin') => ({ basis, categories: DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: String(percent) })) });
/** A business pricing materials at 20 % and labour at 35 %, others at 10 %. */
const settings = (basis: 'markup' | 'margin'): PricingSettings => ({
  basis,
  categories: DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: c.id === 'materials' ? '20' : c.id === 'labour' ? '35' : '10' })),
  labour: { chargeOutRate: null, costRate: null },
});

describe('a line from a price book item', () => {
  it('fills the description, the price from cost by the business basis, and the GST rate', () => {
    expect(lineFromPriceBookItem(pipe, at(25, 'markup'))).toEqual({
      description: 'Copper pipe 15 mm',
      qty: '1',
      unit_price: '4.75',
      tax_included: false,
      tax_rate: '0.15',
      price_book_item_id: 'item-1',
      cost: '3.8',
      category: 'materials',
    });
    // A 25 % margin on the price: 3.80 / 0.75 = 5.0666… → $5.07.
    expect(lineFromPriceBookItem(pipe, at(25, 'margin')).unit_price).toBe('5.07');
  });

  it("gives the line the cost category the item's category names, and materials for a merchant's own", () => {
    expect(['Materials', ' labour ', 'Sub contractor', 'Subcontractors', 'EQUIPMENT', 'other'].map(lineCategoryOf)).toEqual(['materials', 'labour', 'subcontractor', 'subcontractor', 'equipment', 'other']);
    expect(['Copper fittings', 'PEX', '', '=cmd()'].map(lineCategoryOf)).toEqual(['materials', 'materials', 'materials', 'materials']);
    expect(lineFromPriceBookItem({ ...pipe, category: 'Labour' }, at(25, 'markup')).category).toBe('labour');
  });

  it('a sell override wins over the cost, whatever the rule', () => {
    const sold = { ...pipe, sell: '4.1', gst_rate: '0' as const };
    expect(lineFromPriceBookItem(sold, at(40, 'margin'))).toMatchObject({ unit_price: '4.1', tax_rate: '0', cost: '3.8' });
  });

  it("prices the cost at the item's category's rate from Settings, not one percentage for all", () => {
    // Materials at 20 % markup: 3.80 × 1.2 = $4.56; filed as labour at 35 %: $5.13; as equipment at a 10 % margin: 3.80 / 0.9 → $4.22.
    expect(lineFromPriceBookItem(pipe, settings('markup')).unit_price).toBe('4.56');
    expect(lineFromPriceBookItem({ ...pipe, category: 'Labour' }, settings('markup')).unit_price).toBe('5.13');
    expect(lineFromPriceBookItem({ ...pipe, category: 'Equipment' }, settings('margin')).unit_price).toBe('4.22');
    // A labour item with a charge-out rate set is charged out at it, as 'Price from cost' does.
    expect(lineFromPriceBookItem({ ...pipe, category: 'labour' }, { ...settings('markup'), labour: { chargeOutRate: '95', costRate: '40' } }).unit_price).toBe('95');
  });

  it("gives the price 'Price from cost' gives the same line (property)", () => {
    const category = fc.constantFrom('Materials', 'labour', 'Subcontractor', 'equipment', 'other', 'PEX fittings');
    const percent = fc.integer({ min: 0, max: 95 }).map(String);
    fc.assert(
      fc.property(decimalString(1_000_000_000, 4), category, fc.constantFrom('markup' as const, 'margin' as const), fc.array(percent, { minLength: 5, maxLength: 5 }), (cost, cat, basis, percents) => {
        const pricing = { basis, categories: DEFAULT_COST_CATEGORIES.map((c, i) => ({ ...c, percent: percents[i]! })) };
        const picked = lineFromPriceBookItem({ ...pipe, cost, category: cat }, pricing);
        const typed = { description: 'x', qty: '1', unit_price: '0', tax_included: false, tax_rate: '0.15', cost, category: picked.category };
        expect(picked.unit_price).toBe(priceFromCost([typed], pricing).lines[0]!.unit_price);
      }),
    );
  });

  it('prices a cost exactly as Apply margin prices a line of one (property)', () => {
    fc.assert(
      fc.property(decimalString(1_000_000_000, 4), fc.integer({ min: 0, max: 95 }), fc.constantFrom('markup' as const, 'margin' as const), (cost, percent, basis) => {
        const price = unitPriceFromCost(cost, { basis, percent });
        expect(price).toBe(applyMargin([{ qty: '1', unit_price: cost }], percent, basis)[0]!.unit_price);
        // Within half a cent of cost × factor, worked out here with integers of its own.
        const costCents = roundLineAmount('1', cost);
        const [num, den] = basis === 'markup' ? [costCents * BigInt(100 + percent), 100n] : [costCents * 100n, BigInt(100 - percent)];
        const amount = roundLineAmount('1', price);
        const diff = 2n * amount * den - 2n * num;
        expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual(den);
        expect(itemSellPrice({ cost, sell: null }, { basis, percent })).toBe(price);
      }),
    );
  });
});

describe('the price book moving after a quote was priced', () => {
  const line = { description: 'Copper pipe 15 mm', qty: '6', unit_price: '4.56', tax_included: false, tax_rate: '0.15', cost: '3.8', category: 'materials', markup: null, price_book_item_id: 'item-1' };
  const typed = { ...line, price_book_item_id: undefined };

  it('names each picked line whose item costs something else now, and no other', () => {
    const book = new Map([['item-1', { id: 'item-1', name: 'Copper pipe 15 mm', cost: '4.1', sell: null }], ['item-2', { id: 'item-2', name: 'Elbow', cost: '2.5', sell: null }]]);
    const lines = [line, typed, { ...line, price_book_item_id: 'item-2', cost: '2.5000' }, { ...line, price_book_item_id: 'gone' }, { ...line, cost: null }];
    expect(priceBookMoves(lines, book)).toEqual([{ lineIndex: 0, itemId: 'item-1', name: 'Copper pipe 15 mm', wasCost: '3.8', nowCost: '4.1' }]);
    expect(priceBookMoves([line], new Map([['item-1', { id: 'item-1', name: 'Copper pipe 15 mm', cost: '3.80', sell: null }]]))).toEqual([]);
  });

  it("re-prices a line from the book's cost now by 'Price from cost', keeping its quantity and category", () => {
    // 4.10 × 1.2 = 4.92 a metre; the quantity stays 6.
    expect(repricedFromBook(line, { cost: '4.1', sell: null }, settings('markup'))).toEqual({ ...line, cost: '4.1', unit_price: '4.92' });
    // The line's own markup wins over its category's; the item's sell override wins over both.
    expect(repricedFromBook({ ...line, markup: '50' }, { cost: '4.1', sell: null }, settings('markup')).unit_price).toBe('6.15');
    expect(repricedFromBook(line, { cost: '4.1', sell: '5.5' }, settings('markup'))).toEqual({ ...line, cost: '4.1', unit_price: '5.5' });
  });
});

describe('money typed or imported', () => {
  it('takes $, spaces and thousands commas; refuses what is not a plain amount', () => {
    expect(parseMoneyText(' $1,234.50 ', 'Cost')).toEqual({ ok: true, value: '1234.5' });
    expect(parseMoneyText('4.1000', 'Cost')).toEqual({ ok: true, value: '4.1' });
    expect(parseMoneyText('', 'Cost')).toEqual({ ok: false, reason: 'Cost is empty' });
    expect(parseMoneyText('=1+2', 'Cost')).toEqual({ ok: false, reason: 'Cost is not a number: "=1+2"' });
    expect(parseMoneyText('-3', 'Cost')).toEqual({ ok: false, reason: 'Cost cannot be negative' });
    expect(parseMoneyText('1.23456', 'Cost')).toEqual({ ok: false, reason: 'Cost can have at most 4 decimal places' });
    expect(parseMoneyText('1e5', 'Cost').ok).toBe(false);
    expect(parseMoneyText('100000000.01', 'Cost')).toEqual({ ok: false, reason: 'Cost is too large' });
  });
});

describe('search words', () => {
  it('an item is found by the words of its name and code, lower case, accents off', () => {
    expect(itemSearchWords(pipe)).toEqual(['copper', 'pipe', '15', 'mm', 'cu15', 'hh']);
    expect(itemSearchWords({ name: 'Kōwhai tap', supplier_code: '' })).toEqual(['kowhai', 'tap']);
    expect(queryWords('  pipe COPPER pipe ')).toEqual(['copper', 'pipe']);
    expect(queryWords('%_\\')).toEqual([]);
  });
});

const mapping: PriceListMapping = { code: 'Code', description: 'Description', unit: 'UOM', price: 'List', price_kind: 'list', discount_percent: '35', gst: 'exclusive' };

describe('a supplier price list', () => {
  it('guesses the usual merchant headers', () => {
    expect(guessMapping(['Product Code', 'Description', 'UOM', 'List Price', 'Trade Price'])).toEqual({
      code: 'Product Code', description: 'Description', unit: 'UOM', price: 'Trade Price', price_kind: 'cost', discount_percent: '0', gst: 'exclusive',
    });
    expect(guessMapping(['SKU', 'Item name', 'RRP incl GST'])).toMatchObject({ code: 'SKU', description: 'Item name', unit: null, price: 'RRP incl GST', price_kind: 'list', gst: 'inclusive' });
  });

  it('names a mapping column the file does not have, and a discount out of range', () => {
    expect(mappingProblems(mapping, ['Code', 'Description', 'UOM', 'List'])).toEqual([]);
    expect(mappingProblems({ ...mapping, price: 'Net', discount_percent: '101' }, ['Code', 'Description', 'UOM'])).toEqual([
      'The price column "Net" is not in this file',
      'The trade discount must be a percentage from 0 to 100, to at most 2 decimal places',
    ]);
  });

  it('maps rows to items and refuses each bad row with its reason', () => {
    const headers = ['Code', 'Description', 'UOM', 'List'];
    const { items, refused } = mapPriceListRows(
      headers,
      [
        ['CU15', 'Copper pipe 15 mm', 'm', '5.85'],
        ['', 'No code', 'ea', '1'],
        ['', '', '', ''],
        ['TAP1', '  Mixer   tap  ', '', '$1,200.00'],
        ['X1', 'Bad price', 'ea', 'call'],
        ['cu15', 'Copper pipe again', 'm', '6'],
        ['NUL', 'Bad\u0000name', 'ea', '1'],
        ['LONG', 'x'.repeat(201), 'ea', '1'],
      ],
      mapping,
    );
    expect(items).toEqual([
      { row: 2, supplier_code: 'CU15', name: 'Copper pipe 15 mm', unit: 'm', cost: '3.8025' },
      { row: 5, supplier_code: 'TAP1', name: 'Mixer tap', unit: 'each', cost: '780' },
    ]);
    expect(refused).toEqual([
      { row: 3, reason: 'The code is empty' },
      { row: 6, reason: 'The price is not a number: "call"' },
      { row: 7, reason: 'The code cu15 is already on row 2' },
      { row: 8, reason: "The description contains a character that can't be saved" },
      { row: 9, reason: 'The description is longer than 200 characters' },
    ]);
  });

  it('cost = list less discount, without GST when included, rounded once to 4 places (property, against integer arithmetic)', () => {
    fc.assert(
      fc.property(decimalString(1_000_000_000, 4), decimalString(10_000, 2), fc.constantFrom('cost' as const, 'list' as const), fc.constantFrom('exclusive' as const, 'inclusive' as const), (price, discount, kind, gst) => {
        const got = costFromListPrice(price, { price_kind: kind, discount_percent: discount, gst });
        // price × (100 − d)/100 × (100/115 when inclusive), in 10⁻⁴ units, half up once.
        const d = kind === 'list' ? 10_000n - BigInt(Math.round(Number(discount) * 100)) : 10_000n;
        const n = units(price) * d * (gst === 'inclusive' ? 100n : 1n);
        const den = 10_000n * (gst === 'inclusive' ? 115n : 1n);
        expect(units(got)).toBe(halfUp(n, den));
      }),
    );
  });
});
