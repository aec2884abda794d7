// One conformance suite for every EventStore adapter: the PGlite run (eventStore.spec.ts) and
// the real PostgreSQL run (eventStore.pg.spec.ts) call this with their own way to open a Db.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConcurrencyError, DuplicateEventError, createEventStore, migrate, storeMigrations,
  type Db, type EventRows, type EventStore, type NewEvent, type Projection, type ProjectionTable, type RecordedEvent, type RowInsert, type StoreTx,
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

    describe('a command (EventStore.command): its reads, then its appends and rows as ONE statement, without BEGIN or COMMIT', () => {
      /**
       * Per stream: its event count, the last event's type and a label the events may set (so an
       * append can leave the stream's row unchanged, or change some of its columns); one row per
       * event (each unchanged by later appends unless an event drops it), and a row per note.
       */
      const ledger: Projection = {
        name: 'ledger',
        categories: ['ledger'],
        tables: [
          {
            name: 'ledger_streams',
            streamKey: 'stream_id',
            primaryKey: ['stream_id'],
            columns: [
              { name: 'stream_id', type: 'text' }, { name: 'account_id', type: 'text' }, { name: 'n', type: 'integer' }, { name: 'last_type', type: 'text' },
              { name: 'label', type: 'text' }, { name: 'amount', type: 'integer' }, { name: 'tags', type: 'jsonb' },
            ],
          },
          { name: 'ledger_events', streamKey: 'stream_id', primaryKey: ['stream_id', 'version'], columns: [{ name: 'stream_id', type: 'text' }, { name: 'version', type: 'integer' }, { name: 'type', type: 'text' }] },
          { name: 'ledger_notes', streamKey: 'stream_id', primaryKey: ['stream_id', 'note'], columns: [{ name: 'stream_id', type: 'text' }, { name: 'note', type: 'text' }, { name: 'amount', type: 'integer' }] },
        ],
        key: (st) => st.streamId,
        rows(st: { streamId: string; events: RecordedEvent[] }) {
          const data = st.events.map((e) => e.data as { label?: string; amount?: unknown; drop?: number; note?: string });
          const dropped = new Set(data.flatMap((d) => (d.drop === undefined ? [] : [d.drop])));
          const label = data.reduce<string>((l, d) => d.label ?? l, '');
          const amount = data.reduce<unknown>((a, d) => d.amount ?? a, 0);
          return {
            ledger_streams: [{ stream_id: st.streamId, account_id: st.events[0]!.meta.accountId, n: st.events.length, last_type: st.events.at(-1)!.type, label, amount, tags: { label, n: st.events.length > 2 ? 'many' : 'few' } }],
            ledger_events: st.events.filter((e) => !dropped.has(e.streamVersion)).map((e) => ({ stream_id: st.streamId, version: e.streamVersion, type: e.type })),
            ledger_notes: data.flatMap((d) => (d.note === undefined ? [] : [{ stream_id: st.streamId, note: d.note, amount }])),
          };
        },
      };
      const answers: EventRows = {
        table: 'ledger_outbox',
        columns: [{ name: 'stream_id', type: 'text' }, { name: 'event_id', type: 'uuid' }, { name: 'payload', type: 'jsonb' }],
        positionColumn: 'event_position',
        onConflict: 'ON CONFLICT (event_id) DO NOTHING',
        rows: (events) => events.filter((e) => e.type === 'Paid').map((e) => ({ streamVersion: e.streamVersion, values: [e.streamId, e.eventId, e.data] })),
      };
      /** A row kept with a command (as an Idempotency-Key's answer is): unique per key. */
      const keyRow = (key: string, answer: unknown, accountId = 'acct-a'): RowInsert => ({
        table: 'ledger_keys',
        columns: [{ name: 'account_id', type: 'text' }, { name: 'key', type: 'text' }, { name: 'answer', type: 'jsonb' }],
        values: [accountId, key, answer],
      });
      /** Every statement sent, as `pool` (outside a transaction), `tx` (a transaction began), `in` (inside it) or `last` (with its COMMIT). */
      let sent: { how: 'pool' | 'tx' | 'in' | 'last'; text: string }[] = [];
      let ledgerStore: EventStore;
      let counting: Db;
      beforeAll(async () => {
        await db.exec(`CREATE TABLE IF NOT EXISTS ledger_keys (account_id text NOT NULL, key text NOT NULL, answer jsonb NOT NULL, PRIMARY KEY (account_id, key));
          CREATE TABLE IF NOT EXISTS ledger_outbox (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, event_id uuid NOT NULL UNIQUE, event_position bigint NOT NULL, payload jsonb NOT NULL)`);
        counting = {
          ...db,
          query: (text, params) => (sent.push({ how: 'pool', text }), db.query(text, params)),
          tx: (fn, last) => {
            sent.push({ how: 'tx', text: 'BEGIN' });
            return db.tx(
              (sql) => fn({ query: (text, params) => (sent.push({ how: 'in', text }), sql.query(text, params)) }),
              last &&
                (() => {
                  const statement = last();
                  if (statement) sent.push({ how: 'last', text: statement.text });
                  return statement;
                }),
            );
          },
        };
        ledgerStore = createEventStore(counting, [ledger, tally], { eventRows: answers });
        await ledgerStore.ensureProjections();
      });
      const acct = (): string => `acct-${randomUUID()}`;
      /** A stream of `account` with two events, the second of them a payment. */
      const opened = async (account: string): Promise<string> => {
        const s = sid('ledger');
        await ledgerStore.append(s, 0, [ev('Opened', { label: 'new', amount: 1, note: 'first' }, account), ev('Paid', { amount: 2 }, account)]);
        return s;
      };
      /** The command a handler runs: read the stream, decide, append with the version read, and keep a row. */
      const pay = (s: string, events: NewEvent[], row?: RowInsert, after?: (tx: StoreTx) => Promise<unknown>) =>
        ledgerStore.command(async (tx) => {
          const snap = await tx.readStream(s);
          const r = await tx.append(s, snap.version, events, snap.events);
          if (row) tx.insert(row);
          await after?.(tx);
          return r;
        });
      const rowsOf = async (s: string) => ({
        stream: await db.query('SELECT n, last_type, label, amount, tags FROM ledger_streams WHERE stream_id = $1', [s]),
        events: await db.query('SELECT version, type FROM ledger_events WHERE stream_id = $1 ORDER BY version', [s]),
        notes: await db.query('SELECT note, amount FROM ledger_notes WHERE stream_id = $1 ORDER BY note', [s]),
        outbox: (await db.query<{ payload: unknown }>('SELECT payload FROM ledger_outbox WHERE stream_id = $1 ORDER BY id', [s])).map((r) => r.payload),
      });
      const tuples = async (s: string): Promise<Record<string, string>> =>
        Object.fromEntries([
          ...(await db.query<{ x: string }>('SELECT xmin::text AS x FROM ledger_streams WHERE stream_id = $1', [s])).map((r) => ['stream', r.x]),
          ...(await db.query<{ v: number; x: string }>('SELECT version AS v, xmin::text AS x FROM ledger_events WHERE stream_id = $1', [s])).map((r) => [`event ${r.v}`, r.x]),
          ...(await db.query<{ note: string; x: string }>('SELECT note, xmin::text AS x FROM ledger_notes WHERE stream_id = $1', [s])).map((r) => [`note ${r.note}`, r.x]),
        ]);
      const liveEqualsRebuild = async (): Promise<void> => {
        const dumpLedger = async () => [
          await db.query('SELECT t::text AS r FROM ledger_streams t ORDER BY 1'),
          await db.query('SELECT t::text AS r FROM ledger_events t ORDER BY 1'),
          await db.query('SELECT t::text AS r FROM ledger_notes t ORDER BY 1'),
        ];
        const live = await dumpLedger();
        await ledgerStore.rebuildProjections(['ledger']);
        expect(await dumpLedger()).toEqual(live);
      };

      it('sends the read, then one statement: the events, the rows that changed, the rows kept with them and the account version', async () => {
        const account = acct();
        const s = await opened(account);
        const before = await ledgerStore.accountVersion(account);
        const earlier = await tuples(s);
        sent = [];
        const r = await pay(s, [ev('Paid', { amount: 5 }, account)], keyRow(`k-${s}`, { paid: 5 }, account));
        expect(sent.map((x) => x.how)).toEqual(['pool', 'pool']);
        expect(sent[0]!.text).toMatch(/FROM events WHERE stream_id/);
        expect(sent[1]!.text).toMatch(/^WITH e AS \(INSERT INTO events/);
        for (const part of ['UPDATE ledger_streams', 'INSERT INTO ledger_events', 'UPDATE ledger_notes', 'INSERT INTO ledger_outbox', 'INSERT INTO ledger_keys', 'INSERT INTO account_versions']) {
          expect(sent[1]!.text).toContain(part);
        }
        // Nothing for the rows that stay as they were (the earlier events'), nor a DELETE where nothing went.
        expect(sent[1]!.text).toMatch(/INSERT INTO ledger_events \(stream_id, version, type\) VALUES \(\$\d+::text, \$\d+::integer, \$\d+::text\) ON CONFLICT/);
        expect(sent[1]!.text).not.toContain('UPDATE ledger_events');
        expect(sent[1]!.text).not.toContain('DELETE');
        // The stream's row: only the columns that changed (n, amount, tags), not its key, its label nor its last type (Paid again).
        expect(sent[1]!.text).toMatch(/UPDATE ledger_streams SET n = \$\d+::integer, amount = \$\d+::integer, tags = \$\d+::jsonb WHERE stream_id = \$\d+::text/);
        expect(await rowsOf(s)).toEqual({
          stream: [{ n: 3, last_type: 'Paid', label: 'new', amount: 5, tags: { label: 'new', n: 'many' } }],
          events: [{ version: 1, type: 'Opened' }, { version: 2, type: 'Paid' }, { version: 3, type: 'Paid' }],
          notes: [{ note: 'first', amount: 5 }],
          outbox: [{ amount: 2 }, { amount: 5 }],
        });
        const later = await tuples(s);
        expect({ e1: later['event 1'], e2: later['event 2'] }).toEqual({ e1: earlier['event 1'], e2: earlier['event 2'] });
        expect(later.stream).not.toBe(earlier.stream);
        expect(await db.query('SELECT answer FROM ledger_keys WHERE key = $1', [`k-${s}`])).toEqual([{ answer: { paid: 5 } }]);
        expect(BigInt(await ledgerStore.accountVersion(account))).toBe(BigInt(before) + 1n);
        // The events it returns are the stored ones, positions and all.
        expect(r.events).toEqual((await ledgerStore.readStream(s)).events.slice(2));
        await liveEqualsRebuild();
      });

      it('a changed row of many, a new one and one that went: an update, an insert and a delete, the others left alone', async () => {
        const s = await opened(acct());
        await pay(s, [ev('Noted', { note: 'second' })]);
        const earlier = await tuples(s);
        sent = [];
        // A new amount changes both notes' rows; event 2's row goes; a third note is new.
        await pay(s, [ev('Noted', { note: 'third', amount: 9, drop: 2 })]);
        expect(sent[1]!.text).toMatch(/DELETE FROM ledger_events WHERE \(stream_id, version\) IN/);
        expect(sent[1]!.text.match(/UPDATE ledger_notes SET amount = /g)).toHaveLength(2);
        expect(await rowsOf(s)).toMatchObject({
          events: [{ version: 1, type: 'Opened' }, { version: 3, type: 'Noted' }, { version: 4, type: 'Noted' }],
          notes: [{ note: 'first', amount: 9 }, { note: 'second', amount: 9 }, { note: 'third', amount: 9 }],
        });
        const later = await tuples(s);
        expect({ e1: later['event 1'], e3: later['event 3'] }).toEqual({ e1: earlier['event 1'], e3: earlier['event 3'] });
        await liveEqualsRebuild();
      });

      it('a stale version inside the one statement: ConcurrencyError, and nothing of it is kept', async () => {
        const account = acct();
        const s = await opened(account);
        const snap = await ledgerStore.readStream(s);
        await ledgerStore.append(s, 2, [ev('Paid', { amount: 3 }, account)]);
        const kept = await rowsOf(s);
        const version = await ledgerStore.accountVersion(account);
        sent = [];
        const failure = await ledgerStore
          .command(async (tx) => {
            await tx.append(s, snap.version, [ev('Paid', { amount: 7, label: 'stale' }, account)], snap.events);
            tx.insert(keyRow(`k-${s}`, {}, account));
          })
          .then(() => null, (e: unknown) => e);
        expect(failure).toBeInstanceOf(ConcurrencyError);
        expect(failure).toMatchObject({ streamId: s, expected: 2 });
        expect(sent.map((x) => x.how)).toEqual(['pool']);
        expect(await rowsOf(s)).toEqual(kept);
        expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`k-${s}`])).toEqual([]);
        expect(await ledgerStore.accountVersion(account)).toBe(version);
      });

      it('concurrent commands at the same version: exactly one wins, the others are ConcurrencyError and keep nothing', async () => {
        const s = await opened(acct());
        // Six commands that all read the stream at version 2 (as if each had read it just before the others wrote).
        const snap = await ledgerStore.readStream(s);
        const results = await Promise.allSettled(
          Array.from({ length: 6 }, (_, i) =>
            ledgerStore.command(async (tx) => {
              await tx.append(s, snap.version, [ev('Paid', { amount: 10 + i })], snap.events);
              tx.insert(keyRow(`race-${s}-${i}`, { i }));
            }),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
        expect((await ledgerStore.readStream(s)).version).toBe(3);
        expect(await db.query('SELECT 1 FROM ledger_keys WHERE key LIKE $1', [`race-${s}-%`])).toHaveLength(1);
        expect((await rowsOf(s)).outbox).toHaveLength(2);
        await liveEqualsRebuild();
      });

      it('a row kept with the command whose key is taken (a duplicate Idempotency-Key) fails the whole statement, also when two race', async () => {
        const account = acct();
        const [a, b, c] = [await opened(account), await opened(account), await opened(account)];
        const version = await ledgerStore.accountVersion(account);
        await pay(a, [ev('Paid', { amount: 4 }, account)], keyRow(`dup-${a}`, { first: true }, account));
        const refusedOnKey = (e: unknown): boolean => (e as { code?: string }).code === '23505' && /ledger_keys/.test(String((e as { constraint_name?: string; constraint?: string }).constraint_name ?? (e as { constraint?: string }).constraint));
        const again = await pay(b, [ev('Paid', { amount: 4 }, account)], keyRow(`dup-${a}`, { second: true }, account)).then(() => null, (e: unknown) => e);
        expect(refusedOnKey(again)).toBe(true);
        // Two at once with one key, on two streams: one is kept, whole; the other, nothing.
        const raced = await Promise.allSettled([b, c].map((s) => pay(s, [ev('Paid', { amount: 6 }, account)], keyRow(`race-${a}`, { s }, account))));
        expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const lost = raced.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
        expect(refusedOnKey(lost.reason)).toBe(true);
        const versions = [(await ledgerStore.readStream(b)).version, (await ledgerStore.readStream(c)).version].sort();
        expect(versions).toEqual([2, 3]);
        expect((await rowsOf(b)).outbox.length + (await rowsOf(c)).outbox.length).toBe(3);
        expect(await db.query('SELECT answer FROM ledger_keys WHERE key = $1', [`dup-${a}`])).toEqual([{ answer: { first: true } }]);
        // Two commands kept: the account moved on twice.
        expect(BigInt(await ledgerStore.accountVersion(account))).toBe(BigInt(version) + 2n);
        await liveEqualsRebuild();
      });

      it('a projection row the database refuses fails the whole statement: its error, and nothing kept', async () => {
        const account = acct();
        const s = await opened(account);
        const kept = await rowsOf(s);
        const version = await ledgerStore.accountVersion(account);
        const failure = await pay(s, [ev('Paid', { amount: 'not a number' }, account)], keyRow(`bad-${s}`, {}, account)).then(() => null, (e: unknown) => e);
        expect(String((failure as Error).message)).toMatch(/invalid input syntax/);
        expect((await ledgerStore.readStream(s)).version).toBe(2);
        expect(await rowsOf(s)).toEqual(kept);
        expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`bad-${s}`])).toEqual([]);
        expect(await ledgerStore.accountVersion(account)).toBe(version);
      });

      it('a failing account-version upsert fails the whole statement and keeps nothing', async () => {
        const account = acct();
        const s = await opened(account);
        const constraint = `refuse_${randomUUID().replaceAll('-', '')}`;
        await db.query(`ALTER TABLE account_versions ADD CONSTRAINT ${constraint} CHECK (account_id <> '${account}' OR version < 2)`);
        try {
          const failure = await pay(s, [ev('Paid', { amount: 8 }, account)], keyRow(`acct-${s}`, {}, account)).then(() => null, (e: unknown) => e);
          expect(String((failure as Error).message)).toMatch(new RegExp(constraint));
          expect((await ledgerStore.readStream(s)).version).toBe(2);
          expect((await rowsOf(s)).stream).toMatchObject([{ n: 2, amount: 2 }]);
          expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`acct-${s}`])).toEqual([]);
        } finally {
          await db.query(`ALTER TABLE account_versions DROP CONSTRAINT ${constraint}`);
        }
      });

      it('a read-model row that is not where the store left it: that statement keeps nothing, and the stream’s rows are written whole', async () => {
        const s = await opened(acct());
        // Gone behind the store's back (a rebuild running at the same time, or other code).
        await db.query('DELETE FROM ledger_streams WHERE stream_id = $1', [s]);
        await db.query(`UPDATE ledger_notes SET amount = 99 WHERE stream_id = $1`, [s]);
        sent = [];
        await pay(s, [ev('Paid', { amount: 6 })]);
        // The first statement failed on the missing row (SR001) and kept nothing; the second wrote every row.
        expect(sent.filter((x) => x.how === 'pool').map((x) => /UPDATE ledger_streams/.test(x.text))).toEqual([false, true, false]);
        expect((await ledgerStore.readStream(s)).version).toBe(3);
        expect(await rowsOf(s)).toMatchObject({ stream: [{ n: 3, amount: 6 }], notes: [{ note: 'first', amount: 6 }] });
        await liveEqualsRebuild();
        // Inside a transaction the command is refused with ConcurrencyError instead, and its retry writes the rows whole.
        await db.query('DELETE FROM ledger_streams WHERE stream_id = $1', [s]);
        const inTx = () => pay(s, [ev('Paid', { amount: 7 })], undefined, (tx) => tx.query('SELECT 1'));
        await expect(inTx()).rejects.toBeInstanceOf(ConcurrencyError);
        expect((await ledgerStore.readStream(s)).version).toBe(3);
        await inTx();
        expect(await rowsOf(s)).toMatchObject({ stream: [{ n: 4, amount: 7 }] });
        await liveEqualsRebuild();
      });

      it('a statement of the callback’s own opens a transaction: the appends gathered are written in it first, and it is atomic with them', async () => {
        const account = acct();
        const s = await opened(account);
        const version = await ledgerStore.accountVersion(account);
        sent = [];
        const seen = await pay(s, [ev('Paid', { amount: 11 }, account)], keyRow(`tx-${s}`, {}, account), (tx) => tx.query<{ amount: number }>('SELECT amount FROM ledger_streams WHERE stream_id = $1', [s]));
        expect(seen.version).toBe(3);
        expect(sent.map((x) => x.how)).toEqual(['pool', 'tx', 'in', 'in', 'last']);
        expect(sent[2]!.text).toMatch(/INSERT INTO events[\s\S]*ledger_keys/);
        expect(sent[2]!.text).not.toContain('account_versions');
        expect(sent[4]!.text).toContain('INSERT INTO account_versions');
        expect(BigInt(await ledgerStore.accountVersion(account))).toBe(BigInt(version) + 1n);
        // The same with a failure after the statement: nothing kept.
        const kept = await rowsOf(s);
        const failure = await pay(s, [ev('Paid', { amount: 12 }, account)], keyRow(`tx2-${s}`, {}, account), async (tx) => {
          await tx.query('SELECT 1');
          throw new Error('the command failed after its statement');
        }).then(() => null, (e: unknown) => e);
        expect(String((failure as Error).message)).toBe('the command failed after its statement');
        expect(await rowsOf(s)).toEqual(kept);
        expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`tx2-${s}`])).toEqual([]);
        expect(BigInt(await ledgerStore.accountVersion(account))).toBe(BigInt(version) + 1n);
      });

      it('reading a stream it appended to writes the append first and reads it; a second append to it follows the first in the same write', async () => {
        const s = await opened(acct());
        const seen = await ledgerStore.command(async (tx) => {
          const snap = await tx.readStream(s);
          const first = await tx.append(s, snap.version, [ev('Paid', { amount: 1 })], snap.events);
          await tx.append(s, first.version, [ev('Noted', { note: 'follows' })]);
          return (await tx.readStream(s)).events.map((e) => e.type);
        });
        expect(seen).toEqual(['Opened', 'Paid', 'Paid', 'Noted']);
        sent = [];
        const r = await ledgerStore.command(async (tx) => {
          const snap = await tx.readStream(s);
          await tx.append(s, snap.version, [ev('Paid', { amount: 2 })], snap.events);
          return tx.append(s, snap.version + 1, [ev('Noted', { note: 'and again' })]);
        });
        expect(r.version).toBe(6);
        expect(sent.map((x) => x.how)).toEqual(['pool', 'pool']);
        await expect(
          ledgerStore.command(async (tx) => {
            const snap = await tx.readStream(s);
            await tx.append(s, snap.version, [ev('Paid', { amount: 3 })], snap.events);
            await tx.append(s, snap.version, [ev('Paid', { amount: 4 })]);
          }),
        ).rejects.toBeInstanceOf(ConcurrencyError);
        expect((await ledgerStore.readStream(s)).version).toBe(6);
        await liveEqualsRebuild();
      });

      it('a projection that reads a new event’s position: the insert, then the rows, in a transaction; its rows have the positions handed out', async () => {
        const s = sid();
        await ledgerStore.append(s, 0, [ev('Opened')]);
        sent = [];
        const r = await ledgerStore.command(async (tx) => {
          const snap = await tx.readStream(s);
          tx.insert(keyRow(`pos-${s}`, {}));
          return tx.append(s, snap.version, [ev('Closed')], snap.events);
        });
        expect(sent.map((x) => x.how)).toEqual(['pool', 'tx', 'in', 'in', 'last']);
        const stored = await ledgerStore.readStream(s);
        expect(r.events).toEqual(stored.events.slice(1));
        const [row] = await db.query<{ last_position: string }>('SELECT last_position::text AS last_position FROM tally_streams WHERE stream_id = $1', [s]);
        expect(row!.last_position).toBe(stored.events[1]!.position);
        expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`pos-${s}`])).toHaveLength(1);
      });

      it('rollback keeps nothing, and the callback’s value is still the answer', async () => {
        const s = await opened(acct());
        for (const open of [false, true]) {
          const value = await pay(s, [ev('Paid', { amount: 5 })], keyRow(`rb-${s}-${open}`, {}), async (tx) => {
            if (open) await tx.query('SELECT 1');
            tx.rollback();
          });
          expect(value.version, String(open)).toBe(3);
          expect((await ledgerStore.readStream(s)).version, String(open)).toBe(2);
          expect(await db.query('SELECT 1 FROM ledger_keys WHERE key = $1', [`rb-${s}-${open}`])).toEqual([]);
        }
      });

      it('EventStore.write: a loaded stream, the decided events and a row kept with them, as one statement', async () => {
        const account = acct();
        const s = await opened(account);
        const snap = await ledgerStore.readStream(s);
        sent = [];
        const [r] = await ledgerStore.write({ appends: [{ streamId: s, expectedVersion: snap.version, events: [ev('Paid', { amount: 13 }, account)], loaded: snap.events }], rows: [keyRow(`w-${s}`, { ok: 1 }, account)] });
        expect(sent.map((x) => x.how)).toEqual(['pool']);
        expect(r!.version).toBe(3);
        expect(r!.events).toEqual((await ledgerStore.readStream(s)).events.slice(2));
        expect(await db.query('SELECT answer FROM ledger_keys WHERE key = $1', [`w-${s}`])).toEqual([{ answer: { ok: 1 } }]);
        await expect(ledgerStore.write({ appends: [{ streamId: s, expectedVersion: snap.version, events: [ev('Paid', { amount: 14 }, account)], loaded: snap.events }] })).rejects.toBeInstanceOf(ConcurrencyError);
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
