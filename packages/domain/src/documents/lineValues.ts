// The zod-free half of line items: limits, the stored shape and exact decimal parsing. Kept apart
// from the schemas in lines.ts so that a browser bundle needing only these (the calculator) can
// leave zod out; lines.ts re-exports everything here.
import { Decimal } from '../money/decimal.ts';

export const LINE_LIMITS = { maxLines: 500, description: 500, maxDecimals: 4, maxQty: '1000000', maxUnitPrice: '100000000' } as const;

/**
 * The most a quote or invoice may come to, GST included: $999,999,999.99. Every amount of a
 * document (its lines, subtotal, GST, total, what is paid and owed) is then at most 11 digits of
 * cents, which a JSON number holds exactly (docs/decisions/0002-money-and-rounding.md).
 */
export const MAX_DOCUMENT_TOTAL = '999999999.99';

/** A line as stored in events: decimals as canonical strings. */
export interface Line {
  description: string;
  qty: string;
  unit_price: string;
  tax_included: boolean;
  tax_rate: string;
  /**
   * What one unit costs the business, excluding GST, as exact decimal text; null (or absent, on a
   * line written before costs were kept): cost not recorded — never read as zero.
   */
  cost?: string | null;
  /** The line's category: 'materials', 'labour', 'subcontractor', 'equipment', 'other' or one the business added. Absent: 'other'. */
  category?: string;
  /** This line's own markup or margin for 'Price from cost', percent on the business's basis; null or absent: its category's. */
  markup?: string | null;
  /**
   * The price book item the line was picked from, so the quote can say when the book's price has
   * moved since (the line's own cost is what it was priced at). Absent: typed, not picked.
   */
  price_book_item_id?: string;
}

/** A line as an event stores it: cost, category and markup always there; the price book item only when it was picked from one. */
export type StoredLine = Required<Omit<Line, 'price_book_item_id'>> & Pick<Line, 'price_book_item_id'>;

/** A canonical decimal string: no exponent, no trailing zeros beyond what was meaningful ("1.50" → "1.5"). */
export const canonicalDecimal = (d: Decimal): string => d.toFixed();

const DECIMAL_TEXT = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** A JSON number or numeric string to an exact Decimal; undefined when it is not a finite number. */
export function parseDecimalInput(v: number | string): Decimal | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? new Decimal(v) : undefined;
  const s = v.trim();
  return DECIMAL_TEXT.test(s) ? new Decimal(s) : undefined;
}
