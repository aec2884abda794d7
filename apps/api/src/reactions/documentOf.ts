// Which document an outbox row is about: the id its event names, else the one in its stream's name
// (document-{id}). Every reaction that follows a document's events reads it here.

/** The part of an outbox row that says where its event came from. */
export interface RowSource {
  streamId: string;
  payload: Record<string, unknown>;
}

/** The document an event of a document stream is about. */
export function documentIdOf(row: RowSource): string {
  const id = row.payload.documentId;
  if (typeof id === 'string' && id !== '') return id;
  return row.streamId.startsWith('document-') ? row.streamId.slice('document-'.length) : row.streamId;
}
