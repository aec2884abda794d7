// A frozen copy of the SQL a payment command sent before the write became one statement (the
// store's append and the Idempotency-Key's claim and answer as they were on 27 November 2026), so
// `npm run bench -- store-ratio` can replay it in the same run as today's: the floor the product
// is compared with stays where it was measured. Only the statements matter here; nothing in the
// product uses this file. Do not bring it up to date.
import { randomUUID } from 'node:crypto';
import {
  ConcurrencyError, streamCategory,
  type AppendResult, type Db, type EventRows, type NewEvent, type PendingEvent, type Projection, type RecordedEvent, type Sql, type Statement, type StreamSnapshot,
} from '@tradie/store';

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

const toRecorded = (r: EventRow): RecordedEvent => ({
  position: r.position,
  streamId: r.stream_id,
  streamVersion: Number(r.stream_version),
  eventId: r.event_id,
  type: r.event_type,
  version: Number(r.schema_version),
  data: r.data,
  meta: r.meta,
  recordedAt: iso(r.recorded_at),
});

const withBigints = (_k: string, x: unknown): unknown => (typeof x === 'bigint' ? x.toString() : x);

const ctes = (parts: readonly string[]): string => parts.map((q, i) => `w${i} AS (${q})`).join(', ');

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

/** What a command saw inside the frozen transaction. */
export interface FrozenTx extends Sql {
  readStream(streamId: string): Promise<StreamSnapshot>;
  append(streamId: string, expectedVersion: number, events: NewEvent[], loaded: RecordedEvent[]): Promise<AppendResult>;
}

/**
 * The store's transaction as it was: BEGIN, the callback's statements (the append of a loaded
 * stream as one statement with its projections' rows and the event rows), and the account-version
 * upsert sent with the COMMIT. Only the path a payment took (a loaded stream whose projections
 * read no new position) is kept.
 */
export function frozenTransaction<T>(db: Db, projections: readonly Projection[], eventRows: EventRows, fn: (tx: FrozenTx) => Promise<T>): Promise<T> {
  const touched = new Set<string>();
  return db.tx(
    (sql) =>
      fn({
        query: (text, params) => sql.query(text, params),
        async readStream(streamId) {
          const rows = await sql.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_version`, [streamId]);
          const events = rows.map(toRecorded);
          return { streamId, version: events.at(-1)?.streamVersion ?? 0, events };
        },
        async append(streamId, expectedVersion, events, loaded) {
          for (const e of events) touched.add(e.meta.accountId);
          const pending = events.map((e, i) => ({
            e, streamVersion: expectedVersion + i + 1, eventId: e.eventId ?? randomUUID(), data: JSON.stringify(e.data, withBigints), meta: JSON.stringify(e.meta, withBigints),
          }));
          const params: unknown[] = [];
          const tuples = pending.map(({ e, streamVersion, eventId, data, meta }) => {
            params.push(streamId, streamVersion, eventId, e.type, e.version, e.meta.accountId, data, meta);
            const b = params.length - 8;
            return `($${b + 1}, $${b + 2}::int, $${b + 3}::uuid, $${b + 4}, $${b + 5}::int, $${b + 6}, $${b + 7}::text::jsonb, $${b + 8}::text::jsonb)`;
          });
          const insert = `INSERT INTO events (stream_id, stream_version, event_id, event_type, schema_version, account_id, data, meta) VALUES ${tuples.join(', ')}`;
          const listeners = projections.filter((p) => p.categories.includes(streamCategory(streamId)));
          const provisional = pending.map(
            ({ e, streamVersion, eventId, data, meta }) =>
              ({ eventId, streamId, streamVersion, type: e.type, version: e.version, data: JSON.parse(data), meta: JSON.parse(meta), position: '0', recordedAt: '' }) as RecordedEvent,
          );
          const rowParams = [...params];
          const parts = streamRowParts(listeners, { streamId, events: [...loaded, ...provisional] }, rowParams);
          const rows = eventRows.rows(provisional as PendingEvent[]);
          if (rows.length > 0) {
            const names = eventRows.columns.map((c) => c.name);
            const extra = rows.map((r, n) => {
              rowParams.push(r.streamVersion);
              const cells = [String(n), `$${rowParams.length}::int`];
              eventRows.columns.forEach((c, i) => {
                rowParams.push(r.values[i] ?? null);
                cells.push(`$${rowParams.length}::${c.type}`);
              });
              return `(${cells.join(', ')})`;
            });
            parts.push(
              `INSERT INTO ${eventRows.table} (${[...names, eventRows.positionColumn].join(', ')}) ` +
                `SELECT ${names.map((n) => `v.${n}`).join(', ')}, e.position::bigint FROM (VALUES ${extra.join(', ')}) AS v(n, stream_version, ${names.join(', ')}) ` +
                `JOIN e ON e.stream_version = v.stream_version ORDER BY v.n ${eventRows.onConflict}`,
            );
          }
          const inserted = await sql
            .query<{ position: string; recorded_at: Date | string }>(
              `WITH e AS (${insert} RETURNING stream_version, position::text AS position, recorded_at)${parts.length > 0 ? `, ${ctes(parts)}` : ''} ` +
                `SELECT position, recorded_at FROM e ORDER BY stream_version`,
              rowParams,
            )
            .catch((e: unknown) => {
              if ((e as { code?: string }).code === '23505') throw new ConcurrencyError(streamId, expectedVersion, null);
              throw e;
            });
          return {
            version: expectedVersion + events.length,
            events: provisional.map((p, i) => ({ ...p, position: inserted[i]!.position, recordedAt: iso(inserted[i]!.recorded_at) })),
          };
        },
      }),
    (): Statement | null =>
      touched.size === 0
        ? null
        : {
            text: `INSERT INTO account_versions (account_id, version) SELECT a, 1 FROM unnest($1::text[]) AS a ORDER BY a
           ON CONFLICT (account_id) DO UPDATE SET version = account_versions.version + 1`,
            params: [[...touched].sort()],
          },
  );
}

/** The Idempotency-Key's claim as it was: a pending row inserted first, inside the command's transaction. */
export const frozenClaim = (tx: Sql, c: { accountId: string; scope: string; key: string; hash: string }): Promise<unknown[]> =>
  tx.query(
    `INSERT INTO idempotency_keys (account_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, scope, key) DO NOTHING RETURNING key`,
    [c.accountId, c.scope, c.key, c.hash],
  );

/** …and its answer, stored by a second statement before the COMMIT. */
export const frozenAnswer = (tx: Sql, c: { accountId: string; scope: string; key: string }, answer: { status: number; body: unknown }): Promise<unknown[]> =>
  tx.query('UPDATE idempotency_keys SET status = $4, response = $5::jsonb WHERE account_id = $1 AND scope = $2 AND key = $3', [
    c.accountId, c.scope, c.key, answer.status, answer.body as object,
  ]);
