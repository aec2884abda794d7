// The PGlite adapter's own protocol path (pglite.ts, pgliteWire.ts): statements kept prepared,
// one call per statement, BEGIN sent with the first statement. Checked against pg.query itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, openPglite, type Db } from '../src/index.ts';

const TABLE = `CREATE TABLE kinds (
  id text PRIMARY KEY, n integer, big bigint, ok boolean, day date, at timestamptz, doc jsonb, uid uuid, tags text[], note text
)`;
const ROWS: unknown[][] = [
  ['a', 1, '9007199254740993', true, '2026-03-31', '2026-04-01T00:00:00.000Z', { b: [1, 2.50, null], a: 'Tāmaki “Ltd”' }, '0b7a4b1e-3c6a-4a57-9a3e-0c1a5d7b9e21', ['x', 'y "q"', 'z\\'], "it's ; fine"],
  ['b', null, null, false, null, null, null, null, null, null],
  ['c', -7, '0', null, '2025-04-01', '2026-12-31T23:59:59.999Z', [], null, [], ''],
];
const INSERT = 'INSERT INTO kinds VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $10)';
const SELECTS: [string, unknown[]][] = [
  ['SELECT * FROM kinds ORDER BY id', []],
  ['SELECT id, n, doc FROM kinds WHERE id = ANY($1::text[]) ORDER BY id', [['a', 'c']]],
  ['SELECT id FROM kinds WHERE ok = $1 AND day < $2::date', [true, '2026-04-01']],
  ['SELECT id, at FROM kinds WHERE at >= $1 ORDER BY id', [new Date('2026-01-01T00:00:00Z')]],
  ['SELECT $1::jsonb AS j, $2::bigint AS b, $3::text AS t, $4::int AS missing', [{ k: [1, 'two'] }, '123', 'ü', null]],
  ['SELECT count(*)::int AS n FROM kinds WHERE doc @> $1', [{ a: 'Tāmaki “Ltd”' }]],
];

describe('PGlite adapter: its own protocol path', () => {
  let db: Db;
  let reference: PGlite;

  beforeAll(async () => {
    db = await openPglite();
    reference = await PGlite.create();
    for (const target of [db, reference]) {
      await target.query(TABLE);
      for (const row of ROWS) await target.query(INSERT, row);
    }
  });
  afterAll(async () => {
    await db?.close();
    await reference?.close();
  });

  it('rows and values are exactly what pg.query gives, the first time and once prepared', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [text, params] of SELECTS) {
        const expected = (await reference.query(text, params)).rows;
        expect(await db.query(text, params)).toEqual(expected);
        expect(await db.tx((sql) => sql.query(text, params))).toEqual(expected);
      }
    }
  });

  it('a statement prepared before DDL sees the table’s new shape after it', async () => {
    await db.query('CREATE TABLE shape (a int)');
    await db.query('INSERT INTO shape VALUES (1)');
    expect(await db.query('SELECT * FROM shape')).toEqual([{ a: 1 }]);
    await db.query('ALTER TABLE shape ADD COLUMN b text DEFAULT $$x$$');
    expect(await db.query('SELECT * FROM shape')).toEqual([{ a: 1, b: 'x' }]);
    await db.tx(async (sql) => {
      await sql.query('DROP TABLE shape');
      await sql.query('CREATE TABLE shape (c boolean)');
      await sql.query('INSERT INTO shape VALUES (true)');
    });
    expect(await db.query('SELECT * FROM shape')).toEqual([{ c: true }]);
    // DDL the adapter cannot see in the text: the kept statement is prepared afresh.
    await db.query(`DO $$ BEGIN EXECUTE 'ALTER TABLE shape ADD COLUMN d int DEFAULT 4'; END $$`);
    expect(await db.query('SELECT * FROM shape')).toEqual([{ c: true, d: 4 }]);
    expect(await db.query('SELECT * FROM shape')).toEqual([{ c: true, d: 4 }]);
  });

  it('errors keep their SQLSTATE and constraint, and the session carries on', async () => {
    const e = await db.query(INSERT, ROWS[0]).catch((x: unknown) => x);
    expect(isUniqueViolation(e, 'kinds_pkey')).toBe(true);
    expect(e).toMatchObject({ code: '23505', constraint: 'kinds_pkey', table: 'kinds', query: INSERT });
    for (let i = 0; i < 2; i++) await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    await expect(db.query('SELECT $1::int AS n', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect(await db.query('SELECT $1::int AS n', [5])).toEqual([{ n: 5 }]);
  });

  it('an error the callback swallows still fails the transaction at COMMIT, and nothing is written', async () => {
    const outcome = db.tx(async (sql) => {
      await sql.query(`INSERT INTO kinds (id) VALUES ('swallowed')`);
      await sql.query(INSERT, ROWS[0]).catch(() => {});
      return 'done';
    });
    await expect(outcome).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query(`SELECT id FROM kinds WHERE id = 'swallowed'`)).toEqual([]);
  });

  it('a callback that throws rolls back; a transaction that runs nothing resolves with its value', async () => {
    await expect(
      db.tx(async (sql) => {
        await sql.query(`INSERT INTO kinds (id) VALUES ('thrown')`);
        throw new Error('decided against it');
      }),
    ).rejects.toThrow('decided against it');
    expect(await db.query(`SELECT id FROM kinds WHERE id = 'thrown'`)).toEqual([]);
    expect(await db.tx(async () => 42)).toBe(42);
    expect(await db.tx((sql) => sql.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
  });

  it('a query outside a running transaction waits for it (one session), and sees what it committed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = db.tx(async (sql) => {
      await sql.query(`INSERT INTO kinds (id) VALUES ('w1')`);
      await gate;
      await sql.query(`INSERT INTO kinds (id) VALUES ('w2')`);
    });
    const outside = db.query<{ n: number }>(`SELECT count(*)::int AS n FROM kinds WHERE id IN ('w1', 'w2')`);
    release();
    await running;
    expect(await outside).toEqual([{ n: 2 }]);
  });

  it('past the statements kept prepared, the oldest are closed and prepared again when needed', async () => {
    const distinct = (k: number): string => `SELECT $1::int + ${k} AS n`;
    for (let k = 0; k < 260; k++) expect(await db.query(distinct(k), [1])).toEqual([{ n: k + 1 }]);
    for (let k = 0; k < 5; k++) expect(await db.query(distinct(k), [2])).toEqual([{ n: k + 2 }]);
    const [kept] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect(kept!.n).toBeLessThanOrEqual(201);
  });

  it('a data directory keeps what was committed across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradie-pglite-'));
    try {
      const first = await openPglite({ dataDir: dir });
      await first.tx(async (sql) => {
        await sql.query('CREATE TABLE kept (v text)');
        await sql.query('INSERT INTO kept VALUES ($1)', ['still here']);
      });
      await first.close();
      const second = await openPglite({ dataDir: dir });
      expect(await second.query('SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
