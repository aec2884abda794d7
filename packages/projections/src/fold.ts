// Folding a stream read from the store into domain state, with every event checked by its schema.
// Several projections fold the same stream in one append: parsed events and folded states are
// memoised on the (immutable) event objects and arrays the store hands over.
import {
  type ClientEvent, type ClientState, type DocumentEvent, type DocumentFigures, type DocumentState, type DocumentView, type DomainEvent,
  documentFigures, evolveClient, evolveDocument, initialClientState, initialDocumentState, parseDomainEvent,
} from '@tradie/domain';
import type { RecordedEvent } from '@tradie/store';

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

/** Folds a stream from `initial` with `evolve`, once per events array. */
const memoisedFold = <S>(initial: S, evolve: (s: S, e: RecordedEvent) => S): ((events: readonly RecordedEvent[]) => S) =>
  memoised((events: readonly RecordedEvent[]) => events.reduce(evolve, initial));

export const foldDocumentStream: (events: readonly RecordedEvent[]) => DocumentState = memoisedFold(initialDocumentState, (s, e) =>
  evolveDocument(s, { ...(domainEventOf(e) as DocumentEvent), meta: { at: e.meta.at } }),
);

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

export const foldClientStream: (events: readonly RecordedEvent[]) => ClientState = memoisedFold(initialClientState, (s, e) => evolveClient(s, domainEventOf(e) as ClientEvent));

/** The account that owns a stream: every event carries it; the first one is authoritative. */
export function streamAccount(events: readonly RecordedEvent[]): string {
  const account = events[0]?.meta.accountId;
  if (!account) throw new Error('An event without an account id');
  return account;
}
