// The outbox: reactions (registry.ts) to committed events, stored in the events' own transaction
// and run after the commit, at least once.
//
// Writing: outboxWriter declares the event store's rows for an append (main.ts opens the store
// with it). Every append inserts a row per (reaction, event) the registry asks for in the same
// statement as the events, so a committed event always has its rows and a rolled-back one never
// does.
//
// Running: a processor claims due rows in small batches (SELECT … FOR UPDATE SKIP LOCKED, then a
// lease in claimed_until, so two processors — in one process or two — never hold the same row),
// runs each row's handler outside any transaction, and marks the row done; a handler that throws
// gets its row back with attempts + 1 and a next attempt 30 s × 2^n later (at most an hour), and
// after MAX_ATTEMPTS the row is left, given up, with its last error (outboxFailures). A handler
// that throws NotBefore puts its row off until then, counting no attempt.
//
// When: the command pipeline (handleCommand.ts) awaits settleReactions for each stream
// its append wrote rows for, after its transaction committed, so what a reaction does is done when the answer goes (Xero is up to date right after
// a payment, as before). scheduleReactions (main.ts) sweeps up the rest: rows left by a crash
// between commit and processing, and failures that are due again.
//
// A closed account (deleted, waiting for its purge: account/liveness.ts): its rows are marked done
// without running, except those of the reactions that wind it down (Reaction.forClosedAccount),
// which the deletion writes with enqueueReactions in its own transaction.
import { randomUUID } from 'node:crypto';
import { claimDue, type EventRows, leaseOf, releaseClaim, type Sql } from '@tradie/store';
import { closedAccounts } from '../account/liveness.ts';
import type { AppDeps } from '../deps.ts';
import { repeatEvery } from '../repeat.ts';
import { NotBefore } from './notBefore.ts';
import { type OutboxRow, type Reaction, type ReactionDeps, REACTIONS } from './registry.ts';

/** Rows claimed at a time. */
export const OUTBOX_BATCH = 10;
/** A claimed row is left alone this long; a processor that died holding it loses it then. */
export const OUTBOX_LEASE_MS = 10 * 60_000;
/** The first retry waits this long; each further one twice as long as the last. */
export const OUTBOX_FIRST_RETRY_MS = 30_000;
export const OUTBOX_MAX_RETRY_MS = 3_600_000;
/** Failed attempts after which a row is given up (and stays, visible, with its last error). */
export const OUTBOX_MAX_ATTEMPTS = 10;
/** What a row of a closed account that was not run keeps as its last word. */
export const NOT_RUN_CLOSED = 'Not run: the business closed its account';
/** The sweep leaves a new row this long to the request that wrote it. */
export const OUTBOX_SWEEP_GRACE_MS = 10_000;
/** At most this many batches in one run, so a run always ends. */
const MAX_BATCHES_PER_RUN = 100;

/** The wait before attempt n + 1, after n failed attempts (n ≥ 1). */
export const retryDelayMs = (failedAttempts: number): number =>
  Math.min(OUTBOX_MAX_RETRY_MS, OUTBOX_FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(failedAttempts - 1, 30)));

// ---- writing --------------------------------------------------------------------------------

/**
 * The event store's rows for an append: one outbox row per (reaction, event) for the events of
 * this append, written by the append's own statement. Due at once (at the instant the command
 * was decided).
 */
export function outboxWriter(reactions: readonly { name: string; on: readonly string[] }[] = REACTIONS): EventRows {
  const byType = new Map<string, string[]>();
  for (const r of reactions) for (const type of r.on) byType.set(type, [...(byType.get(type) ?? []), r.name]);
  return {
    table: 'outbox',
    columns: [
      { name: 'account_id', type: 'text' },
      { name: 'reaction', type: 'text' },
      { name: 'stream_id', type: 'text' },
      { name: 'event_id', type: 'uuid' },
      { name: 'event_type', type: 'text' },
      { name: 'payload', type: 'jsonb' },
      { name: 'created_at', type: 'timestamptz' },
      { name: 'next_attempt_at', type: 'timestamptz' },
    ],
    positionColumn: 'event_position',
    onConflict: 'ON CONFLICT (reaction, event_id) DO NOTHING',
    rows: (events) =>
      events.flatMap((e) =>
        (byType.get(e.type) ?? []).map((reaction) => ({
          streamVersion: e.streamVersion,
          values: [e.meta.accountId, reaction, e.streamId, e.eventId, e.type, e.data, e.meta.at, e.meta.at],
        })),
      ),
  };
}

/**
 * Outbox rows for a cause that is not an event of the log — an account's deletion: an account has
 * no stream (account/liveness.ts ACCOUNT_CLOSED_CAUSE) — written in the caller's transaction: one
 * row per reaction that follows `cause.type`, due at once, run like any other row (settleReactions
 * with `cause.streamId`). Answers how many rows were written.
 */
export async function enqueueReactions(
  sql: Sql,
  cause: { accountId: string; streamId: string; id: string; type: string; payload: Record<string, unknown>; at: string },
  reactions: readonly { name: string; on: readonly string[] }[] = REACTIONS,
): Promise<number> {
  const names = reactions.filter((r) => r.on.includes(cause.type)).map((r) => r.name);
  if (names.length === 0) return 0;
  const rows = await sql.query(
    `INSERT INTO outbox (account_id, reaction, stream_id, event_id, event_position, event_type, payload, created_at, next_attempt_at)
     SELECT $1, reaction, $3, $4::uuid, 0, $5, $6::jsonb, $7::timestamptz, $7::timestamptz FROM unnest($2::text[]) AS r(reaction)
     ON CONFLICT (reaction, event_id) DO NOTHING RETURNING id`,
    [cause.accountId, names, cause.streamId, cause.id, cause.type, cause.payload, cause.at],
  );
  return rows.length;
}

// ---- running --------------------------------------------------------------------------------

export type OutboxDeps = Pick<AppDeps, 'store' | 'clock' | 'log'>;

interface ClaimedRow {
  id: string;
  account_id: string;
  reaction: string;
  stream_id: string;
  event_id: string;
  event_position: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export interface RunFilter {
  /** Only this account's rows of this stream (what a request just wrote). */
  accountId?: string;
  streamId?: string;
  /** Only rows due at or before this instant (default: now). */
  dueBy?: Date;
}

/** Rows done and rows failed; a row put off (NotBefore) is neither. */
export interface RunResult {
  done: number;
  failed: number;
}

export interface OutboxProcessor {
  /** Claims and runs due rows, batch after batch, until none is left (or a bound is reached). */
  runDue(filter?: RunFilter): Promise<RunResult>;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 2_000);

export function outboxProcessor<D extends OutboxDeps>(deps: D, reactions: readonly Reaction<D, string>[]): OutboxProcessor {
  const byName = new Map(reactions.map((r) => [r.name, r]));
  const db = (): Sql => deps.store.db;

  async function claim(token: string, filter: RunFilter): Promise<ClaimedRow[]> {
    const now = deps.clock.now();
    const params: unknown[] = [(filter.dueBy ?? now).toISOString()];
    let scope = '';
    if (filter.accountId !== undefined) {
      params.push(filter.accountId);
      scope += ` AND account_id = $${4 + params.length}`;
    }
    if (filter.streamId !== undefined) {
      params.push(filter.streamId);
      scope += ` AND stream_id = $${4 + params.length}`;
    }
    return claimDue<ClaimedRow>(
      db(),
      {
        table: 'outbox',
        key: 'id',
        due: `done_at IS NULL AND next_attempt_at <= $5::timestamptz${scope}`,
        params,
        orderBy: 'next_attempt_at, id',
        returning: 'id::text AS id, account_id, reaction, stream_id, event_id::text AS event_id, event_position::text AS event_position, event_type, payload, attempts',
      },
      leaseOf(token, now, OUTBOX_LEASE_MS),
      now,
      OUTBOX_BATCH,
    );
  }

  /** Gives the row back with `set` ($2 is the row's id, further parameters from $3). */
  const giveBack = (row: ClaimedRow, token: string, set: string, params: readonly unknown[]): Promise<boolean> =>
    releaseClaim(db(), token, { table: 'outbox', where: 'id = $2::bigint', set, params: [row.id, ...params] });

  async function markDone(row: ClaimedRow, token: string): Promise<void> {
    await giveBack(row, token, 'done_at = $3::timestamptz', [deps.clock.now().toISOString()]);
  }

  /** Done without running: the account is closed and the reaction does not wind it down. */
  async function markNotRun(row: ClaimedRow, token: string): Promise<void> {
    await giveBack(row, token, 'done_at = $3::timestamptz, last_error = $4', [deps.clock.now().toISOString(), NOT_RUN_CLOSED]);
  }

  async function markFailed(row: ClaimedRow, token: string, error: string): Promise<void> {
    const attempts = Number(row.attempts) + 1;
    const givenUp = attempts >= OUTBOX_MAX_ATTEMPTS;
    const next = givenUp ? null : new Date(deps.clock.now().getTime() + retryDelayMs(attempts)).toISOString();
    await giveBack(row, token, 'attempts = $3::int, next_attempt_at = $4::timestamptz, last_error = $5', [attempts, next, error]);
    deps.log('error', givenUp ? 'a reaction failed and was given up' : 'a reaction failed and will be retried', {
      outboxId: row.id, reaction: row.reaction, accountId: row.account_id, streamId: row.stream_id, eventType: row.event_type, attempts, error, ...(next ? { nextAttemptAt: next } : {}),
    });
  }

  /**
   * A claimed batch as the runs it makes, in the order claimed: one row each, but the rows of one
   * stream whose reactions share a coalesce key together (see Reaction.coalesce).
   */
  function runsOf(rows: readonly ClaimedRow[]): ClaimedRow[][] {
    const runs = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      const key = byName.get(row.reaction)?.coalesce;
      const runKey = key === undefined ? `row\u0000${row.id}` : `${key}\u0000${row.stream_id}`;
      runs.set(runKey, [...(runs.get(runKey) ?? []), row]);
    }
    return [...runs.values()];
  }

  async function markPutOff(row: ClaimedRow, token: string, at: Date): Promise<void> {
    await giveBack(row, token, 'next_attempt_at = $3::timestamptz', [at.toISOString()]);
  }

  /**
   * Runs the handler once for `rows` (with the latest of them) and marks them all; answers whether it
   * succeeded (null: put off). Rows of a closed account are marked done without running, unless the
   * reaction winds the account down.
   */
  async function run(rows: readonly ClaimedRow[], token: string, closed: ReadonlySet<string>): Promise<boolean | null> {
    const row = rows.reduce((a, b) => (BigInt(b.event_position) > BigInt(a.event_position) ? b : a));
    const reaction = byName.get(row.reaction);
    if (!reaction) {
      for (const r of rows) await markFailed(r, token, `No reaction named ${r.reaction} is registered`);
      return false;
    }
    if (closed.has(row.account_id) && !reaction.forClosedAccount) {
      for (const r of rows) await markNotRun(r, token);
      deps.log('info', 'a reaction of a closed account was not run', { reaction: row.reaction, accountId: row.account_id, streamId: row.stream_id, rows: rows.length });
      return true;
    }
    const view: OutboxRow = {
      id: row.id, accountId: row.account_id, reaction: row.reaction, streamId: row.stream_id, eventId: row.event_id,
      eventPosition: row.event_position, eventType: row.event_type, payload: row.payload, attempts: Number(row.attempts),
    };
    try {
      await reaction.handle(deps, view);
    } catch (e) {
      if (e instanceof NotBefore) {
        for (const r of rows) await markPutOff(r, token, e.at);
        return null;
      }
      for (const r of rows) await markFailed(r, token, errorText(e));
      return false;
    }
    for (const r of rows) await markDone(r, token);
    return true;
  }

  return {
    async runDue(filter = {}) {
      const result: RunResult = { done: 0, failed: 0 };
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        const token = randomUUID();
        const rows = await claim(token, filter);
        if (rows.length === 0) break;
        // One rule for every reaction (account/liveness.ts): asked once per batch.
        const closed = await closedAccounts(db(), rows.map((r) => r.account_id));
        for (const together of runsOf(rows)) {
          const ok = await run(together, token, closed);
          if (ok === true) result.done += together.length;
          else if (ok === false) result.failed += together.length;
        }
        if (rows.length < OUTBOX_BATCH) break;
      }
      return result;
    },
  };
}

// ---- the API's use ----------------------------------------------------------------------------

/** Whether an event of this type gets outbox rows (outboxWriter asks the same registry). */
export const setsOffReactions = (eventType: string): boolean => REACTIONS.some((r) => (r.on as readonly string[]).includes(eventType));

/**
 * After a command's transaction committed: runs what it set off for that stream (and anything of
 * the stream due again), so it is done before the answer goes. Never throws: the command stands,
 * a failure is logged and left on its row for the sweep.
 */
export async function settleReactions(deps: ReactionDeps, accountId: string, streamId: string): Promise<void> {
  try {
    await outboxProcessor(deps, REACTIONS).runDue({ accountId, streamId });
  } catch (e) {
    deps.log('error', 'running reactions failed', { accountId, streamId, error: errorText(e) });
  }
}

/**
 * Sweeps the outbox now and then every `everyMs`: rows a crash left behind, and failures due
 * again. A new row is left to its request for OUTBOX_SWEEP_GRACE_MS. The timer never keeps the
 * process alive; runs never overlap. Returns a stop function that waits for a run in progress.
 */
export function scheduleOutbox<D extends OutboxDeps>(deps: D, reactions: readonly Reaction<D, string>[], everyMs = 30_000): () => Promise<void> {
  const processor = outboxProcessor(deps, reactions);
  return repeatEvery(everyMs, () => {
    const dueBy = new Date(deps.clock.now().getTime() - OUTBOX_SWEEP_GRACE_MS);
    return processor.runDue({ dueBy }).then(
      (r) => {
        if (r.done + r.failed > 0) deps.log('info', 'outbox swept', { ...r });
      },
      (e: unknown) => deps.log('error', 'sweeping the outbox failed', { error: errorText(e) }),
    );
  });
}

/** The API's sweep (main.ts), every 30 s, over every registered reaction. */
export const scheduleReactions = (deps: ReactionDeps, everyMs = 30_000): (() => Promise<void>) => scheduleOutbox(deps, REACTIONS, everyMs);

// ---- visibility -------------------------------------------------------------------------------

export interface OutboxFailure {
  id: string;
  reaction: string;
  stream_id: string;
  event_type: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  /** null: given up after OUTBOX_MAX_ATTEMPTS. */
  next_attempt_at: string | null;
}

/** The account's reactions that failed and are not done: waiting for a retry, or given up. Oldest first. */
export async function outboxFailures(db: Sql, accountId: string): Promise<OutboxFailure[]> {
  const rows = await db.query<Omit<OutboxFailure, 'created_at' | 'next_attempt_at'> & { created_at: Date | string; next_attempt_at: Date | string | null }>(
    `SELECT id::text AS id, reaction, stream_id, event_type, attempts, last_error, created_at, next_attempt_at
     FROM outbox WHERE account_id = $1 AND done_at IS NULL AND attempts > 0 ORDER BY created_at, id`,
    [accountId],
  );
  const iso = (d: Date | string): string => new Date(d).toISOString();
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), created_at: iso(r.created_at), next_attempt_at: r.next_attempt_at === null ? null : iso(r.next_attempt_at) }));
}
