// Migrations: an ordered list of {id, sql}, each applied once, recorded in schema_migrations.
// The store, the projections and the API each bring their own list; one function runs them on
// both drivers. A lock keeps two processes starting at once from applying the same step twice.
import type { Db } from './types.ts';

export interface Migration {
  /** Unique and stable, e.g. 'store-001-events'. Order within a list is the order applied. */
  id: string;
  sql: string;
}

export async function migrate(db: Db, migrations: readonly Migration[]): Promise<string[]> {
  // Under the lock too: two processes running CREATE TABLE IF NOT EXISTS at once on an empty
  // database can both try to create it, and one fails on PostgreSQL's catalog (found by starting
  // two API processes together in the scale-out test).
  await db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7300)');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7300)');
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      return true;
    });
    if (done) applied.push(m.id);
  }
  return applied;
}

/** Splits DDL on semicolons at line ends (our migrations never put ';' inside a literal). */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && !/^(--[^\n]*\n?\s*)+$/.test(s));
}

/** The store's own tables. */
export const storeMigrations: Migration[] = [
  {
    id: 'store-001-events',
    sql: `
CREATE TABLE IF NOT EXISTS events (
  position        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_id       text        NOT NULL,
  stream_version  integer     NOT NULL CHECK (stream_version >= 1),
  event_id        uuid        NOT NULL,
  event_type      text        NOT NULL,
  schema_version  integer     NOT NULL,
  account_id      text        NOT NULL,
  data            jsonb       NOT NULL,
  meta            jsonb       NOT NULL,
  tx_id           xid8        NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_stream_version_uq UNIQUE (stream_id, stream_version),
  CONSTRAINT events_event_id_uq UNIQUE (event_id)
);
CREATE INDEX IF NOT EXISTS events_account_position ON events (account_id, position);
`,
  },
  {
    // One row per account, moved on by every transaction that appends events for the account
    // (and by every rebuild of the read models): see accountVersion in eventStore.ts.
    id: 'store-002-account-versions',
    sql: `
CREATE TABLE IF NOT EXISTS account_versions (
  account_id  text    PRIMARY KEY,
  version     bigint  NOT NULL
);
`,
  },
  {
    // A command's write sends only the read-model rows that changed, updating a changed row in
    // place; the statement checks with this that every row it updated was there, and fails
    // (SQLSTATE SR001) when one was not, so nothing of it is kept (write.ts). The body is one line:
    // splitStatements splits at a ';' that ends a line.
    id: 'store-003-expect-rows',
    sql: `
CREATE OR REPLACE FUNCTION store_expect_rows(n bigint, expected bigint) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN IF n <> expected THEN RAISE EXCEPTION 'a read model row to update was not there (% of % updated)', n, expected USING ERRCODE = 'SR001'; END IF; RETURN true; END
$fn$;
`,
  },
];
