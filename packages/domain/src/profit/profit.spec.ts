// Cost, sell and gross profit: cases worked by hand, and properties over random documents checked
// against the independent profit oracle (profit = sell − cost, the categories add up to the
// document, markup ↔ margin both ways exactly, 'Price from cost' idempotent and never touching a cost).
import { oracleLineCost, oraclePercentTenths, oracleProfit, type OracleCostedLine } from '@tradie/testkit/oracle/profit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesArb } from '../../test/arbitraries.ts';
import type { Line, StoredLine } from '../documents/lineValues.ts';
import { lineInputSchema } from '../documents/lines.ts';
import { type Rational, equals, mul, rational } from '../money/rational.ts';
import { roundLineAmount } from '../money/rounding.ts';
import { DEFAULT_COST_CATEGORIES, categoriesFromInput, categoriesOverMargin, categoriesProblem, categoryIdFor, categoryName, withBuiltInCategories, type CostCategory } from './categories.ts';
import { labourLine, marginFromMarkup, markupFromMargin, percentFraction, priceFromCost, sellFactor } from './pricing.ts';
import { type ProfitFigures, creditNoteProfit, documentProfit, lineCostCents, marginTenths, markupTenths, profitLess } from './profit.ts';

const line = (qty: string, unit_price: string, cost: string | null, category = 'materials', description = 'Work'): StoredLine => ({
  description, qty, unit_price, tax_included: false, tax_rate: '0.15', cost, category, markup: null,
});
const asOracle = (l: Line): OracleCostedLine => ({
  qty: l.qty, unitPrice: l.unit_price, inclusive: l.tax_included, rate: l.tax_rate === '0' ? '0' : '0.15', cost: l.cost ?? null, category: l.category ?? 'other',
});
const cats = (percents: Record<string, string>): CostCategory[] => DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: percents[c.id] ?? c.percent }));

/** A Rinnai fitted: the heater cost $1,450, 8 hours' labour at $85 costing $45 an hour, fittings with no cost kept. */
const JOB = [line('1', '1812.50', '1450', 'materials', 'Rinnai Infinity 26'), line('8', '85', '45', 'labour', 'Labour'), line('1', '39.38', null, 'other', 'Fittings')];

describe('profit worked by hand', () => {
  it('sell $2,531.88; of it $2,492.50 costed at $1,810.00: gross profit $682.50, a 27.4 % margin and a 37.7 % markup; the fittings say cost not recorded', () => {
    const p = documentProfit(JOB, 'total');
    expect(p.sellCents).toBe(253188n);
    expect(p.costedSellCents).toBe(249250n);
    expect(p.costCents).toBe(181000n);
    expect(p.grossProfitCents).toBe(68250n);
    expect(marginTenths(p)).toBe(274n); // 682.50 / 2492.50 = 27.38 %
    expect(markupTenths(p)).toBe(377n); // 682.50 / 1810 = 37.71 %
    expect(p.uncostedLines).toBe(1);
    expect(p.uncostedSellCents).toBe(3938n);
    expect(p.categories.map((c) => [c.category, c.sellCents, c.costCents, c.grossProfitCents, c.uncostedLines])).toEqual([
      ['materials', 181250n, 145000n, 36250n, 0],
      ['labour', 68000n, 36000n, 32000n, 0],
      ['other', 3938n, 0n, 0n, 1],
    ]);
  });

  it('a line without a cost is never a cost of zero: a cost of $0 is counted, no cost is reported apart', () => {
    expect(lineCostCents({ qty: '3', cost: null })).toBeNull();
    expect(lineCostCents({ qty: '3' })).toBeNull();
    expect(lineCostCents({ qty: '3', cost: '0' })).toBe(0n);
    const p = documentProfit([line('1', '100', null)], 'total');
    expect(p.grossProfitCents).toBe(0n);
    expect(p.costedLines).toBe(0);
    expect(marginTenths(p)).toBeNull();
    expect(markupTenths(p)).toBeNull();
  });

  it('cost is quantity × unit cost rounded as a line amount is: 1000 screws at $0.0044 cost $4.40, 3 × $0.125 costs $0.38', () => {
    expect(lineCostCents({ qty: '1000', cost: '0.0044' })).toBe(440n);
    expect(lineCostCents({ qty: '3', cost: '0.125' })).toBe(38n);
  });

  it('a line typed with only a sell price keeps cost not recorded; a blank cost is none, 0 is a cost', () => {
    expect(lineInputSchema.parse({ description: 'Call-out', qty: 1, unit_price: 90 })).toMatchObject({ cost: null, category: 'other', markup: null });
    expect(lineInputSchema.parse({ description: 'Call-out', qty: 1, unit_price: 90, cost: '' }).cost).toBeNull();
    expect(lineInputSchema.parse({ description: 'Call-out', qty: 1, unit_price: 90, cost: 0, category: 'Labour' })).toMatchObject({ cost: '0', category: 'labour' });
    expect(lineInputSchema.safeParse({ description: 'x', qty: 1, unit_price: 1, cost: -1 }).success).toBe(false);
    expect(lineInputSchema.safeParse({ description: 'x', qty: 1, unit_price: 1, cost: '1.00001' }).success).toBe(false);
    expect(lineInputSchema.safeParse({ description: 'x', qty: 1, unit_price: 1, category: 'not a category!' }).success).toBe(false);
    expect(lineInputSchema.safeParse({ description: 'x', qty: 1, unit_price: 1, markup: 101 }).success).toBe(false);
  });
});

describe('price from cost', () => {
  it('materials at 20 % markup and labour at 35 %: $1,450 sells at $1,740.00, $45 an hour at $60.75; the fittings with no cost keep their price', () => {
    const r = priceFromCost(JOB, { basis: 'markup', categories: cats({ materials: '20', labour: '35' }) });
    expect(r.lines.map((l) => [l.unit_price, l.cost])).toEqual([['1740', '1450'], ['60.75', '45'], ['39.38', null]]);
    expect(r.priced).toEqual([0, 1]);
    expect(r.uncosted).toEqual([2]);
  });

  it('on the margin basis a 25 % margin sells $75 of cost at $100; a line’s own percentage beats its category’s', () => {
    const r = priceFromCost([line('1', '0', '75'), { ...line('1', '0', '75'), markup: '40' }], { basis: 'margin', categories: cats({ materials: '25' }) });
    expect(r.lines.map((l) => l.unit_price)).toEqual(['100', '125']);
  });

  it('refuses a margin of more than 95 %: the price would be near infinite', () => {
    expect(() => sellFactor('96', 'margin')).toThrow(/at most 95%/);
  });

  it('labour: 6 hours at a $95 charge-out rate cost 6 × $52 = $312; without a charge-out rate the labour markup prices it', () => {
    const pricing = { basis: 'markup' as const, categories: cats({ labour: '50' }) };
    const l = labourLine('6', { chargeOutRate: '95', costRate: '52' }, pricing);
    expect(l).toMatchObject({ qty: '6', unit_price: '95', cost: '52', category: 'labour' });
    expect(documentProfit([l], 'total')).toMatchObject({ sellCents: 57000n, costCents: 31200n, grossProfitCents: 25800n });
    expect(labourLine('6', { chargeOutRate: null, costRate: '52' }, pricing).unit_price).toBe('78');
    expect(() => labourLine('6', { chargeOutRate: null, costRate: null }, pricing)).toThrow(/labour rates/);
  });

  it("with the business's labour rates a labour line with a cost is charged out at the rate per hour; its own percentage, and other categories, still price from cost", () => {
    const pricing = { basis: 'markup' as const, categories: cats({ materials: '20', labour: '50' }), labour: { chargeOutRate: '95', costRate: '52' } };
    const r = priceFromCost([line('6', '0', '52', 'labour'), { ...line('2', '0', '52', 'labour'), markup: '10' }, line('1', '0', '100'), line('3', '80', null, 'labour')], pricing);
    expect(r.lines.map((l) => [l.unit_price, l.cost])).toEqual([['95', '52'], ['57.2', '52'], ['120', '100'], ['80', null]]);
    expect(r.priced).toEqual([0, 1, 2]);
    expect(priceFromCost(r.lines, pricing).lines).toEqual(r.lines);
  });

  it('property: applying twice changes nothing, never changes a cost, leaves lines without a cost as typed, and prices each line within ½ cent of cost × factor', () => {
    const pricingArb = fc.record({ basis: fc.constantFrom('markup' as const, 'margin' as const), materials: fc.constantFrom('0', '20', '32.5', '95'), labour: fc.constantFrom('0', '35', '50') });
    fc.assert(fc.property(linesArb(15).map((ls) => ls.map((l) => ({ ...l, qty: String(Math.min(100, Number(l.qty))) }))), pricingArb, (lines, p) => {
      const pricing = { basis: p.basis, categories: cats({ materials: p.materials, labour: p.labour }) };
      const once = priceFromCost(lines, pricing);
      const twice = priceFromCost(once.lines, pricing);
      expect(twice.lines).toEqual(once.lines);
      once.lines.forEach((l, i) => {
        expect(l.cost).toBe(lines[i]!.cost);
        if (lines[i]!.cost === null) expect(l).toEqual(lines[i]);
        else {
          const factor = sellFactor(lines[i]!.markup ?? (pricing.categories.find((c) => c.id === lines[i]!.category)?.percent ?? '0'), p.basis);
          const target = mul(rational(roundLineAmount(l.qty, l.cost!)), factor);
          const got = roundLineAmount(l.qty, l.unit_price);
          // |got − target| ≤ ½ cent, exactly.
          const diff = got * target.d - target.n;
          expect((diff < 0n ? -diff : diff) * 2n <= target.d).toBe(true);
        }
      });
    }), { numRuns: 150 });
  });
});

describe('the business\'s categories', () => {
  it('a new category gets an id from its name, numbered on when taken; one with no letter or digit is refused in words', () => {
    const r = categoriesFromInput([...DEFAULT_COST_CATEGORIES, { name: 'Hire gear', percent: '15' }, { name: 'Hire  gear!', percent: '10' }]);
    expect(Array.isArray(r) && r.slice(5)).toEqual([{ id: 'hire-gear', name: 'Hire gear', percent: '15' }, { id: 'hire-gear-2', name: 'Hire  gear!', percent: '10' }]);
    expect(categoriesFromInput([{ name: '—', percent: '1' }])).toBe("'—' needs a letter or a digit to be a category name");
  });

  it('built-in categories never saved come back at their default; percentages over 95 % cannot be margins', () => {
    expect(withBuiltInCategories([{ id: 'labour', name: 'Time', percent: '40' }]).map((c) => c.id)).toEqual(['labour', 'materials', 'subcontractor', 'equipment', 'other']);
    expect(categoriesOverMargin(cats({ materials: '96', labour: '95' })).map((c) => c.id)).toEqual(['materials']);
  });
});

describe('markup and margin', () => {
  it('25 % markup is a 20 % margin; a 25 % margin needs a 33⅓ % markup', () => {
    expect(marginFromMarkup(percentFraction('25'))).toEqual(rational(1n, 5n));
    expect(markupFromMargin(percentFraction('25'))).toEqual(rational(1n, 3n));
  });

  it('property: markup → margin → markup and margin → markup → margin come back exactly, and both bases give one factor', () => {
    const fractionArb = fc.record({ n: fc.bigInt({ min: 0n, max: 9_999n }), d: fc.bigInt({ min: 1n, max: 10_000n }) });
    fc.assert(fc.property(fractionArb, ({ n, d }) => {
      const m: Rational = rational(n, d);
      expect(equals(markupFromMargin(marginFromMarkup(m)), m)).toBe(true);
      if (n < d) expect(equals(marginFromMarkup(markupFromMargin(m)), m)).toBe(true);
      // Selling at cost × (1 + m) is selling at a margin of m / (1 + m) on the price.
      const g = marginFromMarkup(m);
      expect(equals(rational(m.d + m.n, m.d), rational(g.d, g.d - g.n))).toBe(true);
    }));
  });
});

describe('profit against the independent oracle', () => {
  it('property: every figure, per document and per category, equals the oracle; profit = sell − cost; the categories add up to the document', () => {
    fc.assert(fc.property(linesArb(25), fc.constantFrom('total' as const, 'line' as const), (lines, rounding) => {
      const p = documentProfit(lines, rounding);
      const o = oracleProfit(lines.map(asOracle), rounding);
      const figures = (f: ProfitFigures) => ({ sell: f.sellCents, costedSell: f.costedSellCents, cost: f.costCents, grossProfit: f.grossProfitCents, costedLines: f.costedLines, uncostedLines: f.uncostedLines, uncostedSell: f.uncostedSellCents });
      expect(figures(p)).toEqual(o.total);
      expect(new Map(p.categories.map((c) => [c.category, figures(c)]))).toEqual(o.byCategory);
      expect(p.grossProfitCents).toBe(p.costedSellCents - p.costCents);
      expect(p.sellCents).toBe(p.costedSellCents + p.uncostedSellCents);
      for (const key of ['sellCents', 'costedSellCents', 'costCents', 'grossProfitCents', 'uncostedSellCents'] as const) {
        expect(p.categories.reduce((a, c) => a + c[key], 0n)).toBe(p[key]);
      }
      expect(p.categories.reduce((a, c) => a + c.costedLines + c.uncostedLines, 0)).toBe(lines.length);
      expect(marginTenths(p)).toBe(oraclePercentTenths(o.total.grossProfit, o.total.costedSell));
      expect(markupTenths(p)).toBe(oraclePercentTenths(o.total.grossProfit, o.total.cost));
      lines.forEach((l) => expect(lineCostCents(l)).toBe(l.cost === null ? null : oracleLineCost(l.qty, l.cost)));
    }), { numRuns: 200 });
  });
});

describe('credit notes', () => {
  it('crediting 2 of the 8 hours gives back $170 of sell and $90 of cost: the invoice’s profit is $682.50 − $80.00 = $602.50 net', () => {
    const invoice = documentProfit(JOB, 'total');
    const credit = creditNoteProfit({ lines: [{ line: { ...JOB[1]!, qty: '2' } }], subtotalCents: 17000n }, 'total');
    const net = profitLess(invoice, credit);
    expect(net).toMatchObject({ sellCents: 236188n, costCents: 172000n, grossProfitCents: 60250n, costedLines: 2, uncostedLines: 1 });
    expect(net.categories.find((c) => c.category === 'labour')).toMatchObject({ sellCents: 51000n, costCents: 27000n, grossProfitCents: 24000n });
  });

  it('a credit of an amount is a price reduction: sell and profit go down by its subtotal, no cost comes back', () => {
    const net = profitLess(documentProfit(JOB, 'total'), creditNoteProfit({ lines: [], subtotalCents: 5000n }, 'total'));
    expect(net).toMatchObject({ sellCents: 248188n, costCents: 181000n, grossProfitCents: 63250n });
  });
});

describe('categories', () => {
  it('the five built in can be renamed, not removed; the business can add its own', () => {
    const renamed = cats({}).map((c) => (c.id === 'equipment' ? { ...c, name: 'Plant hire' } : c));
    expect(categoriesProblem([...renamed, { id: 'hire-gear', name: 'Hire gear', percent: '15' }], 'markup')).toBeNull();
    expect(categoryName(renamed, 'equipment')).toBe('Plant hire');
    expect(categoryName(renamed, 'scaffold-hire')).toBe('Scaffold hire');
    expect(categoriesProblem(renamed.filter((c) => c.id !== 'labour'), 'markup')).toMatch(/Labour.*not removed/);
    expect(categoriesProblem([...renamed, renamed[0]!], 'markup')).toMatch(/twice/);
    expect(categoriesProblem(cats({ materials: '96' }), 'margin')).toMatch(/at most 95%/);
    expect(categoryIdFor('  Hire gear! ')).toBe('hire-gear');
    expect(categoryIdFor('!!!')).toBeNull();
  });
});
