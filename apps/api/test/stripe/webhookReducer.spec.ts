import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillingEvent, CheckoutCompletedEvent, InvoiceEvent, SubscriptionEvent, SubscriptionStatusName } from '../../src/integrations/stripe/port.ts';
import { SUBSCRIPTION_STATUSES } from '../../src/integrations/stripe/port.ts';
import { accountRefOf, applyBillingEvent, initialBillingState, reduceBillingEvents } from '../../src/integrations/stripe/webhookReducer.ts';

const ACC = 'acc_1';
const CUS = 'cus_1';

const checkout = (id: string, created: number, subscriptionId: string, paymentStatus: CheckoutCompletedEvent['paymentStatus'] = 'no_payment_required'): CheckoutCompletedEvent => ({
  id,
  created,
  type: 'checkout.session.completed',
  accountId: ACC,
  customerId: CUS,
  sessionId: 'cs_test_1',
  subscriptionId,
  paymentStatus,
});

const sub = (
  id: string,
  created: number,
  type: SubscriptionEvent['type'],
  subscriptionId: string,
  status: SubscriptionStatusName,
  extra: Partial<SubscriptionEvent['subscription']> = {},
): SubscriptionEvent => ({
  id,
  created,
  type,
  accountId: ACC,
  customerId: CUS,
  subscription: { id: subscriptionId, status, currentPeriodEnd: created + 30 * 86_400, trialEnd: null, cancelAtPeriodEnd: false, priceId: 'price_1', ...extra },
});

const invoice = (id: string, created: number, type: InvoiceEvent['type'], amountPaid: number): InvoiceEvent => ({
  id,
  created,
  type,
  accountId: ACC,
  customerId: CUS,
  invoice: { id: `in_${id}`, subscriptionId: 'sub_1', amountPaid, currency: 'nzd', attemptCount: 1, nextPaymentAttempt: null, billingReason: 'subscription_cycle' },
});

// A year in the life: sign up for a trial, convert, a failed renewal, recovery, cancellation.
const lifecycle: BillingEvent[] = [
  checkout('evt_01', 1000, 'sub_1'),
  sub('evt_02', 1000, 'customer.subscription.created', 'sub_1', 'trialing', { trialEnd: 1000 + 14 * 86_400 }),
  invoice('evt_03', 1000, 'invoice.paid', 0),
  sub('evt_04', 2_000_000, 'customer.subscription.updated', 'sub_1', 'active'),
  invoice('evt_05', 2_000_000, 'invoice.paid', 750),
  invoice('evt_06', 4_600_000, 'invoice.payment_failed', 0),
  sub('evt_07', 4_600_000, 'customer.subscription.updated', 'sub_1', 'past_due'),
  sub('evt_08', 4_700_000, 'customer.subscription.updated', 'sub_1', 'active'),
  invoice('evt_09', 4_700_000, 'invoice.paid', 750),
  sub('evt_10', 6_000_000, 'customer.subscription.updated', 'sub_1', 'active', { cancelAtPeriodEnd: true }),
  sub('evt_11', 7_200_000, 'customer.subscription.deleted', 'sub_1', 'active'),
];

describe('webhook reducer', () => {
  it('follows a subscription through its life', () => {
    const states = lifecycle.map((_, i) => reduceBillingEvents(lifecycle.slice(0, i + 1)));
    expect(states[0]!.subscription).toMatchObject({ id: 'sub_1', status: 'trialing', provisional: true });
    expect(states[0]!.customerId).toBe(CUS);
    expect(states[1]!.subscription).toMatchObject({ status: 'trialing', provisional: false, trialEnd: 1000 + 14 * 86_400 });
    expect(states[3]!.subscription).toMatchObject({ status: 'active', currentPeriodEnd: 2_000_000 + 30 * 86_400 });
    expect(states[5]!.lastInvoice).toMatchObject({ outcome: 'payment_failed' });
    expect(states[6]!.subscription?.status).toBe('past_due');
    expect(states[8]!.lastInvoice).toMatchObject({ outcome: 'paid', amountPaid: 750 });
    expect(states[9]!.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    // customer.subscription.deleted means canceled, whatever status the payload carried.
    expect(states[10]!.subscription?.status).toBe('canceled');
  });

  it('lets a real subscription snapshot override the provisional one from checkout, whatever their times', () => {
    const created = sub('evt_b', 1000, 'customer.subscription.created', 'sub_1', 'trialing');
    const completedLater = checkout('evt_a', 1005, 'sub_1', 'paid');
    for (const order of [
      [created, completedLater],
      [completedLater, created],
    ]) {
      expect(reduceBillingEvents(order).subscription).toMatchObject({ status: 'trialing', provisional: false });
    }
  });

  it('puts the provisional status from checkout as trialing when nothing was due, active when paid', () => {
    expect(applyBillingEvent(initialBillingState, checkout('e', 1, 'sub_1', 'no_payment_required')).subscription?.status).toBe('trialing');
    expect(applyBillingEvent(initialBillingState, checkout('e', 1, 'sub_1', 'paid')).subscription?.status).toBe('active');
    expect(applyBillingEvent(initialBillingState, checkout('e', 1, 'sub_1', 'unpaid')).subscription?.status).toBe('incomplete');
  });

  it('uses the event time, not arrival order: a late, older update does not undo a cancellation', () => {
    const state = reduceBillingEvents([sub('evt_2', 2000, 'customer.subscription.deleted', 'sub_1', 'canceled'), sub('evt_1', 1000, 'customer.subscription.updated', 'sub_1', 'active')]);
    expect(state.subscription?.status).toBe('canceled');
  });

  it('breaks a same-second tie towards the later lifecycle stage', () => {
    const a = sub('evt_z', 5000, 'customer.subscription.updated', 'sub_1', 'active');
    const b = sub('evt_a', 5000, 'customer.subscription.deleted', 'sub_1', 'active');
    expect(reduceBillingEvents([a, b]).subscription?.status).toBe('canceled');
    expect(reduceBillingEvents([b, a]).subscription?.status).toBe('canceled');
  });

  it('keeps a new live subscription in charge when an older one is cancelled later', () => {
    const state = reduceBillingEvents([
      sub('evt_1', 1000, 'customer.subscription.created', 'sub_old', 'active'),
      sub('evt_2', 5000, 'customer.subscription.created', 'sub_new', 'active'),
      sub('evt_3', 6000, 'customer.subscription.deleted', 'sub_old', 'canceled'),
    ]);
    expect(state.subscription).toMatchObject({ id: 'sub_new', status: 'active' });
    expect(Object.keys(state.subscriptions).sort()).toEqual(['sub_new', 'sub_old']);
  });

  it('changes nothing for an event type it does not act on', () => {
    const state = reduceBillingEvents(lifecycle.slice(0, 3));
    expect(applyBillingEvent(state, { type: 'ignored', id: 'evt_x', created: 9_999_999, stripeType: 'customer.updated' })).toBe(state);
  });

  it('tells the API which account an event belongs to', () => {
    expect(accountRefOf(lifecycle[0]!)).toEqual({ accountId: ACC, customerId: CUS });
    expect(accountRefOf({ type: 'ignored', id: 'evt_x', created: 1, stripeType: 'charge.succeeded' })).toEqual({ accountId: null, customerId: null });
  });

  describe('properties', () => {
    const status = fc.constantFrom(...SUBSCRIPTION_STATUSES);
    const subId = fc.constantFrom('sub_1', 'sub_2');
    const created = fc.integer({ min: 1000, max: 1006 }); // a narrow window, so ties happen
    const eventBody = fc.oneof(
      fc.record({ kind: fc.constant('checkout' as const), created, subId, pay: fc.constantFrom('paid' as const, 'unpaid' as const, 'no_payment_required' as const) }),
      fc.record({
        kind: fc.constant('sub' as const),
        created,
        subId,
        type: fc.constantFrom('customer.subscription.created' as const, 'customer.subscription.updated' as const, 'customer.subscription.deleted' as const),
        status,
        cancelAtPeriodEnd: fc.boolean(),
        periodEnd: fc.integer({ min: 0, max: 10 }),
        customer: fc.constantFrom('cus_1', 'cus_2'),
      }),
      fc.record({ kind: fc.constant('invoice' as const), created, type: fc.constantFrom('invoice.paid' as const, 'invoice.payment_failed' as const), amount: fc.constantFrom(0, 750) }),
    );
    // Distinct events get distinct ids: a redelivery is the same object twice.
    const events = fc.array(eventBody, { maxLength: 12 }).map((bodies) =>
      bodies.map((b, i): BillingEvent => {
        const id = `evt_${String(i).padStart(3, '0')}`;
        if (b.kind === 'checkout') return checkout(id, b.created, b.subId, b.pay);
        if (b.kind === 'invoice') return invoice(id, b.created, b.type, b.amount);
        return { ...sub(id, b.created, b.type, b.subId, b.status, { cancelAtPeriodEnd: b.cancelAtPeriodEnd, currentPeriodEnd: b.periodEnd }), customerId: b.customer };
      }),
    );

    it('is idempotent: applying an event again changes nothing', () => {
      fc.assert(
        fc.property(events, (evs) => {
          let state = initialBillingState;
          for (const e of evs) {
            state = applyBillingEvent(state, e);
            expect(applyBillingEvent(state, e)).toEqual(state);
          }
        }),
      );
    });

    it('is order-insensitive: any delivery order, with any redeliveries, gives the same state', () => {
      const withDeliveries = events.chain((evs) =>
        fc.tuple(fc.constant(evs), fc.shuffledSubarray([...evs, ...evs], { minLength: 2 * evs.length, maxLength: 2 * evs.length }), fc.subarray(evs)),
      );
      fc.assert(
        fc.property(withDeliveries, ([evs, shuffledTwice, again]) => {
          const expected = reduceBillingEvents(evs);
          expect(reduceBillingEvents(shuffledTwice)).toEqual(expected);
          expect(reduceBillingEvents([...again, ...evs.slice().reverse(), ...again])).toEqual(expected);
        }),
      );
    });

    it('a subscription that grants access governs over one that does not', () => {
      fc.assert(
        fc.property(events, (evs) => {
          const state = reduceBillingEvents(evs);
          const all = Object.values(state.subscriptions);
          if (all.some((s) => ['trialing', 'active', 'past_due'].includes(s.status))) {
            expect(['trialing', 'active', 'past_due']).toContain(state.subscription?.status);
          }
          expect(state.subscription === null).toBe(all.length === 0);
        }),
      );
    });
  });
});
