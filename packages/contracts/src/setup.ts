// /api/v1/setup — the first-run set-up after sign-up: which step the tradie reached (kept on the
// server, so it carries on from there on any device), whether they finished or skipped it, and
// the two facts it asks that are not business settings elsewhere: the trade and the default
// payment terms.
import { z } from 'zod';
import { PAYMENT_TERMS_MESSAGE, paymentTermsSchema } from '@tradie/domain';

/** The set-up's screens, in order: one question each on a phone. */
export const SETUP_STEPS = ['business', 'gst', 'bank', 'contact', 'logo', 'terms', 'trade'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** The trades offered (it will seed the price book's categories and labour rate); 'other' for any other. */
export const TRADES = ['plumber', 'electrician', 'builder', 'carpenter', 'painter', 'roofer', 'landscaper', 'tiler', 'hvac', 'drainlayer', 'other'] as const;
export type Trade = (typeof TRADES)[number];

export const TRADE_LABELS: Record<Trade, string> = {
  plumber: 'Plumber',
  electrician: 'Electrician',
  builder: 'Builder',
  carpenter: 'Carpenter',
  painter: 'Painter',
  roofer: 'Roofer',
  landscaper: 'Landscaper',
  tiler: 'Tiler',
  hvac: 'Heat pumps & ventilation',
  drainlayer: 'Drainlayer',
  other: 'Another trade',
};

/** 'done' (came to the end), 'skipped' (chose to set up later), or null while under way. */
export const SETUP_OUTCOMES = ['done', 'skipped'] as const;

export const SETUP_MESSAGES = {
  step: `step must be one of: ${SETUP_STEPS.join(', ')}`,
  trade: `trade must be one of: ${TRADES.join(', ')}`,
  terms: PAYMENT_TERMS_MESSAGE,
  outcome: "finished must be 'done', 'skipped' or null",
} as const;

/** GET /setup (and PUT's answer). */
export const setupRecord = z.object({
  /** The step reached: where the set-up opens again. */
  step: z.enum(SETUP_STEPS),
  finished: z.enum(SETUP_OUTCOMES).nullable(),
  /** '' until chosen. */
  trade: z.union([z.enum(TRADES), z.literal('')]),
  /** The payment terms of a new client, and of a document without one. */
  default_payment_terms: paymentTermsSchema,
});
export type SetupRecord = z.infer<typeof setupRecord>;

/** PUT /setup: any of the fields; absent ones keep their value. `finished: null` opens the set-up again. */
export const setupInput = z.object({
  step: z.enum(SETUP_STEPS, { error: SETUP_MESSAGES.step }).optional(),
  finished: z.enum(SETUP_OUTCOMES, { error: SETUP_MESSAGES.outcome }).nullable().optional(),
  trade: z.enum(TRADES, { error: SETUP_MESSAGES.trade }).optional(),
  default_payment_terms: paymentTermsSchema.optional(),
});
export type SetupInput = z.input<typeof setupInput>;
