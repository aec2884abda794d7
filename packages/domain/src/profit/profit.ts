// Cost, sell and gross profit of a document, and per category: the one function behind every
// profit figure (the calculator, the quote and invoice screens, the profit report and its CSV,
// the home screen). Sell is each line's amount without GST as it is shown (shownLines: the lines
// add up to the subtotal), cost is quantity × unit cost rounded to the cent as a line's amount is.
// A line with no cost recorded is never counted as costing nothing: its sell is reported apart
// ('cost not recorded'), and gross profit, margin and markup are over the lines that have a cost.
// So profit = sell − cost on the costed lines, and the categories add up to the document.
import { documentTotals, type GstRounding } from '../gst/gst.ts';
import type { Line } from '../documents/lineValues.ts';
import { shownLines } from '../documents/shownLines.ts';
import { toCents } from '../money/money.ts';
import { rational } from '../money/rational.ts';
import { parseExactDecimal, percentTenths, roundHalfUp } from '../money/rounding.ts';
import { BUILT_IN_CATEGORIES, DEFAULT_CATEGORY } from './categories.ts';

export interface ProfitFigures {
  /** Every line's amount without GST (the subtotal). */
  sellCents: bigint;
  /** Of the sell, the lines with a cost recorded. */
  costedSellCents: bigint;
  /** The cost of the lines that have one. */
  costCents: bigint;
  /** costedSell − cost. */
  grossProfitCents: bigint;
  /** Lines with a cost recorded. */
  costedLines: number;
  /** Lines with no cost recorded, and their sell. */
  uncostedLines: number;
  uncostedSellCents: bigint;
}

export interface CategoryProfit extends ProfitFigures {
  category: string;
}

export interface DocumentProfit extends ProfitFigures {
  /** Per category, the built-in ones first in their order, then the business's own by id. */
  categories: CategoryProfit[];
}

export const NO_PROFIT: ProfitFigures = { sellCents: 0n, costedSellCents: 0n, costCents: 0n, grossProfitCents: 0n, costedLines: 0, uncostedLines: 0, uncostedSellCents: 0n };

/** A line's cost in whole cents (quantity × unit cost, half away from zero); null: cost not recorded. */
export function lineCostCents(line: Pick<Line, 'qty' | 'cost'>): bigint | null {
  if (line.cost === undefined || line.cost === null) return null;
  const q = parseExactDecimal(line.qty);
  const c = parseExactDecimal(line.cost);
  if (!q || !c) throw new RangeError('qty and cost must be plain decimals');
  return roundHalfUp(rational(q.m * c.m * 100n, 10n ** BigInt(q.scale + c.scale)));
}

/** Gross profit as a margin on the price, in tenths of a percent; null when nothing costed was sold. */
export const marginTenths = (f: Pick<ProfitFigures, 'grossProfitCents' | 'costedSellCents'>): bigint | null => (f.costedSellCents === 0n ? null : percentTenths(f.grossProfitCents, f.costedSellCents));

/** Gross profit as a markup on cost, in tenths of a percent; null when nothing had a cost above $0.00. */
export const markupTenths = (f: Pick<ProfitFigures, 'grossProfitCents' | 'costCents'>): bigint | null => (f.costCents === 0n ? null : percentTenths(f.grossProfitCents, f.costCents));

export function addProfit(a: ProfitFigures, b: ProfitFigures): ProfitFigures {
  return {
    sellCents: a.sellCents + b.sellCents,
    costedSellCents: a.costedSellCents + b.costedSellCents,
    costCents: a.costCents + b.costCents,
    grossProfitCents: a.grossProfitCents + b.grossProfitCents,
    costedLines: a.costedLines + b.costedLines,
    uncostedLines: a.uncostedLines + b.uncostedLines,
    uncostedSellCents: a.uncostedSellCents + b.uncostedSellCents,
  };
}

/** The figures taken away (a credit note against an invoice): money and cost negated; its lines are the invoice's, not counted again. */
export const negateProfit = (f: ProfitFigures): ProfitFigures => ({
  costedLines: 0,
  uncostedLines: 0,
  sellCents: -f.sellCents,
  costedSellCents: -f.costedSellCents,
  costCents: -f.costCents,
  grossProfitCents: -f.grossProfitCents,
  uncostedSellCents: -f.uncostedSellCents,
});

const categoryOrder = (id: string): number => {
  const i = (BUILT_IN_CATEGORIES as readonly string[]).indexOf(id);
  return i < 0 ? BUILT_IN_CATEGORIES.length : i;
};

/** Category rows in their order: built-in first, then the business's own by id. */
export function sortCategories<C extends { category: string }>(rows: C[]): C[] {
  return rows.sort((a, b) => categoryOrder(a.category) - categoryOrder(b.category) || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}

/** Adds category rows together by category. */
export function mergeCategories(rows: readonly CategoryProfit[]): CategoryProfit[] {
  const by = new Map<string, CategoryProfit>();
  for (const r of rows) {
    const had = by.get(r.category);
    by.set(r.category, had ? { ...addProfit(had, r), category: r.category } : r);
  }
  return sortCategories([...by.values()]);
}

/** The figures of lines whose sell (without GST) is `sellCents`, line by line. */
export function profitOfLines(lines: readonly Pick<Line, 'qty' | 'cost' | 'category'>[], sellCents: readonly bigint[]): DocumentProfit {
  const by = new Map<string, CategoryProfit>();
  let total = NO_PROFIT;
  lines.forEach((l, i) => {
    const sell = sellCents[i]!;
    const cost = lineCostCents(l);
    const f: ProfitFigures =
      cost === null
        ? { ...NO_PROFIT, sellCents: sell, uncostedLines: 1, uncostedSellCents: sell }
        : { ...NO_PROFIT, sellCents: sell, costedSellCents: sell, costCents: cost, grossProfitCents: sell - cost, costedLines: 1 };
    total = addProfit(total, f);
    const category = l.category ?? DEFAULT_CATEGORY;
    const had = by.get(category);
    by.set(category, { ...(had ? addProfit(had, f) : f), category });
  });
  return { ...total, categories: sortCategories([...by.values()]) };
}

/**
 * A document's cost, sell and gross profit, and per category. `subtotalCents` is the subtotal the
 * lines are shown under (a credit note's own); by default the document's.
 */
export function documentProfit(lines: readonly Line[], rounding: GstRounding, subtotalCents?: bigint): DocumentProfit {
  const totals = documentTotals(lines, rounding);
  const shown = shownLines(lines, totals, subtotalCents ?? totals.subtotalCents);
  return profitOfLines(lines, shown.map((s) => s.amountCents));
}

/**
 * What a credit note takes off an invoice's profit (positive figures, to subtract): a credit of
 * lines gives back the credited lines' sell and their share of cost (quantity credited × unit
 * cost); a credit of an amount is a price reduction — its subtotal comes off sell and gross profit,
 * no cost comes back, and it counts under 'Other'.
 */
export function creditNoteProfit(credit: { lines: readonly { line: Line }[]; subtotalCents: bigint }, rounding: GstRounding): DocumentProfit {
  if (credit.lines.length > 0) return documentProfit(credit.lines.map((l) => l.line), rounding, credit.subtotalCents);
  const f: ProfitFigures = { ...NO_PROFIT, sellCents: credit.subtotalCents, costedSellCents: credit.subtotalCents, grossProfitCents: credit.subtotalCents };
  return { ...f, categories: [{ ...f, category: DEFAULT_CATEGORY }] };
}

/** Figures less a credit note's (or any figures'), category by category. */
export function profitLess(a: DocumentProfit, b: DocumentProfit): DocumentProfit {
  const negated = b.categories.map((c) => ({ ...negateProfit(c), category: c.category }));
  return { ...addProfit(a, negateProfit(b)), categories: mergeCategories([...a.categories, ...negated]) };
}

/**
 * A quote's or invoice's profit as the tradie's screens show it: its lines' figures, less every
 * credit note on it (a credited line gives back its sell and its share of cost). Variations and
 * stages are documents' own lines: a stage invoice carries its share of cost on its lines.
 */
export function profitOfDocument(d: { lines: readonly Line[]; gstRounding: GstRounding; creditNotes?: readonly { lines: readonly { line: Line }[]; subtotal: string }[] }): DocumentProfit {
  let p = documentProfit(d.lines, d.gstRounding);
  for (const n of d.creditNotes ?? []) p = profitLess(p, creditNoteProfit({ lines: n.lines, subtotalCents: toCents(n.subtotal) }, d.gstRounding));
  return p;
}
