// One conformance suite for every EventStore adapter: the PGlite run (eventStore.spec.ts) and
// the real PostgreSQL run (eventStore.pg.spec.ts) call this with their own way to open a Db.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConcurrencyError, DuplicateEventError, createEventStore, migrate, storeMigrations,
  type Db, type EventRows, type EventStore, type NewEvent, type Projection, type ProjectionTable, type RecordedEvent,
} from '../src/index.ts';

const ev = (type: string, data: Record<string, unknown> = {}, accountId = 'acct-a'): NewEvent => ({
  type,
  version: 1,
  data,
  meta: { accountId, at: '2026-04-01T00:00:00.000Z' },
});

/** A small projection: per stream, its event count and the types seen; and one row per event. */
const tally: Projection = {
  name: 'tally',
  categories: ['tally'],
  tables: [
    {
      name: 'tally_streams',
      streamKey: 'stream_id',
      primaryKey: ['stream_id'],
      columns: [{ name: 'stream_id', type: 'text' }, { name: 'account_id', type: 'text' }, { name: 'n', type: 'integer' }, { name: 'last_position', type: 'bigint' }, { name: 'types', type: 'jsonb' }],
    },
    { name: 'tally_events', streamKey: 'stream_id', primaryKey: ['stream_id', 'version'], columns: [{ name: 'stream_id', type: 'text' }, { name: 'version', type: 'integer' }, { name: 'type', type: 'text' }] },
  ],
  key: (s) => s.streamId,
  rows: (s: { streamId: string; events: RecordedEvent[] }) => ({
    tally_streams: [{ stream_id: s.streamId, account_id: s.events[0]!.meta.accountId, n: s.events.length, last_position: s.events.at(-1)!.position, types: s.events.map((e) => e.type) }],
    tally_events: s.events.map((e) => ({ stream_id: s.streamId, version: e.streamVersion, type: e.type })),
  }),
};

/**
 * A projection with a column of every type, fed awkward values (quotes, backslashes, braces,
 * commas, the word NULL, empty strings, newlines, JS arrays and a `type` key in jsonb, nulls), and
 * one stream with more rows than a rebuild puts in one INSERT.
 */
const awkward: Projection = {
  name: 'awkward',
  categories: ['awkward'],
  tables: [
    {
      name: 'awkward_rows',
      streamKey: 'id',
      primaryKey: ['id', 'k'],
      columns: [
        { name: 'id', type: 'text' }, { name: 'k', type: 'integer' }, { name: 'label', type: 'text', nullable: true }, { name: 'big', type: 'bigint', nullable: true },
        { name: 'ok', type: 'boolean', nullable: true }, { name: 'day', type: 'date', nullable: true }, { name: 'at', type: 'timestamptz', nullable: true }, { name: 'doc', type: 'jsonb', nullable: true },
      ],
    },
  ],
  key: (s) => s.streamId,
  rows: (s: { streamId: string; events: RecordedEvent[] }) => ({
    awkward_rows: s.events.flatMap((e) => {
      const d = e.data as { labels?: (string | null)[]; many?: number };
      const labels = d.labels ?? Array.from({ length: d.many ?? 0 }, (_, i) => `row ${i}`);
      return labels.map((label, i) => ({
        id: s.streamId,
        k: e.streamVersion * 10_000 + i,
        label,
        big: i % 3 === 0 ? null : String(9_007_199_254_740_993n + BigInt(i)),
        ok: i % 4 === 0 ? null : i % 2 === 0,
        day: i % 5 === 0 ? null : `2026-0${(i % 9) + 1}-2${i % 9}`,
        at: i % 6 === 0 ? null : e.meta.at,
        doc: i % 7 === 0 ? null : [{ type: 'x', value: label }, [i, 'a"b\\c'], { nested: { q: '"{,}"' } }][i % 3],
      }));
    }),
  }),
};

const dump = async (db: Db): Promise<string> =>
  JSON.stringify([
    await db.query('SELECT stream_id, account_id, n, last_position::text AS last_position, types FROM tally_streams ORDER BY stream_id'),
    await db.query('SELECT * FROM tally_events ORDER BY stream_id, version'),
  ]);

export function eventStoreConformance(adapter: string, openDb: () => Promise<Db>): void {
  describe(`EventStore conformance: ${adapter}`, () => {
    let db: Db;
    let store: EventStore;
    const sid = (category = 'tally'): string => `${category}-${randomUUID()}`;

    beforeAll(async () => {
      db = await openDb();
      await migrate(db, storeMigrations);
      store = createEventStore(db, [tally]);
      await store.ensureProjections();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('migrations are idempotent', async () => {
      expect(await migrate(db, storeMigrations)).toEqual([]);
    });

    it('appends to a new stream and reads it back: versions, positions as strings, data and meta round-trip', async () => {
      const s = sid();
      const data = { amount: '123.45', name: 'Tāmaki Plumbing “Ltd”', nested: { list: [1, 2, 3], flag: true, none: null } };
      const r = await store.append(s, 0, [ev('Opened', data), ev('Noted', { text: "it's 'quoted' \\ and ; semi" })]);
      expect(r.version).toBe(2);
      expect(r.events.map((e) => e.streamVersion)).toEqual([1, 2]);
      const snap = await store.readStream(s);
      expect(snap.version).toBe(2);
      expect(snap.events.map((e) => e.type)).toEqual(['Opened', 'Noted']);
      expect(snap.events[0]!.data).toEqual(data);
      expect(snap.events[0]!.meta).toEqual({ accountId: 'acct-a', at: '2026-04-01T00:00:00.000Z' });
      expect(typeof snap.events[0]!.position).toBe('string');
      expect(BigInt(snap.events[1]!.position)).toBeGreaterThan(BigInt(snap.events[0]!.position));
      expect(snap.events[0]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(snap.events[0]!.recordedAt).toISOString()).toBe(snap.events[0]!.recordedAt);
    });

    it('a missing stream reads as version 0 with no events', async () => {
      expect(await store.readStream(sid())).toEqual(expect.objectContaining({ version: 0, events: [] }));
    });

    it("a stream's version without its events: 0 for a missing stream, then its last version, inside the transaction that appends", async () => {
      const s = sid();
      const seen = await store.transaction(async (tx) => {
        const before = await tx.streamVersion(s);
        await tx.append(s, 0, [ev('Opened'), ev('Paid')]);
        return [before, await tx.streamVersion(s)];
      });
      expect(seen).toEqual([0, 2]);
      expect(await store.transaction((tx) => tx.streamVersion(s))).toBe(2);
    });

    it('a stale expected version fails with ConcurrencyError and writes nothing', async () => {
      const s = sid();
      await store.append(s, 0, [ev('Opened')]);
      await expect(store.append(s, 0, [ev('Again')])).rejects.toBeInstanceOf(ConcurrencyError);
      const snap = await store.readStream(s);
      expect(snap.events.map((e) => e.type)).toEqual(['Opened']);
      const [row] = await db.query<{ n: number }>('SELECT n FROM tally_streams WHERE stream_id = $1', [s]);
      expect(Number(row!.n)).toBe(1);
    });

    it('an expected version from the future fails too (no gaps in a stream)', async () => {
      const s = sid();
      await expect(store.append(s, 3, [ev('Opened')])).rejects.toMatchObject({ name: 'ConcurrencyError', expected: 3, actual: 0 });
      expect((await store.readStream(s)).version).toBe(0);
    });

    it('appending an event id already stored is a duplicate command and writes nothing', async () => {
      const s = sid();
      const eventId = randomUUID();
      await store.append(s, 0, [{ ...ev('Opened'), eventId }]);
      await expect(store.append(sid(), 0, [{ ...ev('Opened'), eventId }])).rejects.toBeInstanceOf(DuplicateEventError);
      expect((await store.readStream(s)).version).toBe(1);
    });

    it('a transaction over two streams is atomic: a failure in the second rolls back the first', async () => {
      const a = sid();
      const b = sid();
      await store.append(b, 0, [ev('Opened')]);
      await expect(
        store.transaction(async (tx) => {
          await tx.append(a, 0, [ev('Opened')]);
          await tx.append(b, 0, [ev('Conflicting')]);
        }),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await store.readStream(a)).version).toBe(0);
      expect(await db.query('SELECT 1 FROM tally_streams WHERE stream_id = $1', [a])).toEqual([]);
    });

    it('a failing projection statement rolls the transaction back and is the error reported, whatever ran after the append', async () => {
      // Whatever the command does after an append whose projection write fails, nothing of it is kept.
      const fragile: Projection = {
        name: 'fragile',
        categories: ['fragile'],
        tables: [{ name: 'fragile_rows', streamKey: 'stream_id', primaryKey: ['stream_id'], columns: [{ name: 'stream_id', type: 'text' }, { name: 'n', type: 'integer' }] }],
        key: (st) => st.streamId,
        rows: (st: { streamId: string; events: RecordedEvent[] }) => ({ fragile_rows: [{ stream_id: st.streamId, n: (st.events.at(-1)!.data as { n: unknown }).n }] }),
      };
      const fragileStore = createEventStore(db, [tally, fragile]);
      await fragileStore.ensureProjections();
      const account = `acct-${randomUUID()}`;
      const good = sid('fragile');
      await fragileStore.append(good, 0, [ev('Opened', { n: 1 }, account)]);
      const before = await fragileStore.accountVersion(account);
      // Read back inside the transaction right after the append: the row is there.
      const seen = await fragileStore.transaction(async (tx) => {
        await tx.append(good, 1, [ev('Counted', { n: 7 }, account)]);
        return tx.query<{ n: number }>('SELECT n FROM fragile_rows WHERE stream_id = $1', [good]);
      });
      expect(seen.map((r) => Number(r.n))).toEqual([7]);
      expect(await fragileStore.accountVersion(account)).not.toBe(before);
      const committed = await fragileStore.accountVersion(account);
      const bad = sid('fragile');
      const other = sid();
      for (const after of ['nothing', 'query', 'append', 'throw'] as const) {
        const failure = await fragileStore
          .transaction(async (tx) => {
            await tx.append(bad, 0, [ev('Opened', { n: 'not a number' }, account)]);
            if (after === 'query') await tx.query('SELECT 1');
            if (after === 'append') await tx.append(other, 0, [ev('Opened', {}, account)]);
            if (after === 'throw') throw new Error('the callback failed too');
          })
          .then(() => null, (e: unknown) => e);
        expect(failure, after).toBeInstanceOf(Error);
        expect(String((failure as Error).message), after).toMatch(/invalid input syntax/);
        expect((await fragileStore.readStream(bad)).version, after).toBe(0);
        expect((await fragileStore.readStream(other)).version, after).toBe(0);
        expect(await db.query('SELECT 1 FROM fragile_rows WHERE stream_id = $1', [bad]), after).toEqual([]);
        expect(await fragileStore.accountVersion(account), after).toBe(committed);
      }
    });

    it('an append writes again only the projection rows that changed', async () => {
      const s = sid();
      await store.append(s, 0, [ev('Opened'), ev('Paid')]);
      const written = async (): Promise<Record<string, string>> =>
        Object.fromEntries(
          (await db.query<{ version: number; x: string }>('SELECT version, xmin::text AS x FROM tally_events WHERE stream_id = $1', [s])).map((r) => [String(r.version), r.x]),
        );
      const streamRow = async (): Promise<string> => (await db.query<{ x: string }>('SELECT xmin::text AS x FROM tally_streams WHERE stream_id = $1', [s]))[0]!.x;
      const before = await written();
      const streamBefore = await streamRow();
      await store.append(s, 2, [ev('Paid again')]);
      const after = await written();
      // The two earlier events' rows are the same tuples; the new one and the stream's tally are new.
      expect({ 1: after['1'], 2: after['2'] }).toEqual({ 1: before['1'], 2: before['2'] });
      expect(Object.keys(after).sort()).toEqual(['1', '2', '3']);
      expect(await streamRow()).not.toBe(streamBefore);
      expect((await db.query<{ n: number }>('SELECT n FROM tally_streams WHERE stream_id = $1', [s]))[0]!.n).toBe(3);
    });

    it('inside a transaction, a command reads, decides and appends with the events it loaded', async () => {
      const s = sid();
      await store.append(s, 0, [ev('Opened')]);
      const r = await store.transaction(async (tx) => {
        const snap = await tx.readStream(s);
        return tx.append(s, snap.version, [ev('Closed')], snap.events);
      });
      expect(r.version).toBe(2);
      const [row] = await db.query<{ n: number; types: string[] }>('SELECT n, types FROM tally_streams WHERE stream_id = $1', [s]);
      expect(Number(row!.n)).toBe(2);
      expect(row!.types).toEqual(['Opened', 'Closed']);
      // tally reads the new event's position: it got the one the insert handed out.
      const stored = await store.readStream(s);
      expect(r.events).toEqual(stored.events.slice(1));
      const [tallied] = await db.query<{ last_position: string }>('SELECT last_position::text AS last_position FROM tally_streams WHERE stream_id = $1', [s]);
      expect(tallied!.last_position).toBe(stored.events[1]!.position);
    });

    describe('an append to a stream it loaded, with projections that do not read a new event’s position or time', () => {
      /** Per stream: its event count, the last event's type and data; reads nothing the insert hands out. */
      const plain: Projection = {
        name: 'plain',
        categories: ['plain'],
        tables: [
          {
            name: 'plain_rows',
            streamKey: 'stream_id',
            primaryKey: ['stream_id'],
            columns: [{ name: 'stream_id', type: 'text' }, { name: 'first_position', type: 'bigint' }, { name: 'n', type: 'integer' }, { name: 'last_type', type: 'text' }, { name: 'last_data', type: 'jsonb' }],
          },
        ],
        key: (st) => st.streamId,
        rows: (st: { streamId: string; events: RecordedEvent[] }) => {
          const d = st.events.at(-1)!.data as { n?: unknown };
          return {
            plain_rows: [{ stream_id: st.streamId, first_position: st.events[0]!.position, n: 'n' in d ? d.n : st.events.length, last_type: st.events.at(-1)!.type, last_data: st.events.at(-1)!.data }],
          };
        },
      };
      /** The statements each transaction sent. */
      let sent: string[] = [];
      let plainStore: EventStore;
      beforeAll(async () => {
        const counting: Db = { ...db, tx: (fn, last) => db.tx((sql) => fn({ query: (text, params) => (sent.push(text), sql.query(text, params)) }), last) };
        plainStore = createEventStore(counting, [plain]);
        await plainStore.ensureProjections();
      });
      const command = (s: string, events: NewEvent[]) =>
        plainStore.transaction(async (tx) => {
          const snap = await tx.readStream(s);
          sent = [];
          return tx.append(s, snap.version, events, snap.events);
        });

      it('the events and the projection rows go as one statement, and the events it returns are the stored ones', async () => {
        const s = sid('plain');
        await plainStore.append(s, 0, [ev('Opened', { n: 1 })]);
        const data = { n: 2, text: 'Tēnā koe "quoted" \\ {braces}', nested: { list: [1, 'two', null], empty: {} } };
        const r = await command(s, [ev('Counted', { n: 7 }), ev('Counted', data)]);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatch(/INSERT INTO events/);
        expect(sent[0]).toMatch(/plain_rows/);
        const stored = await plainStore.readStream(s);
        expect(r.events).toEqual(stored.events.slice(1));
        expect(r.events.map((e) => typeof e.position)).toEqual(['string', 'string']);
        expect(await db.query('SELECT first_position::text AS first_position, n, last_type, last_data FROM plain_rows WHERE stream_id = $1', [s])).toEqual([
          { first_position: stored.events[0]!.position, n: 2, last_type: 'Counted', last_data: data },
        ]);
        // The live row is the row a rebuild writes.
        const live = await db.query('SELECT * FROM plain_rows ORDER BY stream_id');
        await plainStore.rebuildProjections(['plain']);
        expect(await db.query('SELECT * FROM plain_rows ORDER BY stream_id')).toEqual(live);
      });

      it('a stale stream is a ConcurrencyError and writes nothing', async () => {
        const s = sid('plain');
        await plainStore.append(s, 0, [ev('Opened', { n: 1 })]);
        const snap = await plainStore.readStream(s);
        await plainStore.append(s, 1, [ev('Elsewhere', { n: 5 })]);
        sent = [];
        const failure = await plainStore.transaction((tx) => tx.append(s, snap.version, [ev('Counted', { n: 9 })], snap.events)).then(() => null, (e: unknown) => e);
        expect(failure).toBeInstanceOf(ConcurrencyError);
        expect(sent).toHaveLength(1);
        expect((await plainStore.readStream(s)).events.map((e) => e.type)).toEqual(['Opened', 'Elsewhere']);
        expect(await db.query<{ n: number }>('SELECT n FROM plain_rows WHERE stream_id = $1', [s])).toEqual([{ n: 5 }]);
      });

      it('a refused projection row fails the statement: the error is the projection’s and nothing is kept', async () => {
        const s = sid('plain');
        await plainStore.append(s, 0, [ev('Opened', { n: 1 })]);
        const failure = await command(s, [ev('Counted', { n: 'not a number' })]).then(() => null, (e: unknown) => e);
        expect(String((failure as Error).message)).toMatch(/invalid input syntax/);
        expect((await plainStore.readStream(s)).version).toBe(1);
        expect(await db.query<{ n: number }>('SELECT n FROM plain_rows WHERE stream_id = $1', [s])).toEqual([{ n: 1 }]);
      });

      it('an event id already stored is a DuplicateEventError and nothing is kept', async () => {
        const s = sid('plain');
        const eventId = randomUUID();
        await plainStore.append(sid('plain'), 0, [{ ...ev('Opened', { n: 1 }), eventId }]);
        await plainStore.append(s, 0, [ev('Opened', { n: 1 })]);
        await expect(command(s, [{ ...ev('Counted', { n: 3 }), eventId }])).rejects.toBeInstanceOf(DuplicateEventError);
        expect((await plainStore.readStream(s)).version).toBe(1);
        expect(await db.query<{ n: number }>('SELECT n FROM plain_rows WHERE stream_id = $1', [s])).toEqual([{ n: 1 }]);
      });
    });

    describe('rows another table keeps for the events (eventRows), written by the append itself', () => {
      /** Per stream: its event count; reads nothing the insert hands out. */
      const counted: Projection = {
        name: 'counted',
        categories: ['counted'],
        tables: [{ name: 'counted_rows', streamKey: 'stream_id', primaryKey: ['stream_id'], columns: [{ name: 'stream_id', type: 'text' }, { name: 'n', type: 'integer' }] }],
        key: (st) => st.streamId,
        rows: (st: { streamId: string; events: RecordedEvent[] }) => ({ counted_rows: [{ stream_id: st.streamId, n: st.events.length }] }),
      };
      /** Two rows ('b' then 'a') for each event of type Kept; `at` as the event's data says, so a test can make it refused. */
      const kept: EventRows = {
        table: 'kept_rows',
        columns: [
          { name: 'label', type: 'text' },
          { name: 'stream_id', type: 'text' },
          { name: 'event_id', type: 'uuid' },
          { name: 'data', type: 'jsonb' },
          { name: 'at', type: 'timestamptz' },
        ],
        positionColumn: 'event_position',
        onConflict: 'ON CONFLICT (label, event_id) DO NOTHING',
        rows: (events) =>
          events
            .filter((e) => e.type === 'Kept')
            .flatMap((e) => ['b', 'a'].map((label) => ({ streamVersion: e.streamVersion, values: [label, e.streamId, e.eventId, e.data, (e.data as { at?: string }).at ?? e.meta.at] }))),
      };
      let sent: string[] = [];
      /** Stores that append in one statement (counted), in two (tally reads a new event's position) and with no projection at all (other). */
      let keeping: EventStore;
      beforeAll(async () => {
        await db.exec(`CREATE TABLE IF NOT EXISTS kept_rows (
          id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, label text NOT NULL, stream_id text NOT NULL, event_id uuid NOT NULL,
          event_position bigint NOT NULL, data jsonb NOT NULL, at timestamptz NOT NULL, UNIQUE (label, event_id))`);
        const counting: Db = { ...db, tx: (fn, last) => db.tx((sql) => fn({ query: (text, params) => (sent.push(text), sql.query(text, params)) }), last) };
        keeping = createEventStore(counting, [counted, tally], { eventRows: kept });
        await keeping.ensureProjections();
      });
      const rowsOf = (s: string) =>
        db.query<{ label: string; event_id: string; event_position: string; data: unknown; at: string }>(
          `SELECT label, event_id::text AS event_id, event_position::text AS event_position, data, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS at
           FROM kept_rows WHERE stream_id = $1 ORDER BY id`,
          [s],
        );
      const command = (s: string, events: NewEvent[]) =>
        keeping.transaction(async (tx) => {
          const snap = await tx.readStream(s);
          sent = [];
          return tx.append(s, snap.version, events, snap.events);
        });

      it.each([
        ['counted', 1],
        ['tally', 2],
        ['other', 1],
      ])('on a stream of category %s: one row per event as asked, in order, each with its event’s position, sent in %i statement(s)', async (category, statements) => {
        const s = sid(category);
        await keeping.append(s, 0, [ev('Opened')]);
        const r = await command(s, [ev('Kept', { n: 1 }), ev('Skipped'), ev('Kept', { n: 3 })]);
        expect(sent).toHaveLength(statements);
        expect(sent[0]).toMatch(/INSERT INTO events[\s\S]*INSERT INTO kept_rows/);
        const [first, , third] = r.events;
        expect(await rowsOf(s)).toEqual([
          { label: 'b', event_id: first!.eventId, event_position: first!.position, data: { n: 1 }, at: '2026-04-01T00:00:00' },
          { label: 'a', event_id: first!.eventId, event_position: first!.position, data: { n: 1 }, at: '2026-04-01T00:00:00' },
          { label: 'b', event_id: third!.eventId, event_position: third!.position, data: { n: 3 }, at: '2026-04-01T00:00:00' },
          { label: 'a', event_id: third!.eventId, event_position: third!.position, data: { n: 3 }, at: '2026-04-01T00:00:00' },
        ]);
        expect(r.events).toEqual((await keeping.readStream(s)).events.slice(1));
      });

      it('they roll back with the events: a stale version, or a failure later in the transaction, leaves no row', async () => {
        const s = sid('counted');
        await keeping.append(s, 0, [ev('Opened')]);
        const snap = await keeping.readStream(s);
        await keeping.append(s, 1, [ev('Elsewhere')]);
        await expect(keeping.transaction((tx) => tx.append(s, snap.version, [ev('Kept')], snap.events))).rejects.toBeInstanceOf(ConcurrencyError);
        await expect(
          keeping.transaction(async (tx) => {
            const now = await tx.readStream(s);
            await tx.append(s, now.version, [ev('Kept')], now.events);
            throw new Error('the command failed after its append');
          }),
        ).rejects.toThrow('the command failed after its append');
        expect(await rowsOf(s)).toEqual([]);
        expect((await keeping.readStream(s)).events.map((e) => e.type)).toEqual(['Opened', 'Elsewhere']);
      });

      it.each(['counted', 'tally', 'other'])('on a stream of category %s, a refused row fails the append: its error is reported and no event is kept', async (category) => {
        const s = sid(category);
        await keeping.append(s, 0, [ev('Opened')]);
        const failure = await command(s, [ev('Kept', { at: 'not a time' })]).then(() => null, (e: unknown) => e);
        expect(String((failure as Error).message)).toMatch(/invalid input syntax|time/);
        expect((await keeping.readStream(s)).version).toBe(1);
        expect(await rowsOf(s)).toEqual([]);
      });
    });

    it('an event without an owning account is refused', async () => {
      await expect(store.append(sid(), 0, [{ type: 'X', version: 1, data: {}, meta: { accountId: '', at: 'x' } }])).rejects.toThrow(/accountId/);
    });

    it('concurrent appends at the same expected version: exactly one wins', async () => {
      const s = sid();
      await store.append(s, 0, [ev('Opened')]);
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => store.append(s, 1, [ev(`Writer${i}`)])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      expect((await store.readStream(s)).version).toBe(2);
    });

    it('readAll returns committed events after a position, in order, up to the limit', async () => {
      const start = (await db.query<{ p: string }>('SELECT coalesce(max(position), 0)::text AS p FROM events'))[0]!.p;
      const s1 = sid();
      const s2 = sid();
      await store.append(s1, 0, [ev('A1'), ev('A2')]);
      await store.append(s2, 0, [ev('B1')]);
      await store.append(s1, 2, [ev('A3')]);
      const all = await store.readAll(start, 100);
      expect(all.map((e) => e.type)).toEqual(['A1', 'A2', 'B1', 'A3']);
      const positions = all.map((e) => BigInt(e.position));
      expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
      expect((await store.readAll(start, 2)).map((e) => e.type)).toEqual(['A1', 'A2']);
      expect((await store.readAll(all[1]!.position, 100)).map((e) => e.type)).toEqual(['B1', 'A3']);
    });

    it('the account version: moved on by every commit that appends for the account and by a rebuild, by nothing else', async () => {
      const acct = `acct-${randomUUID()}`;
      const other = `acct-${randomUUID()}`;
      const version = async (a = acct): Promise<bigint> => BigInt(await store.accountVersion(a));
      expect(await store.accountVersion(acct)).toBe('0');
      const s = sid();
      await store.append(s, 0, [ev('Opened', {}, acct)]);
      const v1 = await version();
      expect(v1).toBeGreaterThan(0n);
      // One transaction appending to several streams, of two accounts: each account moves on.
      await store.transaction(async (tx) => {
        await tx.append(s, 1, [ev('Paid', {}, acct)]);
        await tx.append(sid(), 0, [ev('Drafted', {}, acct)]);
        await tx.append(sid(), 0, [ev('Theirs', {}, other)]);
      });
      const v2 = await version();
      expect(v2).toBeGreaterThan(v1);
      expect(await version(other)).toBeGreaterThan(0n);
      // A refused append, a rolled-back transaction, a transaction that only reads, another account's append: no change.
      await expect(store.append(s, 1, [ev('Stale', {}, acct)])).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(
        store.transaction(async (tx) => {
          await tx.append(s, 2, [ev('Undone', {}, acct)]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await store.transaction((tx) => tx.readStream(s));
      await store.append(sid(), 0, [ev('Theirs again', {}, other)]);
      expect(await version()).toBe(v2);
      expect((await store.readStream(s)).version).toBe(2);
      // A rebuild writes the read models anew: every account moves on.
      await store.rebuildProjections();
      expect(await version()).toBeGreaterThan(v2);
    });

    it('a failing account-version statement (sent with the COMMIT) rolls the whole transaction back and is the error reported', async () => {
      const acct = `acct-${randomUUID()}`;
      const s = sid();
      await store.append(s, 0, [ev('Opened', {}, acct)]);
      expect(await store.accountVersion(acct)).toBe('1');
      // The account's version may not pass 1: its next commit's last statement fails on the server.
      const constraint = `refuse_${randomUUID().replaceAll('-', '')}`;
      await db.query(`ALTER TABLE account_versions ADD CONSTRAINT ${constraint} CHECK (account_id <> '${acct}' OR version < 2)`);
      try {
        const other = sid();
        const failure = await store
          .transaction(async (tx) => {
            await tx.append(s, 1, [ev('Paid', {}, acct)]);
            await tx.append(other, 0, [ev('Opened', {}, acct)]);
            return 'decided';
          })
          .then(() => null, (e: unknown) => e);
        expect(failure).toBeInstanceOf(Error);
        expect(String((failure as Error).message)).toMatch(new RegExp(constraint));
        expect((await store.readStream(s)).version).toBe(1);
        expect((await store.readStream(other)).version).toBe(0);
        expect((await db.query<{ n: number }>('SELECT n FROM tally_streams WHERE stream_id = $1', [s])).map((r) => Number(r.n))).toEqual([1]);
        expect(await db.query('SELECT 1 FROM tally_streams WHERE stream_id = $1', [other])).toEqual([]);
        expect(await store.accountVersion(acct)).toBe('1');
        // The connection it ran on is fine afterwards: many more commands of other accounts go through.
        await Promise.all(Array.from({ length: 6 }, (_, i) => store.append(sid(), 0, [ev(`After${i}`, {}, `acct-${randomUUID()}`)])));
      } finally {
        await db.query(`ALTER TABLE account_versions DROP CONSTRAINT ${constraint}`);
      }
      await store.append(s, 1, [ev('Paid', {}, acct)]);
      expect(await store.accountVersion(acct)).toBe('2');
    });

    it('the account version moves on once per commit when many commit at once', async () => {
      const acct = `acct-${randomUUID()}`;
      await store.append(sid(), 0, [ev('Opened', {}, acct)]);
      const before = BigInt(await store.accountVersion(acct));
      await Promise.all(Array.from({ length: 12 }, (_, i) => store.append(sid(), 0, [ev(`Writer${i}`, {}, acct)])));
      expect(BigInt(await store.accountVersion(acct))).toBe(before + 12n);
    });

    it('readAccount returns one account’s events only', async () => {
      const acct = `acct-${randomUUID()}`;
      await store.append(sid(), 0, [ev('Mine', {}, acct)]);
      await store.append(sid(), 0, [ev('Theirs', {}, 'acct-other')]);
      expect((await store.readAccount(acct)).map((e) => e.type)).toEqual(['Mine']);
    });

    it('a rebuild gives byte-identical projection tables, and rebuilding twice changes nothing', async () => {
      for (let i = 0; i < 5; i++) {
        const s = sid();
        await store.append(s, 0, [ev('Opened'), ev('Step')]);
        if (i % 2 === 0) await store.append(s, 2, [ev('Closed')]);
      }
      const live = await dump(db);
      const r = await store.rebuildProjections();
      expect(r.events).toBeGreaterThan(0);
      expect(await dump(db)).toBe(live);
      await store.rebuildProjections(['tally']);
      expect(await dump(db)).toBe(live);
    });

    it('a rebuild inserts awkward values and many rows exactly as the live projection wrote them', async () => {
      const odd = createEventStore(db, [awkward]);
      await odd.ensureProjections();
      const labels = ['plain', 'with "quotes"', 'back\\slash \\"', '{braces},commas', 'NULL', '', 'new\nline', 'tāmaki ✓', null, ' spaced '];
      const first = sid('awkward');
      await odd.append(first, 0, [ev('Labels', { labels })]);
      await odd.append(sid('awkward'), 0, [ev('Many', { many: 2_345 }), ev('Labels', { labels: labels.slice(0, 3) })]);
      const labelsOf = async (): Promise<unknown[]> =>
        (await db.query<{ label: string | null }>('SELECT label FROM awkward_rows WHERE id = $1 ORDER BY k', [first])).map((r) => r.label);
      const dumpAwkward = async (): Promise<string[]> =>
        (await db.query<{ r: string }>(`SELECT t::text AS r FROM awkward_rows t ORDER BY id, k`)).map((x) => x.r);
      expect(await labelsOf()).toEqual(labels);
      const live = await dumpAwkward();
      expect(live).toHaveLength(labels.length + 2_345 + 3);
      await odd.rebuildProjections();
      expect(await labelsOf()).toEqual(labels);
      const rebuilt = await dumpAwkward();
      // The first row that differs, if any (the whole dump is thousands of rows).
      const differs = rebuilt.findIndex((r, i) => r !== live[i]);
      expect(differs === -1 ? null : { at: differs, live: live[differs], rebuilt: rebuilt[differs] }).toBeNull();
      expect(rebuilt).toHaveLength(live.length);
    });

    it('ensureProjections leaves an unchanged projection alone and rebuilds one whose shape changed', async () => {
      expect(await store.ensureProjections()).toEqual([]);
      const before = await dump(db);
      const [streams, events] = tally.tables as [ProjectionTable, ProjectionTable];
      const changed: Projection = { ...tally, tables: [streams, { ...events, indexes: { tally_events_type: '(type)' } }] };
      const store2 = createEventStore(db, [changed]);
      expect(await store2.ensureProjections()).toEqual(['tally']);
      expect(await dump(db)).toBe(before);
    });
  });
}
