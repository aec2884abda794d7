// The pure webhook reducer: an account's billing state + one verified event → the new state.
//
// Stripe delivers at least once and in no guaranteed order, so the state is built from
// last-writer-wins registers, each holding a snapshot and the version it came from:
//   - one register per subscription id (its status, period end, trial end, ...),
//   - one for the customer id, one for the latest invoice outcome.
// A register takes a new value only when the event's version is strictly greater. Versions are
// totally ordered — (authority, event `created`, status rank, event id) — so the reducer is:
//   idempotent   apply(apply(s, e), e) = apply(s, e)  (the API also skips known event ids), and
//   order-free   any delivery order of the same events gives the same state.
// `subscription` (the one that governs access) is derived from the registers after each event:
// a subscription that grants access wins over one that does not, then the newest.
//
// `checkout.session.completed` says a subscription exists (Stripe: "provision the
// subscription") but carries no subscription object, so it writes a *provisional* snapshot
// (trialing when nothing was due today, active when paid) that any real
// `customer.subscription.*` snapshot of that subscription overrides, whatever its time.
import type { BillingEvent, CheckoutCompletedEvent, InvoiceSnapshot, SubscriptionSnapshot, SubscriptionStatusName } from './port.ts';
import { assertNever } from '@tradie/domain';
import { grantsAccess, SUBSCRIPTION_STATUSES } from './port.ts';

export interface Version {
  /** 0 = provisional (from a checkout session), 1 = Stripe's own object. */
  authority: 0 | 1;
  created: number;
  /** Tie-break within one second: later lifecycle stages win (see SUBSCRIPTION_STATUSES). */
  rank: number;
  eventId: string;
}

export interface SubscriptionRecord extends SubscriptionSnapshot {
  provisional: boolean;
  version: Version;
}

export interface LastInvoice extends InvoiceSnapshot {
  outcome: 'paid' | 'payment_failed';
  version: Version;
}

export interface BillingState {
  customerId: string | null;
  /** The subscription that governs access (derived from `subscriptions`), or null. */
  subscription: SubscriptionRecord | null;
  /** The newest invoice outcome: `payment_failed` here is the cue for a "card declined" warning. */
  lastInvoice: LastInvoice | null;
  customerVersion: Version | null;
  /** Every subscription this account has had, by id. */
  subscriptions: Readonly<Record<string, SubscriptionRecord>>;
}

export const initialBillingState: BillingState = {
  customerId: null,
  subscription: null,
  lastInvoice: null,
  customerVersion: null,
  subscriptions: {},
};

export function compareVersions(a: Version, b: Version): number {
  if (a.authority !== b.authority) return a.authority - b.authority;
  if (a.created !== b.created) return a.created - b.created;
  if (a.rank !== b.rank) return a.rank - b.rank;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

function compareRecency(a: Version, b: Version): number {
  if (a.created !== b.created) return a.created - b.created;
  return compareVersions(a, b);
}

const newer = (candidate: Version, current: Version | null | undefined): boolean => !current || compareVersions(candidate, current) > 0;

const statusRank = (s: SubscriptionStatusName): number => SUBSCRIPTION_STATUSES.indexOf(s);

/** Where an event belongs: the API finds the account by `accountId`, else by `customerId`. */
export function accountRefOf(event: BillingEvent): { accountId: string | null; customerId: string | null } {
  if (event.type === 'ignored') return { accountId: null, customerId: null };
  return { accountId: event.accountId, customerId: event.customerId };
}

export function applyBillingEvent(state: BillingState, event: BillingEvent): BillingState {
  if (event.type === 'ignored') return state;

  let next = state;
  if (event.customerId) {
    const v: Version = { authority: 1, created: event.created, rank: 0, eventId: event.id };
    if (newer(v, state.customerVersion)) next = { ...next, customerId: event.customerId, customerVersion: v };
  }

  switch (event.type) {
    case 'checkout.session.completed': {
      const snapshot = provisionalSnapshot(event);
      if (snapshot) next = withSubscription(next, snapshot, { authority: 0, created: event.created, rank: statusRank(snapshot.status), eventId: event.id }, true);
      break;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      // A deleted subscription is canceled whatever the payload says.
      const snapshot: SubscriptionSnapshot = event.type === 'customer.subscription.deleted' ? { ...event.subscription, status: 'canceled' } : event.subscription;
      next = withSubscription(next, snapshot, { authority: 1, created: event.created, rank: statusRank(snapshot.status), eventId: event.id }, false);
      break;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const outcome = event.type === 'invoice.paid' ? 'paid' : 'payment_failed';
      const v: Version = { authority: 1, created: event.created, rank: outcome === 'paid' ? 1 : 0, eventId: event.id };
      if (newer(v, state.lastInvoice?.version)) next = { ...next, lastInvoice: { ...event.invoice, outcome, version: v } };
      break;
    }
    default:
      assertNever(event);
  }
  return next;
}

/** Folds events in the order given (any order gives the same result). */
export const reduceBillingEvents = (events: readonly BillingEvent[], state: BillingState = initialBillingState): BillingState => events.reduce(applyBillingEvent, state);

function provisionalSnapshot(event: CheckoutCompletedEvent): SubscriptionSnapshot | null {
  if (!event.subscriptionId) return null;
  const status: SubscriptionStatusName = event.paymentStatus === 'paid' ? 'active' : event.paymentStatus === 'no_payment_required' ? 'trialing' : 'incomplete';
  return { id: event.subscriptionId, status, currentPeriodEnd: null, trialEnd: null, cancelAtPeriodEnd: false, priceId: null };
}

function withSubscription(state: BillingState, snapshot: SubscriptionSnapshot, version: Version, provisional: boolean): BillingState {
  if (!newer(version, state.subscriptions[snapshot.id]?.version)) return state;
  const subscriptions = { ...state.subscriptions, [snapshot.id]: { ...snapshot, provisional, version } };
  return { ...state, subscriptions, subscription: governing(subscriptions) };
}

/** Access-granting before not; then the most recent (by event time first: a newer subscription wins). */
function governing(subscriptions: Readonly<Record<string, SubscriptionRecord>>): SubscriptionRecord | null {
  let best: SubscriptionRecord | null = null;
  for (const s of Object.values(subscriptions)) {
    if (!best) best = s;
    else {
      const a = grantsAccess(s.status), b = grantsAccess(best.status);
      if (a !== b ? a : compareRecency(s.version, best.version) > 0) best = s;
    }
  }
  return best;
}
