// Folding a stream read from the store into domain state, with every event checked by its schema.
// Several projections fold the same stream in one append: parsed events and folded states are
// memoised on the (immutable) event objects and arrays the store hands over.
import {
  type ClientEvent, type ClientState, type DocumentEvent, type DocumentFigures, type DocumentState, type DocumentView, type DomainEvent,
  documentFigures, evolveClient, evolveDocument, initialClientState, initialDocumentState, parseDomainEvent,
} from '@tradie/domain';
import type { RecordedEvent } from '@tradie/store';

const parsed = new WeakMap<RecordedEvent, DomainEvent>();

/** The domain event of a recorded one, validated once per event object. */
export function domainEventOf(e: RecordedEvent): DomainEvent {
  let d = parsed.get(e);
  if (!d) {
    d = parseDomainEvent(e);
    parsed.set(e, d);
  }
  return d;
}

/** Folds a stream from `initial` with `evolve`, once per events array. */
function memoisedFold<S extends object>(initial: S, evolve: (s: S, e: RecordedEvent) => S): (events: readonly RecordedEvent[]) => S {
  const folds = new WeakMap<readonly RecordedEvent[], S>();
  return (events) => {
    const hit = folds.get(events);
    if (hit) return hit;
    let s = initial;
    for (const e of events) s = evolve(s, e);
    folds.set(events, s);
    return s;
  };
}

export const foldDocumentStream: (events: readonly RecordedEvent[]) => DocumentState = memoisedFold(initialDocumentState, (s, e) =>
  evolveDocument(s, { ...(domainEventOf(e) as DocumentEvent), meta: { at: e.meta.at } }),
);

const figures = new WeakMap<DocumentView, DocumentFigures>();

/**
 * The domain's documentFigures of a folded state, worked out once per state: the documents list
 * and the payment reminders' targets both need them for the same stream (the line totals are the
 * costly part of a projection).
 */
export function figuresOf(state: DocumentView): DocumentFigures {
  let f = figures.get(state);
  if (!f) {
    f = documentFigures(state);
    figures.set(state, f);
  }
  return f;
}

export const foldClientStream: (events: readonly RecordedEvent[]) => ClientState = memoisedFold(initialClientState, (s, e) => evolveClient(s, domainEventOf(e) as ClientEvent));

/** The account that owns a stream: every event carries it; the first one is authoritative. */
export function streamAccount(events: readonly RecordedEvent[]): string {
  const account = events[0]?.meta.accountId;
  if (!account) throw new Error('An event without an account id');
  return account;
}
