import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_COST_CATEGORIES, documentProfit, documentTotals, formatNzd } from '@tradie/domain';
import {
  calculatorFigures,
  calculatorReducer,
  initialCalculatorState,
  lineItemsToSend,
  numericText,
  ownCategoryRates,
  pricedLines,
  rowKind,
  templateLineItems,
  type CalculatorAction,
  type CalculatorState,
} from './calculatorModel.ts';

const run = (actions: CalculatorAction[], from: CalculatorState = initialCalculatorState()) => actions.reduce(calculatorReducer, from);

/** The lines Generate would send (the test fails when it would refuse). */
function sent(s: CalculatorState) {
  const r = lineItemsToSend(s);
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r.lines;
}

/** Three lines: labour 8 h × $95.50, materials 1 × $412.30, call-out 1 × $85. */
/** threeLines with costs: labour $45 an hour, materials $300; the call-out's cost not recorded. */
function withCosts(): CalculatorState {
  const s = threeLines();
  const [a, b] = s.lines.map((l) => l.key) as [number, number, number];
  return run(
    [
      { type: 'editLine', key: a, field: 'cost', value: '45' },
      { type: 'editLine', key: a, field: 'category', value: 'labour' },
      { type: 'editLine', key: b, field: 'cost', value: '300' },
    ],
    s,
  );
}

function threeLines(): CalculatorState {
  const s = run([{ type: 'addLine' }, { type: 'addLine' }]);
  const [a, b, c] = s.lines.map((l) => l.key) as [number, number, number];
  return run(
    [
      { type: 'editLine', key: a, field: 'description', value: 'Labour' },
      { type: 'editLine', key: a, field: 'qty', value: '8' },
      { type: 'editLine', key: a, field: 'unit_price', value: '95.50' },
      { type: 'editLine', key: b, field: 'description', value: 'Materials' },
      { type: 'editLine', key: b, field: 'unit_price', value: '412.30' },
      { type: 'editLine', key: c, field: 'description', value: 'Call-out' },
      { type: 'editLine', key: c, field: 'unit_price', value: '85' },
    ],
    s,
  );
}

describe('the calculator model', () => {
  it('given a fresh calculator, then it is a quote with one row of qty 1 and price 0, GST on and a 25% margin', () => {
    const s = initialCalculatorState();
    expect(s.type).toBe('quote');
    expect(s.lines).toEqual([{ key: 1, description: '', qty: '1', unit_price: '0', cost: '', category: 'materials' }]);
    expect(s.includeGst).toBe(true);
    expect(s.marginText).toBe('25');
  });

  it('given one row left, then removing it does nothing (at least one line must remain)', () => {
    const s = initialCalculatorState();
    expect(calculatorReducer(s, { type: 'removeLine', key: 1 })).toBe(s);
    const two = run([{ type: 'addLine' }]);
    expect(two.lines[1]).toMatchObject({ qty: '1', unit_price: '0' });
    expect(run([{ type: 'removeLine', key: 1 }], two).lines.map((l) => l.key)).toEqual([2]);
  });

  it('given empty, invalid or negative input, then it counts as 0 and settles to 0 on leaving the field', () => {
    for (const text of ['', 'abc', '-3', '1e', '.']) expect(numericText(text)).toBe('0');
    expect(numericText('12.50')).toBe('12.5');
    const s = run([{ type: 'editLine', key: 1, field: 'qty', value: '' }, { type: 'settleNumber', key: 1, field: 'qty' }]);
    expect(s.lines[0]?.qty).toBe('0');
    const kept = run([{ type: 'editLine', key: 1, field: 'unit_price', value: '1.50' }, { type: 'settleNumber', key: 1, field: 'unit_price' }]);
    expect(kept.lines[0]?.unit_price).toBe('1.50');
  });

  it('given an edit to one row, then the other rows keep their identity (so memoised rows do not re-render)', () => {
    const s = threeLines();
    const next = calculatorReducer(s, { type: 'editLine', key: s.lines[1]!.key, field: 'unit_price', value: '500' });
    expect(next.lines[0]).toBe(s.lines[0]);
    expect(next.lines[2]).toBe(s.lines[2]);
    expect(next.lines[1]).not.toBe(s.lines[1]);
  });

  it('given three lines with GST on, then the figures are the domain totals: $1,261.30 + GST $189.19 (s 19O drops the exact half cent of 189.195) = $1,450.49', () => {
    const { totals, margin } = calculatorFigures(threeLines());
    expect(formatNzd(totals.subtotalCents)).toBe('$1,261.30');
    expect(formatNzd(totals.gstCents)).toBe('$189.19');
    expect(formatNzd(totals.totalCents)).toBe('$1,450.49');
    expect(margin).toEqual({ percent: 25, basis: 'markup', lowMargin: false, inexactLines: [] });
  });

  it('given the GST switch off, then GST is 0 and the lines go out with tax_rate 0', () => {
    const s = run([{ type: 'setIncludeGst', value: false }], threeLines());
    const { totals } = calculatorFigures(s);
    expect(totals.gstCents).toBe(0n);
    expect(totals.totalCents).toBe(126130n);
    expect(sent(s).map((l) => l.tax_rate)).toEqual(['0', '0', '0']);
  });

  it('given costs typed on two of three lines, then the profit is the domain’s documentProfit of them and the third says cost not recorded', () => {
    const s = withCosts();
    const { profit } = calculatorFigures(s);
    expect(profit).toEqual(documentProfit(pricedLines(s), 'total'));
    // Labour 8 × $95.50 = $764.00 costing 8 × $45 = $360; materials $412.30 costing $300: profit $516.30 on $1,176.30.
    expect([formatNzd(profit.costCents), formatNzd(profit.costedSellCents), formatNzd(profit.grossProfitCents), profit.uncostedLines]).toEqual(['$660.00', '$1,176.30', '$516.30', 1]);
  });

  it('given Price from cost at 25% markup, then costed lines are priced from their cost, the uncosted line keeps its price, costs never change, and pressing it again changes nothing', () => {
    const once = run([{ type: 'priceFromCost' }], withCosts());
    expect(once.lines.map((l) => [l.unit_price, l.cost])).toEqual([['56.25', '45'], ['375', '300'], ['85', '']]);
    expect(run([{ type: 'priceFromCost' }], once)).toEqual(once);
    const { profit } = calculatorFigures(once);
    // Sell 450 + 375 = 825 on cost 660: profit 165, a 25.0 % markup and 20.0 % margin.
    expect([formatNzd(profit.grossProfitCents), profit.costedSellCents]).toEqual(['$165.00', 82500n]);
  });

  it("names the categories' own rates only when Settings gives them rates of their own and no percentage is typed for the job", () => {
    const fresh = initialCalculatorState();
    expect(ownCategoryRates(fresh)).toBeNull();
    const uniform = run([{ type: 'setPricing', pricing: { categories: [...DEFAULT_COST_CATEGORIES], labour: { chargeOutRate: null, costRate: null } } }], fresh);
    // Every category at the panel's own percentage: the panel says '25% markup', as before.
    expect(DEFAULT_COST_CATEGORIES.every((c) => c.percent === fresh.marginText)).toBe(true);
    expect(ownCategoryRates(uniform)).toBeNull();
    const categories = DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: c.id === 'materials' ? '20' : c.percent }));
    const own = run([{ type: 'setPricing', pricing: { categories, labour: { chargeOutRate: null, costRate: null } } }], fresh);
    expect(ownCategoryRates(own)).toEqual(categories);
    expect(ownCategoryRates({ ...own, marginTouched: true })).toBeNull();
  });

  it("given the business's pricing from Settings, then Price from cost prices each line at its category's rate and labour at the charge-out rate; a percentage typed for the job then prices every category", () => {
    const categories = DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: c.id === 'materials' ? '20' : c.id === 'labour' ? '50' : '25' }));
    const withRates = run([{ type: 'setPricing', pricing: { categories, labour: { chargeOutRate: null, costRate: null } } }], withCosts());
    const byCategory = run([{ type: 'priceFromCost' }], withRates);
    // Labour $45 × 1.5 = $67.50; materials $300 × 1.2 = $360; the call-out keeps $85.
    expect(byCategory.lines.map((l) => l.unit_price)).toEqual(['67.5', '360', '85']);
    expect(run([{ type: 'priceFromCost' }], byCategory)).toEqual(byCategory);
    const chargedOut = run([{ type: 'setPricing', pricing: { categories, labour: { chargeOutRate: '95', costRate: '52' } } }, { type: 'priceFromCost' }], withCosts());
    expect(chargedOut.lines.map((l) => l.unit_price)).toEqual(['95', '360', '85']);
    const typed = run([{ type: 'setMargin', text: '10' }, { type: 'priceFromCost' }], withRates);
    expect(typed.lines.map((l) => l.unit_price)).toEqual(['49.5', '330', '85']);
  });

  it('given labour rates in Settings, then Add labour makes an hour at the charge-out rate costing the cost rate (the empty first row replaced); without rates it does nothing', () => {
    const fresh = initialCalculatorState();
    expect(run([{ type: 'addLabour' }], fresh)).toBe(fresh);
    const s = run([{ type: 'setPricing', pricing: { categories: [...DEFAULT_COST_CATEGORIES], labour: { chargeOutRate: '95', costRate: '52' } } }, { type: 'addLabour' }, { type: 'editLine', key: 2, field: 'qty', value: '6' }], fresh);
    expect(s.lines).toEqual([{ key: 2, description: 'Labour', qty: '6', unit_price: '95', tax_included: false, cost: '52', category: 'labour' }]);
    const { profit } = calculatorFigures(s);
    // 6 h × $95 = $570 costing 6 × $52 = $312: gross profit $258.
    expect([formatNzd(profit.sellCents), formatNzd(profit.costCents), formatNzd(profit.grossProfitCents)]).toEqual(['$570.00', '$312.00', '$258.00']);
  });

  it('given margin on price, then a 25% margin sells $45 of cost at $60, and the switch keeps the entered figure within its range', () => {
    const s = run([{ type: 'setMarginBasis', value: 'margin' }, { type: 'priceFromCost' }], withCosts());
    expect(s.lines[0]!.unit_price).toBe('60');
    expect(run([{ type: 'setMargin', text: '100' }, { type: 'setMarginBasis', value: 'margin' }], threeLines()).marginText).toBe('95');
  });

  it('given no cost typed, then the line goes out with cost not recorded (null), never $0; a cost typed goes out as typed, with its category', () => {
    const s = withCosts();
    expect(sent(s).map((l) => [l.cost, l.category])).toEqual([['45', 'labour'], ['300', 'materials'], [null, 'materials']]);
    expect(run([{ type: 'settleNumber', key: s.lines[2]!.key, field: 'cost' }], s).lines[2]!.cost).toBe('');
  });

  it('given an empty new row, then it is left out of the totals and of what is sent', () => {
    const s = run([{ type: 'addLine' }], threeLines());
    expect(sent(s).map((l) => l.description)).toEqual(['Labour', 'Materials', 'Call-out']);
    expect(sent(s)[0]).toEqual({ description: 'Labour', qty: '8', unit_price: '95.5', tax_included: false, tax_rate: '0.15', cost: null, category: 'materials' });
    expect(calculatorFigures(s).totals.subtotalCents).toBe(126130n);
  });

  it("given a row with a price and no description, then it is not in the totals and Generate refuses it: 'Add a description for this line'", () => {
    const s0 = run([{ type: 'editLine', key: 1, field: 'description', value: 'Labour' }, { type: 'editLine', key: 1, field: 'unit_price', value: '100' }, { type: 'addLine' }]);
    const s = run([{ type: 'editLine', key: 2, field: 'unit_price', value: '100' }], s0);
    expect(rowKind(s.lines[1]!)).toBe('needsDescription');
    expect(formatNzd(calculatorFigures(s).totals.totalCents)).toBe('$115.00'); // not $230.00
    expect(lineItemsToSend(s)).toEqual({ ok: false, key: 2, message: 'Add a description for this line' });
    // A quantity alone counts as something typed too.
    expect(rowKind({ key: 3, description: ' ', qty: '2', unit_price: '0' })).toBe('needsDescription');
    expect(rowKind({ key: 4, description: '', qty: '0', unit_price: '0' })).toBe('empty');
  });

  it('given a template saved and loaded back, then the rows, type, margin and GST switch come back', () => {
    const s = run([{ type: 'setType', value: 'invoice' }, { type: 'setMargin', text: '30' }, { type: 'setIncludeGst', value: false }], threeLines());
    const template = {
      id: '1',
      name: 'T',
      type: s.type,
      lineItems: templateLineItems(s),
      profitMarginPercent: 30,
      includeGst: s.includeGst,
      clientData: null,
      notes: '',
      createdAt: '',
      version: 1,
    };
    const loaded = run([{ type: 'loadTemplate', template }]);
    expect(loaded.type).toBe('invoice');
    expect(loaded.marginText).toBe('30');
    expect(loaded.includeGst).toBe(false);
    expect(loaded.lines.map(({ description, qty, unit_price }) => ({ description, qty, unit_price }))).toEqual([
      { description: 'Labour', qty: '8', unit_price: '95.5' },
      { description: 'Materials', qty: '1', unit_price: '412.3' },
      { description: 'Call-out', qty: '1', unit_price: '85' },
    ]);
    expect(new Set(loaded.lines.map((l) => l.key)).size).toBe(3);
  });

  it('property: the screen’s total always equals documentTotals of the lines that are sent', () => {
    const money = fc.integer({ min: 0, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));
    const qty = fc.integer({ min: 0, max: 100_000 }).map((c) => (c / 100).toString());
    fc.assert(
      fc.property(fc.array(fc.record({ qty, price: money }), { minLength: 1, maxLength: 20 }), fc.boolean(), (rows, gst) => {
        let s = initialCalculatorState();
        for (let i = 1; i < rows.length; i++) s = calculatorReducer(s, { type: 'addLine' });
        s = calculatorReducer(s, { type: 'setIncludeGst', value: gst });
        rows.forEach((r, i) => {
          const key = s.lines[i]!.key;
          s = run(
            [
              { type: 'editLine', key, field: 'description', value: `Line ${i}` },
              { type: 'editLine', key, field: 'qty', value: r.qty },
              { type: 'editLine', key, field: 'unit_price', value: r.price },
            ],
            s,
          );
        });
        const saved = documentTotals(sent(s));
        const shown = calculatorFigures(s).totals;
        expect(shown.totalCents).toBe(saved.totalCents);
        expect(shown.gstCents).toBe(saved.gstCents);
      }),
    );
  });
});
