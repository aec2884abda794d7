// The tradie's profit figures as the screens show them, from the domain's figures (the calculator,
// which works them out as the line is typed) or the API's (the quote and invoice screens): both come
// from the domain's one profit function, so the two read alike. Never on anything the client sees.
import type { DocumentProfitRecord, ProfitFiguresRecord } from '@tradie/contracts';
import { type DocumentProfit, type ProfitFigures, DEFAULT_COST_CATEGORIES, categoryName, formatNzd, formatTenths, marginTenths, markupTenths } from '@tradie/domain';

export interface ProfitShown {
  sell: string;
  cost: string;
  grossProfit: string;
  /** '27.4%', or null when nothing costed was sold. */
  margin: string | null;
  markup: string | null;
  costedLines: number;
  uncostedLines: number;
  uncostedSell: string;
}

export interface ProfitView extends ProfitShown {
  categories: (ProfitShown & { category: string; name: string })[];
}

const percent = (tenths: bigint | null): string | null => (tenths === null ? null : `${formatTenths(tenths)}%`);

function shownOf(f: ProfitFigures): ProfitShown {
  return {
    sell: formatNzd(f.sellCents),
    cost: formatNzd(f.costCents),
    grossProfit: formatNzd(f.grossProfitCents),
    margin: percent(marginTenths(f)),
    markup: percent(markupTenths(f)),
    costedLines: f.costedLines,
    uncostedLines: f.uncostedLines,
    uncostedSell: formatNzd(f.uncostedSellCents),
  };
}

/** The calculator's figures (exact cents) as shown. */
export function profitViewOf(p: DocumentProfit): ProfitView {
  return { ...shownOf(p), categories: p.categories.map((c) => ({ ...shownOf(c), category: c.category, name: categoryName(DEFAULT_COST_CATEGORIES, c.category) })) };
}

/** One set of figures as the API answers it, as shown. */
export function shownOfRecord(f: ProfitFiguresRecord): ProfitShown {
  const pct = (n: number | null) => (n === null ? null : `${n.toFixed(1)}%`);
  return {
    sell: f.formatted.sell,
    cost: f.formatted.cost,
    grossProfit: f.formatted.gross_profit,
    margin: pct(f.margin_percent),
    markup: pct(f.markup_percent),
    costedLines: f.costed_lines,
    uncostedLines: f.uncosted_lines,
    uncostedSell: f.formatted.uncosted_sell,
  };
}

/** A quote's or invoice's profit as the API answers it, as shown. */
export function profitViewOfRecord(p: DocumentProfitRecord): ProfitView {
  return { ...shownOfRecord(p), categories: p.categories.map((c) => ({ ...shownOfRecord(c), category: c.category, name: categoryName(DEFAULT_COST_CATEGORIES, c.category) })) };
}

/** 'Cost not recorded on 1 line ($39.38 of sell): not in the profit.' or null. */
export function uncostedText(p: Pick<ProfitShown, 'uncostedLines' | 'uncostedSell'>): string | null {
  if (p.uncostedLines === 0) return null;
  return `Cost not recorded on ${p.uncostedLines === 1 ? '1 line' : `${p.uncostedLines} lines`} (${p.uncostedSell} of sell): not counted in the profit.`;
}
