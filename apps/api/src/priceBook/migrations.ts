import type { Migration } from '@tradie/store';

/**
 * The price book (docs/api/price-book.md, docs/decisions/0032-price-book-in-tables.md): what the
 * tradie buys and sells again, with supplier prices. Like templates it is the business's working
 * list, changed in place and deletable, not business history: plain tables, not domain events. What
 * a quote was priced at is kept on the quote itself; the price book keeps its own price changes
 * (price_book_price_changes) so the screens can say what moved and when.
 *
 * - price_book_items: one row per item, money as numeric (exact, 4 places), the supplier and code
 *   lower-cased beside them (supplier_key, code_key) for the one-item-per-supplier-code rule,
 *   sort_name (the domain's sortName, in the C collation: the same order on either database), and
 *   search_text: the words the item is found by (the domain's itemSearchWords: letters and digits
 *   of the name and the code, lower case), made a tsvector by the database (`search`, the 'simple'
 *   configuration: no stemming, no stop words) with a GIN index, so 'cop:* & 15:*' is an index
 *   lookup, however many items. Built in to PostgreSQL and PGlite alike: no extension.
 * - price_book_price_changes: every change of cost or sell, with when, from, to and what made it.
 * - price_book_import_mappings: the last column mapping used for each supplier.
 */
export const priceBookMigrations: Migration[] = [
  {
    id: 'price-book-001-items',
    sql: `
CREATE TABLE IF NOT EXISTS price_book_items (
  account_id     text          NOT NULL,
  id             text          NOT NULL,
  name           text          NOT NULL,
  sort_name      text COLLATE "C" NOT NULL,
  description    text          NOT NULL DEFAULT '',
  unit           text          NOT NULL DEFAULT 'each',
  category       text          NOT NULL,
  cost           numeric(13,4) NOT NULL CHECK (cost >= 0),
  sell           numeric(13,4)          CHECK (sell >= 0),
  supplier       text          NOT NULL DEFAULT '',
  supplier_key   text          NOT NULL DEFAULT '',
  supplier_code  text          NOT NULL DEFAULT '',
  code_key       text          NOT NULL DEFAULT '',
  gst_rate       text          NOT NULL CHECK (gst_rate IN ('0.15', '0')),
  search_text    text          NOT NULL,
  search         tsvector      GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
  version        integer       NOT NULL DEFAULT 1,
  created_at     timestamptz   NOT NULL,
  updated_at     timestamptz   NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS price_book_items_supplier_code ON price_book_items (account_id, supplier_key, code_key) WHERE code_key <> '';
CREATE INDEX IF NOT EXISTS price_book_items_account_name ON price_book_items (account_id, sort_name, id);
CREATE INDEX IF NOT EXISTS price_book_items_search ON price_book_items USING gin (search);
CREATE TABLE IF NOT EXISTS price_book_price_changes (
  account_id  text          NOT NULL,
  item_id     text          NOT NULL,
  seq         bigint        GENERATED ALWAYS AS IDENTITY,
  changed_at  timestamptz   NOT NULL,
  source      text          NOT NULL CHECK (source IN ('edited', 'imported')),
  cost_from   numeric(13,4),
  cost_to     numeric(13,4) NOT NULL,
  sell_from   numeric(13,4),
  sell_to     numeric(13,4),
  PRIMARY KEY (account_id, item_id, seq)
);
CREATE TABLE IF NOT EXISTS price_book_import_mappings (
  account_id    text        NOT NULL,
  supplier_key  text        NOT NULL,
  mapping       jsonb       NOT NULL,
  updated_at    timestamptz NOT NULL,
  PRIMARY KEY (account_id, supplier_key)
);
`,
  },
];
