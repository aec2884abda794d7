// The event store, written once over the `Db` port: append with optimistic concurrency, read a
// stream, read the log in order, inline projections in the append's transaction, and rebuilds.
import { createHash, randomUUID } from 'node:crypto';
import { isUniqueViolation } from './errors.ts';
import {
  ConcurrencyError, DuplicateEventError, streamCategory,
  type AppendResult, type Db, type EventStore, type NewEvent, type Projection, type ProjectionRow, type ProjectionTable,
  type RecordedEvent, type Sql, type StoreTx, type StreamSnapshot,
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

async function readStreamWith(sql: Sql, streamId: string): Promise<StreamSnapshot> {
  const rows = await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`, [streamId]);
  const events = rows.map(toRecorded);
  return { streamId, version: events.at(-1)?.streamVersion ?? 0, events };
}

// ---- projection rows -----------------------------------------------------------------------

/** Postgres allows 65,535 parameters per statement; stay well under it. */
const MAX_PARAMS = 30_000;

/** The INSERT statements for a table's rows, in chunks under the parameter limit. */
function insertStatements(table: ProjectionTable, rows: ProjectionRow[]): { text: string; params: unknown[] }[] {
  if (rows.length === 0) return [];
  const cols = table.columns;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  const out: { text: string; params: unknown[] }[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const placeholders = cols.map((c) => {
        params.push(row[c.name] ?? null);
        return `$${params.length}::${c.type}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    out.push({ text: `INSERT INTO ${table.name} (${cols.map((c) => c.name).join(', ')}) VALUES ${tuples.join(', ')}`, params });
  }
  return out;
}

/**
 * Runs statements of one transaction back to back without waiting for each answer: postgres.js
 * pipelines them on the transaction's connection (one round trip), PGlite runs them in order.
 */
async function pipeline(sql: Sql, statements: { text: string; params: unknown[] }[]): Promise<void> {
  const results = await Promise.allSettled(statements.map((st) => sql.query(st.text, st.params)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One statement that replaces a stream's rows in every table of the given projections: for each
 * table, an upsert of the new rows and a delete of the stream's rows that are no longer there —
 * disjoint rows, so they can share one statement as data-modifying CTEs. One round trip per append.
 */
function replaceStreamRows(projections: readonly Projection[], stream: { streamId: string; events: RecordedEvent[] }): { text: string; params: unknown[] } | null {
  const params: unknown[] = [];
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
        const updates = table.columns.filter((c) => !table.primaryKey.includes(c.name)).map((c) => `${c.name} = EXCLUDED.${c.name}`);
        parts.push(
          `INSERT INTO ${table.name} (${table.columns.map((c) => c.name).join(', ')}) VALUES ${tuples.join(', ')} ` +
            `ON CONFLICT (${table.primaryKey.join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
        );
      }
    }
  }
  if (parts.length === 0) return null;
  return { text: `WITH ${parts.map((q, i) => `w${i} AS (${q})`).join(', ')} SELECT 1`, params };
}

const projectionHash = (p: Projection): string =>
  createHash('sha256').update(JSON.stringify({ schema: p.schema, tables: p.tables })).digest('hex');

// ---- the store -----------------------------------------------------------------------------

export function createEventStore(db: Db, projections: readonly Projection[] = []): EventStore {
  const byCategory = new Map<string, Projection[]>();
  for (const p of projections) for (const c of p.categories) byCategory.set(c, [...(byCategory.get(c) ?? []), p]);

  async function append(sql: Sql, streamId: string, expectedVersion: number, events: NewEvent[], loaded?: RecordedEvent[]): Promise<AppendResult> {
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError('expectedVersion must be a whole number ≥ 0');
    const knownVersion = loaded ? (loaded.at(-1)?.streamVersion ?? 0) : undefined;
    if (knownVersion !== expectedVersion) {
      // The unique (stream, version) constraint catches a stale version; this also refuses a version from the future.
      const [row] = await sql.query<{ v: number }>('SELECT coalesce(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1', [streamId]);
      const actual = Number(row?.v ?? 0);
      if (actual !== expectedVersion) throw new ConcurrencyError(streamId, expectedVersion, actual);
    }
    if (events.length === 0) return { version: expectedVersion, events: [] };
    const params: unknown[] = [];
    const tuples = events.map((e, i) => {
      const accountId = e.meta.accountId;
      if (typeof accountId !== 'string' || accountId === '') throw new Error(`Event ${e.type} has no meta.accountId`);
      params.push(streamId, expectedVersion + i + 1, e.eventId ?? randomUUID(), e.type, e.version, accountId, e.data, e.meta);
      const b = params.length - 8;
      return `($${b + 1}, $${b + 2}::int, $${b + 3}::uuid, $${b + 4}, $${b + 5}::int, $${b + 6}, $${b + 7}::jsonb, $${b + 8}::jsonb)`;
    });
    let inserted: EventRow[];
    try {
      inserted = await sql.query<EventRow>(
        `INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, account_id, data, meta)
         VALUES ${tuples.join(', ')} RETURNING ${EVENT_COLUMNS}`,
        params,
      );
    } catch (e) {
      if (isUniqueViolation(e, 'events_stream_version_uq')) throw new ConcurrencyError(streamId, expectedVersion, null);
      if (isUniqueViolation(e, 'events_event_id_uq')) throw new DuplicateEventError(events.map((x) => x.eventId ?? '').join(','));
      throw e;
    }
    const recorded = inserted.map(toRecorded).sort((a, b) => a.streamVersion - b.streamVersion);
    const listeners = byCategory.get(streamCategory(streamId)) ?? [];
    if (listeners.length > 0) {
      const all = loaded && knownVersion === expectedVersion ? [...loaded, ...recorded] : (await readStreamWith(sql, streamId)).events;
      const statement = replaceStreamRows(listeners, { streamId, events: all });
      if (statement) await sql.query(statement.text, statement.params);
    }
    return { version: expectedVersion + events.length, events: recorded };
  }

  const txApi = (sql: Sql): StoreTx => ({
    query: (text, params) => sql.query(text, params),
    readStream: (streamId) => readStreamWith(sql, streamId),
    append: (streamId, expectedVersion, events, loaded) => append(sql, streamId, expectedVersion, events, loaded),
  });

  async function readAllWith(sql: Sql, afterPosition: string, limit: number): Promise<RecordedEvent[]> {
    // Only events of transactions older than every running one: a reader never skips an event
    // that commits later with a smaller position (integrations.md §5.7, the gap note).
    const rows = await sql.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE position > $1::bigint AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.position LIMIT $2::int`,
      [afterPosition, limit],
    );
    return rows.map(toRecorded);
  }

  /** Rebuilds the given projections inside `sql`'s transaction: drop their rows, fold the log, insert. */
  async function rebuildWith(sql: Sql, targets: readonly Projection[]): Promise<{ streams: number; events: number }> {
    for (const p of targets) for (const t of p.tables) await sql.query(`DELETE FROM ${t.name}`);
    const categories = new Set(targets.flatMap((p) => p.categories));
    const streams = new Map<string, RecordedEvent[]>();
    let events = 0;
    let after = '0';
    for (;;) {
      const rows = await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1::bigint ORDER BY events.position LIMIT 5000`, [after]);
      if (rows.length === 0) break;
      for (const r of rows) {
        const e = toRecorded(r);
        if (!categories.has(streamCategory(e.streamId))) continue;
        const list = streams.get(e.streamId);
        if (list) list.push(e);
        else streams.set(e.streamId, [e]);
        events++;
      }
      after = rows.at(-1)!.position;
    }
    for (const p of targets) {
      const pending = new Map<string, ProjectionRow[]>(p.tables.map((t) => [t.name, []]));
      for (const [streamId, evs] of streams) {
        if (!p.categories.includes(streamCategory(streamId))) continue;
        const stream = { streamId, events: evs };
        if (p.key(stream) === null) continue;
        const rows = p.rows(stream);
        for (const t of p.tables) pending.get(t.name)!.push(...(rows[t.name] ?? []));
      }
      await pipeline(sql, p.tables.flatMap((t) => insertStatements(t, pending.get(t.name)!)));
    }
    return { streams: streams.size, events };
  }

  return {
    db,
    readStream: (streamId) => readStreamWith(db, streamId),
    transaction: (fn) => db.tx((sql) => fn(txApi(sql))),
    append: (streamId, expectedVersion, events) => db.tx((sql) => append(sql, streamId, expectedVersion, events)),
    readAll: (afterPosition, limit) => readAllWith(db, afterPosition, limit),
    async readAccount(accountId) {
      const rows = await db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE account_id = $1 ORDER BY events.position`, [accountId]);
      return rows.map(toRecorded);
    },
    async rebuildProjections(names) {
      const targets = names ? projections.filter((p) => names.includes(p.name)) : projections;
      const r = await db.tx((sql) => rebuildWith(sql, targets));
      // Fresh statistics for the planner after every row was replaced.
      for (const t of targets.flatMap((p) => p.tables)) await db.query(`ANALYZE ${t.name}`);
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
          for (const statement of p.schema.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter(Boolean)) await sql.query(statement);
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
