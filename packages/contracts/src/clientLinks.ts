// The client's side of a quote or invoice: the links a tradie sends (/q/{token} for a quote,
// /i/{token} for an invoice), the pages they open without signing in, and the client's answers
// (accept with a name and an optional signature, decline with reasons, ask for changes, pay by
// card). And the tradie's side of the same links: issue, copy, withdraw, and the timeline.
//
// Public routes (no sign-in, rate-limited per IP and per token, no cookies):
//   GET  /public/quotes/{token}            publicQuotePage
//   GET  /public/quotes/{token}/pdf        the quote's PDF (with the acceptance page once accepted)
//   POST /public/quotes/{token}/accept     acceptQuoteInput  → publicQuotePage
//   POST /public/quotes/{token}/decline    declineQuoteInput → publicQuotePage
//   POST /public/quotes/{token}/changes    requestChangesInput → publicQuotePage
//   POST /public/quotes/{token}/variations/{id}/accept   acceptVariationInput → publicQuotePage
//   POST /public/quotes/{token}/variations/{id}/decline  declineVariationInput → publicQuotePage
//   GET  /public/invoices/{token}          publicInvoicePage
//   GET  /public/invoices/{token}/pdf      the invoice's PDF
//   GET  /public/{quotes|invoices}/{token}/photos/{id}[?size=thumb]  a photo on it (JPEG)
//   POST /public/invoices/{token}/checkout → checkoutStarted (a Stripe Checkout address)
//   POST /public/links/{token}/viewed      (the page's beacon; 204) — views are counted here, never by the GET
// A withdrawn or superseded link answers 410, an expired one 410, an unknown one 404, each with a `detail`;
// every link of a business that deleted its account answers 410 'This business has closed its account.'.
//
// Signed-in routes:
//   GET  /invoices/{id}/link               clientLinkRecord | 404 when none is active
//   POST /invoices/{id}/link               clientLinkRecord (the active link, issued if there is none)
//   DELETE /invoices/{id}/link             withdraws the active link → 204
//   GET  /invoices/{id}/timeline           documentTimeline
//   GET  /payments/settings                onlinePaymentSettings
//   PUT  /payments/settings                onlinePaymentSettingsInput → onlinePaymentSettings
//   POST /payments/connect                 connectOnboarding (Stripe's hosted onboarding address)
//   GET  /payments/issues                  paymentIssues (card payments to look at in Stripe, until done)
//   POST /payments/issues/{id}/done        → 204
import { QUOTE_ALREADY_ANSWERED } from '@tradie/domain';
import { z } from 'zod';
import { ACCOUNT_CLOSED } from './account.ts';
import { lineRecord } from './invoices.ts';

/** Links are at least 128 bits of randomness: 32 characters of base64url is 192. */
export const CLIENT_LINK_TOKEN = /^[A-Za-z0-9_-]{32,64}$/;

/** What the public pages and the tradie's screens say. */
export const CLIENT_LINK_MESSAGES = {
  notFound: 'This link is not valid. Please check the address, or ask the business to send it again.',
  expired: 'This link has expired. Please ask the business for a new one.',
  withdrawn: 'This link was withdrawn by the business.',
  superseded: 'This quote has been updated since this link was sent. Please use the link in the latest email.',
  voided: 'This document was cancelled by the business.',
  accountClosed: ACCOUNT_CLOSED,
  alreadyAccepted: QUOTE_ALREADY_ANSWERED.accepted,
  alreadyDeclined: QUOTE_ALREADY_ANSWERED.declined,
  quoteChanged: 'This quote changed while you had it open. Please read it again before you accept.',
  variationChanged: 'This variation changed while you had it open. Please read it again before you approve it.',
  variationAnswered: 'This variation has already been answered.',
  nameRequired: 'Please type your full name',
  termsRequired: 'Please tick that you accept the terms',
  signatureTooLarge: 'The signature is too large. Please clear it and sign again.',
  changesRequired: 'Please say what you would like changed',
  paid: 'This invoice is paid. Thank you!',
  nothingToPay: 'There is nothing left to pay on this invoice.',
  payUnavailable: 'Card payment is not available for this invoice. Please pay by bank transfer.',
  rateLimited: 'Too many requests. Please wait a minute and try again.',
} as const;

/** The business as the client sees it: branding and how to reach or pay them. */
export const publicBusiness = z.object({
  name: z.string(),
  gst_number: z.string(),
  phone: z.string(),
  email: z.string(),
  /** One line: street, city, postcode. */
  address: z.string(),
  /** Relative to the API base, signed; '' when there is none. */
  logo_url: z.string(),
});
export type PublicBusiness = z.infer<typeof publicBusiness>;

/** Bank details for a transfer (what the PDF shows); null when the business has none. */
export const publicBankDetails = z.object({ bank_name: z.string(), account_name: z.string(), account_number: z.string() }).nullable();
export type PublicBankDetails = z.infer<typeof publicBankDetails>;

/** The document's contents as the domain computes them (the same numbers as the tradie's screens and the PDF). */
export const publicDocument = z.object({
  type: z.enum(['quote', 'invoice']),
  /** 'Tax invoice', 'Invoice' or 'Quote', as the PDF is titled. */
  title: z.enum(['Quote', 'Tax invoice', 'Invoice']),
  reference: z.string(),
  issue_date: z.string(),
  due_date: z.string(),
  valid_until: z.string().nullable(),
  client_name: z.string(),
  /** What the job is ('' none). */
  job_title: z.string(),
  /** Invoices: the payment terms and the due date as the PDF says them ('20th of the month following — due 20/01/2027'). */
  payment_terms_text: z.string(),
  /** Where the work is done, the address's lines apart ('\n' between them; '' none). */
  site_address: z.string(),
  line_items: z.array(lineRecord),
  /** false: the business was not registered for GST when it was made, so there is no GST to show (null: not recorded). */
  gst_registered: z.boolean().nullable(),
  subtotal: z.number(),
  gst: z.number(),
  total: z.number(),
  paid: z.number(),
  balance: z.number(),
  formatted: z.object({ subtotal: z.string(), gst: z.string(), total: z.string(), paid: z.string(), balance: z.string() }),
  notes: z.string(),
  /**
   * Quotes: the deposit due on acceptance, as the client reads it ('A 30 % deposit ($345.00) is due
   * on acceptance.'); absent when none is asked for (so a quote without one hashes as it always did).
   */
  deposit: z.string().optional(),
  /**
   * The photos on it, in order ('…/photos/{id}', '?size=thumb' for the small one, under this link's
   * page address); absent when it has none (hashed only then, like `deposit`).
   */
  photos: z.array(z.object({ id: z.string(), sha256: z.string(), width: z.number().int(), height: z.number().int() })).optional(),
  /** Relative to the API base: the public PDF of this link. */
  pdf_url: z.string(),
});
export type PublicDocument = z.infer<typeof publicDocument>;

export const DECLINE_REASONS = ['price', 'timing', 'went_elsewhere', 'scope', 'other'] as const;
export const DECLINE_REASON_LABELS: Record<(typeof DECLINE_REASONS)[number], string> = {
  price: 'Price is too high',
  timing: 'Timing does not suit',
  went_elsewhere: 'Going with someone else',
  scope: 'Not the work I need',
  other: 'Something else',
};

/**
 * A variation of the accepted quote as the client sees it: its own lines and figures, where it
 * stands, and the SHA-256 of what is shown (sent back with an approval, like a quote's).
 */
export const publicVariation = z.object({
  id: z.string(),
  /** 'Variation 1'. */
  name: z.string(),
  note: z.string(),
  status: z.enum(['awaiting_approval', 'approved', 'declined', 'withdrawn']),
  status_label: z.string(),
  line_items: z.array(lineRecord),
  subtotal: z.number(),
  gst: z.number(),
  total: z.number(),
  formatted: z.object({ subtotal: z.string(), gst: z.string(), total: z.string() }),
  /** SHA-256 (hex) of this variation as shown (its name, note, lines and figures). */
  shown_sha256: z.string(),
  /** How it was approved: through this link (a name, perhaps signed), or by the business on the client's word (no name). */
  acceptance: z.object({ signer_name: z.string(), accepted_at: z.string(), signed: z.boolean() }).nullable(),
  declined_at: z.string().nullable(),
});
export type PublicVariation = z.infer<typeof publicVariation>;

/** GET /public/quotes/{token}. */
export const publicQuotePage = z.object({
  business: publicBusiness,
  document: publicDocument,
  /** The business's terms the client must tick before accepting; '' when none are set. */
  terms: z.string(),
  /** SHA-256 (hex) of what is shown (the document version's contents and the terms): sent back with the acceptance. */
  shown_sha256: z.string(),
  /** The quote's stream version shown; an acceptance names it. */
  version: z.number().int(),
  /** 'open' (can be answered), 'accepted', 'declined', 'changes_requested' (still open), 'expired' (past valid-until). */
  state: z.enum(['open', 'accepted', 'declined', 'changes_requested', 'expired']),
  acceptance: z.object({ signer_name: z.string(), accepted_at: z.string(), signed: z.boolean() }).nullable(),
  decline: z.object({ reasons: z.array(z.enum(DECLINE_REASONS)), note: z.string(), declined_at: z.string() }).nullable(),
  /** Variations of the accepted quote, each its own agreement (withdrawn ones left out). Not part of `document` or its `shown_sha256`: the quote as accepted never changes. */
  variations: z.array(publicVariation),
  /** 'Accepted $2,929.66 · Variation 1 $120.00 awaiting approval'; null without variations. */
  summary: z.string().nullable(),
  /**
   * Once accepted, the deposit it asked for: its invoice, issued on acceptance (null while there is
   * none: asked for none, or the business is still to invoice it — `deposit_pending`).
   */
  deposit_invoice: z
    .object({
      reference: z.string(),
      /** What the deposit invoice comes to, and what is left to pay on it. */
      formatted: z.object({ total: z.string(), balance: z.string() }),
      due_date: z.string(),
      paid: z.boolean(),
      /** The invoice's own page ('/i/{token}'): Pay now there, or the bank details. */
      path: z.string(),
      /** The business takes cards: the invoice's page offers Pay now. */
      pay_by_card: z.boolean(),
      /** Where to pay it by bank transfer (with the invoice's reference); null: not given. */
      bank: publicBankDetails,
    })
    .nullable(),
  /** Accepted with a deposit asked for, and no deposit invoice yet: the business will send it. */
  deposit_pending: z.boolean(),
});
export type PublicQuotePage = z.infer<typeof publicQuotePage>;

/** A finger signature: a PNG as a data URL, at most ~150 KB. */
export const SIGNATURE_MAX_CHARS = 200_000;

export const acceptQuoteInput = z.object({
  signer_name: z.string().trim().min(1, { error: CLIENT_LINK_MESSAGES.nameRequired }).max(120, { error: 'The name can be at most 120 characters' }),
  terms_accepted: z.boolean().default(false),
  /** `data:image/png;base64,…`, or absent/null when the client did not sign. */
  signature_png: z
    .string()
    .max(SIGNATURE_MAX_CHARS, { error: CLIENT_LINK_MESSAGES.signatureTooLarge })
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, { error: 'The signature must be a PNG image' })
    .nullable()
    .optional(),
  shown_sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'shown_sha256 must be 64 hex characters' }),
  version: z.number().int().min(1),
});
export type AcceptQuoteInput = z.input<typeof acceptQuoteInput>;

/** POST /public/quotes/{token}/variations/{id}/accept: approve a variation like a quote (a typed name, an optional signature). */
export const acceptVariationInput = acceptQuoteInput.omit({ terms_accepted: true, version: true });
export type AcceptVariationInput = z.input<typeof acceptVariationInput>;

/** POST /public/quotes/{token}/variations/{id}/decline. */
export const declineVariationInput = z.object({
  note: z.string().trim().max(1000, { error: 'The note can be at most 1000 characters' }).default(''),
});
export type DeclineVariationInput = z.input<typeof declineVariationInput>;

export const declineQuoteInput = z.object({
  reasons: z.array(z.enum(DECLINE_REASONS)).max(DECLINE_REASONS.length).default([]),
  note: z.string().trim().max(1000, { error: 'The note can be at most 1000 characters' }).default(''),
});
export type DeclineQuoteInput = z.input<typeof declineQuoteInput>;

export const requestChangesInput = z.object({
  note: z.string().trim().min(1, { error: CLIENT_LINK_MESSAGES.changesRequired }).max(2000, { error: 'The note can be at most 2000 characters' }),
});
export type RequestChangesInput = z.input<typeof requestChangesInput>;

/** GET /public/invoices/{token}. */
export const publicInvoicePage = z.object({
  business: publicBusiness,
  document: publicDocument,
  payments: z.array(z.object({ date: z.string(), amount: z.number(), formatted: z.string(), method_label: z.string() })),
  /**
   * The invoice's credit notes, oldest first: each with what it credited (GST included), why, what
   * was paid back on it and its PDF (relative to the API base, through this link).
   */
  credit_notes: z.array(
    z.object({
      reference: z.string(),
      date: z.string(),
      reason: z.string(),
      total: z.number(),
      /** NZD; `refunded` is null when nothing was paid back on it. */
      formatted: z.object({ total: z.string(), refunded: z.string().nullable() }),
      pdf_url: z.string(),
    }),
  ),
  /**
   * How the balance comes about, as the page lists it: the total less what credit notes credited,
   * less what the client paid, plus what was paid back to them (each NZD; credited and refunded
   * null when there is none). `document.formatted.paid` is received less refunded.
   */
  money: z.object({ credited: z.string().nullable(), received: z.string(), refunded: z.string().nullable() }),
  state: z.enum(['open', 'partial', 'paid', 'overdue']),
  /** Card payment through the business's Stripe account; null when not available (then the bank details show). */
  pay: z
    .object({
      /** The card fee passed on, shown before paying; null when the business absorbs it. */
      surcharge: z.object({ percent: z.number(), amount: z.number(), formatted: z.string(), total_formatted: z.string() }).nullable(),
    })
    .nullable(),
  bank: publicBankDetails,
});
export type PublicInvoicePage = z.infer<typeof publicInvoicePage>;

/** POST /public/invoices/{token}/checkout. */
export const checkoutStarted = z.object({ checkout_url: z.string() });
export type CheckoutStarted = z.infer<typeof checkoutStarted>;

// ---- the tradie's side -------------------------------------------------------------------------

/** GET/POST /invoices/{id}/link: the active link of a document. */
export const clientLinkRecord = z.object({
  id: z.string(),
  /** The full address to copy or share (https://…/q/{token} or /i/{token}). */
  url: z.string(),
  issued_at: z.string(),
  /** The NZ day the link stops working (a quote's valid-until, or 30 days; an invoice's link lasts a year after its due date). */
  expires_on: z.string(),
  views: z.number().int(),
  last_viewed_at: z.string().nullable(),
});
export type ClientLinkRecord = z.infer<typeof clientLinkRecord>;

export const TIMELINE_KINDS = [
  'created', 'sent', 'send_failed', 'link_issued', 'link_withdrawn', 'viewed', 'accepted', 'declined', 'changes_requested',
  'paid', 'payment', 'refunded', 'disputed', 'voided', 'reminded', 'reminder_failed', 'reminders_paused', 'reminders_resumed',
  'credited', 'claim', 'payment_schedule', 'retention_released',
  'variation', 'variation_sent', 'variation_approved', 'variation_declined', 'variation_withdrawn',
] as const;

/** GET /invoices/{id}/timeline: what happened to the document, oldest first. */
export const documentTimeline = z.object({
  entries: z.array(
    z.object({
      kind: z.enum(TIMELINE_KINDS),
      at: z.string(),
      /** One line for the screen: 'Accepted by Jo Bloggs', 'Viewed (3 times)', 'Paid $230.00 by card'. */
      text: z.string(),
    }),
  ),
});
export type DocumentTimeline = z.infer<typeof documentTimeline>;

/** GET /payments/settings. */
export const onlinePaymentSettings = z.object({
  /** Whether this server can take card payments at all (Stripe configured). */
  available: z.boolean(),
  /** 'none' (not started), 'onboarding' (account created, Stripe still needs details), 'enabled' (charges_enabled), 'disconnected'. */
  status: z.enum(['none', 'onboarding', 'enabled', 'disconnected']),
  /** Pass the card fee on to the client as a surcharge (off by default; never more than the fee). */
  surcharge_enabled: z.boolean(),
  /** The surcharge as a percentage of the balance, 0–5 (what Stripe charges the business for a card, at most). */
  surcharge_percent: z.number(),
});
export type OnlinePaymentSettings = z.infer<typeof onlinePaymentSettings>;

export const SURCHARGE_MAX_PERCENT = 5;

export const onlinePaymentSettingsInput = z.object({
  surcharge_enabled: z.boolean({ error: 'Choose whether the card fee is passed on to the client (on or off)' }),
  surcharge_percent: z.number({ error: `The surcharge is a percentage from 0 to ${SURCHARGE_MAX_PERCENT}, such as 2.5` }).min(0, { error: 'The surcharge cannot be negative' }).max(SURCHARGE_MAX_PERCENT, { error: `The surcharge can be at most ${SURCHARGE_MAX_PERCENT}%` }),
});
export type OnlinePaymentSettingsInput = z.input<typeof onlinePaymentSettingsInput>;

/**
 * GET /payments/issues: card payments the business must look at in its Stripe dashboard (one paid
 * while the invoice was settled another way, or a dispute), newest first, until marked done.
 */
export const paymentIssues = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['overpaid', 'dispute']),
      /** The invoice it was for (null when Stripe's payment could not be matched to one). */
      document_id: z.string().nullable(),
      reference: z.string().nullable(),
      /** The money in question: what was paid over the balance, or the disputed amount. */
      amount: z.number(),
      /** What happened and what to do, in words. */
      detail: z.string(),
      at: z.string(),
    }),
  ),
});
export type PaymentIssues = z.infer<typeof paymentIssues>;

/** POST /payments/connect. */
export const connectOnboarding = z.object({ onboarding_url: z.string() });
export type ConnectOnboarding = z.infer<typeof connectOnboarding>;
