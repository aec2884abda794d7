// The event store, written once over the `Db` port: append with optimistic concurrency, read a
// stream, read the log in order, inline projections in the append's transaction, and rebuilds.
import { createHash, randomUUID } from 'node:crypto';
import { isUniqueViolation } from './errors.ts';
import { projectionDdl } from './projectionDdl.ts';
import {
  ConcurrencyError, DuplicateEventError, streamCategory,
  type AppendResult, type Db, type EventStore, type NewEvent, type PendingEvent, type Projection, type ProjectionColumn, type ProjectionRow, type ProjectionTable,
  type RecordedEvent, type Sql, type Statement, type StoreOptions, type StoreTx, type StreamSnapshot,
} from './types.ts';

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

const withBigints = (_k: string, x: unknown): unknown => (typeof x === 'bigint' ? x.toString() : x);

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

/**
 * One statement that replaces a stream's rows in every table of the given projections: for each
 * table, an upsert of the new rows and a delete of the stream's rows that are no longer there —
 * disjoint rows, so they can share one statement as data-modifying CTEs. One round trip per append.
 */
function replaceStreamRows(projections: readonly Projection[], stream: { streamId: string; events: RecordedEvent[] }): Statement | null {
  const params: unknown[] = [];
  const parts = streamRowParts(projections, stream, params);
  if (parts.length === 0) return null;
  return { text: `WITH ${ctes(parts)} SELECT 1`, params };
}

/** Data-modifying statements as the CTEs of one statement, `w0 AS (…), w1 AS (…)`. */
const ctes = (parts: readonly string[]): string => parts.map((q, i) => `w${i} AS (${q})`).join(', ');

/** The statements of replaceStreamRows, each to be one data-modifying CTE; their parameters are pushed onto `params`. */
function streamRowParts(projections: readonly Projection[], stream: { streamId: string; events: RecordedEvent[] }, params: unknown[]): string[] {
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  for (const projection of projections) {
    const key = projection.key(stream);
    if (key === null) continue;
    const rows = projection.rows(stream);
    for (const table of projection.tables) {
      const tableRows = rows[table.name] ?? [];
      const [streamKey, rowKey] = table.primaryKey;
      if (rowKey === undefined) {
        if (tableRows.length === 0) parts.push(`DELETE FROM ${table.name} WHERE ${streamKey} = ${p(key)}::text`);
      } else {
        const keyParam = `${p(key)}::text`;
        const keep = tableRows.map((r) => String(r[rowKey]));
        const type = table.columns.find((c) => c.name === rowKey)?.type ?? 'text';
        parts.push(`DELETE FROM ${table.name} WHERE ${streamKey} = ${keyParam} AND NOT (${rowKey} = ANY(${p(keep)}::${type}[]))`);
      }
      if (tableRows.length > 0) {
        const tuples = tableRows.map((row) => `(${table.columns.map((c) => `${p(row[c.name] ?? null)}::${c.type}`).join(', ')})`);
        const others = table.columns.filter((c) => !table.primaryKey.includes(c.name)).map((c) => c.name);
        const updates = others.map((c) => `${c} = EXCLUDED.${c}`);
        // A row that has not changed (an earlier payment's, on every later payment) is not written again.
        const changed = others.length === 0 ? '' : ` WHERE (${others.map((c) => `${table.name}.${c}`).join(', ')}) IS DISTINCT FROM (${others.map((c) => `EXCLUDED.${c}`).join(', ')})`;
        parts.push(
          `INSERT INTO ${table.name} (${table.columns.map((c) => c.name).join(', ')}) VALUES ${tuples.join(', ')} ` +
            `ON CONFLICT (${table.primaryKey.join(', ')}) DO ${updates.length === 0 ? 'NOTHING' : `UPDATE SET ${updates.join(', ')}${changed}`}`,
        );
      }
    }
  }
  return parts;
}

const projectionHash = (p: Projection): string =>
  createHash('sha256').update(JSON.stringify({ schema: projectionDdl(p), tables: p.tables, ...(p.version === undefined ? {} : { version: p.version }) })).digest('hex');

// ---- the store -----------------------------------------------------------------------------

export function createEventStore(db: Db, projections: readonly Projection[] = [], options: StoreOptions = {}): EventStore {
  const byCategory = new Map<string, Projection[]>();
  for (const p of projections) for (const c of p.categories) byCategory.set(c, [...(byCategory.get(c) ?? []), p]);

  async function append(sql: Sql, streamId: string, expectedVersion: number, events: NewEvent[], loaded?: RecordedEvent[]): Promise<AppendResult> {
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError('expectedVersion must be a whole number ≥ 0');
    const knownVersion = loaded ? (loaded.at(-1)?.streamVersion ?? 0) : undefined;
    if (knownVersion !== expectedVersion) {
      // The unique (stream, version) constraint catches a stale version; this also refuses a version from the future.
      const actual = await streamVersionWith(sql, streamId);
      if (actual !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion, actual);
    }
    if (events.length === 0) return { version: expectedVersion, events: [] };
    // Each event's data and meta as JSON text (sent as text and cast on the server: postgres.js
    // would encode a string for a jsonb parameter once more), so the events the projections see
    // now are the ones a read of the stream would give.
    const pending = events.map((e, i) => {
      const accountId = e.meta.accountId;
      if (typeof accountId !== 'string' || accountId === '') throw new Error(`Event ${e.type} has no meta.accountId`);
      return { e, streamVersion: expectedVersion + i + 1, eventId: e.eventId ?? randomUUID(), data: JSON.stringify(e.data, withBigints), meta: JSON.stringify(e.meta, withBigints) };
    });
    const params: unknown[] = [];
    const tuples = pending.map(({ e, streamVersion, eventId, data, meta }) => {
      params.push(streamId, streamVersion, eventId, e.type, e.version, e.meta.accountId, data, meta);
      const b = params.length - 8;
      return `($${b + 1}, $${b + 2}::int, $${b + 3}::uuid, $${b + 4}, $${b + 5}::int, $${b + 6}, $${b + 7}::text::jsonb, $${b + 8}::text::jsonb)`;
    });
    const insert = `INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, account_id, data, meta) VALUES ${tuples.join(', ')}`;
    const listeners = byCategory.get(streamCategory(streamId)) ?? [];
    const refused = (e: unknown): never => {
      if (isUniqueViolation(e, 'events_stream_version_uq')) throw new ConcurrencyError(streamId, expectedVersion, null);
      if (isUniqueViolation(e, 'events_event_id_uq')) throw new DuplicateEventError(events.map((x) => x.eventId ?? '').join(','));
      throw e;
    };
    /** The events as they will be recorded, but for what only the insert hands out. */
    const pendingEvents = (): PendingEvent[] =>
      pending.map(({ e, streamVersion, eventId, data, meta }) => ({ eventId, streamId, streamVersion, type: e.type, version: e.version, data: JSON.parse(data), meta: JSON.parse(meta) }));
    // The rows another table keeps for these events (options.eventRows), as one more CTE of the
    // statement that inserts them (`e`): each row takes its event's position from there.
    const eventRowsPart = (list: PendingEvent[], into: unknown[]): string | null => {
      const spec = options.eventRows;
      const rows = spec?.rows(list) ?? [];
      if (!spec || rows.length === 0) return null;
      const names = spec.columns.map((c) => c.name);
      const tuples = rows.map((r, n) => {
        into.push(r.streamVersion);
        const cells = [String(n), `$${into.length}::int`];
        spec.columns.forEach((c, i) => {
          into.push(r.values[i] ?? null);
          cells.push(`$${into.length}::${c.type}`);
        });
        return `(${cells.join(', ')})`;
      });
      return (
        `INSERT INTO ${spec.table} (${[...names, spec.positionColumn].join(', ')}) ` +
        `SELECT ${names.map((n) => `v.${n}`).join(', ')}, e.position::bigint FROM (VALUES ${tuples.join(', ')}) AS v(n, stream_version, ${names.join(', ')}) ` +
        // In the order given (an identity column numbers them in that order).
        `JOIN e ON e.stream_version = v.stream_version ORDER BY v.n ${spec.onConflict}`
      );
    };

    // With the stream loaded, the projections' rows can be worked out before the insert from the
    // new events as they will be recorded — unless a projection reads what only the insert hands
    // out (a new event's position or time). Then the insert and the rows go to the server as one
    // statement: one round trip fewer per command.
    let recorded: RecordedEvent[] | null = null;
    if (listeners.length > 0 && loaded && knownVersion === expectedVersion) {
      let unknownRead = false;
      const provisional = pendingEvents().map((event) => {
        for (const key of ['position', 'recordedAt'] as const) {
          Object.defineProperty(event, key, {
            configurable: true,
            enumerable: true,
            get: () => {
              unknownRead = true;
              return key === 'position' ? '0' : new Date(0).toISOString();
            },
          });
        }
        return event as RecordedEvent;
      });
      const rowParams = [...params];
      const parts = streamRowParts(listeners, { streamId, events: [...loaded, ...provisional] }, rowParams);
      if (!unknownRead) {
        const extra = eventRowsPart(provisional, rowParams);
        if (extra !== null) parts.push(extra);
        let inserted: { position: string; recorded_at: Date | string }[];
        try {
          inserted = await sql.query(
            `WITH e AS (${insert} RETURNING stream_version, position::text AS position, recorded_at)${parts.length > 0 ? `, ${ctes(parts)}` : ''} ` +
              `SELECT position, recorded_at FROM e ORDER BY stream_version`,
            rowParams,
          );
        } catch (e) {
          return refused(e);
        }
        // The events as recorded: the same objects the projections folded (their memoised parses
        // and folds serve the caller too), now with what the insert handed out.
        provisional.forEach((event, i) => {
          Object.defineProperty(event, 'position', { value: inserted[i]!.position, enumerable: true, writable: false, configurable: false });
          Object.defineProperty(event, 'recordedAt', { value: iso(inserted[i]!.recorded_at), enumerable: true, writable: false, configurable: false });
        });
        recorded = provisional;
      }
    }

    if (recorded === null) {
      const extra = options.eventRows ? eventRowsPart(pendingEvents(), params) : null;
      let inserted: EventRow[];
      try {
        inserted = await sql.query<EventRow>(
          extra === null ? `${insert} RETURNING ${EVENT_COLUMNS}` : `WITH e AS (${insert} RETURNING ${EVENT_COLUMNS}), ${ctes([extra])} SELECT * FROM e`,
          params,
        );
      } catch (e) {
        return refused(e);
      }
      recorded = inserted.map(toRecorded).sort((a, b) => a.streamVersion - b.streamVersion);
      if (listeners.length > 0) {
        const all = loaded && knownVersion === expectedVersion ? [...loaded, ...recorded] : (await readStreamWith(sql, streamId)).events;
        const statement = replaceStreamRows(listeners, { streamId, events: all });
        if (statement) await sql.query(statement.text, statement.params);
      }
    }
    return { version: expectedVersion + events.length, events: recorded };
  }

  /** A transaction's view of the store; the accounts it appends events for are noted in `touched`. */
  const txApi = (sql: Sql, touched: Set<string>): StoreTx => ({
    query: (text, params) => sql.query(text, params),
    readStream: (streamId) => readStreamWith(sql, streamId),
    streamVersion: (streamId) => streamVersionWith(sql, streamId),
    async append(streamId, expectedVersion, events, loaded) {
      const r = await append(sql, streamId, expectedVersion, events, loaded);
      for (const e of events) touched.add(e.meta.accountId);
      return r;
    },
  });

  /**
   * Runs `fn` in one transaction and, as its last statement, moves on the version of every account
   * it appended events for (see accountVersion). Last and sent with the COMMIT, so the row lock it
   * takes is held only while the server commits: the holder never waits for anything else, so it
   * cannot be part of a deadlock, and commands of one account queue only for that moment (not for
   * a round trip through this process's event loop, busy with the other commands).
   */
  const inTransaction = <T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> => {
    const touched = new Set<string>();
    return db.tx(
      (sql) => fn(txApi(sql, touched)),
      () =>
        touched.size === 0
          ? null
          : {
              // Sorted: two transactions that touch the same accounts lock them in the same order.
              text: `INSERT INTO account_versions (account_id, version) SELECT a, 1 FROM unnest($1::text[]) AS a ORDER BY a
           ON CONFLICT (account_id) DO UPDATE SET version = account_versions.version + 1`,
              params: [[...touched].sort()],
            },
    );
  };

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
