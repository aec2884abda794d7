// The account's price book (docs/api/price-book.md): plain tables (migrations.ts says why). Every
// statement is scoped by account: another account's item is not found, exactly like one that does
// not exist. Every change of an item's cost or sell price is kept in price_book_price_changes.
import { PRICE_BOOK_MESSAGES, type PriceBookItemFields, type PriceBookItemRecord, type PriceChange } from '@tradie/contracts';
import { type BookPrice, Decimal, PRICE_BOOK_LIMITS, canonicalDecimal, itemSearchWords, queryWords, sortName } from '@tradie/domain';
import { isUniqueViolation, type Sql } from '@tradie/store';
import type { AppDeps } from '../deps.ts';
import { type AppError, Conflict, Invalid, NotFound } from '../errors.ts';

export type Ports = Pick<AppDeps, 'store' | 'clock' | 'ids'>;

export interface ItemRow {
  id: string;
  name: string;
  description: string;
  unit: string;
  category: string;
  cost: string;
  sell: string | null;
  supplier: string;
  supplier_code: string;
  gst_rate: string;
  version: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export const notFound = (): AppError => new NotFound(PRICE_BOOK_MESSAGES.notFound);
const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();
/** numeric(13,4) as the drivers give it ("3.8000") to the canonical decimal ("3.8"). */
export const moneyOf = (v: string | number): string => canonicalDecimal(new Decimal(String(v)));
const maybeMoney = (v: string | number | null): string | null => (v === null ? null : moneyOf(v));

export function recordOf(row: ItemRow): PriceBookItemRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    unit: row.unit,
    category: row.category,
    cost: moneyOf(row.cost),
    sell: maybeMoney(row.sell),
    supplier: row.supplier,
    supplier_code: row.supplier_code,
    gst_rate: row.gst_rate === '0' ? '0' : '0.15',
    version: Number(row.version),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export const COLUMNS = 'id, name, description, unit, category, cost::text AS cost, sell::text AS sell, supplier, supplier_code, gst_rate, version, created_at, updated_at';

/** The supplier or a code as the one-code-per-supplier rule compares them. */
export const keyOf = (s: string): string => s.trim().toLowerCase();
/** 'copper pipe 15 mm cu15 hh': what the `search` tsvector is made from. */
export const searchTextOf = (words: readonly string[]): string => words.join(' ');

/**
 * The tsquery text of a search: every word as a prefix ('copper:* & 15:*'). Words are letters and
 * digits only (queryWords), so nothing in them is tsquery syntax.
 */
export const tsQueryOf = (words: readonly string[]): string => words.map((w) => `${w}:*`).join(' & ');

/** Matches past this many are dense: walking the book by name finds the first page of them sooner than sorting them all. */
const SPARSE_MATCHES = 5000;
/** How many items, by name, the first look reads before it turns to the search index. */
const FIRST_LOOK = 400;

/**
 * The items whose every query word starts one of their words, by name (sort_name). Three ways, the
 * cheapest that answers first:
 *
 * 1. The first FIRST_LOOK items by name, tested one by one: a common prefix ('pw0', a supplier's
 *    code prefix every item shares; 'pv') fills the page from them. The GIN index cannot help
 *    there: it collects every match (20,000 of them for 'pw0') before giving one back.
 * 2. Fewer matches than a page among them: the GIN index on `search` gives at most SPARSE_MATCHES + 1
 *    of them (id and sort key only), fenced in a MATERIALIZED CTE so the planner cannot walk the
 *    name index instead; a page of them is sorted out and read by id.
 * 3. Past that many (dense, but late in the alphabet): the name index walked, testing each item,
 *    until the page is full.
 *
 * No query: the whole book by name.
 */
export async function listItems(sql: Sql, accountId: string, query: { q: string; limit: number; offset: number }): Promise<{ items: PriceBookItemRecord[]; has_more: boolean }> {
  const words = queryWords(query.q);
  const page = async (rows: ItemRow[]) => ({ items: rows.slice(0, query.limit).map(recordOf), has_more: rows.length > query.limit });
  if (words.length === 0) {
    return page(await sql.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 ORDER BY sort_name, id LIMIT $2 OFFSET $3`, [accountId, query.limit + 1, query.offset]));
  }
  const tsQuery = tsQueryOf(words);
  const wanted = query.offset + query.limit + 1;
  const first = await sql.query<ItemRow>(
    `SELECT ${COLUMNS} FROM (SELECT * FROM price_book_items WHERE account_id = $1 ORDER BY sort_name, id LIMIT ${FIRST_LOOK}) AS b
      WHERE search @@ to_tsquery('simple', $2) ORDER BY sort_name, id LIMIT $3`,
    [accountId, tsQuery, wanted],
  );
  // A full page among the first items by name is the first page of all matches: they come in name order.
  if (first.length === wanted) return page(first.slice(query.offset));
  const dense = async () =>
    page(
      await sql.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 AND search @@ to_tsquery('simple', $2) ORDER BY sort_name, id LIMIT $3 OFFSET $4`, [
        accountId, tsQuery, query.limit + 1, query.offset,
      ]),
    );
  // Always one row at least (the count), so a page past the end of many matches still learns how many there are.
  const counted = await sql.query<{ id: string | null; n: number | string }>(
    `WITH hits AS MATERIALIZED (SELECT id, sort_name FROM price_book_items WHERE account_id = $1 AND search @@ to_tsquery('simple', $2) LIMIT ${SPARSE_MATCHES + 1}),
          total AS (SELECT count(*) AS n FROM hits)
     SELECT p.id, total.n FROM total LEFT JOIN LATERAL (SELECT id, sort_name FROM hits ORDER BY sort_name, id LIMIT $3 OFFSET $4) AS p ON true ORDER BY p.sort_name, p.id`,
    [accountId, tsQuery, query.limit + 1, query.offset],
  );
  if (Number(counted[0]?.n ?? 0) > SPARSE_MATCHES) return dense();
  const hits = counted.flatMap((h) => (h.id === null ? [] : [{ id: h.id }]));
  if (hits.length === 0) return { items: [], has_more: false };
  const rows = await sql.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 AND id = ANY($2::text[])`, [accountId, hits.map((h) => h.id)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return page(hits.flatMap((h) => byId.get(h.id) ?? []));
}

/**
 * Merges the GIN index's list of entries not yet in its tree (fastupdate) after a bulk write: left
 * pending, every search reads that list in full, and on PGlite nothing else (no autovacuum) merges it.
 */
export const tidySearchIndex = (tx: Sql): Promise<unknown> => tx.query("SELECT gin_clean_pending_list('price_book_items_search'::regclass)");

interface ChangeRow {
  changed_at: Date | string;
  source: PriceChange['source'];
  cost_from: string | null;
  cost_to: string;
  sell_from: string | null;
  sell_to: string | null;
}

/** One item and its price changes, newest first; 404 when the account has none by that id. */
export async function getItem(sql: Sql, accountId: string, id: string): Promise<{ item: PriceBookItemRecord; price_changes: PriceChange[] }> {
  const [row] = await sql.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 AND id = $2`, [accountId, id]);
  if (!row) throw notFound();
  const changes = await sql.query<ChangeRow>(
    `SELECT changed_at, source, cost_from::text AS cost_from, cost_to::text AS cost_to, sell_from::text AS sell_from, sell_to::text AS sell_to
       FROM price_book_price_changes WHERE account_id = $1 AND item_id = $2 ORDER BY seq DESC LIMIT 100`,
    [accountId, id],
  );
  return {
    item: recordOf(row),
    price_changes: changes.map((c) => ({
      changed_at: iso(c.changed_at),
      source: c.source,
      cost_from: maybeMoney(c.cost_from),
      cost_to: moneyOf(c.cost_to),
      sell_from: maybeMoney(c.sell_from),
      sell_to: maybeMoney(c.sell_to),
    })),
  };
}

/** Price changes, one statement however many. */
export async function recordChanges(
  tx: Sql,
  accountId: string,
  at: Date,
  source: PriceChange['source'],
  changes: readonly { id: string; cost_from: string | null; cost_to: string; sell_from: string | null; sell_to: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  await tx.query(
    `INSERT INTO price_book_price_changes (account_id, item_id, changed_at, source, cost_from, cost_to, sell_from, sell_to)
     SELECT $1, u.i, $2, $3, u.cf::numeric, u.ct::numeric, u.sf::numeric, u.st::numeric
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS u(i, cf, ct, sf, st, n) ORDER BY u.n`,
    [accountId, at, source, changes.map((c) => c.id), changes.map((c) => c.cost_from), changes.map((c) => c.cost_to), changes.map((c) => c.sell_from), changes.map((c) => c.sell_to)],
  );
}

/** One account's writes to its price book in turn: the item cap and the code rule hold with two at once. */
export const lockBook = (tx: Sql, accountId: string): Promise<unknown> => tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`price-book:${accountId}`]);

export async function countItems(tx: Sql, accountId: string): Promise<number> {
  const [count] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM price_book_items WHERE account_id = $1', [accountId]);
  return Number(count?.n ?? 0);
}

const codeTaken = (e: unknown): boolean => isUniqueViolation(e, 'price_book_items_supplier_code');

/** One more item; 422 past the cap, 409 when the supplier already has an item with that code. */
export async function createItem(ports: Ports, accountId: string, fields: PriceBookItemFields): Promise<PriceBookItemRecord> {
  try {
    return await ports.store.db.tx(async (tx: Sql) => {
      await lockBook(tx, accountId);
      if ((await countItems(tx, accountId)) >= PRICE_BOOK_LIMITS.perAccount) throw new Invalid(PRICE_BOOK_MESSAGES.tooMany);
      const now = ports.clock.now();
      const id = ports.ids.uuid();
      const words = itemSearchWords(fields);
      const [row] = await tx.query<ItemRow>(
        `INSERT INTO price_book_items (account_id, id, name, sort_name, description, unit, category, cost, sell, supplier, supplier_key, supplier_code, code_key, gst_rate, search_text, version, created_at, updated_at)
         VALUES ($1, $2, $3, $16, $4, $5, $6, $7::numeric, $8::numeric, $9, $10, $11, $12, $13, $14, 1, $15, $15) RETURNING ${COLUMNS}`,
        [accountId, id, fields.name, fields.description, fields.unit, fields.category, fields.cost, fields.sell, fields.supplier, keyOf(fields.supplier), fields.supplier_code, keyOf(fields.supplier_code), fields.gst_rate, searchTextOf(words), now, sortName(fields.name)],
      );
      return recordOf(row!);
    });
  } catch (e) {
    if (codeTaken(e)) throw new Conflict(PRICE_BOOK_MESSAGES.codeTaken);
    throw e;
  }
}

/** Replaces an item's fields; 404 when the account has none by that id, 409 on a stale version or a taken code. */
export async function updateItem(ports: Ports, accountId: string, id: string, fields: PriceBookItemFields, version: number | undefined): Promise<PriceBookItemRecord> {
  try {
    return await ports.store.db.tx(async (tx: Sql) => {
      const [current] = await tx.query<ItemRow>(`SELECT ${COLUMNS} FROM price_book_items WHERE account_id = $1 AND id = $2 FOR UPDATE`, [accountId, id]);
      if (!current) throw notFound();
      if (version !== undefined && Number(current.version) !== version) throw new Conflict(PRICE_BOOK_MESSAGES.stale);
      const now = ports.clock.now();
      const words = itemSearchWords(fields);
      const [row] = await tx.query<ItemRow>(
        `UPDATE price_book_items SET name = $3, sort_name = $16, description = $4, unit = $5, category = $6, cost = $7::numeric, sell = $8::numeric, supplier = $9, supplier_key = $10,
                supplier_code = $11, code_key = $12, gst_rate = $13, search_text = $14, version = version + 1, updated_at = $15
          WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [accountId, id, fields.name, fields.description, fields.unit, fields.category, fields.cost, fields.sell, fields.supplier, keyOf(fields.supplier), fields.supplier_code, keyOf(fields.supplier_code), fields.gst_rate, searchTextOf(words), now, sortName(fields.name)],
      );
      const before = recordOf(current);
      if (before.cost !== fields.cost || before.sell !== fields.sell) {
        await recordChanges(tx, accountId, now, 'edited', [{ id, cost_from: before.cost, cost_to: fields.cost, sell_from: before.sell, sell_to: fields.sell }]);
      }
      return recordOf(row!);
    });
  } catch (e) {
    if (codeTaken(e)) throw new Conflict(PRICE_BOOK_MESSAGES.codeTaken);
    throw e;
  }
}

/** Deletes an item and its price history; 404 when the account has none by that id. */
export async function deleteItem(ports: Ports, accountId: string, id: string): Promise<void> {
  await ports.store.db.tx(async (tx: Sql) => {
    const rows = await tx.query<{ id: string }>('DELETE FROM price_book_items WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
    if (rows.length === 0) throw notFound();
    await tx.query('DELETE FROM price_book_price_changes WHERE account_id = $1 AND item_id = $2', [accountId, id]);
  });
}

/** What the account's book holds today for these items (the ones it still has), by id: for a quote to say what moved since it was priced. */
export async function bookPrices(sql: Sql, accountId: string, ids: readonly string[]): Promise<Map<string, BookPrice>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{ id: string; name: string; cost: string; sell: string | null }>(
    'SELECT id, name, cost::text AS cost, sell::text AS sell FROM price_book_items WHERE account_id = $1 AND id = ANY($2::text[])',
    [accountId, [...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, cost: moneyOf(r.cost), sell: maybeMoney(r.sell) }]));
}
