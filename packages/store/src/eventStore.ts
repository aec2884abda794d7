// The event store, written once over the `Db` port: append with optimistic concurrency, read a
// stream, read the log in order, inline projections in the append's transaction, and rebuilds.
import { createHash } from 'node:crypto';
import { projectionDdl } from './projectionDdl.ts';
import {
  ConcurrencyError, streamCategory,
  type AppendResult, type Db, type EventStore, type LastStatement, type Projection, type ProjectionColumn, type ProjectionRow, type ProjectionTable,
  type RecordedEvent, type RowInsert, type Sql, type Statement, type StoreOptions, type StoreTx, type StreamAppend, type StreamSnapshot,
} from './types.ts';
import {
  type PreparedAppend, type WriteContext,
  accountsOf, oneStatement, pendingEvents, refused, rowsNotThere, setRecorded, twoStatements, withBigints,
} from './write.ts';

/** Thrown inside a transaction whose callback asked for a rollback (StoreTx.rollback): caught where it began. */
class RolledBack extends Error {}

/** A command's transaction, opened when first needed and held open (db.tx waiting) until `end`. */
interface OpenTransaction {
  sql: Promise<Sql>;
  /** Ends it: COMMIT (with `last`), or ROLLBACK with the error given. */
  end(outcome: { error: unknown } | null): void;
  /** Settles when it has committed or rolled back. */
  done: Promise<unknown>;
  last: LastStatement | null;
}

interface EventRow {
  position: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: Record<string, unknown>;
  meta: RecordedEvent['meta'];
  recorded_at: Date | string;
}

const EVENT_COLUMNS = `position::text AS position, stream_id, stream_version, event_id::text AS event_id, event_type, schema_version, data, meta, recorded_at`;

const iso = (d: Date | string): string => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function toRecorded(r: EventRow): RecordedEvent {
  return {
    position: r.position,
    streamId: r.stream_id,
    streamVersion: Number(r.stream_version),
    eventId: r.event_id,
    type: r.event_type,
    version: Number(r.schema_version),
    data: r.data,
    meta: r.meta,
    recordedAt: iso(r.recorded_at),
  };
}

async function streamVersionWith(sql: Sql, streamId: string): Promise<number> {
  const [row] = await sql.query<{ v: number }>('SELECT coalesce(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1', [streamId]);
  return Number(row?.v ?? 0);
}

async function readStreamWith(sql: Sql, streamId: string): Promise<StreamSnapshot> {
  const rows = await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`, [streamId]);
  const events = rows.map(toRecorded);
  return { streamId, version: events.at(-1)?.streamVersion ?? 0, events };
}

// ---- projection rows -----------------------------------------------------------------------

/** Rows per INSERT in a rebuild: big enough to amortise a statement, small enough to overlap with the fold. */
const REBUILD_CHUNK = 2_000;
/** Events per read of the log in a rebuild. */
const REBUILD_PAGE = 1_000;

/** A projection value as text, as the driver would serialize it for one `$n::type` parameter (never called with undefined or null). */
type ToText = (type: ProjectionColumn['type'], v: unknown) => string;


/**
 * postgres.js 3.4: dates through `new Date(x).toISOString()`, booleans `x === true`, json through
 * JSON.stringify, the rest `'' + x`. The dates are remembered (a rebuild sees the same days over
 * and over, and the conversion is the costly part), a bounded number at a time.
 */
function postgresJsText(): ToText {
  let seen = new Map<string, string>();
  return (type, v) => {
    switch (type) {
      case 'date':
      case 'timestamptz': {
        if (typeof v !== 'string') return (v instanceof Date ? v : new Date(v as string)).toISOString();
        let iso = seen.get(v);
        if (iso === undefined) {
          iso = new Date(v).toISOString();
          if (seen.size >= 50_000) seen = new Map();
          seen.set(v, iso);
        }
        return iso;
      }
      case 'boolean':
        return v === true ? 't' : 'f';
      case 'jsonb':
        return JSON.stringify(v);
      default:
        return '' + (v as string);
    }
  };
}

/** PGlite 0.4: strings pass through for dates and json, Dates as ISO, booleans t/f (its own parse of strings and 0/1). */
const pgliteText: ToText = (type, v) => {
  if (v instanceof Date) return v.toISOString();
  switch (type) {
    case 'date':
    case 'timestamptz':
      return typeof v === 'number' ? new Date(v).toISOString() : String(v);
    case 'boolean': {
      if (typeof v === 'boolean') return v ? 't' : 'f';
      if (v === 1 || v === 0) return v === 1 ? 't' : 'f';
      const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (['true', 't', 'yes', 'y', 'on', '1'].includes(t)) return 't';
      if (['false', 'f', 'no', 'n', 'off', '0'].includes(t)) return 'f';
      throw new Error('Invalid input for boolean type');
    }
    case 'jsonb':
      return typeof v === 'string' ? v : JSON.stringify(v, withBigints);
    default:
      return String(v);
  }
};

/** A column of rows as a PostgreSQL array literal, `{"a","b\"c",NULL}`. */
function arrayLiteral(rows: readonly ProjectionRow[], column: ProjectionColumn, toText: ToText): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![column.name];
    if (v === null || v === undefined) {
      parts[i] = 'NULL';
      continue;
    }
    const s = column.type === 'text' && typeof v === 'string' ? v : toText(column.type, v);
    parts[i] = s.includes('"') || s.includes('\\') ? `"${s.replace(/["\\]/g, '\\$&')}"` : `"${s}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * One INSERT for many rows of a table with one parameter per column: each column's values go as
 * one text array and the server zips them back into rows with unnest, casting each column to its
 * type — a short statement (planned once, kept prepared) instead of a VALUES list of thousands of
 * parameters. Each value is serialized as the driver serializes one `$n::type` value on the live
 * path (`toText`), and text cast to a type goes through the same input function as a parameter of
 * that type, so the rows are the same. The arrays go as literals built here (both drivers pass a
 * string through for an array parameter): cheaper than the drivers' array serializers, and
 * postgres.js would declare a typed array's type from its first element (a boolean array as
 * boolean) and fail the cast.
 */
function insertManyStatement(table: ProjectionTable, rows: readonly ProjectionRow[], toText: ToText): Statement {
  const cols = table.columns;
  return {
    text:
      `INSERT INTO ${table.name} (${cols.map((c) => c.name).join(', ')}) ` +
      `SELECT ${cols.map((c, i) => (c.type === 'text' ? `c${i}` : `c${i}::${c.type}`)).join(', ')} ` +
      `FROM unnest(${cols.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${cols.map((_, i) => `c${i}`).join(', ')})`,
    params: cols.map((c) => arrayLiteral(rows, c, toText)),
  };
}

const projectionHash = (p: Projection): string =>
  createHash('sha256').update(JSON.stringify({ schema: projectionDdl(p), tables: p.tables, ...(p.version === undefined ? {} : { version: p.version }) })).digest('hex');

// ---- the store -----------------------------------------------------------------------------

export function createEventStore(db: Db, projections: readonly Projection[] = [], options: StoreOptions = {}): EventStore {
  const byCategory = new Map<string, Projection[]>();
  for (const p of projections) for (const c of p.categories) byCategory.set(c, [...(byCategory.get(c) ?? []), p]);
  const ctx: WriteContext = { eventRows: options.eventRows, texts: new Map() };
  /** Streams whose next write sends all their rows: a row a write updated was not there (write.ts). */
  const rewrite = new Set<string>();

  /**
   * An append checked against the stream and made ready to write. Without the loaded events
   * (or with ones that end at another version) the stream is read first, through `sql`: the
   * read models need it, and a version from the future is refused too (the unique
   * (stream, version) constraint only catches a stale one).
   */
  async function prepare(sql: Sql, a: StreamAppend): Promise<PreparedAppend> {
    const { streamId, expectedVersion, events } = a;
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError('expectedVersion must be a whole number ≥ 0');
    const listeners = byCategory.get(streamCategory(streamId)) ?? [];
    let loaded = a.loaded;
    if ((loaded?.at(-1)?.streamVersion ?? 0) !== expectedVersion || loaded === undefined) {
      if (listeners.length > 0 || loaded !== undefined) {
        const snap = await readStreamWith(sql, streamId);
        if (snap.version !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion, snap.version);
        loaded = snap.events;
      } else {
        const actual = await streamVersionWith(sql, streamId);
        if (actual !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion, actual);
        loaded = [];
      }
    }
    return { streamId, expectedVersion, loaded, pending: pendingEvents(streamId, expectedVersion, events), projections: listeners, full: rewrite.has(streamId) };
  }

  /** After a write: the streams' rows are written by their changes again. */
  const written = (appends: readonly PreparedAppend[]): void => {
    for (const a of appends) rewrite.delete(a.streamId);
  };

  /** A write that failed: a row it updated was not there (those streams are then written whole, and the caller retries), or the driver's refusal. */
  function failed(e: unknown, appends: readonly PreparedAppend[]): never {
    if (rowsNotThere(e) && appends.length > 0) {
      for (const a of appends) rewrite.add(a.streamId);
      throw new ConcurrencyError(appends[0]!.streamId, appends[0]!.expectedVersion, null);
    }
    return refused(e, appends);
  }

  /** Writes appends and rows inside a transaction; the accounts' versions are left to its COMMIT. */
  async function writeIn(sql: Sql, appends: PreparedAppend[], rows: RowInsert[]): Promise<void> {
    try {
      const planned = oneStatement(ctx, appends, rows, null);
      if (planned.kind === 'one') setRecorded(appends, await sql.query(planned.statement.text, planned.statement.params));
      else if (planned.kind === 'two') await twoStatements(ctx, sql, appends, rows);
    } catch (e) {
      failed(e, appends);
    }
    written(appends);
  }

  /** The accounts' versions, moved on as the last statement of a transaction (see accountVersion). */
  const accountsLast = (accounts: ReadonlySet<string>): LastStatement | null => {
    if (accounts.size === 0) return null;
    const planned = oneStatement(ctx, [], [], [...accounts].sort());
    return planned.kind === 'one' ? planned.statement : null;
  };

  /** A transaction's view of the store: appends written as they come; the accounts they were for are noted in `touched`. */
  const txApi = (sql: Sql, touched: Set<string>, state: { rolledBack: boolean }): StoreTx => ({
    query: (text, params) => sql.query(text, params),
    read: (text, params) => sql.query(text, params),
    readStream: (streamId) => readStreamWith(sql, streamId),
    streamVersion: (streamId) => streamVersionWith(sql, streamId),
    async append(streamId, expectedVersion, events, loaded) {
      const a = await prepare(sql, { streamId, expectedVersion, events, ...(loaded ? { loaded } : {}) });
      if (events.length === 0) return { version: expectedVersion, events: [] };
      await writeIn(sql, [a], []);
      for (const e of events) touched.add(e.meta.accountId);
      return { version: expectedVersion + events.length, events: a.pending.map((p) => p.event) };
    },
    insert: (row) => writeIn(sql, [], [row]),
    rollback() {
      state.rolledBack = true;
    },
  });

  /**
   * Runs `fn` in one transaction and, as its last statement, moves on the version of every account
   * it appended events for (see accountVersion). Last and sent with the COMMIT, so the row lock it
   * takes is held only while the server commits: the holder never waits for anything else, so it
   * cannot be part of a deadlock, and commands of one account queue only for that moment (not for
   * a round trip through this process's event loop, busy with the other commands).
   */
  async function inTransaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    const touched = new Set<string>();
    const state = { rolledBack: false };
    let value!: T;
    try {
      return await db.tx(
        async (sql) => {
          value = await fn(txApi(sql, touched, state));
          if (state.rolledBack) throw new RolledBack();
          return value;
        },
        () => accountsLast(touched),
      );
    } catch (e) {
      if (e instanceof RolledBack) return value;
      throw e;
    }
  }

  /**
   * A command's unit of work (EventStore.command): reads as they come, appends and rows gathered
   * and written at the end as one statement — or, once the callback needs a transaction (a
   * statement of its own, a read of a stream it appended to), in one, with what is gathered sent
   * with the COMMIT.
   */
  async function inCommand<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    const gathered: PreparedAppend[] = [];
    const rows: RowInsert[] = [];
    /** Accounts of appends already written inside the transaction. */
    const touched = new Set<string>();
    let rolledBack = false;
    let transaction = null as OpenTransaction | null;
    /** Opens the transaction: `db.tx` runs until `end` is called (with an error: rolled back). */
    const open = (): Promise<Sql> => {
      if (!transaction) {
        let end!: (outcome: { error: unknown } | null) => void;
        const ended = new Promise<{ error: unknown } | null>((resolve) => (end = resolve));
        let opened!: (sql: Sql) => void;
        const sql = new Promise<Sql>((resolve) => (opened = resolve));
        const t: OpenTransaction = { sql, end, done: Promise.resolve(), last: null };
        t.done = db.tx(
          async (s) => {
            opened(s);
            const outcome = await ended;
            if (outcome) throw outcome.error;
          },
          () => t.last,
        );
        // BEGIN failed: the statement waiting for the transaction fails with it.
        t.sql = Promise.race([sql, t.done.then(() => sql)]);
        t.done.catch(() => {});
        transaction = t;
      }
      return transaction.sql;
    };
    /** The transaction, with what was gathered written into it (a statement of the callback's own must see it). */
    const flushed = async (): Promise<Sql> => {
      const sql = await open();
      if (gathered.length > 0 || rows.length > 0) {
        const appends = gathered.splice(0);
        await writeIn(sql, appends, rows.splice(0));
        for (const a of appends) for (const p of a.pending) touched.add(p.event.meta.accountId);
      }
      return sql;
    };
    const reader = (): Sql | Promise<Sql> => transaction?.sql ?? db;
    const api: StoreTx = {
      query: async (text, params) => (await flushed()).query(text, params),
      read: async (text, params) => (await reader()).query(text, params),
      readStream: async (streamId) => readStreamWith(gathered.some((a) => a.streamId === streamId) ? await flushed() : await reader(), streamId),
      streamVersion: async (streamId) => streamVersionWith(gathered.some((a) => a.streamId === streamId) ? await flushed() : await reader(), streamId),
      async append(streamId, expectedVersion, events, loaded) {
        const same = gathered.find((a) => a.streamId === streamId);
        if (same) {
          // A second append to a stream this command appends to: it follows the first, in the same write.
          const after = same.expectedVersion + same.pending.length;
          if (expectedVersion !== after) throw new ConcurrencyError(streamId, expectedVersion, after);
          const more = pendingEvents(streamId, after, events);
          same.pending.push(...more);
          return { version: after + events.length, events: more.map((p) => p.event) };
        }
        const a = await prepare(await reader(), { streamId, expectedVersion, events, ...(loaded ? { loaded } : {}) });
        if (events.length > 0) gathered.push(a);
        return { version: expectedVersion + events.length, events: a.pending.map((p) => p.event) };
      },
      insert(row) {
        rows.push(row);
      },
      rollback() {
        rolledBack = true;
      },
    };

    let value: T;
    try {
      value = await fn(api);
      if (rolledBack) throw new RolledBack();
    } catch (e) {
      if (transaction) {
        transaction.end({ error: e });
        await transaction.done.catch(() => {});
      }
      if (e instanceof RolledBack) return value!;
      throw e;
    }

    if (!transaction) {
      // The whole write as one statement, outside any transaction.
      for (let attempt = 1; ; attempt++) {
        const planned = oneStatement(ctx, gathered, rows, accountsOf(gathered));
        if (planned.kind === 'none') return value;
        if (planned.kind === 'two') break;
        try {
          setRecorded(gathered, await db.query(planned.statement.text, planned.statement.params));
          written(gathered);
          return value;
        } catch (e) {
          // Nothing of it was kept: written again whole at once.
          if (rowsNotThere(e) && attempt === 1) {
            for (const a of gathered) a.full = true;
            continue;
          }
          failed(e, gathered);
        }
      }
    }

    // In the transaction: what is left goes with the COMMIT, and the accounts' versions with it.
    const sql = await open();
    const t = transaction!;
    try {
      const accounts = new Set([...touched, ...accountsOf(gathered)]);
      const planned = oneStatement(ctx, gathered, rows, [...accounts].sort());
      if (planned.kind === 'two') {
        await twoStatements(ctx, sql, gathered, rows);
        t.last = accountsLast(accounts);
      } else if (planned.kind === 'one') {
        t.last = { ...planned.statement, onRows: (r) => setRecorded(gathered, r) };
      }
    } catch (e) {
      t.end({ error: e });
      await t.done.catch(() => {});
      failed(e, gathered);
    }
    t.end(null);
    try {
      await t.done;
    } catch (e) {
      failed(e, gathered);
    }
    written(gathered);
    return value;
  }

  async function readAllWith(sql: Sql, afterPosition: string, limit: number): Promise<RecordedEvent[]> {
    // Only events of transactions older than every running one. Not enough for a reader that
    // follows the log by the last position it saw: positions are handed out at insert, and a
    // transaction whose id is older than a running one's can insert after it, so an event that
    // commits later can have a smaller position than one returned now. Nothing follows the log
    // this way today; a follower needs a (tx_id, position) cursor (docs/architecture.md, Store).
    const rows = await sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE position > $1::bigint AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.position LIMIT $2::int`,
      [afterPosition, limit],
    );
    return rows.map(toRecorded);
  }

  /**
   * Rebuilds the given projections inside `sql`'s transaction: drop their rows, read the log of
   * the streams they follow, fold each stream, insert. The log is read stream by stream (by
   * `(stream_id, stream_version)`, in pages), so a stream is whole as soon as the next one starts:
   * it is folded at once, through every projection that follows it, and forgotten. The next page
   * is asked for before the current one is folded, and each chunk of rows is sent as soon as it is
   * full, so the server reads and inserts while this process folds (postgres.js pipelines them on
   * the transaction's connection; PGlite runs them in order).
   */
  async function rebuildWith(sql: Sql, targets: readonly Projection[]): Promise<{ streams: number; events: number }> {
    for (const p of targets) for (const t of p.tables) await sql.query(`DELETE FROM ${t.name}`);
    const following = new Map<string, Projection[]>();
    for (const p of targets) for (const c of p.categories) following.set(c, [...(following.get(c) ?? []), p]);
    // Paged by the (stream_id, stream_version) index: each page is a walk along it, never a sort.
    const page = (after: EventRow | null): Promise<EventRow[]> => {
      const rows = after
        ? sql.query<EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM events WHERE (stream_id, stream_version) > ($1::text, $2::int) ORDER BY stream_id, stream_version LIMIT ${REBUILD_PAGE}`,
            [after.stream_id, after.stream_version],
          )
        : sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events ORDER BY stream_id, stream_version LIMIT ${REBUILD_PAGE}`);
      rows.catch(() => {}); // awaited below; a failure while folding the previous page must not go unhandled
      return rows;
    };
    const toText = db.kind === 'pglite' ? pgliteText : postgresJsText();
    const sent: Promise<unknown>[] = [];
    const send = async (table: ProjectionTable, rows: ProjectionRow[]): Promise<void> => {
      const st = insertManyStatement(table, rows, toText);
      const done = sql.query(st.text, st.params);
      done.catch(() => {}); // settled below
      sent.push(done);
      // Let the driver write it out before folding on.
      await new Promise((resolve) => setImmediate(resolve));
    };
    let streams = 0;
    let events = 0;
    const pending = new Map<ProjectionTable, ProjectionRow[]>(targets.flatMap((p) => p.tables.map((t): [ProjectionTable, ProjectionRow[]] => [t, []])));
    /** One whole stream through every projection that follows it; full chunks are sent. */
    const project = async (stream: { streamId: string; events: RecordedEvent[] }, followers: readonly Projection[]): Promise<void> => {
      streams++;
      for (const p of followers) {
        if (p.key(stream) === null) continue;
        const rows = p.rows(stream);
        for (const t of p.tables) {
          const list = pending.get(t)!;
          for (const row of rows[t.name] ?? []) list.push(row);
          if (list.length >= REBUILD_CHUNK) {
            pending.set(t, []);
            await send(t, list);
          }
        }
      }
    };
    let failure: { error: unknown } | null = null;
    try {
      // The stream being read, and the projections that follow it (none: its events are skipped).
      let streamId: string | null = null;
      let followers: readonly Projection[] = [];
      let current: RecordedEvent[] = [];
      for (let next: Promise<EventRow[]> | null = page(null); next; ) {
        const rows: EventRow[] = await next;
        next = rows.length === REBUILD_PAGE ? page(rows.at(-1)!) : null;
        for (const r of rows) {
          if (r.stream_id !== streamId) {
            if (current.length > 0) await project({ streamId: streamId!, events: current }, followers);
            streamId = r.stream_id;
            followers = following.get(streamCategory(streamId)) ?? [];
            current = [];
          }
          if (followers.length === 0) continue;
          current.push(toRecorded(r));
          events++;
        }
      }
      if (current.length > 0) await project({ streamId: streamId!, events: current }, followers);
      for (const [t, list] of pending) if (list.length > 0) await send(t, list);
    } catch (e) {
      failure = { error: e };
    }
    // Every statement sent is answered before the transaction ends, whatever failed first.
    const results = await Promise.allSettled(sent);
    if (failure) throw failure.error;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    // The rows were written anew (by code that may read the events differently than before):
    // every account's version moves on with them, last (as in a command), so nothing read and
    // remembered from the old rows is taken for the new ones.
    await sql.query('UPDATE account_versions SET version = version + 1');
    return { streams, events };
  }

  return {
    db,
    readStream: (streamId) => readStreamWith(db, streamId),
    transaction: (fn) => inTransaction(fn),
    command: (fn) => inCommand(fn),
    write: (w) =>
      inCommand(async (tx) => {
        const results: AppendResult[] = [];
        for (const a of w.appends) results.push(await tx.append(a.streamId, a.expectedVersion, a.events, a.loaded));
        for (const row of w.rows ?? []) await tx.insert(row);
        return results;
      }),
    append: (streamId, expectedVersion, events) => inTransaction((tx) => tx.append(streamId, expectedVersion, events)),
    readAll: (afterPosition, limit) => readAllWith(db, afterPosition, limit),
    async accountVersion(accountId) {
      const [row] = await db.query<{ v: string }>('SELECT version::text AS v FROM account_versions WHERE account_id = $1', [accountId]);
      return row?.v ?? '0';
    },
    async readAccount(accountId) {
      const rows = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE account_id = $1 ORDER BY events.position`, [accountId]);
      return rows.map(toRecorded);
    },
    async rebuildProjections(names) {
      const targets = names ? projections.filter((p) => names.includes(p.name)) : projections;
      const r = await db.tx((sql) => rebuildWith(sql, targets));
      // Fresh statistics for the planner after every row was replaced: the tables side by side
      // on the pool's connections (PGlite runs them one after another).
      await Promise.all(targets.flatMap((p) => p.tables).map((t) => db.query(`ANALYZE ${t.name}`)));
      return r;
    },
    async ensureProjections() {
      // A projection whose tables changed shape is dropped, recreated and rebuilt from the log.
      // Under the lock: two processes starting together must not both create it (see migrate).
      await db.tx(async (sql) => {
        await sql.query('SELECT pg_advisory_xact_lock(7302)');
        await sql.query(`CREATE TABLE IF NOT EXISTS projection_versions (name text PRIMARY KEY, hash text NOT NULL, built_at timestamptz NOT NULL DEFAULT now())`);
      });
      const rebuilt: string[] = [];
      for (const p of projections) {
        const hash = projectionHash(p);
        const changed = await db.tx(async (sql) => {
          await sql.query('SELECT pg_advisory_xact_lock(7302)');
          const [row] = await sql.query<{ hash: string }>('SELECT hash FROM projection_versions WHERE name = $1', [p.name]);
          if (row?.hash === hash) return false;
          for (const t of p.tables) await sql.query(`DROP TABLE IF EXISTS ${t.name}`);
          for (const statement of projectionDdl(p)) await sql.query(statement);
          await rebuildWith(sql, [p]);
          await sql.query(
            `INSERT INTO projection_versions (name, hash) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET hash = EXCLUDED.hash, built_at = now()`,
            [p.name, hash],
          );
          return true;
        });
        if (changed) rebuilt.push(p.name);
      }
      return rebuilt;
    },
    close: () => db.close(),
  };
}
