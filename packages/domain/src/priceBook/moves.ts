// A quote keeps the cost each line was priced at; the price book moves on. For the lines picked
// from the book, `priceBookMoves` says which items now cost something else ('Copper pipe 15 mm is
// now $4.10, was $3.80'), and `repricedFromBook` is the line the tradie gets on 'Update': the
// book's cost now, and the sell price 'Price from cost' gives it (the item's sell override when it
// has one). Nothing here changes a document: only a revision the document allows applies it.
import { Decimal } from '../money/decimal.ts';
import type { Line } from '../documents/lineValues.ts';
import { priceFromCost } from '../profit/pricing.ts';
import type { LinePricing, PriceBookItem } from './items.ts';

/** What the price book holds for an item today. */
export type BookPrice = Pick<PriceBookItem, 'id' | 'name' | 'cost' | 'sell'>;

export interface PriceBookMove {
  /** The line's position on the document, from 0. */
  lineIndex: number;
  itemId: string;
  /** The item's name in the book now. */
  name: string;
  /** The cost the line was priced at, excl. GST. */
  wasCost: string;
  /** The item's cost in the book now, excl. GST. */
  nowCost: string;
}

/**
 * The lines picked from the book whose item costs something else now, in line order. A line with no
 * cost recorded, or whose item is gone from the book, has nothing to compare and is left out.
 */
export function priceBookMoves(lines: readonly Line[], book: ReadonlyMap<string, BookPrice>): PriceBookMove[] {
  const moves: PriceBookMove[] = [];
  lines.forEach((l, lineIndex) => {
    if (l.price_book_item_id === undefined || l.cost === undefined || l.cost === null) return;
    const item = book.get(l.price_book_item_id);
    if (!item || new Decimal(item.cost).equals(l.cost)) return;
    moves.push({ lineIndex, itemId: item.id, name: item.name, wasCost: l.cost, nowCost: item.cost });
  });
  return moves;
}

/**
 * The line re-priced from the book: the item's cost now, and its sell override or that cost priced
 * by `priceFromCost` (the line's own markup, else its category's). Quantity, description, category
 * and GST rate stay as they are on the line.
 */
export function repricedFromBook<L extends Line>(line: L, item: Pick<BookPrice, 'cost' | 'sell'>, pricing: LinePricing): L {
  const costed = { ...line, cost: item.cost };
  if (item.sell !== null) return { ...costed, unit_price: item.sell, tax_included: false };
  return priceFromCost([costed], pricing).lines[0]!;
}
