// When an invoice is paid in full or voided some other way (a payment typed in, Mark Paid, a void),
// the Checkout Sessions still open for it are expired at Stripe, so the client cannot pay twice.
// When the business deletes its account, every session still open is expired, so nobody pays a
// business that has closed.
import { documentFigures } from '@tradie/domain';
import { ACCOUNT_CLOSED_CAUSE } from '../account/liveness.ts';
import { loadDocument } from '../documents/repository.ts';
import type { AppDeps } from '../deps.ts';
import { documentIdOf } from '../reactions/documentOf.ts';
import { expireOpenSessions } from './checkout.ts';
import { documentsWithOpenSessions, openSessionsOf } from './repository.ts';
import { NotFound } from '../errors.ts';

/** What the outbox hands a reaction (reactions/registry.ts OutboxRow), the parts read here. */
interface Row {
  accountId: string;
  streamId: string;
  payload: Record<string, unknown>;
}


/** An entry of REACTIONS (reactions/registry.ts). */
export const expireCheckoutSessions = {
  name: 'payments-expire-checkout',
  on: ['PaymentRecorded', 'DocumentVoided'] as const,
  async handle(deps: Pick<AppDeps, 'store' | 'connect' | 'log'>, row: Row): Promise<void> {
    const documentId = documentIdOf(row);
    // Most invoices never had a session: nothing to read or ask.
    if (!deps.connect || (await openSessionsOf(deps.store.db, row.accountId, documentId)).length === 0) return;
    let settled: boolean;
    try {
      const d = (await loadDocument(deps.store, row.accountId, documentId)).state;
      settled = d.status === 'void' || documentFigures(d).balanceCents <= 0n;
    } catch (e) {
      if (!(e instanceof NotFound)) throw e;
      settled = true;
    }
    if (settled) await expireOpenSessions(deps, row.accountId, documentId);
  },
};

/**
 * An entry of REACTIONS: after the account's deletion (account/commands.ts), every Checkout Session
 * still open on its invoices is expired at Stripe. It runs although the account is closed; Stripe
 * unreachable is tried again later by the outbox, and a session paid meanwhile stays complete.
 */
export const expireClosedAccountCheckouts = {
  name: 'account-closed-checkout',
  on: [ACCOUNT_CLOSED_CAUSE] as const,
  forClosedAccount: true,
  async handle(deps: Pick<AppDeps, 'store' | 'connect' | 'log'>, row: Pick<Row, 'accountId'>): Promise<void> {
    for (const documentId of await documentsWithOpenSessions(deps.store.db, row.accountId)) await expireOpenSessions(deps, row.accountId, documentId);
  },
};
