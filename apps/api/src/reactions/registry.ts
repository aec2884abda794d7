// What happens because of an event, declared once. Each reaction names the event types it follows
// and an idempotent handler; the event store's append writes one outbox row per (reaction, event)
// in the event's own transaction, and the outbox (outbox.ts) runs the handler after the commit —
// at least once, so a handler must be safe to run again. A new reaction (an email, a reminder, a
// note to the client) is one more entry in REACTIONS; no route changes.
import { RetryLater } from '../errors.ts';
import { documentIdOf } from './documentOf.ts';
import type { DomainEventType } from '@tradie/domain';
import { ACCOUNT_CLOSED_CAUSE } from '../account/liveness.ts';
import { disconnect } from '../integrations/xero/oauth.ts';
import { pullFromXeroForReaction, pushDocumentChangesToXero } from '../integrations/xero/sync.ts';
import { XERO_INVOICE_CHANGED } from '../integrations/xero/changeCause.ts';
import { COST_RECEIPT_KEPT } from '../integrations/xero/billCause.ts';
import { pushCostToXero } from '../integrations/xero/bills.ts';
import { acceptanceConfirmation } from '../clientLinks/confirmAcceptance.ts';
import { clientAnswerNotice } from '../clientLinks/notify.ts';
import { deliveryFailure, reminderSchedule } from '../reminders/reactions.ts';
import { expireCheckoutSessions, expireClosedAccountCheckouts } from '../payments/reaction.ts';
import type { AppDeps } from '../deps.ts';

/** An outbox row as a handler sees it. */
export interface OutboxRow {
  id: string;
  accountId: string;
  reaction: string;
  streamId: string;
  eventId: string;
  /** The event's position in the log, as a decimal string. */
  eventPosition: string;
  eventType: string;
  /** The event's data. */
  payload: Record<string, unknown>;
  /** Attempts that failed before this one. */
  attempts: number;
}

/** What reactions may use. */
export type ReactionDeps = Pick<AppDeps, 'config' | 'store' | 'clock' | 'ids' | 'mailer' | 'secrets' | 'log' | 'accounting' | 'connect' | 'renderPdf' | 'files'>;

/**
 * What may set a reaction off: a domain event, the account's deletion (a row the deletion writes
 * itself), or Xero saying a synced invoice changed (a row its webhook or the poll writes).
 */
export type ReactionCause = DomainEventType | typeof ACCOUNT_CLOSED_CAUSE | typeof XERO_INVOICE_CHANGED | typeof COST_RECEIPT_KEPT;

/** A reaction: `T` is the event types it may follow — the domain's, so a misspelt one does not compile (a test of the outbox itself uses its own). */
export interface Reaction<D = ReactionDeps, T extends string = ReactionCause> {
  /** Stored on the outbox rows: never rename one that may have rows waiting. */
  name: string;
  /** The event types that call for it. */
  on: readonly T[];
  /**
   * Does the work; returning means done. Throwing means "try again later" (with backoff): it must
   * be safe to run again after a partial success, and after a success whose marking was lost.
   * Throwing NotBefore (notBefore.ts) puts the row off until its time, as neither done nor failed.
   */
  handle(deps: D, row: OutboxRow): Promise<void>;
  /**
   * For a handler that brings an outside copy of the whole stream up to date (an invoice in Xero),
   * whatever the event: the rows of one stream that are run together and whose reactions name the
   * same key run the handler once, with the latest of them, and are done (or failed) together. A
   * payment on an invoice whose send is still waiting is then one push to Xero, not two.
   */
  coalesce?: string;
  /**
   * Runs for a closed account (deleted, waiting for its purge: account/liveness.ts). Only the
   * reactions that wind a closed account down say so; the outbox marks every other row of a closed
   * account done without running it.
   */
  forClosedAccount?: boolean;
}


/**
 * A synced invoice is brought up to date in Xero after it is sent, paid, a payment is taken off,
 * or it is voided. pushDocumentChangesToXero never throws, does nothing for a document that is
 * not a synced invoice of a connected account, sends only what Xero does not have yet, and keeps
 * its own failure in xero_sync.last_push_error (POST /integrations/xero/push/{id} retries by hand).
 * A card refund (PaymentRefunded) is not pushed: the business records it in Xero as it chooses
 * (docs/decisions/0012-card-payments-connect-direct-charges.md).
 */
export const xeroPush: Reaction = {
  name: 'xero-push',
  on: ['DocumentSent', 'PaymentRecorded', 'PaymentRemoved', 'DocumentVoided'],
  coalesce: 'xero',
  async handle(deps, row) {
    const r = await pushDocumentChangesToXero(deps, row.accountId, documentIdOf(row));
    if (r.outcome === 'failed' && r.worthRetrying) throw new RetryLater(`Xero answered ${r.status}: ${r.detail}`);
  },
};

/**
 * A synced invoice's credit note goes to Xero as a credit note (ACCRECCREDIT) and is allocated to
 * the invoice there, and money paid back against it goes as a cash refund of its credit, by the
 * same push: it sends only what Xero does not have yet.
 */
export const xeroCreditNotePush: Reaction = {
  name: 'xero-credit-note',
  on: ['CreditNoteIssued', 'CreditNoteRefunded'],
  coalesce: 'xero',
  handle: xeroPush.handle,
};

/**
 * A cost sent to Xero as a bill follows the cost: its figures again after a change, voided when the
 * cost is deleted, the receipt attached when a new one is kept (integrations/xero/bills.ts). Does
 * nothing for a cost never sent.
 */
export const xeroBillPush: Reaction = {
  name: 'xero-bill',
  on: ['CostChanged', 'CostRemoved', COST_RECEIPT_KEPT],
  coalesce: 'xero-bill',
  async handle(deps, row) {
    const costId = row.payload['costId'];
    if (typeof costId === 'string') await pushCostToXero(deps, row.accountId, costId);
  },
};

/**
 * Xero said a synced invoice changed (a webhook's event, or the poll: integrations/xero/webhook.ts,
 * poll.ts): the invoice is read back from Xero and what changed there comes here — payments, credit
 * notes, a void (pullFromXero). Xero's limits or a busy invoice put the row off until the time Xero
 * (or the organisation's call budget) names, without spending an attempt; Xero failing is tried
 * again with the outbox's backoff; a refusal (the account disconnected, the invoice not synced to
 * this organisation) ends it.
 */
export const xeroPull: Reaction = {
  name: 'xero-pull',
  on: [XERO_INVOICE_CHANGED],
  coalesce: 'xero-pull',
  async handle(deps, row) {
    await pullFromXeroForReaction(deps, row.accountId, documentIdOf(row));
  },
};

/**
 * After the account's deletion (account/commands.ts): Xero is disconnected — the refresh token
 * revoked at Xero and the stored connection forgotten, recorded in the audit log with where the
 * deletion came from. It runs although the account is closed; Xero unreachable keeps the
 * connection and is tried again later, any other refusal forgets it (docs/decisions/0010-account-deletion.md).
 */
export const xeroDisconnectClosedAccount: Reaction = {
  name: 'account-closed-xero',
  on: [ACCOUNT_CLOSED_CAUSE],
  forClosedAccount: true,
  async handle(deps, row) {
    const { ip, userAgent } = row.payload;
    await disconnect(deps, row.accountId, { ip: typeof ip === 'string' ? ip : '', userAgent: typeof userAgent === 'string' ? userAgent : undefined }, { retryUnreachable: true });
  },
};

/** Every reaction the API runs. */
export const REACTIONS: readonly Reaction[] = [
  xeroPush, xeroCreditNotePush, xeroBillPush, xeroPull, clientAnswerNotice, acceptanceConfirmation, reminderSchedule, deliveryFailure, expireCheckoutSessions, expireClosedAccountCheckouts, xeroDisconnectClosedAccount,
];
