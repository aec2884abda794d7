// A store opened with the outbox hook for a registry of the test's own, a settable clock, and
// helpers to append events and read the outbox. Events go straight through the store: the store
// does not check their types, and no projection follows the 'note' streams used here.
import { randomUUID } from 'node:crypto';
import { type EventStore, openStore } from '@tradie/store';
import { allMigrations } from '../../src/migrations.ts';
import { type OutboxDeps, outboxWriter } from '../../src/reactions/outbox.ts';
import type { OutboxRow, Reaction } from '../../src/reactions/registry.ts';
import { TestClock } from '../support/testApp.ts';

export type Deps = OutboxDeps;

export interface Harness {
  store: EventStore;
  clock: TestClock;
  deps: Deps;
  logs: { level: string; message: string; extra?: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function openHarness(reactions: readonly Reaction<Deps, string>[], options: { databaseUrl?: string; clock?: TestClock } = {}): Promise<Harness> {
  const store = await openStore({ databaseUrl: options.databaseUrl }, [], allMigrations, { eventRows: outboxWriter(reactions) });
  const clock = options.clock ?? new TestClock();
  const logs: Harness['logs'] = [];
  const deps: Deps = {
    store,
    clock,
    log: (level, message, extra) => {
      logs.push({ level, message, ...(extra ? { extra } : {}) });
    },
  };
  return { store, clock, deps, logs, close: () => store.close() };
}

/** A reaction that records every row it is handed; `fail` decides, per call, whether it throws. */
export function recorder(name: string, on: string[], fail: (row: OutboxRow, call: number) => boolean = () => false) {
  const seen: OutboxRow[] = [];
  const reaction: Reaction<Deps, string> = {
    name,
    on,
    async handle(_deps, row) {
      seen.push(row);
      // Let other processors run between the claim and the marking.
      await new Promise((resolve) => setImmediate(resolve));
      if (fail(row, seen.length)) throw new Error(`${name} failed on call ${seen.length}`);
    },
  };
  return { reaction, seen };
}

export const newAccount = (): string => `acct-${randomUUID()}`;

/** Appends events of the given types to a new 'note' stream of the account. */
export async function appendNotes(h: Harness, accountId: string, types: string[], streamId = `note-${randomUUID()}`): Promise<{ streamId: string; eventIds: string[] }> {
  const meta = { accountId, at: h.clock.now().toISOString() };
  const r = await h.store.append(streamId, 0, types.map((type, i) => ({ type, version: 1, data: { n: i }, meta })));
  return { streamId, eventIds: r.events.map((e) => e.eventId) };
}

export interface StoredRow {
  id: string;
  reaction: string;
  stream_id: string;
  event_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  done_at: string | null;
}

export async function outboxRows(h: Pick<Harness, 'store'>, accountId: string): Promise<StoredRow[]> {
  const rows = await h.store.db.query<StoredRow & { next_attempt_at: Date | string | null; done_at: Date | string | null }>(
    `SELECT id::text AS id, reaction, stream_id, event_id::text AS event_id, event_type, payload, attempts, next_attempt_at, last_error, done_at
     FROM outbox WHERE account_id = $1 ORDER BY id`,
    [accountId],
  );
  const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), next_attempt_at: iso(r.next_attempt_at), done_at: iso(r.done_at) }));
}
