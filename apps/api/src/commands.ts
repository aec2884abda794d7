// Command handling: load a stream, decide with the domain's pure decider, append with the
// expected version, as one store command (EventStore.command: the reads, then the appends with
// the inline projections, the outbox rows and the Idempotency-Key's answer written as one
// statement). A conflict with a concurrent writer is retried from a fresh read — the decision is
// remade on the new state.
import { currentVersion, notFound, type Decider, type DomainEventType } from '@tradie/domain';
import { foldStream } from '@tradie/projections';
import { type AppendResult, ConcurrencyError, isUniqueViolation, type EventMeta, type NewEvent, type RecordedEvent, type StoreTx } from '@tradie/store';
import type { AppDeps } from './deps.ts';

export interface Actor {
  accountId: string;
  userId: string;
  requestId?: string | undefined;
}

export function eventMeta(deps: Pick<AppDeps, 'clock'>, actor: Actor): EventMeta {
  return {
    accountId: actor.accountId,
    at: deps.clock.now().toISOString(),
    actor: actor.userId,
    ...(actor.requestId ? { correlationId: actor.requestId } : {}),
  };
}

export function toNewEvents(events: readonly { type: string; data: object }[], meta: EventMeta): NewEvent[] {
  return events.map((e) => ({ type: e.type, version: currentVersion(e.type as DomainEventType), data: e.data as Record<string, unknown>, meta }));
}

export interface Loaded<S> {
  streamId: string;
  state: S;
  version: number;
  events: RecordedEvent[];
}

/** Who must own a stream for a command to see it, and what a person reads when they do not. */
export interface StreamOwner {
  accountId: string;
  /** The 404's detail, e.g. "Client not found". */
  notFound: string;
}

/**
 * The one way a command reads a stream. Every stored event is checked against its schema and
 * upcast to today's shape (the domain's parseDomainEvent) before the decider's evolve sees it;
 * the fold is remembered for the loaded events (projections' foldStream), so the inline
 * projections of the same append start from it and fold only the new events.
 * With an `owner`, a stream of another account — or one with no events — is "not found" (404),
 * exactly like one that does not exist, and is refused before any of its events is read.
 * Without one (a stream the command is about to start), an empty stream folds to the initial state.
 */
export async function loadStream<S, E>(
  tx: Pick<StoreTx, 'readStream'>,
  streamId: string,
  decider: Pick<Decider<never, E, S>, 'evolve' | 'initialState'>,
  owner?: StreamOwner,
): Promise<Loaded<S>> {
  const snap = await tx.readStream(streamId);
  if (owner && snap.events[0]?.meta.accountId !== owner.accountId) throw notFound(owner.notFound);
  return { streamId, state: foldStream(decider, snap.events), version: snap.version, events: snap.events };
}

/** The streams each command's store unit appended to, with the types it appended: what the runner settles after the commit. */
const appendedIn = new WeakMap<StoreTx, Map<string, Set<string>>>();

/**
 * The one way the API appends: `tx.append`, noting the stream and its event types for the runner
 * (handleCommand), which settles the reactions those events set off once the command committed.
 */
export function appendEvents(tx: StoreTx, streamId: string, expectedVersion: number, events: NewEvent[], loaded?: RecordedEvent[]): Promise<AppendResult> {
  let streams = appendedIn.get(tx);
  if (!streams) appendedIn.set(tx, (streams = new Map()));
  const types = streams.get(streamId) ?? new Set<string>();
  for (const e of events) types.add(e.type);
  streams.set(streamId, types);
  return tx.append(streamId, expectedVersion, events, loaded);
}

/** Decides a command on a loaded stream and appends the events; returns the new state. */
export async function decideAndAppend<S, C, E extends { type: string; data: object }>(
  tx: StoreTx,
  loaded: Loaded<S>,
  decider: Decider<C, E, S>,
  command: C,
  meta: EventMeta,
): Promise<{ state: S; events: E[]; version: number }> {
  const events = decider.decide(command, loaded.state);
  if (events.length === 0) return { state: loaded.state, events, version: loaded.version };
  const r = await appendEvents(tx, loaded.streamId, loaded.version, toNewEvents(events, meta), loaded.events);
  let state = loaded.state;
  for (const e of events) state = decider.evolve(state, { ...e, meta: { at: meta.at } } as E);
  return { state, events, version: r.version };
}

/** The unique key of an Idempotency-Key's row: a write refused on it met a request with the same key. */
export const IDEMPOTENCY_KEY_CONSTRAINT = 'idempotency_keys_pkey';

/** The attempts after a first one that met a concurrent writer (or a request with the same Idempotency-Key). */
const retries = new WeakSet<StoreTx>();

/** Whether `tx` is a retry of a command whose earlier attempt met a concurrent writer: an Idempotency-Key is then looked up first (http/idempotency.ts). */
export const isRetry = (tx: StoreTx): boolean => retries.has(tx);

/**
 * Runs `fn` as one store command (EventStore.command: its appends and rows written as one
 * statement at the end), retrying from scratch when a concurrent writer changed a stream it read
 * or stored an answer for the same Idempotency-Key. Server-side commands (numbering, payments)
 * use this; an edit where the user named the version they saw throws StaleWriteError instead,
 * which is not retried.
 */
export async function execute<T>(deps: Pick<AppDeps, 'store'>, fn: (tx: StoreTx) => Promise<T>, attempts = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await deps.store.command((tx) => {
        if (i > 1) retries.add(tx);
        return fn(tx);
      });
    } catch (e) {
      const again = (e instanceof ConcurrencyError && !(e instanceof StaleWriteError)) || isUniqueViolation(e, IDEMPOTENCY_KEY_CONSTRAINT);
      if (!again || i >= attempts) throw e;
      // A short, growing pause lets the other writer commit first.
      await new Promise((r) => setTimeout(r, Math.min(50, 2 ** i) + (i * 7) % 5));
    }
  }
}

/** The user edited version N and someone else got there first: answer 409, never retry. */
export class StaleWriteError extends ConcurrencyError {}

/** Refuses (409, not retried) when the user named the version they saw and the stream has moved on. */
export function expectVersion(loaded: Pick<Loaded<unknown>, 'streamId' | 'version'>, expected: number | undefined): void {
  if (expected !== undefined && loaded.version !== expected) throw new StaleWriteError(loaded.streamId, expected, loaded.version);
}


/** The streams `tx` appended to, each with the event types appended: what handleCommand settles after the commit. */
export const appendedStreams = (tx: StoreTx): ReadonlyMap<string, ReadonlySet<string>> => appendedIn.get(tx) ?? new Map();
