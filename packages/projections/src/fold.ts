// Folding a stream read from the store into domain state, with every event checked by its schema.
// A command folds the stream it loads, and the projections fold it again with the new events in
// the same append: parsed events and folded states are memoised on the (immutable) event objects
// and arrays the store hands over, and a stream the store made by adding new events to a loaded
// one (extendStream) is folded from the loaded one's state, so each event is folded once.
import {
  type ClientEvent, type ClientState, type DocumentEvent, type DocumentFigures, type DocumentState, type DocumentView, type DomainEvent,
  documentFigures, evolveClient, evolveDocument, initialClientState, initialDocumentState, parseDomainEvent,
} from '@tradie/domain';
import { type RecordedEvent, streamKey, streamPrefix } from '@tradie/store';

/** `fn` worked out once per key object (the store's events and arrays are immutable, so are the states folded from them). */
function memoised<K extends object, V>(fn: (key: K) => V): (key: K) => V {
  const seen = new WeakMap<K, V>();
  return (key) => {
    let v = seen.get(key);
    if (v === undefined) {
      v = fn(key);
      seen.set(key, v);
    }
    return v;
  };
}

/** The domain event of a recorded one, validated once per event object. */
export const domainEventOf: (e: RecordedEvent) => DomainEvent = memoised(parseDomainEvent);

/** What folds a stream: a decider's evolve and initial state. */
export interface Fold<S, E> {
  initialState(): S;
  evolve(state: S, event: E): S;
}

/** Folded states per fold (its evolve function): by events array, and by stream up to its last event. */
interface Folded {
  arrays: WeakMap<readonly RecordedEvent[], unknown>;
  streams: Map<string, unknown>;
}
const folded = new WeakMap<object, Folded>();
/** Streams whose folded state is kept per fold, the latest used. */
const STREAMS_KEPT = 2_000;

/**
 * A stream folded with `fold`, each stored event checked and upcast (domainEventOf) and given its
 * decision time; once per events array, and from the loaded stream's state for one the store made
 * by adding new events to it (streamPrefix). The command's loader and every projection share it.
 * The states of the streams folded lately are kept by stream and last event (the store's
 * streamKey: a stream's events never change, so the same key folds to the same state), so the
 * next command on a stream just written or read here does not fold it again.
 */
export function foldStream<S, E>(fold: Fold<S, E>, events: readonly RecordedEvent[]): S {
  let seen = folded.get(fold.evolve);
  if (!seen) folded.set(fold.evolve, (seen = { arrays: new WeakMap(), streams: new Map() }));
  if (seen.arrays.has(events)) return seen.arrays.get(events) as S;
  const key = events.length === 0 ? null : streamKey(events[0]!.streamId, events);
  if (key !== null && seen.streams.has(key)) {
    const kept = seen.streams.get(key) as S;
    seen.streams.delete(key);
    seen.streams.set(key, kept);
    seen.arrays.set(events, kept);
    return kept;
  }
  const prefix = streamPrefix(events);
  let state = prefix ? foldStream(fold, prefix) : fold.initialState();
  for (let i = prefix?.length ?? 0; i < events.length; i++) {
    const e = events[i]!;
    state = fold.evolve(state, { ...domainEventOf(e), meta: { at: e.meta.at } } as E);
  }
  seen.arrays.set(events, state);
  if (key !== null) {
    // The loaded stream's state is superseded by this one (a command's new events on it).
    if (prefix) seen.streams.delete(streamKey(events[0]!.streamId, prefix) ?? '');
    seen.streams.set(key, state);
    if (seen.streams.size > STREAMS_KEPT) seen.streams.delete(seen.streams.keys().next().value!);
  }
  return state;
}

const documentFold: Fold<DocumentState, DocumentEvent & { meta: { at: string } }> = { initialState: () => initialDocumentState, evolve: evolveDocument };

export const foldDocumentStream = (events: readonly RecordedEvent[]): DocumentState => foldStream(documentFold, events);

/** The key of a document's rows in every read model that follows documents: its id, or none before it is drafted. */
export function documentKey(stream: { events: readonly RecordedEvent[] }): string | null {
  const s = foldDocumentStream(stream.events);
  return s.status === 'none' ? null : s.id;
}

/**
 * The domain's documentFigures of a folded state, worked out once per state: the documents list
 * and the payment reminders' targets both need them for the same stream (the line totals are the
 * costly part of a projection).
 */
export const figuresOf: (state: DocumentView) => DocumentFigures = memoised(documentFigures);

const clientFold: Fold<ClientState, ClientEvent> = { initialState: () => initialClientState, evolve: evolveClient };

export const foldClientStream = (events: readonly RecordedEvent[]): ClientState => foldStream(clientFold, events);

/** The account that owns a stream: every event carries it; the first one is authoritative. */
export function streamAccount(events: readonly RecordedEvent[]): string {
  const account = events[0]?.meta.accountId;
  if (!account) throw new Error('An event without an account id');
  return account;
}
