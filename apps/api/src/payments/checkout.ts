// A client's 'Pay now' on an invoice link: a Checkout Session on the business's own Stripe account
// for what the invoice owes (plus the disclosed surcharge, when the business passes the fee on).
//
// Under a per-invoice lock (a transaction-scoped advisory lock), so two taps never make two
// payable sessions: an open session of the same amounts that is not about to expire is handed out
// again; otherwise every other open session of the invoice is expired at Stripe first, then a new
// one is made. Stripe is called inside that transaction: the lock is what makes it safe.
import { CLIENT_LINK_MESSAGES } from '@tradie/contracts';
import { documentFigures } from '@tradie/domain';
import type { AppDeps } from '../deps.ts';
import { loadDocument } from '../documents/repository.ts';
import { canTakeCards, surchargeFor } from './offer.ts';
import { insertSession, loadPaymentAccount, markSession, openSessionsOf } from './repository.ts';
import { Conflict, UpstreamFailed } from '../errors.ts';

/** A session lives an hour (Stripe's minimum is 30 minutes). */
export const CHECKOUT_LIFETIME_MS = 60 * 60_000;
/** A session with less than this left is not handed out again. */
const REUSE_MARGIN_MS = 10 * 60_000;

export type CheckoutDeps = Pick<AppDeps, 'config' | 'store' | 'clock' | 'log' | 'connect'>;

export interface CheckoutTarget {
  token: string;
  linkId: string;
  accountId: string;
  documentId: string;
}

export async function startCheckout(deps: CheckoutDeps, t: CheckoutTarget): Promise<{ checkoutUrl: string }> {
  const connect = deps.connect;
  const doc = (await loadDocument(deps.store, t.accountId, t.documentId)).state;
  if (doc.type !== 'invoice') throw new Conflict(CLIENT_LINK_MESSAGES.payUnavailable);
  if (doc.status === 'void') throw new Conflict(CLIENT_LINK_MESSAGES.voided);
  const f = documentFigures(doc);
  if (f.balanceCents <= 0n) throw new Conflict(f.paidCents > 0n ? CLIENT_LINK_MESSAGES.paid : CLIENT_LINK_MESSAGES.nothingToPay);
  if (!connect) throw new Conflict(CLIENT_LINK_MESSAGES.payUnavailable);
  const account = await loadPaymentAccount(deps.store.db, t.accountId);
  if (!canTakeCards(account)) throw new Conflict(CLIENT_LINK_MESSAGES.payUnavailable);
  const amount = f.balanceCents;
  const surcharge = surchargeFor(account, amount);
  const pageUrl = `${deps.config.appUrl}/i/${encodeURIComponent(t.token)}`;

  return deps.store.db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payments:checkout:${t.accountId}:${t.documentId}`]);
    const now = deps.clock.now();
    const open = await openSessionsOf(tx, t.accountId, t.documentId);
    const reusable = open.find(
      (s) => BigInt(s.amount_cents) === amount && BigInt(s.surcharge_cents) === surcharge && s.stripe_account_id === account.stripeAccountId
        && new Date(s.expires_at).getTime() - now.getTime() > REUSE_MARGIN_MS,
    );
    if (reusable) return { checkoutUrl: reusable.url };
    for (const s of open) {
      const expired = await connect.expireCheckoutSession(s.stripe_account_id, s.id);
      // A session the client paid meanwhile stays complete (its webhook records the payment).
      await markSession(tx, s.id, expired.status === 'complete' ? 'complete' : 'expired', expired.paymentIntentId);
      if (expired.status === 'complete') throw new Conflict(CLIENT_LINK_MESSAGES.paid);
    }
    const expiresAt = new Date(now.getTime() + CHECKOUT_LIFETIME_MS);
    const session = await connect.createCheckoutSession({
      connectedAccountId: account.stripeAccountId,
      accountId: t.accountId,
      documentId: t.documentId,
      linkId: t.linkId,
      reference: doc.reference,
      balanceCents: Number(amount),
      surchargeCents: Number(surcharge),
      successUrl: `${pageUrl}?paid=1`,
      cancelUrl: `${pageUrl}?cancelled=1`,
      expiresAt,
    });
    if (!session.url) throw new UpstreamFailed('The payment provider did not give a checkout address. Please try again.');
    await insertSession(tx, {
      id: session.id, accountId: t.accountId, documentId: t.documentId, linkId: t.linkId, stripeAccountId: account.stripeAccountId, url: session.url,
      amountCents: amount, surchargeCents: surcharge, createdAt: now, expiresAt: new Date(session.expiresAt * 1000),
    });
    return { checkoutUrl: session.url };
  });
}

/** Expires every open session of an invoice (it was paid in full or voided some other way). */
export async function expireOpenSessions(deps: Pick<AppDeps, 'store' | 'connect' | 'log'>, accountId: string, documentId: string): Promise<number> {
  const connect = deps.connect;
  if (!connect) return 0;
  const open = await openSessionsOf(deps.store.db, accountId, documentId);
  for (const s of open) {
    const r = await connect.expireCheckoutSession(s.stripe_account_id, s.id);
    await markSession(deps.store.db, s.id, r.status === 'complete' ? 'complete' : 'expired', r.paymentIntentId);
  }
  return open.length;
}
