// Folding a stream read from the store into domain state, with every event checked by its schema.
import {
  type ClientEvent, type ClientState, type DocumentEvent, type DocumentState,
  evolveClient, evolveDocument, initialClientState, initialDocumentState, parseDomainEvent,
} from '@tradie/domain';
import type { RecordedEvent } from '@tradie/store';

export function foldDocumentStream(events: readonly RecordedEvent[]): DocumentState {
  let s: DocumentState = initialDocumentState;
  for (const e of events) s = evolveDocument(s, { ...(parseDomainEvent(e) as DocumentEvent), meta: { at: e.meta.at } });
  return s;
}

export function foldClientStream(events: readonly RecordedEvent[]): ClientState {
  let s: ClientState = initialClientState;
  for (const e of events) s = evolveClient(s, parseDomainEvent(e) as ClientEvent);
  return s;
}

/** The account that owns a stream: every event carries it; the first one is authoritative. */
export function streamAccount(events: readonly RecordedEvent[]): string {
  const account = events[0]?.meta.accountId;
  if (!account) throw new Error('An event without an account id');
  return account;
}
