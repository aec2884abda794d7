import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { SubscriptionStatusResponse } from '@tradie/contracts';
import { ApiError, createApiClient } from '../api/client.ts';
import {
  CONFIRM_ATTEMPTS,
  CONFIRM_POLL_MS,
  createSubscriptionMachine,
  serverDetail,
  SUBSCRIPTION_TEXT,
  subscriptionMachine,
  type CheckoutReturn,
  type SubscriptionEmitted,
} from './subscription.ts';

const trial = (daysLeft: number): SubscriptionStatusResponse => ({
  is_trial_active: daysLeft > 0,
  trial_days_left: daysLeft,
  trial_ended: daysLeft === 0,
  subscription_active: false,
  trial_ends_at: '2026-06-01T12:00:00.000Z',
  subscription_status: null,
  current_period_end: null,
  cancel_at_period_end: false,
  payment_failed: false,
  billing_configured: true,
});
const subscribed: SubscriptionStatusResponse = { ...trial(0), subscription_active: true, subscription_status: 'active', current_period_end: '2026-07-01T00:00:00.000Z' };

interface Fakes {
  loadStatus?: () => Promise<SubscriptionStatusResponse>;
  createCheckout?: () => Promise<string>;
  createPortal?: () => Promise<string>;
}

function start(fakes: Fakes, checkoutReturn: CheckoutReturn = null, clock?: SimulatedClock) {
  const calls = { loadStatus: 0, createCheckout: 0, createPortal: 0 };
  const wentTo: string[] = [];
  const emitted: SubscriptionEmitted[] = [];
  const machine = subscriptionMachine.provide({
    actors: {
      loadStatus: fromPromise(() => {
        calls.loadStatus++;
        return (fakes.loadStatus ?? (() => Promise.resolve(trial(14))))();
      }),
      createCheckout: fromPromise(() => {
        calls.createCheckout++;
        return (fakes.createCheckout ?? (() => Promise.resolve('https://checkout.example/c/1')))();
      }),
      createPortal: fromPromise(() => {
        calls.createPortal++;
        return (fakes.createPortal ?? (() => Promise.resolve('https://billing.example/p/1')))();
      }),
    },
    actions: { goTo: (_, { url }) => wentTo.push(url) },
  });
  const actor = createActor(machine, { input: { checkoutReturn }, ...(clock ? { clock } : {}) });
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, calls, wentTo, emitted };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('subscription machine', () => {
  it('starts in loading (the tab shows Loading subscription status...)', () => {
    const { actor } = start({ loadStatus: () => new Promise(() => undefined) });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(SUBSCRIPTION_TEXT.loading).toBe('Loading subscription status...');
  });

  it('given a running trial, when loaded, then it is in trialActive with the days left', async () => {
    const { actor } = start({ loadStatus: () => Promise.resolve(trial(9)) });
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(s.matches({ ready: 'trialActive' })).toBe(true);
    expect(s.context.status?.trial_days_left).toBe(9);
  });

  it('given an ended trial and no subscription, then trialExpired', async () => {
    const { actor } = start({ loadStatus: () => Promise.resolve(trial(0)) });
    expect((await waitFor(actor, (x) => x.matches('ready'))).matches({ ready: 'trialExpired' })).toBe(true);
  });

  it('given an active subscription (trial ended or not), then active', async () => {
    const { actor } = start({ loadStatus: () => Promise.resolve({ ...subscribed, is_trial_active: true, trial_days_left: 5, trial_ended: false }) });
    expect((await waitFor(actor, (x) => x.matches('ready'))).matches({ ready: 'active' })).toBe(true);
  });

  it('when loading fails, then it is logged only and RETRY loads again', async () => {
    let fail = true;
    const { actor, emitted, calls } = start({ loadStatus: () => (fail ? Promise.reject(new ApiError(0, 'Network Error')) : Promise.resolve(trial(3))) });
    await waitFor(actor, (x) => x.matches('unavailable'));
    expect(emitted).toEqual([expect.objectContaining({ type: 'log', what: 'subscription status' })]);
    fail = false;
    actor.send({ type: 'RETRY' });
    expect((await waitFor(actor, (x) => x.matches('ready'))).matches({ ready: 'trialActive' })).toBe(true);
    expect(calls.loadStatus).toBe(2);
  });

  it('Subscribe sends the browser to the checkout_url', async () => {
    const { actor, wentTo, calls } = start({ createCheckout: () => Promise.resolve('https://checkout.example/c/42') });
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    actor.send({ type: 'SUBSCRIBE' });
    expect(actor.getSnapshot().matches('checkout')).toBe(true);
    await waitFor(actor, (x) => x.matches('redirecting'));
    expect(wentTo).toEqual(['https://checkout.example/c/42']);
    expect(calls.createCheckout).toBe(1);
  });

  it('Subscribe Now from an expired trial goes to checkout too; MANAGE is not accepted there', async () => {
    const { actor, wentTo, calls } = start({ loadStatus: () => Promise.resolve(trial(0)) });
    await waitFor(actor, (x) => x.matches({ ready: 'trialExpired' }));
    actor.send({ type: 'MANAGE' });
    expect(calls.createPortal).toBe(0);
    actor.send({ type: 'SUBSCRIBE' });
    await waitFor(actor, (x) => x.matches('redirecting'));
    expect(wentTo).toEqual(['https://checkout.example/c/1']);
  });

  it("when checkout fails with the server's detail, then the detail is the message and the state is back", async () => {
    const detail = 'You already have an active subscription. Use Manage Subscription to change it.';
    const { actor, emitted, wentTo } = start({ createCheckout: () => Promise.reject(new ApiError(409, detail, { detail })) });
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    actor.send({ type: 'SUBSCRIBE' });
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    expect(emitted).toEqual([{ type: 'message', text: detail, failure: true }]);
    expect(wentTo).toEqual([]);
  });

  it('when checkout fails without a detail (no answer), then the fallback text', async () => {
    const { actor, emitted } = start({ createCheckout: () => Promise.reject(new ApiError(0, 'Network Error')) });
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    actor.send({ type: 'SUBSCRIBE' });
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }) && emitted.length > 0);
    expect(emitted).toEqual([{ type: 'message', text: 'Failed to start subscription. Please try again.', failure: true }]);
  });

  it('Manage Subscription sends the browser to the portal_url; a failure gives the portal text', async () => {
    let fail = false;
    const { actor, emitted, wentTo } = start({
      loadStatus: () => Promise.resolve(subscribed),
      createPortal: () => (fail ? Promise.reject(new ApiError(502, 'Request failed with status code 502')) : Promise.resolve('https://billing.example/p/7')),
    });
    await waitFor(actor, (x) => x.matches({ ready: 'active' }));
    actor.send({ type: 'SUBSCRIBE' });
    expect(actor.getSnapshot().matches({ ready: 'active' })).toBe(true);
    fail = true;
    actor.send({ type: 'MANAGE' });
    await waitFor(actor, (x) => x.matches({ ready: 'active' }) && emitted.length > 0);
    expect(emitted).toEqual([{ type: 'message', text: 'Failed to open billing portal. Please try again.', failure: true }]);
    fail = false;
    actor.send({ type: 'MANAGE' });
    await waitFor(actor, (x) => x.matches('redirecting'));
    expect(wentTo).toEqual(['https://billing.example/p/7']);
  });

  it('back from a paid checkout before the webhooks: asks again every 2 s until the subscription shows', async () => {
    const clock = new SimulatedClock();
    const answers = [trial(10), trial(10), subscribed];
    const { actor, calls } = start({ loadStatus: () => Promise.resolve(answers.shift() ?? subscribed) }, 'success', clock);
    await waitFor(actor, (x) => x.matches('confirming'));
    expect(calls.loadStatus).toBe(1);
    clock.increment(CONFIRM_POLL_MS - 1);
    await settle();
    expect(calls.loadStatus).toBe(1);
    clock.increment(1);
    await waitFor(actor, (x) => x.matches('confirming') && x.context.confirmAttempts === 1);
    expect(calls.loadStatus).toBe(2);
    clock.increment(CONFIRM_POLL_MS);
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(s.matches({ ready: 'active' })).toBe(true);
    expect(calls.loadStatus).toBe(3);
  });

  it('back from a paid checkout and the webhooks never come: stops asking after the last attempt', async () => {
    const clock = new SimulatedClock();
    const { actor, calls } = start({ loadStatus: () => Promise.resolve(trial(10)) }, 'success', clock);
    for (let i = 0; i < CONFIRM_ATTEMPTS; i++) {
      await waitFor(actor, (x) => x.matches('confirming'));
      clock.increment(CONFIRM_POLL_MS);
    }
    const s = await waitFor(actor, (x) => x.matches('ready'));
    expect(s.matches({ ready: 'trialActive' })).toBe(true);
    expect(calls.loadStatus).toBe(CONFIRM_ATTEMPTS + 1);
    clock.increment(CONFIRM_POLL_MS * 10);
    await settle();
    expect(calls.loadStatus).toBe(CONFIRM_ATTEMPTS + 1);
  });

  it('back from a cancelled checkout: loads once, no polling', async () => {
    const clock = new SimulatedClock();
    const { actor, calls } = start({}, 'cancelled', clock);
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    clock.increment(CONFIRM_POLL_MS * 3);
    await settle();
    expect(calls.loadStatus).toBe(1);
  });
});

describe('serverDetail', () => {
  it("is the server's detail text only", () => {
    expect(serverDetail(new ApiError(503, 'Billing is off', { detail: 'Billing is off' }))).toBe('Billing is off');
    expect(serverDetail(new ApiError(500, 'Request failed with status code 500', '<html>'))).toBeUndefined();
    expect(serverDetail(new ApiError(0, 'Network Error'))).toBeUndefined();
    expect(serverDetail(new Error('boom'))).toBeUndefined();
  });
});

describe('createSubscriptionMachine (the real actors on a fake fetch)', () => {
  it('calls the three billing routes and redirects to the answer', async () => {
    const requests: string[] = [];
    const fetchFake = (async (url: string, init?: RequestInit) => {
      requests.push(`${init?.method ?? 'GET'} ${url}`);
      const body = url.endsWith('/subscription-status') ? trial(14) : { checkout_url: 'https://checkout.example/c/9' };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const api = createApiClient({ fetch: () => fetchFake, storage: () => ({ getItem: () => null, setItem: () => undefined, removeItem: () => undefined }) });
    const wentTo: string[] = [];
    const actor = createActor(createSubscriptionMachine({ api, goTo: (u) => wentTo.push(u) }), { input: {} }).start();
    await waitFor(actor, (x) => x.matches({ ready: 'trialActive' }));
    actor.send({ type: 'SUBSCRIBE' });
    await waitFor(actor, (x) => x.matches('redirecting'));
    expect(requests).toEqual(['GET /api/v1/billing/subscription-status', 'POST /api/v1/billing/create-checkout-session']);
    expect(wentTo).toEqual(['https://checkout.example/c/9']);
  });
});
