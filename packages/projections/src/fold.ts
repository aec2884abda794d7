// Folding a stream read from the store into domain state, with every event checked by its schema.
// Several projections fold the same stream in one append: parsed events and folded states are
// memoised on the (immutable) event objects and arrays the store hands over.
import {
  type ClientEvent, type ClientState, type DocumentEvent, type DocumentState, type DomainEvent,
  evolveClient, evolveDocument, initialClientState, initialDocumentState, parseDomainEvent,
} from '@tradie/domain';
import type { RecordedEvent } from '@tradie/store';

const parsed = new WeakMap<RecordedEvent, DomainEvent>();
const documentFolds = new WeakMap<readonly RecordedEvent[], DocumentState>();
const clientFolds = new WeakMap<readonly RecordedEvent[], ClientState>();

/** The domain event of a recorded one, validated once per event object. */
export function domainEventOf(e: RecordedEvent): DomainEvent {
  let d = parsed.get(e);
  if (!d) {
    d = parseDomainEvent(e);
    parsed.set(e, d);
  }
  return d;
}

export function foldDocumentStream(events: readonly RecordedEvent[]): DocumentState {
  const hit = documentFolds.get(events);
  if (hit) return hit;
  let s: DocumentState = initialDocumentState;
  for (const e of events) s = evolveDocument(s, { ...(domainEventOf(e) as DocumentEvent), meta: { at: e.meta.at } });
  documentFolds.set(events, s);
  return s;
}

export function foldClientStream(events: readonly RecordedEvent[]): ClientState {
  const hit = clientFolds.get(events);
  if (hit) return hit;
  let s: ClientState = initialClientState;
  for (const e of events) s = evolveClient(s, domainEventOf(e) as ClientEvent);
  clientFolds.set(events, s);
  return s;
}

/** The account that owns a stream: every event carries it; the first one is authoritative. */
export function streamAccount(events: readonly RecordedEvent[]): string {
  const account = events[0]?.meta.accountId;
  if (!account) throw new Error('An event without an account id');
  return account;
}
