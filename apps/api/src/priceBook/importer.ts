// A supplier's price list from CSV (docs/api/price-book.md). The text is parsed by csv-parse (quoting,
// embedded commas and line breaks, a byte-order mark, CRLF: never by hand), bounded in rows, columns
// and cell length; the pure domain maps each row to an item or the reason it is refused
// (`mapPriceListRows`); the items are matched to the supplier's existing ones by code and written in
// a few set-based statements, however many rows: new items, changed items, each price change, and
// the mapping remembered for the supplier — all in one transaction.
import {
  PRICE_BOOK_MESSAGES,
  type PriceBookItemFields,
  type PriceListImportResult,
  type PriceListMappingRecord,
  type PriceListPreview,
} from '@tradie/contracts';
import {
  PRICE_BOOK_LIMITS,
  PRICE_LIST_LIMITS,
  guessMapping,
  itemSearchWords,
  mapPriceListRows,
  mappingProblems,
  type PriceListItem,
  type PriceListMapping,
  type RefusedRow,
  sortName,
} from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { parse } from 'csv-parse/sync';
import { countItems, keyOf, lockBook, moneyOf, recordChanges, searchTextOf, tidySearchIndex, type Ports } from './repository.ts';
import { Invalid } from '../errors.ts';

export interface ParsedCsv {
  headers: string[];
  records: string[][];
}

/** The CSV's header row and records; 422 when it cannot be read or is past the bounds. */
export function parseCsv(text: string): ParsedCsv {
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      relax_column_count: true,
      // 'Hose 15 x 1/2" x 300 mm' unquoted: merchants' exports have inch marks inside plain cells.
      relax_quotes: true,
      skip_empty_lines: true,
      // One more than allowed, to tell a file that is too long from one that is just long enough.
      to: PRICE_LIST_LIMITS.rows + 2,
      max_record_size: PRICE_LIST_LIMITS.cell * 4,
    }) as string[][];
  } catch (e) {
    const where = (e as { lines?: number }).lines;
    throw new Invalid(`${PRICE_BOOK_MESSAGES.csvUnreadable}${where ? ` (near line ${where})` : ''}. Save it from your spreadsheet as CSV and try again.`);
  }
  const [first, ...records] = rows;
  if (!first || records.length === 0) throw new Invalid(PRICE_BOOK_MESSAGES.csvEmpty);
  if (records.length > PRICE_LIST_LIMITS.rows) throw new Invalid(PRICE_BOOK_MESSAGES.csvTooManyRows);
  if (first.length > PRICE_LIST_LIMITS.columns) throw new Invalid(`That price list has more than ${PRICE_LIST_LIMITS.columns} columns.`);
  const headers = first.map((h, i) => h.replace(/\s+/g, ' ').trim().slice(0, 100) || `Column ${i + 1}`);
  const seen = new Set<string>();
  const unique = headers.map((h) => {
    let name = h;
    for (let n = 2; seen.has(name); n++) name = `${h} (${n})`;
    seen.add(name);
    return name;
  });
  return { headers: unique, records };
}

/** Cells past PRICE_LIST_LIMITS.cell make the whole row refused, whatever column they are in. */
function boundedRows(records: readonly string[][]): { records: string[][]; refused: RefusedRow[] } {
  const refused: RefusedRow[] = [];
  const kept = records.map((r, i) => {
    if (r.some((c) => c.length > PRICE_LIST_LIMITS.cell)) {
      refused.push({ row: i + 2, reason: `A cell is longer than ${PRICE_LIST_LIMITS.cell.toLocaleString('en-NZ')} characters` });
      return [];
    }
    return r;
  });
  return { records: kept, refused };
}

/** The mapping a supplier's import used last, or null. */
async function rememberedMapping(sql: Sql, accountId: string, supplier: string): Promise<PriceListMapping | null> {
  const [row] = await sql.query<{ mapping: PriceListMapping | string }>('SELECT mapping FROM price_book_import_mappings WHERE account_id = $1 AND supplier_key = $2', [accountId, keyOf(supplier)]);
  if (!row) return null;
  return typeof row.mapping === 'string' ? (JSON.parse(row.mapping) as PriceListMapping) : row.mapping;
}

interface Existing {
  id: string;
  code_key: string;
  name: string;
  unit: string;
  cost: string;
  sell: string | null;
}

async function existingItems(sql: Sql, accountId: string, supplier: string): Promise<Map<string, Existing>> {
  const rows = await sql.query<Existing>(
    "SELECT id, code_key, name, unit, cost::text AS cost, sell::text AS sell FROM price_book_items WHERE account_id = $1 AND supplier_key = $2 AND code_key <> ''",
    [accountId, keyOf(supplier)],
  );
  return new Map(rows.map((r) => [r.code_key, { ...r, cost: moneyOf(r.cost), sell: r.sell === null ? null : moneyOf(r.sell) }]));
}

interface Plan {
  rows: number;
  created: PriceListItem[];
  updated: { item: PriceListItem; was: Existing }[];
  unchanged: number;
  refused: RefusedRow[];
}

function plan(parsed: ParsedCsv, mapping: PriceListMapping, existing: Map<string, Existing>): Plan {
  const bounded = boundedRows(parsed.records);
  const mapped = mapPriceListRows(parsed.headers, bounded.records, mapping);
  const refused = [...bounded.refused, ...mapped.refused].sort((a, b) => a.row - b.row);
  const created: PriceListItem[] = [];
  const updated: Plan['updated'] = [];
  let unchanged = 0;
  for (const item of mapped.items) {
    const was = existing.get(keyOf(item.supplier_code));
    if (!was) created.push(item);
    else if (was.cost === item.cost && was.name === item.name && was.unit === item.unit) unchanged++;
    else updated.push({ item, was });
  }
  return { rows: mapped.items.length + refused.length, created, updated, unchanged, refused };
}

const countsOf = (p: Plan) => ({ rows: p.rows, created: p.created.length, updated: p.updated.length, unchanged: p.unchanged, refused: p.refused.length });

const mappingRecordOf = (m: ReturnType<typeof guessMapping> | PriceListMapping): PriceListMappingRecord => ({ ...m });

function usable(mapping: PriceListMappingRecord): mapping is PriceListMapping {
  return mapping.code !== null && mapping.description !== null && mapping.price !== null && mapping.price_kind !== null && mapping.discount_percent !== null && mapping.gst !== null;
}

/** What an import would do, without writing: the headers, the first rows, the mapping and its problems, the counts and the refused rows. */
export async function previewPriceList(ports: Ports, accountId: string, input: { supplier: string; csv: string; mapping: PriceListMapping | null }): Promise<PriceListPreview> {
  const parsed = parseCsv(input.csv);
  const db = ports.store.db;
  const remembered = input.mapping ? null : await rememberedMapping(db, accountId, input.supplier);
  const source: PriceListPreview['mapping_source'] = input.mapping ? 'given' : remembered && mappingProblems(remembered, parsed.headers).length === 0 ? 'remembered' : 'guessed';
  const mapping: PriceListMappingRecord = mappingRecordOf(input.mapping ?? (source === 'remembered' ? remembered! : guessMapping(parsed.headers)));
  const base = { headers: parsed.headers, sample: parsed.records.slice(0, 10), mapping, mapping_source: source };
  if (!usable(mapping)) {
    const missing = (['code', 'description', 'price'] as const).filter((k) => mapping[k] === null);
    return { ...base, problems: missing.map((k) => `Choose the ${k} column`), items: [], counts: { rows: parsed.records.length, created: 0, updated: 0, unchanged: 0, refused: 0 }, refused: [] };
  }
  const problems = mappingProblems(mapping, parsed.headers);
  if (problems.length > 0) return { ...base, problems, items: [], counts: { rows: parsed.records.length, created: 0, updated: 0, unchanged: 0, refused: 0 }, refused: [] };
  const existing = await existingItems(db, accountId, input.supplier);
  const p = plan(parsed, mapping, existing);
  const firstItems = [...p.created.map((item) => ({ item, was: null })), ...p.updated]
    .sort((a, b) => a.item.row - b.item.row)
    .slice(0, 10)
    .map(({ item, was }) => ({ row: item.row, supplier_code: item.supplier_code, name: item.name, unit: item.unit, cost: item.cost, current_cost: was?.cost ?? null }));
  return { ...base, problems: [], items: firstItems, counts: countsOf(p), refused: p.refused.slice(0, PRICE_LIST_LIMITS.refusedListed) };
}

/**
 * Imports the list: new codes become items of `category`, known codes get the list's name, unit and
 * cost (their category, sell override, GST rate and description are the tradie's and stay), each
 * cost that moved is recorded with its old and new value, and the mapping is remembered for the
 * supplier. All or nothing; 422 when the mapping does not fit the file or the book would pass its cap.
 */
export async function importPriceList(ports: Ports, accountId: string, input: { supplier: string; csv: string; mapping: PriceListMapping; category: string }): Promise<PriceListImportResult> {
  const parsed = parseCsv(input.csv);
  const problems = mappingProblems(input.mapping, parsed.headers);
  if (problems.length > 0) throw new Invalid(problems.join('. '));
  const supplierKey = keyOf(input.supplier);
  return ports.store.db.tx(async (tx: Sql) => {
    await lockBook(tx, accountId);
    const p = plan(parsed, input.mapping, await existingItems(tx, accountId, input.supplier));
    if ((await countItems(tx, accountId)) + p.created.length > PRICE_BOOK_LIMITS.perAccount) throw new Invalid(PRICE_BOOK_MESSAGES.tooMany);
    const now = ports.clock.now();

    const fresh = p.created.map((item) => {
      const fields: Pick<PriceBookItemFields, 'name' | 'supplier_code'> = item;
      return { id: ports.ids.uuid(), item, words: itemSearchWords(fields) };
    });
    if (fresh.length > 0) {
      await tx.query(
        `INSERT INTO price_book_items (account_id, id, name, sort_name, description, unit, category, cost, sell, supplier, supplier_key, supplier_code, code_key, gst_rate, search_text, version, created_at, updated_at)
         SELECT $1, u.id, u.name, u.sort, '', u.unit, $2, u.cost::numeric, NULL, $3, $4, u.code, lower(u.code), '0.15', u.search, 1, $5, $5
           FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[]) AS u(id, name, unit, cost, code, search, sort)`,
        [
          accountId, input.category, input.supplier, supplierKey, now,
          fresh.map((f) => f.id), fresh.map((f) => f.item.name), fresh.map((f) => f.item.unit), fresh.map((f) => f.item.cost), fresh.map((f) => f.item.supplier_code), fresh.map((f) => searchTextOf(f.words)),
          fresh.map((f) => sortName(f.item.name)),
        ],
      );
    }

    const changed = p.updated.map(({ item, was }) => ({ id: was.id, item, was, words: itemSearchWords(item) }));
    if (changed.length > 0) {
      await tx.query(
        `UPDATE price_book_items i SET name = u.name, sort_name = u.sort, unit = u.unit, cost = u.cost::numeric, supplier_code = u.code, search_text = u.search, version = i.version + 1, updated_at = $2
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(id, name, unit, cost, code, search, sort)
          WHERE i.account_id = $1 AND i.id = u.id`,
        [accountId, now, changed.map((c) => c.id), changed.map((c) => c.item.name), changed.map((c) => c.item.unit), changed.map((c) => c.item.cost), changed.map((c) => c.item.supplier_code), changed.map((c) => searchTextOf(c.words)), changed.map((c) => sortName(c.item.name))],
      );
    }

    // A new item's first price is the item itself (its created_at and cost); the history keeps the changes.
    await recordChanges(
      tx, accountId, now, 'imported',
      changed.filter((c) => c.item.cost !== c.was.cost).map((c) => ({ id: c.id, cost_from: c.was.cost, cost_to: c.item.cost, sell_from: c.was.sell, sell_to: c.was.sell })),
    );
    await tx.query(
      `INSERT INTO price_book_import_mappings (account_id, supplier_key, mapping, updated_at) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (account_id, supplier_key) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = EXCLUDED.updated_at`,
      [accountId, supplierKey, JSON.stringify(input.mapping), now],
    );
    if (fresh.length + changed.length > 0) await tidySearchIndex(tx);
    return { counts: countsOf(p), refused: p.refused.slice(0, PRICE_LIST_LIMITS.refusedListed) };
  });
}
