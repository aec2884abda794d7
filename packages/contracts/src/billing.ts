// /api/v1/billing — shared by the API and the Billing & Trial tab.
import { z } from 'zod';

/** GET /billing/subscription-status. The first four fields are the status itself; the rest add detail a screen may show. */
export const subscriptionStatusResponse = z.object({
  is_trial_active: z.boolean(),
  /** 14 on the sign-up day, counting down by NZ calendar day; 0 once the trial has ended. */
  trial_days_left: z.number().int().min(0).max(14),
  trial_ended: z.boolean(),
  /** A subscription that grants access: trialing, active, or past_due while Stripe retries the card. */
  subscription_active: z.boolean(),
  /** The instant the free trial ends (ISO 8601): midnight in Pacific/Auckland after the 14th day. */
  trial_ends_at: z.string(),
  /** Stripe's status of the account's subscription, or null when it never subscribed. */
  subscription_status: z.string().nullable(),
  /** ISO 8601 end of the paid-up period, when known. */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  /** The latest renewal payment failed (show a "card declined" hint; access follows subscription_active). */
  payment_failed: z.boolean(),
  /** False when the server has no payment provider set up: Subscribe and Manage answer 503. */
  billing_configured: z.boolean(),
});
export type SubscriptionStatusResponse = z.infer<typeof subscriptionStatusResponse>;

/** How often the subscription is billed: a Stripe price each (STRIPE_PRICE_ID, STRIPE_PRICE_ID_ANNUAL). */
export const BILLING_INTERVALS = ['month', 'year'] as const;
export const billingInterval = z.enum(BILLING_INTERVALS, { error: "interval must be 'month' or 'year'" });
export type BillingInterval = z.infer<typeof billingInterval>;

/** POST /billing/create-checkout-session. No body, or no interval: monthly. */
export const checkoutSessionRequest = z.object({ interval: billingInterval.default('month') });
export type CheckoutSessionRequest = z.input<typeof checkoutSessionRequest>;

/** GST added at checkout to the fees, which are shown excluding it. */
export const BILLING_GST_PERCENT = 15;

/** GET /billing/plans: the prices the server offers, from Stripe, excluding GST. */
export const billingPlansResponse = z.object({
  plans: z.array(
    z.object({
      interval: billingInterval,
      /** Whole cents per interval, excluding GST (Stripe's unit_amount). */
      unit_amount: z.number().int().min(0),
      /** ISO 4217, lower case as Stripe sends it ('nzd'). */
      currency: z.string(),
    }),
  ),
  /** GST added on top at checkout, in percent. */
  gst_percent: z.number(),
});
export type BillingPlansResponse = z.infer<typeof billingPlansResponse>;
export type BillingPlan = BillingPlansResponse['plans'][number];

/** POST /billing/create-checkout-session: send the browser to `checkout_url`. */
export const checkoutSessionResponse = z.object({ checkout_url: z.string() });
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponse>;

/** POST /billing/create-portal-session: send the browser to `portal_url`. */
export const portalSessionResponse = z.object({ portal_url: z.string() });
export type PortalSessionResponse = z.infer<typeof portalSessionResponse>;

/** The `code` on a 402 answer from a route that needs an active trial or subscription. */
export const SUBSCRIPTION_REQUIRED_CODE = 'SUBSCRIPTION_REQUIRED';

export const BILLING_MESSAGES = {
  notConfigured: 'Billing is not set up on this server yet. Your free trial still counts.',
  alreadySubscribed: 'You already have an active subscription. Use Manage Subscription to change it.',
  noCustomer: "You haven't subscribed yet, so there is no subscription to manage. Choose Subscribe first.",
  trialEnded:
    'Your free trial has ended. Subscribe to keep creating and sending quotes and invoices. Everything you have made is kept, and you can still view, download and export it.',
  subscriptionEnded:
    'Your subscription has ended. Subscribe again to keep creating and sending quotes and invoices. Everything you have made is kept, and you can still view, download and export it.',
  webhookRejected: 'Webhook signature verification failed.',
  annualNotOffered: "Annual billing isn't available on this server yet. Choose monthly billing.",
} as const;
