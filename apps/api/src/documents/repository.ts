// Reading documents and what they are made from, always scoped to the account: a document or a
// client of another account is "not found", exactly like one that does not exist.
import {
  type ClientSnapshot, type DocumentState, type DocumentView, type PaymentTerms, type SequenceType,
  DEFAULT_PAYMENT_TERMS, allocateReference, documentDecider, documentStreamId, initialDocumentState, isPaymentTerms, sequenceStreamId,
} from '@tradie/domain';
import type { EventMeta, Sql, StoreTx } from '@tradie/store';
import { appendEvents, type Loaded, loadStream, toNewEvents } from '../commands.ts';
import { plausibleId } from '../http/ids.ts';
import { NotFound } from '../errors.ts';

export const DOCUMENT_NOT_FOUND = 'Invoice or quote not found';
export const CLIENT_NOT_FOUND = 'Client not found';

export { plausibleId } from '../http/ids.ts';

/** A live document's stream, loaded for a command or a read. */
export type LoadedDocument = Loaded<DocumentState> & { state: DocumentView };

/**
 * A document stream of the account, every event checked (commands.ts loadStream). An id that
 * cannot name a document, another account's document, and a deleted one are all "not found".
 */
export async function loadDocument(tx: Pick<StoreTx, 'readStream'>, accountId: string, id: string): Promise<LoadedDocument> {
  if (!plausibleId(id)) throw new NotFound(DOCUMENT_NOT_FOUND);
  const loaded = await loadStream(tx, documentStreamId(id), documentDecider, { accountId, notFound: DOCUMENT_NOT_FOUND });
  const state = loaded.state;
  if (state.status === 'none' || state.status === 'deleted') throw new NotFound(DOCUMENT_NOT_FOUND);
  return { ...loaded, state };
}

/** A new document's empty stream. */
export const emptyDocument = (id: string): Loaded<DocumentState> => ({ streamId: documentStreamId(id), state: initialDocumentState, version: 0, events: [] });

export interface ClientForDocument {
  snapshot: ClientSnapshot;
  paymentTerms: PaymentTerms;
}

/** The id of the account's client `clientId`; 404 for another account's, a removed one or none. */
export async function accountClientId(sql: Sql, accountId: string, clientId: string): Promise<string> {
  const [row] = plausibleId(clientId) ? await sql.query<{ id: string }>('SELECT id FROM clients WHERE account_id = $1 AND id = $2', [accountId, clientId]) : [];
  if (!row) throw new NotFound(CLIENT_NOT_FOUND);
  return row.id;
}

/** The client as the clients read model has it now, for the document's snapshot. */
export async function clientForDocument(sql: Sql, accountId: string, clientId: string): Promise<ClientForDocument> {
  if (!plausibleId(clientId)) throw new NotFound(CLIENT_NOT_FOUND);
  const [row] = await sql.query<ClientSnapshot & { id: string; default_payment_terms: string }>(
    `SELECT id, name, email, phone, address, is_business, business_name, company_number, gst_number, default_payment_terms
     FROM clients WHERE account_id = $1 AND id = $2`,
    [accountId, clientId],
  );
  if (!row) throw new NotFound(CLIENT_NOT_FOUND);
  const { default_payment_terms, ...snapshot } = row;
  return { snapshot, paymentTerms: isPaymentTerms(default_payment_terms) ? default_payment_terms : DEFAULT_PAYMENT_TERMS };
}

/**
 * Numbers are handed out one at a time per account and type. The sequence stream's optimistic
 * version check is what makes two numbers never the same; this transaction-scoped lock only
 * makes concurrent creators queue instead of failing and retrying (20 taps at once would
 * otherwise take up to 20 rounds of retries). Take it before any append in the transaction.
 */
export async function lockSequence(tx: Sql, accountId: string, type: SequenceType): Promise<string> {
  const streamId = sequenceStreamId(accountId, type);
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
  return streamId;
}

/** A number handed out for one document, and how to record it on the sequence stream. */
export interface AllocatedReference {
  number: number;
  reference: string;
  /** Appends the allocation with the sequence's expected version (after the document's own events). */
  record(meta: EventMeta): Promise<unknown>;
}

/**
 * The one way a document gets its number (creating one, and converting a quote into an invoice).
 * Takes the sequence's lock now, so call it before any other append in the transaction; `allocate`
 * then hands out the next number for `documentId`.
 */
export async function reserveReference(tx: StoreTx, accountId: string, type: SequenceType): Promise<{ allocate(documentId: string): Promise<AllocatedReference> }> {
  const streamId = await lockSequence(tx, accountId, type);
  return {
    async allocate(documentId) {
      // The last number handed out is the sequence stream's version.
      const version = await tx.streamVersion(streamId);
      const allocated = allocateReference(version, type, documentId);
      return {
        number: allocated.data.number,
        reference: allocated.data.reference,
        record: (meta) => appendEvents(tx, streamId, version, toNewEvents([allocated], meta)),
      };
    },
  };
}

export interface UserNames {
  full_name: string;
  email: string;
}

export async function userNames(sql: Sql, userId: string): Promise<UserNames> {
  const [row] = await sql.query<UserNames>('SELECT full_name, email FROM users WHERE id = $1', [userId]);
  return row ?? { full_name: '', email: '' };
}
