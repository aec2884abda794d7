// Reading documents and what they are made from, always scoped to the account: a document or a
// client of another account is "not found", exactly like one that does not exist.
import {
  type ClientSnapshot, type DocumentState, type DocumentType, type DocumentView, type PaymentTerms,
  DEFAULT_PAYMENT_TERMS, documentStreamId, initialDocumentState, isPaymentTerms, sequenceStreamId,
} from '@tradie/domain';
import { foldDocumentStream } from '@tradie/projections';
import type { RecordedEvent, Sql, StoreTx } from '@tradie/store';
import type { Loaded } from '../commands.ts';
import { ApiError } from '../http/problem.ts';

export const DOCUMENT_NOT_FOUND = 'Invoice or quote not found';
export const CLIENT_NOT_FOUND = 'Client not found';

/**
 * Ids are UUIDs; anything much longer, or with other characters, can't name a document, so it is
 * not looked up at all (a NUL from a path's %00 cannot even be sent to PostgreSQL as text).
 */
export const plausibleId = (id: string): boolean => /^[A-Za-z0-9_-]{1,100}$/.test(id);

const ownedBy = (events: readonly RecordedEvent[], accountId: string): boolean => events[0]?.meta.accountId === accountId;

/** A document stream loaded for a command: its state (folded with every event checked) and version. */
export async function loadDocument(tx: Pick<StoreTx, 'readStream'>, accountId: string, id: string): Promise<Loaded<DocumentState> & { state: DocumentView }> {
  if (!plausibleId(id)) throw new ApiError(404, DOCUMENT_NOT_FOUND);
  const snap = await tx.readStream(documentStreamId(id));
  if (!ownedBy(snap.events, accountId)) throw new ApiError(404, DOCUMENT_NOT_FOUND);
  const state = foldDocumentStream(snap.events);
  if (state.status === 'none' || state.status === 'deleted') throw new ApiError(404, DOCUMENT_NOT_FOUND);
  return { streamId: snap.streamId, state, version: snap.version, events: snap.events };
}

/** A new document's empty stream. */
export const emptyDocument = (id: string): Loaded<DocumentState> => ({ streamId: documentStreamId(id), state: initialDocumentState, version: 0, events: [] });

export interface ClientForDocument {
  snapshot: ClientSnapshot;
  paymentTerms: PaymentTerms;
}

/** The client as the clients read model has it now, for the document's snapshot. */
export async function clientForDocument(sql: Sql, accountId: string, clientId: string): Promise<ClientForDocument> {
  if (!plausibleId(clientId)) throw new ApiError(404, CLIENT_NOT_FOUND);
  const [row] = await sql.query<ClientSnapshot & { id: string; default_payment_terms: string }>(
    `SELECT id, name, email, phone, address, is_business, business_name, company_number, gst_number, default_payment_terms
     FROM clients WHERE account_id = $1 AND id = $2`,
    [accountId, clientId],
  );
  if (!row) throw new ApiError(404, CLIENT_NOT_FOUND);
  const { default_payment_terms, ...snapshot } = row;
  return { snapshot, paymentTerms: isPaymentTerms(default_payment_terms) ? default_payment_terms : DEFAULT_PAYMENT_TERMS };
}

/**
 * Numbers are handed out one at a time per account and type. The sequence stream's optimistic
 * version check is what makes two numbers never the same; this transaction-scoped lock only
 * makes concurrent creators queue instead of failing and retrying (20 taps at once would
 * otherwise take up to 20 rounds of retries). Take it before any append in the transaction.
 */
export async function lockSequence(tx: Sql, accountId: string, type: DocumentType): Promise<string> {
  const streamId = sequenceStreamId(accountId, type);
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
  return streamId;
}

/** The last number handed out on a sequence stream (its version), without reading its events. */
export async function sequenceVersion(tx: Sql, streamId: string): Promise<number> {
  const [row] = await tx.query<{ v: number | string }>('SELECT coalesce(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1', [streamId]);
  return Number(row?.v ?? 0);
}

export interface UserNames {
  full_name: string;
  email: string;
}

export async function userNames(sql: Sql, userId: string): Promise<UserNames> {
  const [row] = await sql.query<UserNames>('SELECT full_name, email FROM users WHERE id = $1', [userId]);
  return row ?? { full_name: '', email: '' };
}
