// Connect webhook events → what they change here. Each is applied at most once in effect:
//   - a payment's id is derived from its PaymentIntent, so `checkout.session.completed`, its
//     redelivery and the `payment_intent.succeeded` backstop all record ONE payment;
//   - a refund records only what Stripe says was refunded beyond what is recorded already;
//   - the event id is stored after its work committed, and a stored id is skipped.
// A payment never exceeds what the invoice owes: when it was paid some other way meanwhile, what
// fits is recorded and the rest is kept as an 'overpaid' issue (and logged) for the business to
// refund in its Stripe dashboard. Nothing here answers 5xx for a sound event it cannot place.
// An event of a business that deleted its account (account/liveness.ts) is recorded as
// 'account_closed' and changes nothing: no payment, refund, issue or connection state.
import { createHash } from 'node:crypto';
import { formatNzd, nzDateOf, type LocalDate } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { isAccountClosed } from '../account/liveness.ts';
import type { Actor } from '../commands.ts';
import type { ReactionDeps } from '../reactions/registry.ts';
import { recordCardPayment, recordCardRefund } from '../documents/commands/payments.ts';
import type { ConnectEvent, PaymentMetadata } from '../integrations/stripe/connect.ts';
import {
  accountOfStripeAccount, type CheckoutSessionRow, claimEvent, markSession, openSessionsOf, paymentAccountByStripeId, recordIssue, sessionById, sessionByPaymentIntent, settleEvent,
} from './repository.ts';
import { NotFound } from '../errors.ts';

export type WebhookDeps = ReactionDeps;

/** The payment id recorded for a PaymentIntent: the same id every time (a UUID made from its SHA-256). */
export function cardPaymentId(paymentIntentId: string): string {
  const h = createHash('sha256').update(`stripe-payment-intent:${paymentIntentId}`, 'utf8').digest('hex');
  // UUID version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const stripeActor = (accountId: string): Actor => ({ accountId, userId: 'stripe' });
const dayOf = (unix: number): LocalDate => nzDateOf(new Date(unix * 1000));

export interface Applied {
  outcome: string;
  accountId: string | null;
}

/** The invoice a payment is for: our session row when there is one, else the metadata — only when the event came from that account's own Stripe account. */
async function targetOf(
  sql: Sql,
  connectedAccountId: string | null,
  metadata: PaymentMetadata,
  row: CheckoutSessionRow | null,
): Promise<{ accountId: string; documentId: string; row: CheckoutSessionRow | null } | null> {
  if (!connectedAccountId) return null;
  if (row) return row.stripe_account_id === connectedAccountId ? { accountId: row.account_id, documentId: row.document_id, row } : null;
  const account = await paymentAccountByStripeId(sql, connectedAccountId);
  if (!account || !metadata.accountId || account.accountId !== metadata.accountId || !metadata.documentId) return null;
  return { accountId: account.accountId, documentId: metadata.documentId, row: null };
}

async function recordPayment(
  deps: WebhookDeps,
  event: ConnectEvent,
  p: { paymentIntentId: string; paidCents: number; target: { accountId: string; documentId: string; row: CheckoutSessionRow | null } },
): Promise<Applied> {
  const db = deps.store.db;
  const { accountId, documentId } = p.target;
  // The session the client paid: the one named, or (the backstop first) the open one of this amount.
  let row = p.target.row;
  if (!row) {
    row = (await openSessionsOf(db, accountId, documentId)).find((s) => BigInt(s.amount_cents) + BigInt(s.surcharge_cents) === BigInt(p.paidCents)) ?? null;
  }
  const surcharge = row ? BigInt(row.surcharge_cents) : 0n;
  const paid = BigInt(p.paidCents) - surcharge;
  if (row) await markSession(db, row.id, 'complete', p.paymentIntentId);
  if (paid <= 0n) return { outcome: 'nothing_paid', accountId };
  let outcome;
  try {
    outcome = await recordCardPayment(deps, stripeActor(accountId), documentId, {
      paymentId: cardPaymentId(p.paymentIntentId),
      amountCents: paid,
      date: dayOf(event.created),
      reference: `Stripe ${p.paymentIntentId}`,
    });
  } catch (e) {
    if (e instanceof NotFound) {
      deps.log('error', 'payments: a card payment for an invoice that is not there', { accountId, documentId, paymentIntentId: p.paymentIntentId });
      return { outcome: 'unmatched', accountId };
    }
    throw e;
  }
  if (outcome.duplicate) return { outcome: 'duplicate', accountId };
  if (outcome.excessCents > 0n) {
    const detail = outcome.refused
      ? `${outcome.refused}: the card payment was not recorded. Refund it in Stripe.`
      : `The invoice was paid some other way while the client paid by card: ${formatNzd(outcome.excessCents)} more than was owed. Refund the difference in Stripe.`;
    deps.log('error', 'payments: a card payment is more than the invoice owed', { accountId, documentId, paymentIntentId: p.paymentIntentId, excessCents: outcome.excessCents.toString() });
    await recordIssue(db, { accountId, documentId, kind: 'overpaid', stripeObjectId: p.paymentIntentId, amountCents: outcome.excessCents, detail, at: deps.clock.now() });
  }
  return { outcome: outcome.recordedCents > 0n ? 'payment_recorded' : 'overpaid', accountId };
}

async function apply(deps: WebhookDeps, event: ConnectEvent): Promise<Applied> {
  const db = deps.store.db;
  const now = deps.clock.now();
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = event.session;
      // 'unpaid' for a delayed method: async_payment_succeeded follows when the money arrives.
      if (s.paymentStatus !== 'paid' || !s.paymentIntentId) return { outcome: 'not_paid_yet', accountId: null };
      const target = await targetOf(db, event.connectedAccountId, s.metadata, await sessionById(db, s.id));
      if (!target) return { outcome: 'unmatched', accountId: null };
      return recordPayment(deps, event, { paymentIntentId: s.paymentIntentId, paidCents: s.amountTotal, target });
    }
    case 'payment_intent.succeeded': {
      const pi = event.paymentIntent;
      const target = await targetOf(db, event.connectedAccountId, pi.metadata, await sessionByPaymentIntent(db, pi.id));
      if (!target) return { outcome: 'unmatched', accountId: null };
      return recordPayment(deps, event, { paymentIntentId: pi.id, paidCents: pi.amountReceived, target });
    }
    case 'checkout.session.expired': {
      const row = await sessionById(db, event.session.id);
      if (!row || row.stripe_account_id !== event.connectedAccountId) return { outcome: 'unmatched', accountId: null };
      await markSession(db, row.id, 'expired');
      return { outcome: 'session_expired', accountId: row.account_id };
    }
    case 'charge.refunded': {
      const ch = event.charge;
      const row = ch.paymentIntentId ? await sessionByPaymentIntent(db, ch.paymentIntentId) : null;
      if (!row || !ch.paymentIntentId || row.stripe_account_id !== event.connectedAccountId) return { outcome: 'unmatched', accountId: null };
      const recorded = await recordCardRefund(deps, stripeActor(row.account_id), row.document_id, {
        paymentId: cardPaymentId(ch.paymentIntentId),
        refundId: ch.latestRefundId ?? `${ch.id}-${ch.amountRefunded}`,
        refundedToDateCents: BigInt(ch.amountRefunded),
        date: dayOf(event.created),
      });
      return { outcome: recorded > 0n ? 'refund_recorded' : 'duplicate', accountId: row.account_id };
    }
    case 'charge.dispute.created': {
      const d = event.dispute;
      const account = event.connectedAccountId ? await paymentAccountByStripeId(db, event.connectedAccountId) : null;
      if (!account) return { outcome: 'unmatched', accountId: null };
      const row = d.paymentIntentId ? await sessionByPaymentIntent(db, d.paymentIntentId) : null;
      const documentId = row && row.account_id === account.accountId ? row.document_id : null;
      deps.log('error', 'payments: a card payment is disputed', { accountId: account.accountId, documentId, disputeId: d.id, reason: d.reason });
      await recordIssue(db, {
        accountId: account.accountId, documentId, kind: 'dispute', stripeObjectId: d.id, amountCents: BigInt(d.amount),
        detail: `The client disputed a card payment of ${formatNzd(BigInt(d.amount))} (${d.reason.replaceAll('_', ' ')}). Answer it in your Stripe dashboard before Stripe's deadline.`, at: now,
      });
      return { outcome: 'dispute_recorded', accountId: account.accountId };
    }
    case 'account.updated': {
      const a = event.account;
      const rows = await db.query<{ account_id: string }>(
        'UPDATE payment_accounts SET charges_enabled = $2, details_submitted = $3, updated_at = $4 WHERE stripe_account_id = $1 RETURNING account_id',
        [a.id, a.chargesEnabled, a.detailsSubmitted, now.toISOString()],
      );
      return { outcome: rows.length ? 'account_updated' : 'unmatched', accountId: rows[0]?.account_id ?? null };
    }
    case 'account.application.deauthorized': {
      if (!event.connectedAccountId) return { outcome: 'unmatched', accountId: null };
      const rows = await db.query<{ account_id: string }>(
        'UPDATE payment_accounts SET disconnected_at = COALESCE(disconnected_at, $2), charges_enabled = false, updated_at = $2 WHERE stripe_account_id = $1 RETURNING account_id',
        [event.connectedAccountId, now.toISOString()],
      );
      return { outcome: rows.length ? 'disconnected' : 'unmatched', accountId: rows[0]?.account_id ?? null };
    }
    case 'ignored':
      return { outcome: 'ignored', accountId: null };
  }
}

/** Applies a verified event once; a redelivery of an applied event does nothing. */
export async function applyConnectEvent(deps: WebhookDeps, event: ConnectEvent): Promise<Applied> {
  const db = deps.store.db;
  const [seen] = await db.query<{ outcome: string }>("SELECT outcome FROM payment_webhook_events WHERE event_id = $1 AND outcome <> 'pending'", [event.id]);
  if (seen) return { outcome: 'duplicate', accountId: null };
  const owner = event.connectedAccountId ? await accountOfStripeAccount(db, event.connectedAccountId) : null;
  const applied = owner && (await isAccountClosed(db, owner)) ? { outcome: 'account_closed', accountId: owner } : await apply(deps, event);
  // Only after the work committed is the event's id stored (and only then does Stripe hear 2xx).
  await db.tx(async (tx) => {
    await claimEvent(tx, { id: event.id, type: event.type === 'ignored' ? event.stripeType : event.type }, deps.clock.now());
    await settleEvent(tx, event.id, applied.accountId, applied.outcome);
  });
  if (applied.outcome === 'unmatched') deps.log('info', 'payments: webhook event for no known invoice or account', { id: event.id, type: event.type });
  return applied;
}
