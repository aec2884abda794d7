// Line items and their validation (at most 500 lines; description
// non-blank, ≤ 500 chars; qty, unit_price and cost finite, ≥ 0, at most 4 decimal places).
// A line's cost, category and own markup are the tradie's (docs/decisions/0030-cost-and-profit.md):
// a line typed without a cost keeps 'cost not recorded' (null), never a cost of zero.
import { z } from 'zod';
import { LINE_LIMITS, type Line, type StoredLine, canonicalDecimal, parseDecimalInput } from './lineValues.ts';
import { GST_RATE } from '../gst/gst.ts';
import { CATEGORY_ID_PATTERN, DEFAULT_CATEGORY, MAX_PERCENT_TEXT } from '../profit/categories.ts';

export { LINE_LIMITS, MAX_DOCUMENT_TOTAL, canonicalDecimal, parseDecimalInput, type Line, type StoredLine } from './lineValues.ts';

function decimalField(label: string, max: string) {
  return z.union([z.number(), z.string()], { error: `${label} must be a number` }).transform((v, ctx) => {
    const d = parseDecimalInput(v);
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!d) return fail(`${label} must be a finite number`);
    if (d.isNegative() && !d.isZero()) return fail(`${label} cannot be negative`);
    if (d.decimalPlaces() > LINE_LIMITS.maxDecimals) return fail(`${label} can have at most ${LINE_LIMITS.maxDecimals} decimal places`);
    if (d.greaterThan(max)) return fail(`${label} is too large`);
    return canonicalDecimal(d.abs());
  });
}

/** The only GST rates a New Zealand supply can carry: 15% standard, 0% zero-rated (or no GST). */
export const NZ_GST_RATES = ['0.15', '0'] as const;
export const TAX_RATE_MESSAGE = 'tax_rate must be 0.15 (15% GST) or 0 (zero-rated or no GST): New Zealand has no other GST rate';

/** True when the rate is one New Zealand charges (0.15 or 0, however written: "0.150", 0). */
export function isNzGstRate(v: number | string): boolean {
  const d = parseDecimalInput(v);
  return d !== undefined && NZ_GST_RATES.some((r) => d.equals(r));
}

const taxRateField = z
  .union([z.number(), z.string()], { error: 'tax_rate must be a number' })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return GST_RATE;
    // Not a shape problem but a rate that does not exist: answered 400 (params.status), not 422.
    if (!isNzGstRate(v)) {
      ctx.addIssue({ code: 'custom', message: TAX_RATE_MESSAGE, params: { status: 400 } });
      return z.NEVER;
    }
    return canonicalDecimal(parseDecimalInput(v)!.abs());
  });

/** An optional cost: absent, null or '' is 'cost not recorded' (null); 0 is a real cost of nothing. */
const costDecimal = decimalField('Cost', LINE_LIMITS.maxUnitPrice);
const costField = z
  .union([z.number(), z.string(), z.null()], { error: 'Cost must be a number' })
  .optional()
  .transform((v, ctx): string | null => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
    const parsed = costDecimal.safeParse(v);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

const categoryField = z
  .string({ error: 'category must be text' })
  .trim()
  .toLowerCase()
  .regex(CATEGORY_ID_PATTERN, { error: 'category must be a category name of lower-case letters, digits and dashes' })
  .optional()
  .transform((v) => v ?? DEFAULT_CATEGORY);

/** A line's own markup or margin (percent, on the business's basis); absent or null: its category's. */
export const percentField = (label: string) =>
  z
    .union([z.number(), z.string()], { error: `${label} must be a number` })
    .transform((v, ctx) => {
      const d = parseDecimalInput(v);
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      if (!d) return fail(`${label} must be a finite number`);
      if (d.isNegative() && !d.isZero()) return fail(`${label} cannot be negative`);
      if (d.decimalPlaces() > 2) return fail(`${label} can have at most 2 decimal places`);
      if (d.greaterThan(MAX_PERCENT_TEXT)) return fail(`${label} can be at most ${MAX_PERCENT_TEXT}%`);
      return canonicalDecimal(d.abs());
    });

const lineMarkupField = z
  .union([percentField('markup'), z.null()])
  .optional()
  .transform((v) => v ?? null);

/** The price book item a line was picked from; absent, null or '': typed, not picked. Its text only: the item may be deleted since. */
const priceBookItemIdField = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z.string({ error: 'price_book_item_id must be text' }).trim().max(64, { error: 'price_book_item_id can be at most 64 characters' }).optional(),
);

export const lineInputSchema = z.object({
  description: z
    .string({ error: 'Each line needs a description' })
    .trim()
    .min(1, { error: 'Each line needs a description' })
    .max(LINE_LIMITS.description, { error: `A line description can be at most ${LINE_LIMITS.description} characters` }),
  qty: decimalField('Quantity', LINE_LIMITS.maxQty),
  unit_price: decimalField('Unit price', LINE_LIMITS.maxUnitPrice),
  tax_included: z.boolean({ error: 'tax_included must be true or false' }).optional().transform((v) => v ?? false),
  tax_rate: taxRateField,
  cost: costField,
  category: categoryField,
  markup: lineMarkupField,
  price_book_item_id: priceBookItemIdField,
});

export const linesSchema = z
  .array(lineInputSchema, { error: 'line_items must be a list of line items' })
  .min(1, { error: 'Add at least one line item' })
  .max(LINE_LIMITS.maxLines, { error: `A document can have at most ${LINE_LIMITS.maxLines} line items` });

export type LineInput = z.input<typeof lineInputSchema>;

/** The stored form of a line, validated. */
export const storedLineSchema = z
  .object({
    description: z.string(),
    qty: z.string().describe('canonical decimal string ("2.75"), at most 4 places'),
    unit_price: z.string().describe('canonical decimal string, dollars, at most 4 places'),
    tax_included: z.boolean().describe('true when unit_price includes GST'),
    tax_rate: z.string().describe('"0.15" or "0"'),
    cost: z.string().nullable().describe('what one unit costs the business excl. GST, canonical decimal string; null: cost not recorded (never zero)'),
    category: z.string().describe("'materials', 'labour', 'subcontractor', 'equipment', 'other' or one the business added"),
    markup: z.string().nullable().describe("this line's own markup or margin in percent on the business's basis; null: its category's"),
    price_book_item_id: z.string().optional().describe('the price book item the line was picked from; absent (as on every line written before it was kept): typed, not picked'),
  })
  .meta({ title: 'Line', description: 'a line item as stored' }) satisfies z.ZodType<Line>;

// `Line` is written out in lineValues.ts so the zod-free calculator bundle can use it; this keeps
// it the same type as the schema's (the `satisfies` above checks the other direction). A stored
// line always has its cost, category and markup (older events are upcast); `Line` leaves them
// optional so that a line built before costs were kept still reads as 'cost not recorded'.
const _lineIsTheStoredSchema: StoredLine extends z.infer<typeof storedLineSchema> ? true : never = true;

/** A line as an event stores it: cost, category and markup always present (absent: not recorded, 'other', the category's). */
export const storedLine = (l: Line): StoredLine => ({
  description: l.description,
  qty: l.qty,
  unit_price: l.unit_price,
  tax_included: l.tax_included,
  tax_rate: l.tax_rate,
  cost: l.cost ?? null,
  category: l.category ?? DEFAULT_CATEGORY,
  markup: l.markup ?? null,
  ...(l.price_book_item_id === undefined ? {} : { price_book_item_id: l.price_book_item_id }),
});
