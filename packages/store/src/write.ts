// A command's write as one statement: the events' insert, the read models' rows that changed, the
// rows kept with the events (StoreOptions.eventRows: the outbox) and with the command (RowInsert:
// an Idempotency-Key's answer), and the accounts' versions — as data-modifying CTEs of one
// statement, so all of it commits or none, in one round trip and without BEGIN or COMMIT
// (docs/decisions/0017-one-statement-append.md).
//
// The read models' rows are worked out before the insert from the stream the command loaded and
// the new events as they will be recorded, for the stream as it was and as it will be: only what
// differs is sent (a new row, a changed row's changed columns, a row that went). A statement's text
// depends only on its shape (how many events, which tables and columns change), so it is built once
// per shape and kept. A new event's position and time are handed out by the insert: a projection
// that reads them makes that append take two statements in a transaction (`twoStatements`).
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from './errors.ts';
import {
  ConcurrencyError, DuplicateEventError,
  type EventRows, type NewEvent, type Projection, type ProjectionColumn, type ProjectionRow, type ProjectionTable, type RecordedEvent, type RowInsert, type Sql, type Statement,
} from './types.ts';

/** The SQLSTATE the statement fails with when a read-model row it updates is not there (store_expect_rows). */
export const ROWS_NOT_THERE = 'SR001';

export const withBigints = (_k: string, x: unknown): unknown => (typeof x === 'bigint' ? x.toString() : x);

// ---- streams that extend a loaded one ------------------------------------------------------

const prefixes = new WeakMap<readonly RecordedEvent[], readonly RecordedEvent[]>();

/**
 * The events a command loaded followed by the ones it appends, as one array that remembers the
 * loaded one as its prefix (streamPrefix): a fold of the whole stream can start from the loaded
 * stream's fold instead of the first event.
 */
export function extendStream(loaded: readonly RecordedEvent[], more: readonly RecordedEvent[]): RecordedEvent[] {
  const all = [...loaded, ...more];
  if (loaded.length > 0) prefixes.set(all, loaded);
  return all;
}

/** The array `events` was made from by extendStream, if it was. */
export const streamPrefix = (events: readonly RecordedEvent[]): readonly RecordedEvent[] | undefined => prefixes.get(events);

// ---- new events -----------------------------------------------------------------------------

/**
 * Whether JSON.parse(JSON.stringify(v)) gives back what `v` is: plain objects and arrays of
 * strings, booleans, null and finite numbers, nothing undefined, no class instances. Then the
 * decided data itself is what a read of the stream would give, with no parse of its JSON text.
 */
function plainJson(v: unknown, depth = 0): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (depth > 32) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plainJson(v[i], depth + 1)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k of Object.keys(v)) if (!plainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** Set while the read models' rows are worked out before the insert: a read of a new event's position or time is noted here. */
let watching: { read: boolean } | null = null;

/** A new event as it will be recorded, and its data and meta as the JSON text that is stored. */
export interface PendingEvent {
  event: RecordedEvent;
  data: string;
  meta: string;
}

/** An append ready to be written: the stream as loaded, the new events, and the read models that follow the stream. */
export interface PreparedAppend {
  streamId: string;
  expectedVersion: number;
  loaded: RecordedEvent[];
  pending: PendingEvent[];
  projections: readonly Projection[];
  /** Write every row of the stream (upsert and delete the others), not only the changed ones: after a row was found missing. */
  full: boolean;
}

/**
 * The new events as they will be recorded: ids and stream versions known now, data and meta as
 * the stored JSON would read back. Their position and recording time are getters until the
 * insert hands them out (setRecorded); a read before that is noted while rows are worked out,
 * and is an error anywhere else.
 */
export function pendingEvents(streamId: string, expectedVersion: number, events: readonly NewEvent[]): PendingEvent[] {
  return events.map((e, i) => {
    const accountId = e.meta.accountId;
    if (typeof accountId !== 'string' || accountId === '') throw new Error(`Event ${e.type} has no meta.accountId`);
    const data = JSON.stringify(e.data, withBigints);
    const meta = JSON.stringify(e.meta, withBigints);
    const event = {
      eventId: e.eventId ?? randomUUID(),
      streamId,
      streamVersion: expectedVersion + i + 1,
      type: e.type,
      version: e.version,
      data: plainJson(e.data) ? e.data : (JSON.parse(data) as Record<string, unknown>),
      meta: plainJson(e.meta) ? e.meta : (JSON.parse(meta) as NewEvent['meta']),
    } as RecordedEvent;
    for (const key of ['position', 'recordedAt'] as const) {
      Object.defineProperty(event, key, {
        configurable: true,
        enumerable: true,
        get: () => {
          if (!watching) throw new Error(`A new event's ${key} is known once the command is written`);
          watching.read = true;
          return key === 'position' ? '0' : new Date(0).toISOString();
        },
      });
    }
    return { event, data, meta };
  });
}

const iso = (d: Date | string): string => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** Sets on the new events what the insert handed out (rows of `stream_id, stream_version, position, recorded_at`). */
export function setRecorded(appends: readonly PreparedAppend[], rows: readonly Record<string, unknown>[]): void {
  const byStream = new Map<string, PreparedAppend>(appends.map((a) => [a.streamId, a]));
  for (const r of rows) {
    const a = byStream.get(String(r.stream_id));
    const p = a?.pending[Number(r.stream_version) - a.expectedVersion - 1];
    if (!p) continue;
    Object.defineProperty(p.event, 'position', { value: String(r.position), enumerable: true, writable: false, configurable: false });
    Object.defineProperty(p.event, 'recordedAt', { value: iso(r.recorded_at as Date | string), enumerable: true, writable: false, configurable: false });
  }
}

// ---- statement parts ------------------------------------------------------------------------

/** A piece of a statement: its shape (equal shapes, equal texts), its parameters, and its text once asked. */
interface Part {
  key: string;
  params: unknown[];
  /** The text, its parameter i being $(at + i + 1). */
  text(at: number): string;
}

const $ = (at: number, i: number): string => `$${at + i + 1}`;

function eventsPart(appends: readonly PreparedAppend[]): Part {
  const params: unknown[] = [];
  for (const a of appends) {
    for (const { event: e, data, meta } of a.pending) params.push(a.streamId, e.streamVersion, e.eventId, e.type, e.version, e.meta.accountId, data, meta);
  }
  const n = params.length / 8;
  return {
    key: `e${n}`,
    params,
    text: (at) =>
      `INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, account_id, data, meta) VALUES ` +
      Array.from({ length: n }, (_, k) => {
        const p = (i: number): string => $(at, k * 8 + i);
        return `(${p(0)}, ${p(1)}::int, ${p(2)}::uuid, ${p(3)}, ${p(4)}::int, ${p(5)}, ${p(6)}::text::jsonb, ${p(7)}::text::jsonb)`;
      }).join(', ') +
      ` RETURNING stream_id, stream_version, position::text AS position, recorded_at`,
  };
}

/** The rows another table keeps for the events (StoreOptions.eventRows), each taking its event's position from the insert (`e`). */
function eventRowsPart(spec: EventRows | undefined, appends: readonly PreparedAppend[]): Part | null {
  if (!spec) return null;
  const params: unknown[] = [];
  let n = 0;
  for (const a of appends) {
    for (const r of spec.rows(a.pending.map((p) => p.event))) {
      params.push(a.streamId, r.streamVersion, ...spec.columns.map((_, i) => r.values[i] ?? null));
      n++;
    }
  }
  if (n === 0) return null;
  const names = spec.columns.map((c) => c.name);
  const width = names.length + 2;
  return {
    key: `o${n}`,
    params,
    text: (at) =>
      `INSERT INTO ${spec.table} (${[...names, spec.positionColumn].join(', ')}) ` +
      `SELECT ${names.map((c) => `v.${c}`).join(', ')}, e.position::bigint FROM (VALUES ` +
      Array.from({ length: n }, (_, k) => {
        const p = (i: number): string => $(at, k * width + i);
        return `(${k}, ${p(0)}::text, ${p(1)}::int, ${spec.columns.map((c, i) => `${p(i + 2)}::${c.type}`).join(', ')})`;
      }).join(', ') +
      `) AS v(n_, stream_, version_, ${names.join(', ')}) ` +
      // In the order given (an identity column numbers them in that order).
      `JOIN e ON e.stream_id = v.stream_ AND e.stream_version = v.version_ ORDER BY v.n_ ${spec.onConflict} RETURNING 0 AS u`,
  };
}

function rowPart(row: RowInsert): Part {
  return {
    key: `r:${row.table}:${row.columns.map((c) => `${c.name}/${c.type}`).join(',')}`,
    params: row.columns.map((_, i) => row.values[i] ?? null),
    text: (at) => `INSERT INTO ${row.table} (${row.columns.map((c) => c.name).join(', ')}) VALUES (${row.columns.map((c, i) => `${$(at, i)}::${c.type}`).join(', ')}) RETURNING 0 AS u`,
  };
}

/** What a table's columns are, worked out once per table. */
interface TableShape {
  table: ProjectionTable;
  keys: ProjectionColumn[];
  others: ProjectionColumn[];
}

const shapes = new WeakMap<ProjectionTable, TableShape>();
function shapeOf(table: ProjectionTable): TableShape {
  let s = shapes.get(table);
  if (!s) {
    const keys = table.primaryKey.map((k) => table.columns.find((c) => c.name === k)!);
    s = { table, keys, others: table.columns.filter((c) => !table.primaryKey.includes(c.name)) };
    shapes.set(table, s);
  }
  return s;
}

/** New rows (or rows to write whole): an upsert that leaves a row whose columns are all unchanged as it is. */
function upsertPart(t: TableShape, rows: readonly ProjectionRow[]): Part {
  const { table, others } = t;
  const cols = table.columns;
  return {
    key: `i:${table.name}:${rows.length}`,
    params: rows.flatMap((row) => cols.map((c) => row[c.name] ?? null)),
    text: (at) => {
      const tuples = rows.map((_, k) => `(${cols.map((c, i) => `${$(at, k * cols.length + i)}::${c.type}`).join(', ')})`);
      const set = others.map((c) => `${c.name} = EXCLUDED.${c.name}`);
      const changed = ` WHERE (${others.map((c) => `${table.name}.${c.name}`).join(', ')}) IS DISTINCT FROM (${others.map((c) => `EXCLUDED.${c.name}`).join(', ')})`;
      return (
        `INSERT INTO ${table.name} (${cols.map((c) => c.name).join(', ')}) VALUES ${tuples.join(', ')} ` +
        `ON CONFLICT (${table.primaryKey.join(', ')}) DO ${others.length === 0 ? 'NOTHING' : `UPDATE SET ${set.join(', ')}${changed}`} RETURNING 0 AS u`
      );
    },
  };
}

/** A row that is there and changed: its changed columns only. Returns 1 per row updated, which the statement checks. */
function updatePart(t: TableShape, row: ProjectionRow, changed: readonly ProjectionColumn[]): Part {
  const { table, keys } = t;
  return {
    key: `u:${table.name}:${changed.map((c) => c.name).join(',')}`,
    params: [...changed.map((c) => row[c.name] ?? null), ...keys.map((c) => row[c.name] ?? null)],
    text: (at) =>
      `UPDATE ${table.name} SET ${changed.map((c, i) => `${c.name} = ${$(at, i)}::${c.type}`).join(', ')} ` +
      `WHERE ${keys.map((c, i) => `${c.name} = ${$(at, changed.length + i)}::${c.type}`).join(' AND ')} RETURNING 1 AS u`,
  };
}

/** Rows that went, by their keys. */
function deletePart(t: TableShape, rows: readonly ProjectionRow[]): Part {
  const { table, keys } = t;
  return {
    key: `d:${table.name}:${rows.length}`,
    params: rows.flatMap((row) => keys.map((c) => row[c.name] ?? null)),
    text: (at) =>
      `DELETE FROM ${table.name} WHERE (${keys.map((c) => c.name).join(', ')}) IN (` +
      rows.map((_, k) => `(${keys.map((c, i) => `${$(at, k * keys.length + i)}::${c.type}`).join(', ')})`).join(', ') +
      `) RETURNING 0 AS u`,
  };
}

/** Every row of the stream in a table, and away with the stream's rows that are not among them (a stream's rows written whole). */
function replaceParts(t: TableShape, key: string, rows: readonly ProjectionRow[]): Part[] {
  const { table } = t;
  const [streamKey, rowKey] = table.primaryKey;
  const parts: Part[] = [];
  if (rowKey === undefined) {
    if (rows.length === 0) parts.push({ key: `x:${table.name}`, params: [key], text: (at) => `DELETE FROM ${table.name} WHERE ${streamKey} = ${$(at, 0)}::text RETURNING 0 AS u` });
  } else {
    const type = table.columns.find((c) => c.name === rowKey)?.type ?? 'text';
    parts.push({
      key: `y:${table.name}`,
      params: [key, rows.map((r) => String(r[rowKey]))],
      text: (at) => `DELETE FROM ${table.name} WHERE ${streamKey} = ${$(at, 0)}::text AND NOT (${rowKey} = ANY(${$(at, 1)}::${type}[])) RETURNING 0 AS u`,
    });
  }
  if (rows.length > 0) parts.push(upsertPart(t, rows));
  return parts;
}

/** A value as the text it is stored as. */
const asText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v, withBigints) : String(v));

/** Whether two values of a column are stored alike (the same text). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return typeof a === 'object' || typeof b === 'object' ? asText(a) === asText(b) : String(a) === String(b);
}

const rowKeyOf = (keys: readonly ProjectionColumn[], row: ProjectionRow): string =>
  keys.length === 1 ? String(asText(row[keys[0]!.name])) : keys.map((c) => asText(row[c.name])).join('\u0000');

/**
 * Names a stream up to its last event: a stream's events are never changed and an event id is
 * stored once, so whatever is worked out from the events is worked out again the same.
 */
export const streamKey = (streamId: string, events: readonly RecordedEvent[]): string | null => {
  const last = events.at(-1);
  return last ? `${streamId}\u0000${last.streamVersion}\u0000${last.eventId}` : null;
};

/**
 * The parts that take a stream's rows in every read model from what they were (the loaded
 * stream's rows, worked out from its folded state, which the command's loader folded and the
 * projections' fold keeps) to what they are with the new events. Written whole instead
 * (replaceParts) when `a.full`.
 */
function streamRowParts(a: PreparedAppend, all: RecordedEvent[]): Part[] {
  const parts: Part[] = [];
  const stream = { streamId: a.streamId, events: all };
  const earlier = { streamId: a.streamId, events: a.loaded };
  for (const projection of a.projections) {
    const key = projection.key(stream);
    if (key === null) continue;
    const rows = projection.rows(stream);
    const before = a.full ? null : a.loaded.length === 0 || projection.key(earlier) === null ? {} : projection.rows(earlier);
    for (const table of projection.tables) {
      const t = shapeOf(table);
      const now = rows[table.name] ?? [];
      if (before === null) {
        parts.push(...replaceParts(t, key, now));
        continue;
      }
      const was = before[table.name] ?? [];
      if (was.length === 0 && now.length === 0) continue;
      const old = new Map(was.map((r) => [rowKeyOf(t.keys, r), r]));
      const added: ProjectionRow[] = [];
      for (const row of now) {
        const k = rowKeyOf(t.keys, row);
        const prior = old.get(k);
        if (prior === undefined) {
          added.push(row);
          continue;
        }
        old.delete(k);
        const changed = t.others.filter((c) => !sameValue(row[c.name], prior[c.name]));
        if (changed.length > 0) parts.push(updatePart(t, row, changed));
      }
      if (added.length > 0) parts.push(upsertPart(t, added));
      if (old.size > 0) parts.push(deletePart(t, [...old.values()]));
    }
  }
  return parts;
}

/**
 * The read models' parts of every append, worked out from the new events before the insert; null
 * when a projection read a new event's position or time (which only the insert knows).
 */
function rowPartsBeforeInsert(appends: readonly PreparedAppend[]): Part[] | null {
  const parts: Part[] = [];
  const seen = { read: false };
  watching = seen;
  try {
    for (const a of appends) {
      if (a.projections.length === 0) continue;
      parts.push(...streamRowParts(a, extendStream(a.loaded, a.pending.map((p) => p.event))));
      if (seen.read) return null;
    }
  } catch (e) {
    // A projection that computed with a placeholder position may fail; with the real one it will not.
    if (seen.read) return null;
    throw e;
  } finally {
    watching = null;
  }
  return parts;
}

// ---- the statement --------------------------------------------------------------------------

/** What a store writes with: the rows it keeps for events, and its statement texts by shape (a few dozen in practice). */
export interface WriteContext {
  eventRows: EventRows | undefined;
  texts: Map<string, string>;
}

const MAX_TEXTS = 2_000;

/** The account-version upsert: last, after every other part (it reads their results), and the check that every update found its row. */
function accountsText(updates: number, at: number, others: number): string {
  const after = others === 0 ? '' : `(SELECT coalesce(sum(u), 0) FROM (${Array.from({ length: others }, (_, i) => `SELECT u FROM w${i}`).join(' UNION ALL ')}) AS w)`;
  // Sorted: two writes that touch the same accounts lock them in the same order.
  return (
    `INSERT INTO account_versions (account_id, version) SELECT a, 1 FROM unnest($${at + 1}::text[]) AS a` +
    (after === '' ? '' : ` WHERE store_expect_rows(${after}, ${updates})`) +
    ` ORDER BY a ON CONFLICT (account_id) DO UPDATE SET version = account_versions.version + 1`
  );
}

/**
 * The one statement: `e` inserts the events (when there are any), `w0…` are the other parts, and
 * `a` moves on the accounts' versions once they have all run (when `accounts` is given; otherwise
 * the main query checks the updates). Its rows are the inserted events' positions and times.
 */
function assemble(texts: Map<string, string>, events: Part | null, parts: readonly Part[], accounts: readonly string[] | null): Statement {
  const updates = parts.filter((p) => p.key.startsWith('u:')).length;
  const key = `${events?.key ?? ''}|${parts.map((p) => p.key).join('|')}|${accounts === null ? '-' : accounts.length}`;
  const params: unknown[] = [...(events?.params ?? [])];
  const at: number[] = [];
  for (const p of parts) {
    at.push(params.length);
    for (const v of p.params) params.push(v);
  }
  if (accounts !== null) params.push(accounts);
  let text = texts.get(key);
  if (text === undefined) {
    const ctes = [...(events ? [`e AS (${events.text(0)})`] : []), ...parts.map((p, i) => `w${i} AS (${p.text(at[i]!)})`)];
    if (accounts !== null) ctes.push(`a AS (${accountsText(updates, params.length - 1, parts.length)})`);
    const check = updates === 0 || accounts !== null ? '' : ` WHERE store_expect_rows((SELECT coalesce(sum(u), 0) FROM (${parts.map((_, i) => `SELECT u FROM w${i}`).join(' UNION ALL ')}) AS w), ${updates})`;
    const main = events ? `SELECT stream_id, stream_version, position, recorded_at FROM e${check}` : `SELECT 1 AS done${check}`;
    text = ctes.length === 0 ? main : `WITH ${ctes.join(', ')} ${main}`;
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(key, text);
  }
  return { text, params };
}

/** The accounts a write moves on, sorted. */
export const accountsOf = (appends: readonly PreparedAppend[]): string[] => [...new Set(appends.flatMap((a) => a.pending.map((p) => p.event.meta.accountId)))].sort();

/** How a write goes: one statement; two in a transaction (a projection reads a new event's position or time); or nothing to write. */
export type Planned = { kind: 'one'; statement: Statement } | { kind: 'two' } | { kind: 'none' };

/**
 * The whole write as one statement. `accounts`: the account versions to move on in it (null
 * inside a transaction that moves them on with its COMMIT).
 */
export function oneStatement(ctx: WriteContext, appends: readonly PreparedAppend[], rows: readonly RowInsert[], accounts: readonly string[] | null): Planned {
  const withEvents = appends.filter((a) => a.pending.length > 0);
  const rowParts = rowPartsBeforeInsert(withEvents);
  if (rowParts === null) return { kind: 'two' };
  const parts = [...rowParts];
  const extra = eventRowsPart(ctx.eventRows, withEvents);
  if (extra) parts.push(extra);
  parts.push(...rows.map(rowPart));
  const moved = accounts !== null && accounts.length > 0 ? accounts : null;
  if (withEvents.length === 0 && parts.length === 0 && moved === null) return { kind: 'none' };
  return { kind: 'one', statement: assemble(ctx.texts, withEvents.length > 0 ? eventsPart(withEvents) : null, parts, moved) };
}

/**
 * Inside a transaction, for a write whose projections read what only the insert hands out: the
 * events (with the event rows and the rows kept with them) first, then the read models' rows
 * worked out from the recorded events. The accounts' versions are left to the COMMIT.
 */
export async function twoStatements(ctx: WriteContext, sql: Sql, appends: readonly PreparedAppend[], rows: readonly RowInsert[]): Promise<void> {
  const withEvents = appends.filter((a) => a.pending.length > 0);
  const parts: Part[] = [];
  const extra = eventRowsPart(ctx.eventRows, withEvents);
  if (extra) parts.push(extra);
  parts.push(...rows.map(rowPart));
  if (withEvents.length === 0 && parts.length === 0) return;
  const first = assemble(ctx.texts, withEvents.length > 0 ? eventsPart(withEvents) : null, parts, null);
  setRecorded(withEvents, await sendWrite(sql, first, withEvents));
  const rowParts = withEvents.flatMap((a) => (a.projections.length === 0 ? [] : streamRowParts(a, extendStream(a.loaded, a.pending.map((p) => p.event)))));
  if (rowParts.length > 0) await sendWrite(sql, assemble(ctx.texts, null, rowParts, null), withEvents);
}

/** Sends a write's statement and turns the driver's refusals into the store's errors. */
export async function sendWrite(sql: Sql, statement: Statement, appends: readonly PreparedAppend[]): Promise<Record<string, unknown>[]> {
  try {
    return await sql.query(statement.text, statement.params);
  } catch (e) {
    return refused(e, appends);
  }
}

/** The driver's refusal of a write as the store's error: a stale version (ConcurrencyError), an event id already stored. */
export function refused(e: unknown, appends: readonly PreparedAppend[]): never {
  if (isUniqueViolation(e, 'events_stream_version_uq')) {
    // The key is in the detail: `Key (stream_id, stream_version)=(document-…, 4) already exists.`
    const detail = String((e as { detail?: unknown }).detail ?? '');
    const stream = appends.find((a) => detail.includes(`(${a.streamId}, `)) ?? appends[0];
    throw new ConcurrencyError(stream?.streamId ?? '', stream?.expectedVersion ?? 0, null);
  }
  if (isUniqueViolation(e, 'events_event_id_uq')) {
    throw new DuplicateEventError(appends.flatMap((a) => a.pending.map((p) => p.event.eventId)).join(','));
  }
  throw e;
}

/** The statement failed because a read-model row it updates was not there (the tables were rebuilt, or written by other code). */
export const rowsNotThere = (e: unknown): boolean => (e as { code?: string } | null)?.code === ROWS_NOT_THERE;
