// The EventStore port. Two adapters (PGlite, postgres.js) implement `Db`; everything above
// `Db` (append, read, projections, rebuild) is written once, in eventStore.ts.

/** A statement and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

/** A transaction's last statement (Db.tx), and where its rows go once the transaction has committed. */
export interface LastStatement extends Statement {
  onRows?(rows: Record<string, unknown>[]): void;
}

/** The smallest SQL surface both drivers share. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Sql {
  /**
   * Runs `fn` in one transaction: COMMIT on resolve, ROLLBACK on throw. Every statement inside must
   * go through `tx`. `last`, asked once `fn` has resolved, may name one more statement: it is sent
   * together with the COMMIT, so a row lock it takes is held only while the transaction commits
   * (no round trip to this process in between). If it fails, the transaction is rolled back and
   * its error is thrown; once committed, its rows are handed to its `onRows`.
   */
  tx<T>(fn: (tx: Sql) => Promise<T>, last?: () => LastStatement | null): Promise<T>;
  /** Runs many statements, no parameters (migrations). */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

/** An event as the domain hands it to the store. `version` is the event's schema version. */
export interface NewEvent {
  type: string;
  version: number;
  data: Record<string, unknown>;
  meta: EventMeta;
  /** Optional stable id: appending an event id that is already stored is a duplicate command. */
  eventId?: string;
}

export interface EventMeta {
  accountId: string;
  /** ISO 8601 instant the command was decided (from the clock port, never read inside the domain). */
  at: string;
  actor?: string;
  correlationId?: string;
  [key: string]: unknown;
}

export interface RecordedEvent extends NewEvent {
  eventId: string;
  streamId: string;
  /** 1, 2, 3... within the stream. */
  streamVersion: number;
  /** Global order in the log, as a decimal string (bigint-safe on both drivers). */
  position: string;
  recordedAt: string;
}

export interface StreamSnapshot {
  streamId: string;
  /** 0 when the stream does not exist. */
  version: number;
  events: RecordedEvent[];
}

/** A column of a projection table; `type` is the SQL type its parameter is cast to. */
export interface ProjectionColumn {
  name: string;
  type: 'text' | 'integer' | 'bigint' | 'boolean' | 'date' | 'timestamptz' | 'jsonb';
  /** The column may be NULL (a value that can be missing, e.g. the date an unpaid invoice was paid). Every other column is NOT NULL. */
  nullable?: boolean;
}

export interface ProjectionTable {
  name: string;
  columns: ProjectionColumn[];
  /** The column that names the stream a row came from: a stream's rows are replaced as a whole. */
  streamKey: string;
  /**
   * The table's primary key: the stream key, optionally followed by one column that tells a
   * stream's rows apart (e.g. payment_id). Rows are upserted on it.
   */
  primaryKey: [string] | [string, string];
  /** Indexes beyond the primary key, by name: what follows `ON <table>` (`(account_id, seq DESC)`, or with a `WHERE`). */
  indexes?: Record<string, string>;
}

/** A row as a projection produces it: values for every column, in the table's column order. */
export type ProjectionRow = Record<string, unknown>;

/**
 * A read model: a pure function from a whole stream to the rows it contributes to each of its
 * tables. The store replaces a stream's rows in the append's transaction, and a rebuild inserts
 * the same rows from the log, so projecting twice gives the same rows and a rebuild equals the
 * live tables byte for byte.
 */
export interface Projection {
  name: string;
  /**
   * Bumped when the rows a stream gives change meaning without the tables changing shape (a new
   * rule in the domain): the tables are then rebuilt from the log on start-up, like a new shape.
   */
  version?: number;
  /** Stream categories this projection follows: the part of the stream id before the first '-' ('document', 'client'). */
  categories: string[];
  /** Its tables: the store creates them from these declarations (projectionDdl) and writes rows in this column order. */
  tables: ProjectionTable[];
  /** The stream's key value (e.g. its document id), or null when the stream contributes nothing yet. */
  key(stream: { streamId: string; events: RecordedEvent[] }): string | null;
  /** Rows per table name; a table left out (or empty) has no rows for this stream. */
  rows(stream: { streamId: string; events: RecordedEvent[] }): Partial<Record<string, ProjectionRow[]>>;
}

/** A new event as the store is about to record it: everything but what the insert hands out. */
export type PendingEvent = Omit<RecordedEvent, 'position' | 'recordedAt'>;

/**
 * Rows another table keeps for the events of an append, written by the append itself — in the
 * same statement as the events' insert — so they commit or roll back with the events, at no extra
 * round trip. The store knows nothing of what they are for (an outbox of work to do because of
 * the events, say): it inserts `rows` into `table`, each row's `positionColumn` set to the
 * position its event was given.
 */
export interface EventRows {
  table: string;
  /** The columns `values` fill, in order, each with the SQL type its parameter is cast to. */
  columns: readonly { name: string; type: ProjectionColumn['type'] | 'uuid' }[];
  /** The bigint column the store fills with the event's position in the log. */
  positionColumn: string;
  /** What a row that is already there does, e.g. `ON CONFLICT (reaction, event_id) DO NOTHING` (empty: refused). */
  onConflict: string;
  rows(events: readonly PendingEvent[]): { streamVersion: number; values: readonly unknown[] }[];
}

export interface StoreOptions {
  eventRows?: EventRows;
}

export interface AppendResult {
  /** Stream version after the append. */
  version: number;
  events: RecordedEvent[];
}

/**
 * A row another table keeps for a command, written in the same statement as its events (an
 * Idempotency-Key's stored answer): committed with them or not at all. A row already there (its
 * unique key taken) fails the whole write with the driver's unique violation.
 */
export interface RowInsert {
  table: string;
  /** The columns `values` fill, in order, each with the SQL type its parameter is cast to. */
  columns: readonly { name: string; type: ProjectionColumn['type'] | 'uuid' }[];
  values: readonly unknown[];
}

/** Events for one stream, appended with optimistic concurrency. */
export interface StreamAppend {
  streamId: string;
  /** The stream's version the events were decided on; another fails the write with ConcurrencyError. */
  expectedVersion: number;
  events: NewEvent[];
  /**
   * The stream's events up to `expectedVersion`, as the command read them. The read models' rows
   * are worked out from them and the new events, and only the rows that changed are sent.
   * Without them the store reads the stream first.
   */
  loaded?: RecordedEvent[];
}

/** What a command writes: its appends and the rows kept with them, as one statement. */
export interface CommandWrite {
  appends: StreamAppend[];
  rows?: RowInsert[];
}

/** What a command handler sees inside one store transaction (or a command's unit of work, EventStore.command). */
export interface StoreTx extends Sql {
  readStream(streamId: string): Promise<StreamSnapshot>;
  /** A stream's version (0 when it does not exist), without reading its events. */
  streamVersion(streamId: string): Promise<number>;
  /**
   * Appends with optimistic concurrency: fails with ConcurrencyError (writing nothing) when the
   * stream's version is not `expectedVersion`. Runs the inline projections for the stream.
   * `loaded` (the events the caller already read) saves a re-read for the projections. In a
   * command (EventStore.command) the append is gathered and written with the others at the end:
   * the events it returns get their positions and times then.
   */
  append(streamId: string, expectedVersion: number, events: NewEvent[], loaded?: RecordedEvent[]): Promise<AppendResult>;
  /** A statement that only reads committed rows: in a command it runs without opening a transaction (`query` opens one). */
  read<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** A row written with the appends (RowInsert): in a command, in their one statement; in a transaction, at once. */
  insert(row: RowInsert): void | Promise<void>;
  /** Keeps nothing: whatever was written or gathered is rolled back when the callback returns, and its value is still returned. */
  rollback(): void;
}

export interface EventStore {
  readonly db: Db;
  readStream(streamId: string): Promise<StreamSnapshot>;
  /** One transaction; appends inside it are atomic together (a conversion writes two streams). */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * A command's unit of work, atomic like a transaction but without BEGIN and COMMIT when it
   * can: its reads go to the database as they come (no transaction is needed to read: the
   * appends' expected versions are the guard), and its appends and rows are gathered and sent
   * at the end as ONE statement (`write`). A statement of the callback's own (`query`: a lock, a
   * write) opens a transaction, and from then on everything goes through it; so does reading a
   * stream the command has appended to (what was gathered is written first). The gathered write
   * then goes with the COMMIT.
   */
  command<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * Writes a command's appends, the read models' rows that changed, the rows kept with them
   * (`rows`, e.g. an Idempotency-Key's answer), the event rows of StoreOptions.eventRows and the
   * accounts' versions as ONE statement, outside any transaction: all of it or none. Returns each
   * append's result, in order.
   */
  write(w: CommandWrite): Promise<AppendResult[]>;
  /** Shorthand for a one-stream transaction. */
  append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<AppendResult>;
  /** Events after a global position, in order (projections, export, replay). */
  readAll(afterPosition: string, limit: number): Promise<RecordedEvent[]>;
  /** Every event of one account, in log order (export). */
  readAccount(accountId: string): Promise<RecordedEvent[]>;
  /**
   * A number that names the state of the account's events and read-model rows: every transaction
   * that appends events for the account (and every rebuild of the read models) moves it on, in
   * the same transaction, and those transactions take their turns on it, so a commit never leaves
   * it where it was — whatever order the events' positions were handed out in. Read it BEFORE
   * reading the rows: a value remembered with rows read after it stays right for as long as the
   * version is unchanged. '0' for an account with no events.
   */
  accountVersion(accountId: string): Promise<string>;
  /** Empties the projections' tables (all, or those named) and rebuilds them from the log, in one transaction. */
  rebuildProjections(names?: string[]): Promise<{ streams: number; events: number }>;
  /** Creates missing projection tables; a projection whose shape changed is dropped and rebuilt. Returns the names rebuilt. */
  ensureProjections(): Promise<string[]>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY';
  readonly streamId: string;
  readonly expected: number;
  /** null when a concurrent writer got there first (the unique constraint fired). */
  readonly actual: number | null;
  constructor(streamId: string, expected: number, actual: number | null) {
    super(actual === null ? `Stream ${streamId} was changed by someone else (expected version ${expected})` : `Stream ${streamId} is at version ${actual}, not ${expected}`);
    this.name = 'ConcurrencyError';
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export class DuplicateEventError extends Error {
  readonly code = 'DUPLICATE_EVENT';
  readonly eventId: string;
  constructor(eventId: string) {
    super(`Event ${eventId} is already stored`);
    this.name = 'DuplicateEventError';
    this.eventId = eventId;
  }
}

/** The database is unreachable or shutting down: the API answers 503. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(cause: unknown) {
    super('The database is not reachable right now', { cause });
    this.name = 'StoreUnavailableError';
  }
}

export const streamCategory = (streamId: string): string => {
  const i = streamId.indexOf('-');
  return i === -1 ? streamId : streamId.slice(0, i);
};
