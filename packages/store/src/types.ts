// The EventStore port. Two adapters (PGlite, postgres.js) implement `Db`; everything above
// `Db` (append, read, projections, rebuild) is written once, in eventStore.ts.

/** The smallest SQL surface both drivers share (integrations.md §5.8). */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Sql {
  /** Runs `fn` in one transaction: COMMIT on resolve, ROLLBACK on throw. Every statement inside must go through `tx`. */
  tx<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
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

/** A read model. Writes rows as a function of a whole stream, so applying it twice gives the same rows. */
export interface Projection {
  name: string;
  /** Stream categories this projection follows: the part of the stream id before the first '-' ('document', 'client'). */
  categories: string[];
  /** DDL for its tables (idempotent: CREATE TABLE IF NOT EXISTS ...). */
  schema: string;
  /** Tables to empty before a rebuild. */
  tables: string[];
  /** Called inside the append transaction with the whole stream after the append, and once per stream on rebuild. */
  project(sql: Sql, stream: { streamId: string; events: RecordedEvent[] }): Promise<void>;
}

export interface AppendResult {
  /** Stream version after the append. */
  version: number;
  events: RecordedEvent[];
}

/** What a command handler sees inside one store transaction. */
export interface StoreTx extends Sql {
  readStream(streamId: string): Promise<StreamSnapshot>;
  /**
   * Appends with optimistic concurrency: fails with ConcurrencyError (writing nothing) when the
   * stream's version is not `expectedVersion`. Runs the inline projections for the stream.
   * `loaded` (the events the caller already read) saves a re-read for the projections.
   */
  append(streamId: string, expectedVersion: number, events: NewEvent[], loaded?: RecordedEvent[]): Promise<AppendResult>;
}

export interface EventStore {
  readonly db: Db;
  readStream(streamId: string): Promise<StreamSnapshot>;
  /** One transaction; appends inside it are atomic together (a conversion writes two streams). */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** Shorthand for a one-stream transaction. */
  append(streamId: string, expectedVersion: number, events: NewEvent[]): Promise<AppendResult>;
  /** Events after a global position, in order (projections, export, replay). */
  readAll(afterPosition: string, limit: number): Promise<RecordedEvent[]>;
  /** Empties every projection's tables and rebuilds them from the log. */
  rebuildProjections(): Promise<{ streams: number; events: number }>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY';
  readonly streamId: string;
  readonly expected: number;
  readonly actual: number;
  constructor(streamId: string, expected: number, actual: number) {
    super(`Stream ${streamId} is at version ${actual}, not ${expected}`);
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
