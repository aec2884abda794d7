// /api/v1/price-book: the account's price book (docs/api/price-book.md). Items with what they cost
// (excl. GST, exact to 4 decimal places), an optional sell price, the supplier and the supplier's
// code; search as you type; a supplier's price list imported from CSV with a column mapping, a
// preview and every refused row with its reason. Money travels as decimal strings, never floats.
import { z } from 'zod';
import { PRICE_BOOK_LIMITS, PRICE_LIST_LIMITS, isNzGstRate, parseDecimalInput, parseMoneyText } from '@tradie/domain';

export const PRICE_BOOK_MESSAGES = {
  notFound: 'Price book item not found',
  stale: 'This item was changed somewhere else since you opened it. Reload it and try again.',
  tooMany: `The price book can hold at most ${PRICE_BOOK_LIMITS.perAccount.toLocaleString('en-NZ')} items. Delete some you no longer use, then try again.`,
  codeTaken: 'Another item from this supplier already has that code.',
  csvTooLarge: 'That price list is too large: at most 5 MB. Split it into smaller files and import each.',
  csvUnreadable: 'That file could not be read as a CSV price list',
  csvEmpty: 'That file has no rows under its header row.',
  csvTooManyRows: `That price list has more than ${PRICE_LIST_LIMITS.rows.toLocaleString('en-NZ')} rows. Split it into smaller files and import each.`,
} as const;

/** The CSV text of one import, at most this many characters (the request body's limit is a little larger). */
export const PRICE_LIST_MAX_CHARS = 5_000_000;

const text = (label: string, max: number) =>
  z.string({ error: `${label} must be text` }).trim().max(max, { error: `${label} can be at most ${max.toLocaleString('en-NZ')} characters` });

const money = (label: string) =>
  z.union([z.string(), z.number()], { error: `${label} must be an amount` }).transform((v, ctx) => {
    const r = parseMoneyText(String(v), label);
    if (r.ok) return r.value;
    ctx.addIssue({ code: 'custom', message: r.reason });
    return z.NEVER;
  });

const gstRate = z
  .union([z.string(), z.number()], { error: 'gst_rate must be 0.15 or 0' })
  .refine((v) => isNzGstRate(v), { error: 'gst_rate must be 0.15 (15% GST) or 0 (zero-rated or no GST)' })
  .transform((v) => (parseDecimalInput(v)!.isZero() ? ('0' as const) : ('0.15' as const)));

/** The fields of an item, as POST takes them (PUT takes the same, every field, plus version). */
export const priceBookItemInput = z.object({
  name: z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'Name is required' : 'Name must be text') })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(PRICE_BOOK_LIMITS.name, { error: `Name can be at most ${PRICE_BOOK_LIMITS.name} characters` }),
  description: text('Description', PRICE_BOOK_LIMITS.description).optional().transform((v) => v ?? ''),
  unit: text('Unit', PRICE_BOOK_LIMITS.unit).optional().transform((v) => (v === undefined || v === '' ? 'each' : v)),
  category: text('Category', PRICE_BOOK_LIMITS.category).optional().transform((v) => (v === undefined || v === '' ? 'materials' : v.toLowerCase())),
  cost: money('Cost'),
  sell: money('Sell price').nullable().optional().transform((v) => v ?? null),
  supplier: text('Supplier', PRICE_BOOK_LIMITS.supplier).optional().transform((v) => v ?? ''),
  supplier_code: text("Supplier's code", PRICE_BOOK_LIMITS.supplierCode).optional().transform((v) => v ?? ''),
  gst_rate: gstRate.optional().transform((v) => v ?? ('0.15' as const)),
});
export type PriceBookItemInput = z.input<typeof priceBookItemInput>;
export type PriceBookItemFields = z.output<typeof priceBookItemInput>;

export const priceBookItemUpdateInput = priceBookItemInput.extend({
  version: z.number({ error: 'version must be a whole number' }).int({ error: 'version must be a whole number' }).min(1, { error: 'version must be 1 or more' }).optional(),
});
export type PriceBookItemUpdateInput = z.input<typeof priceBookItemUpdateInput>;

export const priceBookItemRecord = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  category: z.string(),
  /** Excl. GST, a decimal string with at most 4 places ("3.8025"). */
  cost: z.string(),
  /** Excl. GST; null when the price is worked out from the cost. */
  sell: z.string().nullable(),
  supplier: z.string(),
  supplier_code: z.string(),
  gst_rate: z.enum(['0.15', '0']),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PriceBookItemRecord = z.infer<typeof priceBookItemRecord>;

/** GET /price-book/items: the items matching `q` (every word starts a word of the name or the code), by name. */
export const priceBookQuery = z.object({
  q: z.string().max(200, { error: 'The search can be at most 200 characters' }).optional().transform((v) => v ?? ''),
  limit: z.coerce.number({ error: 'limit must be a whole number' }).int({ error: 'limit must be a whole number' }).min(1, { error: 'limit must be 1 to 200' }).max(200, { error: 'limit must be 1 to 200' }).optional().transform((v) => v ?? 50),
  offset: z.coerce.number({ error: 'offset must be a whole number' }).int({ error: 'offset must be a whole number' }).min(0, { error: 'offset must be 0 or more' }).max(PRICE_BOOK_LIMITS.perAccount, { error: 'offset is too large' }).optional().transform((v) => v ?? 0),
});

export const priceBookList = z.object({ items: z.array(priceBookItemRecord), has_more: z.boolean() });
export type PriceBookList = z.infer<typeof priceBookList>;

export const priceChange = z.object({
  changed_at: z.string(),
  /** changed by hand, or by an import of a supplier's price list. */
  source: z.enum(['edited', 'imported']),
  cost_from: z.string().nullable(),
  cost_to: z.string(),
  sell_from: z.string().nullable(),
  sell_to: z.string().nullable(),
});
export type PriceChange = z.infer<typeof priceChange>;

/** GET /price-book/items/{id}: the item and its price changes, newest first (its first price is the item's own: created_at, and the cost_from of its first change). */
export const priceBookItemDetail = z.object({ item: priceBookItemRecord, price_changes: z.array(priceChange) });
export type PriceBookItemDetail = z.infer<typeof priceBookItemDetail>;

const header = z.string({ error: 'Each column must be named by its header' }).max(PRICE_BOOK_LIMITS.name, { error: 'A column name is too long' });

/** Which column holds what, named by the headers of the file's first row. */
export const priceListMapping = z.object({
  code: header,
  description: header,
  unit: header.nullable().optional().transform((v) => (v === undefined || v === '' ? null : v)),
  price: header,
  price_kind: z.enum(['cost', 'list'], { error: "price_kind must be 'cost' (what you pay) or 'list' (a list price less your trade discount)" }),
  discount_percent: z
    .union([z.string(), z.number()], { error: 'The trade discount must be a percentage' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? '0' : String(v).trim())),
  gst: z.enum(['exclusive', 'inclusive'], { error: "gst must be 'exclusive' or 'inclusive'" }),
});
export type PriceListMappingInput = z.input<typeof priceListMapping>;

const supplier = z
  .string({ error: 'Supplier is required' })
  .trim()
  .min(1, { error: 'Supplier is required' })
  .max(PRICE_BOOK_LIMITS.supplier, { error: `Supplier can be at most ${PRICE_BOOK_LIMITS.supplier} characters` });

const csvText = z.string({ error: 'csv must be the text of the file' }).max(PRICE_LIST_MAX_CHARS, { error: PRICE_BOOK_MESSAGES.csvTooLarge });

/** POST /price-book/imports/preview: without a mapping, the supplier's last one (or a guess) is used. */
export const priceListPreviewInput = z.object({ supplier, csv: csvText, mapping: priceListMapping.nullable().optional().transform((v) => v ?? null) });
export type PriceListPreviewInput = z.input<typeof priceListPreviewInput>;

/** POST /price-book/imports. */
export const priceListImportInput = z.object({
  supplier,
  csv: csvText,
  mapping: priceListMapping,
  category: text('Category', PRICE_BOOK_LIMITS.category).optional().transform((v) => (v === undefined || v === '' ? 'materials' : v.toLowerCase())),
});
export type PriceListImportInput = z.input<typeof priceListImportInput>;

export const refusedRow = z.object({ row: z.number().int(), reason: z.string() });
export type RefusedRowRecord = z.infer<typeof refusedRow>;

const counts = z.object({
  /** Rows under the header, blank rows left out. */
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});

const mappingRecord = z.object({
  code: z.string().nullable(),
  description: z.string().nullable(),
  unit: z.string().nullable(),
  price: z.string().nullable(),
  price_kind: z.enum(['cost', 'list']).nullable(),
  discount_percent: z.string().nullable(),
  gst: z.enum(['exclusive', 'inclusive']).nullable(),
});
export type PriceListMappingRecord = z.infer<typeof mappingRecord>;

export const priceListPreview = z.object({
  headers: z.array(z.string()),
  /** The first rows as the file has them (at most 10). */
  sample: z.array(z.array(z.string())),
  mapping: mappingRecord,
  mapping_source: z.enum(['given', 'remembered', 'guessed']),
  /** Why the mapping cannot be used as it is; [] when it can. */
  problems: z.array(z.string()),
  /** The first items the import would make or change (at most 10), with the cost they have now. */
  items: z.array(z.object({ row: z.number().int(), supplier_code: z.string(), name: z.string(), unit: z.string(), cost: z.string(), current_cost: z.string().nullable() })),
  counts,
  /** Every refused row up to 500 (counts.refused counts them all). */
  refused: z.array(refusedRow),
});
export type PriceListPreview = z.infer<typeof priceListPreview>;

export const priceListImportResult = z.object({ counts, refused: z.array(refusedRow) });
export type PriceListImportResult = z.infer<typeof priceListImportResult>;


/** A line of a quote or invoice picked from the price book whose item costs something else now. */
export const priceBookMoveRecord = z.object({
  /** The line's position on the document, from 0. */
  line_index: z.number().int(),
  item_id: z.string(),
  /** The item's name in the price book now. */
  name: z.string(),
  /** The cost the line was priced at, excl. GST (canonical decimal text). */
  was_cost: z.string(),
  /** The item's cost in the price book now, excl. GST. */
  now_cost: z.string(),
  /** 'Copper pipe 15 mm is now $4.10, was $3.80'. */
  message: z.string(),
});
export type PriceBookMoveRecord = z.infer<typeof priceBookMoveRecord>;

/** GET /invoices/{id}/price-book-moves: what moved, and whether the document may take the new prices (a draft only). */
export const priceBookMoves = z.object({
  moves: z.array(priceBookMoveRecord),
  /** A draft can be re-priced; a sent, signed or issued document keeps what it was priced at. */
  can_update: z.boolean(),
  version: z.number().int(),
});
export type PriceBookMoves = z.infer<typeof priceBookMoves>;

/** POST /invoices/{id}/price-book-moves/update: re-price one line from the price book's cost now. */
export const priceBookMoveUpdateInput = z.object({
  line_index: z.number({ error: 'line_index must be a whole number' }).int({ error: 'line_index must be a whole number' }).min(0, { error: 'line_index must be 0 or more' }).max(10_000),
  version: z.number({ error: 'version must be a whole number' }).int({ error: 'version must be a whole number' }).min(1, { error: 'version must be 1 or more' }),
});
export type PriceBookMoveUpdateInput = z.input<typeof priceBookMoveUpdateInput>;
