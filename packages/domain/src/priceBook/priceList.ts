// A supplier's price list, as NZ plumbing and electrical merchants hand them out: a CSV with a code,
// a description, a unit and a price — either the trade (net) cost, or a list price the tradie gets a
// trade discount off — with or without GST. The CSV is parsed elsewhere (a library parser in the API);
// this is the pure half: which column means what (the mapping), and each row to an item or to the
// reason it is refused. Every cell is hostile: bounded, no control characters, prices exact.
import { Decimal } from '../money/decimal.ts';
import { canonicalDecimal, parseDecimalInput } from '../documents/lineValues.ts';
import { PRICE_BOOK_LIMITS, clip, excludeGst, parseMoneyText } from './items.ts';

export type PriceKind = 'cost' | 'list';
export type GstTreatment = 'exclusive' | 'inclusive';

/** Which column (by its header) holds what, and how the price column is to be read. */
export interface PriceListMapping {
  code: string;
  description: string;
  /** null: every item's unit is 'each'. */
  unit: string | null;
  price: string;
  /** 'cost': the price is what the tradie pays; 'list': a list price less `discount_percent`. */
  price_kind: PriceKind;
  /** The trade discount off a list price, 0–100, up to 2 decimal places. */
  discount_percent: string;
  gst: GstTreatment;
}

export const PRICE_LIST_LIMITS = {
  /** Rows (after the header) in one file. */
  rows: 50_000,
  columns: 100,
  /** Characters in one cell. */
  cell: 2000,
  /** Refused rows listed in an answer (all are counted). */
  refusedListed: 500,
} as const;

/** One row of the list as an item's fields. `row` is the line of the file it came from (the header is row 1). */
export interface PriceListItem {
  row: number;
  supplier_code: string;
  name: string;
  unit: string;
  cost: string;
}

export interface RefusedRow {
  row: number;
  reason: string;
}

// A cell with a control character (other than tab and line breaks) is refused: it cannot be stored (NUL) or shown.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Guesses the mapping from the headers a merchant's list usually has; null where none fits. */
export function guessMapping(headers: readonly string[]): { [K in keyof PriceListMapping]: PriceListMapping[K] | null } {
  const find = (...patterns: RegExp[]): string | null => {
    for (const p of patterns) {
      const h = headers.find((x) => p.test(x.trim()));
      if (h !== undefined) return h;
    }
    return null;
  };
  const net = find(/^(net|trade|nett|your)\b.*(price|cost)?/i, /\bcost\b/i, /\bnett?\b/i);
  const list = find(/\b(list|rrp|retail)\b/i, /\bprice\b/i);
  return {
    code: find(/^(product|item|part|stock)?\s*(code|sku|no\.?|number)$/i, /\bcode\b/i, /\bsku\b/i),
    description: find(/desc/i, /^(product|item)?\s*name$/i),
    unit: find(/^(unit|uom|u\/m|per)$/i, /\bunit\b/i, /\buom\b/i),
    price: net ?? list,
    price_kind: net ? 'cost' : list ? 'list' : null,
    discount_percent: '0',
    gst: headers.some((h) => /incl/i.test(h)) ? 'inclusive' : 'exclusive',
  };
}

/** Problems with a mapping against the file's headers; [] when it can be used. */
export function mappingProblems(mapping: PriceListMapping, headers: readonly string[]): string[] {
  const problems: string[] = [];
  const need = (label: string, header: string | null) => {
    if (header !== null && !headers.includes(header)) problems.push(`The ${label} column "${clip(header)}" is not in this file`);
  };
  need('code', mapping.code);
  need('description', mapping.description);
  need('unit', mapping.unit);
  need('price', mapping.price);
  const d = parseDecimalInput(mapping.discount_percent);
  if (!d || d.isNegative() || d.greaterThan(100) || d.decimalPlaces() > 2) problems.push('The trade discount must be a percentage from 0 to 100, to at most 2 decimal places');
  return problems;
}

/**
 * The cost excl. GST of a price as the list gives it: a list price less the trade discount, then
 * without GST when the list includes it; to 4 places, half up, rounded once at the end.
 */
export function costFromListPrice(price: string, mapping: Pick<PriceListMapping, 'price_kind' | 'discount_percent' | 'gst'>): string {
  let cost = new Decimal(price);
  if (mapping.price_kind === 'list') cost = cost.times(new Decimal(100).minus(mapping.discount_percent)).div(100);
  const exact = canonicalDecimal(cost);
  if (mapping.gst === 'inclusive') return excludeGst(exact);
  return canonicalDecimal(cost.toDecimalPlaces(PRICE_BOOK_LIMITS.maxDecimals, Decimal.ROUND_HALF_UP));
}

function cell(record: readonly string[], headers: readonly string[], header: string | null): string {
  if (header === null) return '';
  const i = headers.indexOf(header);
  return i < 0 ? '' : (record[i] ?? '');
}

/** A text cell: trimmed, inner whitespace runs made one space; the reason when it cannot be kept. */
function textCell(value: string, label: string, max: number): { ok: true; value: string } | { ok: false; reason: string } {
  if (CONTROL.test(value)) return { ok: false, reason: `${label} contains a character that can't be saved` };
  const v = value.replace(/\s+/g, ' ').trim();
  if (v.length > max) return { ok: false, reason: `${label} is longer than ${max} characters` };
  return { ok: true, value: v };
}

/**
 * Every data row (records after the header) to an item or the reason it is refused: an empty code,
 * description or price, a price that is not a plain amount, a cell too long or with a control
 * character, a code seen earlier in the file. Blank rows are skipped silently.
 */
export function mapPriceListRows(headers: readonly string[], records: readonly (readonly string[])[], mapping: PriceListMapping): { items: PriceListItem[]; refused: RefusedRow[] } {
  const items: PriceListItem[] = [];
  const refused: RefusedRow[] = [];
  const seen = new Map<string, number>();
  records.forEach((record, i) => {
    const row = i + 2;
    if (record.every((c) => c.trim() === '')) return;
    const refuse = (reason: string) => refused.push({ row, reason });
    const code = textCell(cell(record, headers, mapping.code), 'The code', PRICE_BOOK_LIMITS.supplierCode);
    if (!code.ok) return refuse(code.reason);
    if (code.value === '') return refuse('The code is empty');
    const name = textCell(cell(record, headers, mapping.description), 'The description', PRICE_BOOK_LIMITS.name);
    if (!name.ok) return refuse(name.reason);
    if (name.value === '') return refuse('The description is empty');
    const unit = textCell(cell(record, headers, mapping.unit), 'The unit', PRICE_BOOK_LIMITS.unit);
    if (!unit.ok) return refuse(unit.reason);
    const price = parseMoneyText(cell(record, headers, mapping.price), 'The price');
    if (!price.ok) return refuse(price.reason);
    const key = code.value.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) return refuse(`The code ${clip(code.value)} is already on row ${earlier}`);
    seen.set(key, row);
    items.push({ row, supplier_code: code.value, name: name.value, unit: unit.value === '' ? 'each' : unit.value, cost: costFromListPrice(price.value, mapping) });
  });
  return { items, refused };
}


