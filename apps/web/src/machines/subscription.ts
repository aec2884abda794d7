/**
 * The Billing & Trial tab in Settings as an xstate machine:
 *
 *   loading ('Loading subscription status...') — GET /billing/subscription-status
 *     → ready.active        'Active Subscription'   — MANAGE    → portal   (POST /billing/create-portal-session)
 *     → ready.trialActive   'Free Trial Active'     — SUBSCRIBE {interval} → checkout (POST /billing/create-checkout-session)
 *     → ready.trialExpired  'Trial Expired'         — SUBSCRIBE → checkout
 *     → unavailable         (the failure is logged only) — RETRY → loading
 *   checkout / portal → redirecting: the browser is sent to checkout_url / portal_url. A failure
 *     emits the error message (the server's detail, else the fallback) and goes back to ready.
 *
 * Stripe sends the browser back to /app/settings?tab=billing&checkout=success. The subscription
 * appears only when Stripe's webhooks have reached the server, which can be a moment after the
 * browser returns, so with `checkoutReturn: 'success'` a status that is not yet active is asked
 * for again (`confirming`, every CONFIRM_POLL ms, at most CONFIRM_ATTEMPTS times).
 *
 * Messages for the Settings banner and failures to log are *emitted* (`actor.on('message', …)`,
 * `actor.on('log', …)`). The side effects are the named actors and the `goTo` action;
 * `createSubscriptionMachine(ports)` supplies the real ones, tests swap them with `.provide`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { BillingInterval, CheckoutSessionResponse, PortalSessionResponse, SubscriptionStatusResponse } from '@tradie/contracts';
import { isApiError, type ApiClient } from '../api/client.ts';
import { notProvidedIn, type SettingsEmitted } from './actors.ts';

/**
 * The server's own `detail` text, or undefined when there is none to show (no answer at all, or an
 * answer without a detail), for the messages worded 'detail or <fallback>'.
 */
export function serverDetail(error: unknown): string | undefined {
  if (!isApiError(error) || error.status === 0) return undefined;
  const body = error.body;
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string' && d.trim() !== '') return d;
  }
  return undefined;
}

export const SUBSCRIPTION_TEXT = {
  loading: 'Loading subscription status...',
  checkoutFailed: 'Failed to start subscription. Please try again.',
  portalFailed: 'Failed to open billing portal. Please try again.',
} as const;

/** How often, and how many times, the status is asked for again after Stripe's success return. */
export const CONFIRM_POLL_MS = 2000;
export const CONFIRM_ATTEMPTS = 15;

export type CheckoutReturn = 'success' | 'cancelled' | null;

export interface SubscriptionInput {
  /** From the address: how Stripe Checkout sent the browser back, if it did. */
  checkoutReturn?: CheckoutReturn;
}

export interface SubscriptionContext {
  status: SubscriptionStatusResponse | null;
  checkoutReturn: CheckoutReturn;
  /** Status reloads made while waiting for the webhooks after a successful checkout. */
  confirmAttempts: number;
  /** Where the browser is being sent (checkout or portal). */
  redirectUrl: string | null;
  /** Monthly or annual billing, as chosen with the last SUBSCRIBE. */
  interval: BillingInterval;
}

/** SUBSCRIBE without an interval is monthly. */
export type SubscriptionEvent = { type: 'SUBSCRIBE'; interval?: BillingInterval } | { type: 'MANAGE' } | { type: 'RETRY' };

export type SubscriptionEmitted = SettingsEmitted;

const notProvided = notProvidedIn('subscription');

export const subscriptionMachine = setup({
  types: {
    context: {} as SubscriptionContext,
    events: {} as SubscriptionEvent,
    emitted: {} as SubscriptionEmitted,
    input: {} as SubscriptionInput,
  },
  actors: {
    /** GET /billing/subscription-status */
    loadStatus: fromPromise<SubscriptionStatusResponse>(notProvided('loadStatus')),
    /** POST /billing/create-checkout-session → checkout_url */
    createCheckout: fromPromise<string, { interval: BillingInterval }>(notProvided('createCheckout')),
    /** POST /billing/create-portal-session → portal_url */
    createPortal: fromPromise<string>(notProvided('createPortal')),
  },
  actions: {
    /** Sends the browser to another address (window.location.assign). */
    goTo: (_, _params: { url: string }) => undefined,
    /** Remembers the billing interval a SUBSCRIBE asked for (monthly when it names none). */
    chooseInterval: assign({ interval: ({ event }) => (event.type === 'SUBSCRIBE' ? (event.interval ?? 'month') : 'month') }),
  },
  guards: {
    subscriptionActive: ({ context }) => context.status?.subscription_active === true,
    trialActive: ({ context }) => context.status?.is_trial_active === true,
    /** Back from a paid checkout, the webhooks not seen yet, and still worth asking again. */
    awaitingWebhooks: ({ context }, params: { status: SubscriptionStatusResponse }) =>
      context.checkoutReturn === 'success' && !params.status.subscription_active && context.confirmAttempts < CONFIRM_ATTEMPTS,
  },
  delays: {
    CONFIRM_POLL: CONFIRM_POLL_MS,
  },
}).createMachine({
  id: 'subscription',
  context: ({ input }) => ({ status: null, checkoutReturn: input.checkoutReturn ?? null, confirmAttempts: 0, redirectUrl: null, interval: 'month' }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadStatus',
        onDone: [
          // (A guard sees the context before this transition's assign, so the new status is its param.)
          { guard: { type: 'awaitingWebhooks', params: ({ event }) => ({ status: event.output }) }, target: 'confirming', actions: assign({ status: ({ event }) => event.output }) },
          { target: 'ready', actions: assign({ status: ({ event }) => event.output }) },
        ],
        onError: [
          // While waiting for the webhooks a failed reload shows what was loaded before.
          { guard: ({ context }) => context.status !== null, target: 'ready', actions: emit(({ event }) => ({ type: 'log' as const, what: 'subscription status', error: event.error })) },
          { target: 'unavailable', actions: emit(({ event }) => ({ type: 'log' as const, what: 'subscription status', error: event.error })) },
        ],
      },
    },
    confirming: {
      after: {
        CONFIRM_POLL: { target: 'loading', actions: assign({ confirmAttempts: ({ context }) => context.confirmAttempts + 1 }) },
      },
    },
    unavailable: {
      on: { RETRY: 'loading' },
    },
    ready: {
      initial: 'deciding',
      states: {
        deciding: {
          always: [{ guard: 'subscriptionActive', target: 'active' }, { guard: 'trialActive', target: 'trialActive' }, { target: 'trialExpired' }],
        },
        trialActive: { on: { SUBSCRIBE: { target: '#subscription.checkout', actions: 'chooseInterval' } } },
        trialExpired: { on: { SUBSCRIBE: { target: '#subscription.checkout', actions: 'chooseInterval' } } },
        active: { on: { MANAGE: '#subscription.portal' } },
      },
    },
    checkout: {
      invoke: {
        src: 'createCheckout',
        input: ({ context }) => ({ interval: context.interval }),
        onDone: { target: 'redirecting', actions: assign({ redirectUrl: ({ event }) => event.output }) },
        onError: {
          target: 'ready',
          actions: emit(({ event }) => ({ type: 'message' as const, text: serverDetail(event.error) ?? SUBSCRIPTION_TEXT.checkoutFailed, failure: true })),
        },
      },
    },
    portal: {
      invoke: {
        src: 'createPortal',
        onDone: { target: 'redirecting', actions: assign({ redirectUrl: ({ event }) => event.output }) },
        onError: {
          target: 'ready',
          actions: emit(({ event }) => ({ type: 'message' as const, text: serverDetail(event.error) ?? SUBSCRIPTION_TEXT.portalFailed, failure: true })),
        },
      },
    },
    /** The browser is leaving for Stripe; nothing more happens here. */
    redirecting: {
      entry: { type: 'goTo', params: ({ context }) => ({ url: context.redirectUrl ?? '' }) },
    },
  },
});

export type SubscriptionMachine = typeof subscriptionMachine;

export interface SubscriptionPorts {
  api: Pick<ApiClient, 'get' | 'post'>;
  /** window.location.assign */
  goTo: (url: string) => void;
}

/** The machine with the real side effects: the api client and the page load. */
export function createSubscriptionMachine(ports: SubscriptionPorts): SubscriptionMachine {
  return subscriptionMachine.provide({
    actors: {
      loadStatus: fromPromise(({ signal }) => ports.api.get<SubscriptionStatusResponse>('/billing/subscription-status', { signal })),
      createCheckout: fromPromise(async ({ input }: { input: { interval: BillingInterval } }) => {
        const { checkout_url } = await ports.api.post<CheckoutSessionResponse>('/billing/create-checkout-session', { interval: input.interval });
        return checkout_url;
      }),
      createPortal: fromPromise(async () => {
        const { portal_url } = await ports.api.post<PortalSessionResponse>('/billing/create-portal-session');
        return portal_url;
      }),
    },
    actions: {
      goTo: (_, { url }) => ports.goTo(url),
    },
  });
}
