import { z } from 'zod';
import { JOB_LIMITS, clientSnapshotSchema, isLocalDate, lineInputSchema, linesSchema, PAYMENT_METHODS, paymentTermsSchema, STAGE_KINDS, VARIATION_STATUSES } from '@tradie/domain';
import { localDate, money } from './common.ts';

export const documentType = z.enum(['quote', 'invoice'], { error: "type must be 'quote' or 'invoice'" });

/** A deposit asked for on a quote, due on acceptance: `{percent}` of its total or an `{amount}`, GST included (null: none). */
export const depositInput = z
  .union(
    [
      z.object({ percent: z.union([z.string().max(20), z.number()]).transform(String) }).strict(),
      z.object({ amount: z.union([z.string().max(20), z.number()]).transform(String) }).strict(),
    ],
    { error: 'The deposit must be a percentage ({"percent": "30"}) or an amount ({"amount": "500.00"})' },
  )
  .nullable();

/** POST /invoices — {type, line_items, client_id}, plus optional dates and notes. */
export const createDocumentInput = z.object({
  type: documentType.optional().transform((t) => t ?? 'quote'),
  line_items: linesSchema,
  client_id: z.string().max(100).nullable().optional().transform((v) => v || null),
  issue_date: localDate.optional(),
  due_date: localDate.optional(),
  valid_until: localDate.optional(),
  payment_terms: paymentTermsSchema.optional(),
  notes: z.string().max(5000, { error: 'Notes can be at most 5,000 characters' }).optional(),
  job_title: z.string().max(JOB_LIMITS.jobTitle, { error: `The job title can be at most ${JOB_LIMITS.jobTitle} characters` }).optional(),
  site_address: z.string().max(JOB_LIMITS.siteAddress, { error: `The site address can be at most ${JOB_LIMITS.siteAddress.toLocaleString('en-NZ')} characters` }).optional(),
  /** Quotes only: a deposit the client pays on accepting it through the link. */
  deposit: depositInput.optional(),
});
export type CreateDocumentInput = z.input<typeof createDocumentInput>;

export const paymentInput = z.object({
  amount: z.union([z.number(), z.string()], { error: 'Amount must be a number' }),
  date: localDate.optional(),
  method: z.enum(PAYMENT_METHODS, { error: `Method must be one of: ${PAYMENT_METHODS.join(', ')}` }).optional().transform((m) => m ?? 'bank_transfer'),
  reference: z.string().max(200, { error: 'Reference can be at most 200 characters' }).optional().transform((r) => r ?? ''),
});
export type PaymentInput = z.input<typeof paymentInput>;

export const paymentStatus = z.enum(['paid', 'partial', 'unpaid']);

export const documentStatus = z.enum(['draft', 'issued', 'sent', 'accepted', 'declined', 'converted', 'expired', 'partial', 'paid', 'overdue', 'void']);

/** The fields a document's row starts with, in GET /invoices and in a client's history. */
export const documentRowFields = {
  id: z.string(),
  type: documentType,
  reference: z.string(),
  status: documentStatus,
  client_name: z.string(),
  total: z.number(),
};

/** A record in GET /invoices (docs/api/documents.md): the list fields plus issue_date, due_date, balance. */
export const documentListRecord = z.object({
  ...documentRowFields,
  payment_status: paymentStatus,
  paid_date: z.string().nullable(),
  extra_data: z.record(z.string(), z.string()),
  issue_date: z.string(),
  due_date: z.string(),
  balance: z.number(),
  /** What the job is ('' none). */
  job_title: z.string(),
  /** Where the work is done, on one line ('48 Rata Road, Hillcrest, Hamilton 3216'; '' none). */
  site_address: z.string(),
});
export type DocumentListRecord = z.infer<typeof documentListRecord>;

// ---- beyond the create payload: list, detail, revise, send, payments ------------------------

/** Headers of GET /invoices: the next page's cursor (absent on the last page) and the count of every match. */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
export const LIST_LIMITS = { default: 50, max: 200 } as const;

/** A filter date: a real calendar day (2026-02-30 would reach the database as an impossible date). */
const calendarDate = localDate.refine(isLocalDate, { error: 'Dates must be real calendar days written as YYYY-MM-DD' });

/** GET /invoices query. `status` takes one status or several separated by commas. Dates filter the issue date (inclusive). */
export const listDocumentsQuery = z.object({
  type: documentType.optional(),
  status: z
    .string()
    .optional()
    .transform((s, ctx) => {
      const parts = (s ?? '').split(',').map((p) => p.trim()).filter(Boolean);
      for (const p of parts) {
        if (!documentStatus.safeParse(p).success) {
          ctx.addIssue({ code: 'custom', message: `status must be one of: ${documentStatus.options.join(', ')}` });
          return z.NEVER;
        }
      }
      return parts as z.output<typeof documentStatus>[];
    }),
  client_id: z.string().max(100).optional(),
  q: z.string().max(200, { error: 'The search can be at most 200 characters' }).optional().transform((q) => q?.trim().toLowerCase() || undefined),
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  limit: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return LIST_LIMITS.default;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > LIST_LIMITS.max) {
        ctx.addIssue({ code: 'custom', message: `limit must be a whole number from 1 to ${LIST_LIMITS.max}` });
        return z.NEVER;
      }
      return n;
    }),
  cursor: z.string().max(100).optional(),
});
export type ListDocumentsQuery = z.input<typeof listDocumentsQuery>;

/** GET /invoices/counts: the tab counts. */
export const documentCounts = z.object({ quotes: z.number().int(), invoices: z.number().int() });
export type DocumentCounts = z.infer<typeof documentCounts>;

const version = z
  .number({ error: 'version must be a whole number' })
  .int({ error: 'version must be a whole number' })
  .min(1, { error: 'version must be 1 or more' });

/**
 * PUT /invoices/{id}: revise a draft. Like the create payload; a field left out keeps its value
 * (client_id: null removes the client). `version` is the detail's version the edit started from.
 */
export const reviseDocumentInput = z.object({
  type: documentType.optional(),
  line_items: linesSchema,
  client_id: z.string().max(100).nullable().optional(),
  issue_date: localDate.optional(),
  due_date: localDate.optional(),
  valid_until: localDate.optional(),
  payment_terms: paymentTermsSchema.optional(),
  notes: z.string().max(5000, { error: 'Notes can be at most 5,000 characters' }).optional(),
  job_title: z.string().max(JOB_LIMITS.jobTitle, { error: `The job title can be at most ${JOB_LIMITS.jobTitle} characters` }).optional(),
  site_address: z.string().max(JOB_LIMITS.siteAddress, { error: `The site address can be at most ${JOB_LIMITS.siteAddress.toLocaleString('en-NZ')} characters` }).optional(),
  /** Left out: kept; null: none asked for. */
  deposit: depositInput.optional(),
  version: version.optional(),
});
export type ReviseDocumentInput = z.input<typeof reviseDocumentInput>;

const emailList = (label: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be an email address or a list of them` })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const list = (Array.isArray(v) ? v : v.split(/[,;]/)).map((a) => a.trim()).filter(Boolean);
      if (list.length > 20) {
        ctx.addIssue({ code: 'custom', message: `${label}: at most 20 addresses` });
        return z.NEVER;
      }
      const bad = list.find((a) => !z.email().safeParse(a).success);
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `${label}: '${bad}' is not a valid email address` });
        return z.NEVER;
      }
      return list;
    });

/** POST /invoices/{id}/send: every field optional; left out, the client's email and the business settings apply. */
export const sendDocumentInput = z.object({
  to: emailList('To'),
  cc: emailList('CC'),
  bcc: emailList('BCC'),
  subject: z.string().trim().min(1, { error: 'The subject cannot be blank' }).max(300, { error: 'The subject can be at most 300 characters' }).optional(),
  message: z.string().max(20_000, { error: 'The message can be at most 20,000 characters' }).optional(),
});
export type SendDocumentInput = z.input<typeof sendDocumentInput>;

/** GET /invoices/{id}/send-preview: the email a send would make with no changes, for the Send sheet to show and edit. */
export const sendPreview = z.object({
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  /** The tradie's message, placeholders filled ([Client Name] → the client's name). */
  message: z.string(),
  /** What the email carries below the message, in words. */
  after: z.string(),
});
export type SendPreview = z.infer<typeof sendPreview>;

/** POST /invoices/{id}/mark-paid: records the outstanding balance as one payment. */
export const markPaidInput = paymentInput.omit({ amount: true });
export type MarkPaidInput = z.input<typeof markPaidInput>;

/** POST /invoices/{id}/void. */
export const voidDocumentInput = z.object({
  reason: z.string().trim().max(500, { error: 'The reason can be at most 500 characters' }).optional().transform((r) => r || 'Voided by user'),
});

export const paymentRecord = z.object({
  id: z.string(),
  amount: money,
  date: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string(),
  recorded_at: z.string().nullable(),
});
export type PaymentRecord = z.infer<typeof paymentRecord>;

/**
 * A payment on an invoice with what was paid back of it (card refunds made in the business's
 * Stripe account). The payment stays as it was; each refund lowers what is paid and is never in
 * Xero (the business records it there as its bookkeeper chooses).
 */
export const invoicePaymentRecord = paymentRecord.extend({
  refunds: z.array(z.object({ id: z.string(), amount: money, date: z.string() })),
});
export type InvoicePaymentRecord = z.infer<typeof invoicePaymentRecord>;

/** The answer to recording a payment: the payment, with the invoice's balance and statuses after it. */
export const recordedPaymentRecord = paymentRecord.extend({
  balance: money,
  payment_status: paymentStatus,
  status: documentStatus,
  /** Set when the payment was recorded but something about it needs the tradie's eye (Xero says the invoice is voided there). */
  warning: z.string().optional(),
});
export type RecordedPaymentRecord = z.infer<typeof recordedPaymentRecord>;

/** Who the document is for: the client snapshot its events store. */
export const clientSnapshotRecord = z.object(clientSnapshotSchema.shape);

export const lineRecord = z.object({
  description: z.string(),
  qty: z.number(),
  unit_price: z.number(),
  tax_included: z.boolean(),
  tax_rate: z.number(),
  /** qty × unit_price to the cent, as priced (GST-inclusive when tax_included). */
  amount: money,
  /** This line's GST rounded on its own. With rounding on the total the document's GST is rounded once, so these may differ from it by a cent. */
  gst: money,
  /**
   * The line's amount without GST, as every surface shows it: the lines' `amount_excl_gst` add up to
   * the document's `subtotal` exactly (a line priced GST-inclusive shows its amount less its GST).
   */
  amount_excl_gst: money,
  /** The line as the screens and the PDF show it, in the subtotal's basis: the unit price ('$543.75', or '$10.00 incl. GST' when its price without GST has more than 4 decimals) and `amount_excl_gst`. */
  formatted: z.object({ unit_price: z.string(), amount: z.string() }),
});
export type LineRecord = z.infer<typeof lineRecord>;

/**
 * A line as the tradie's own screens get it: with what it costs the business. Never in anything
 * the client sees (the client's link pages, the PDF, emails, Xero answer `lineRecord`).
 */
export const costedLineRecord = lineRecord.extend({
  /** What one unit costs the business, excl. GST; null: cost not recorded (never zero). */
  cost: z.number().nullable(),
  /** 'materials', 'labour', 'subcontractor', 'equipment', 'other' or one the business added. */
  category: z.string(),
  /** The line's own markup or margin (percent, on the business's basis); null: its category's. */
  markup: z.number().nullable(),
  /** quantity × cost to the cent; null: cost not recorded. */
  cost_amount: money.nullable(),
  /** The price book item the line was picked from; null: typed, not picked. */
  price_book_item_id: z.string().nullable(),
});
export type CostedLineRecord = z.infer<typeof costedLineRecord>;

/** Cost, sell and gross profit (excl. GST) of some lines: lines with no cost recorded are counted apart, never as costing nothing. */
export const profitFiguresRecord = z.object({
  /** Every line's amount without GST. */
  sell: money,
  /** Of the sell, the lines with a cost recorded. */
  costed_sell: money,
  cost: money,
  /** costed_sell − cost. */
  gross_profit: money,
  /** Gross profit ÷ costed sell, percent to one decimal; null when nothing costed was sold. */
  margin_percent: z.number().nullable(),
  /** Gross profit ÷ cost, percent to one decimal; null when nothing had a cost above $0.00. */
  markup_percent: z.number().nullable(),
  costed_lines: z.number().int(),
  /** Lines with 'cost not recorded', and their sell. */
  uncosted_lines: z.number().int(),
  uncosted_sell: money,
  formatted: z.object({ sell: z.string(), cost: z.string(), gross_profit: z.string(), uncosted_sell: z.string() }),
});
export type ProfitFiguresRecord = z.infer<typeof profitFiguresRecord>;

/** A document's profit for the tradie: the whole document (an invoice net of its credit notes) and per category. */
export const documentProfitRecord = profitFiguresRecord.extend({
  categories: z.array(profitFiguresRecord.extend({ category: z.string() })),
});
export type DocumentProfitRecord = z.infer<typeof documentProfitRecord>;

/**
 * How an attempt to email a document ended (docs/api/documents.md, "Sending"): 'delivered' (a mail
 * server took it: the document is sent), 'saved_not_delivered' (no mail server is set up: kept in
 * this server's outbox, nobody received it) or 'failed' (the mail server refused it).
 */
export const sendOutcome = z.enum(['delivered', 'saved_not_delivered', 'failed']);
export type SendOutcome = z.infer<typeof sendOutcome>;

/** The words for a send that was not delivered. */
export const SEND_MESSAGES = {
  savedNotDelivered: 'Saved to the outbox — email is not set up on this server',
} as const;

/** An email of the document a mail server took for delivery: what makes a document sent. */
export const sendRecord = z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string(), at: z.string().nullable() });

/** One attempt to email the document, delivered or not, with what happened to it. */
export const sendAttemptRecord = sendRecord.extend({
  outcome: sendOutcome,
  /** Why it was not delivered ('failed': the mail server's answer); null when delivered. */
  detail: z.string().nullable(),
});
export type SendAttemptRecord = z.infer<typeof sendAttemptRecord>;

/**
 * A variation of an accepted quote: extra work agreed apart from the quote the client signed
 * (docs/api/stages.md, "Variations"). Its figures are its own, as a document of its lines with the
 * quote's GST rounding.
 */
export const variationRecord = z.object({
  id: z.string(),
  number: z.number().int(),
  /** 'Variation 1'. */
  name: z.string(),
  note: z.string(),
  /** 'awaiting_approval' (sent or to send; not invoiceable), 'approved' (invoiceable), 'declined', 'withdrawn'. */
  status: z.enum(VARIATION_STATUSES),
  status_label: z.string(),
  line_items: z.array(lineRecord),
  /** Each line's number among the quote's lines, for `lines` on POST /stages (the signed lines come first). */
  line_indexes: z.array(z.number().int()),
  subtotal: money,
  gst: money,
  total: money,
  formatted: z.object({ subtotal: z.string(), gst: z.string(), total: z.string() }),
  /** What stage invoices took of it so far, and what is left (0 while it is not approved). */
  invoiced: money,
  remaining: money,
  proposed_at: z.string().nullable(),
  /** Every attempt to email it, oldest first: only a delivered one means the client was sent it. */
  send_attempts: z.array(sendAttemptRecord),
  approved_at: z.string().nullable(),
  /** 'client': through the link (the acceptance certificate is in the quote's PDF); 'business': marked approved on the client's word. */
  approved_by: z.enum(['client', 'business']).nullable(),
  /** The name the client typed when approving it; null otherwise. */
  signer_name: z.string().nullable(),
  signed: z.boolean(),
  declined_at: z.string().nullable(),
  /** 'client' through the link, 'business' marked declined. */
  declined_by: z.enum(['client', 'business']).nullable(),
  decline_note: z.string().nullable(),
  withdrawn_at: z.string().nullable(),
});
export type VariationRecord = z.infer<typeof variationRecord>;

/** A quote's deposit: as asked for (a percentage, or null for an amount), what it comes to, and the sentence the client reads. */
export const depositRecord = z.object({
  percent: z.string().nullable(),
  amount: money,
  formatted: z.string(),
  /** 'A 30 % deposit ($345.00) is due on acceptance.' */
  wording: z.string(),
});
export type DepositRecord = z.infer<typeof depositRecord>;

/** GET /invoices/{id}: everything the detail screen shows. Money as numbers rounded to cents, and as NZD text in `formatted`. */
export const documentDetail = z.object({
  id: z.string(),
  type: documentType,
  number: z.number().int(),
  reference: z.string(),
  /** 'Tax invoice' (a GST-registered business's invoice), 'Invoice' or 'Quote': the heading the screens show. */
  title: z.enum(['Quote', 'Tax invoice', 'Invoice']),
  status: documentStatus,
  status_label: z.string(),
  payment_status: paymentStatus,
  paid_date: z.string().nullable(),
  client: clientSnapshotRecord.nullable(),
  client_id: z.string().nullable(),
  client_name: z.string(),
  issue_date: z.string(),
  due_date: z.string(),
  valid_until: z.string().nullable(),
  payment_terms: paymentTermsSchema,
  /** The terms and the due date as the PDF and the client's page say them: 'Due on receipt', '14 days — due 19/05/2026' (paymentTermsText). */
  payment_terms_text: z.string(),
  notes: z.string(),
  /** What the job is ('' none). */
  job_title: z.string(),
  /** Where the work is done, the address's lines apart ('\n' between them; '' none). */
  site_address: z.string(),
  /** Quotes: the deposit asked for on acceptance, and what it comes to (GST included); null: none. */
  deposit: depositRecord.nullable(),
  gst_rounding: z.enum(['total', 'line']),
  /**
   * Whether the business was registered for GST when it was saved. false: no GST on any line, no
   * GST to show; true: a registered business's (an invoice is a tax invoice); null: saved before
   * the app recorded registration.
   */
  gst_registered: z.boolean().nullable(),
  line_items: z.array(costedLineRecord),
  /** The tradie's profit on it (an invoice's net of its credit notes). Never on the client's pages, PDF, emails or Xero. */
  profit: documentProfitRecord,
  subtotal: money,
  gst: money,
  total: money,
  paid: money,
  balance: money,
  formatted: z.object({ subtotal: z.string(), gst: z.string(), total: z.string(), paid: z.string(), balance: z.string() }),
  /** Invoices: what credit notes credited (GST-inclusive); the balance is total − paid − credited. */
  credited: money,
  /** Invoices: money owed back to the client (a credit larger than the balance), not yet refunded; 0 when none. */
  to_refund: money,
  payments: z.array(invoicePaymentRecord),
  /** The emails delivered (a mail server took them), oldest first: a document with none was never sent. */
  sends: z.array(sendRecord),
  /** Every attempt to email it, oldest first, with its outcome: the delivered ones and those that were not (the outbox, a refusal). */
  send_attempts: z.array(sendAttemptRecord),
  converted_to: z.string().nullable(),
  converted_from: z.string().nullable(),
  extra_data: z.record(z.string(), z.string()),
  /** The accounting system's copy, once synced: the totals it last answered with, and how they differ from ours (null when they agree). */
  accounting: z
    .object({
      provider: z.string(),
      reported: z.object({ subtotal: money, gst: money, total: money, at: z.string().nullable() }).nullable(),
      /** 'Xero shows $3.84 — this invoice is $3.83'; null when Xero's figures are ours (or not known yet). */
      difference: z.string().nullable(),
    })
    .nullable(),
  void_reason: z.string().nullable(),
  /** Invoices: the business paused payment reminders for it. */
  reminders_paused: z.boolean(),
  /** Invoices: the NZ day it was issued (sent, marked issued or paid against); null while a draft. Drafts count in no report. */
  issued_on: z.string().nullable(),
  /** The NZ day it was voided: an issued invoice's reversal falls in the period of this day. */
  voided_on: z.string().nullable(),
  pdf_url: z.string(),
  pdf_sha256: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  /** Quotes: what has been invoiced of it in stages (deposit, progress, final) — the Quoted / Invoiced / Remaining bar; null for an invoice. */
  stages: z
    .object({
      /** What can be invoiced: the quote's total with its approved variations' (a variation awaiting approval is not in it). */
      quoted: money,
      /** The stage invoices' totals less what credit notes on them gave back. */
      invoiced: money,
      remaining: money,
      /** Each stage invoice: its total and what credit notes on it credited (given back to the quote). */
      invoices: z.array(z.object({ id: z.string(), reference: z.string(), kind: z.enum(STAGE_KINDS), total: money, credited: money })),
    })
    .nullable(),
  /** Quotes: the variations after acceptance, in order (empty for an invoice). The quote's own lines and total above never change. */
  variations: z.array(variationRecord),
  /** 'Accepted $2,929.66 · Variation 1 $120.00 awaiting approval'; null for a quote without variations, and for an invoice. */
  variations_summary: z.string().nullable(),
  /** Invoices: it is a payment claim under the Construction Contracts Act 2002 (GET /invoices/{id}/payment-claim has the claim). */
  is_payment_claim: z.boolean(),
  /**
   * Invoices issued after the GST period they count in was exported for the accountant: what that
   * means ('This invoice counts for GST in Jan–Feb 2027, a GST period you have already exported …');
   * the GST report lists it as an adjustment to carry. null otherwise.
   */
  gst_notice: z.string().nullable(),
  /** The stream version: send it back with PUT to be told (409) when someone else changed the document meanwhile. */
  version: z.number().int(),
});
export type DocumentDetail = z.infer<typeof documentDetail>;

const percentText = z.union([z.number(), z.string()], { error: 'percent must be a number' }).transform((v) => String(v).trim());
const qtyText = z.union([z.number(), z.string()], { error: 'qty must be a number' }).transform((v) => String(v).trim());

/**
 * POST /invoices/{quoteId}/stages: invoice a stage of an accepted quote. A deposit or progress
 * invoice takes `percent` (this stage's share of the quote's total, 0–100) or `amount` (dollars,
 * GST included), or for progress `percent_complete` (the job's overall percent complete: each line
 * is invoiced up to that share of it) or `lines` (each quote line, numbered from 0, with a percent
 * of it or a quantity of it); 'final' takes nothing: it is what is left.
 */
export const stageInput = z
  .object({
    kind: z.enum(STAGE_KINDS, { error: "kind must be 'deposit', 'progress' or 'final'" }),
    percent: percentText.optional(),
    percent_complete: percentText.optional(),
    amount: z.union([z.number(), z.string()], { error: 'amount must be a number' }).transform((v) => String(v).trim()).optional(),
    lines: z
      .array(
        z.object({
          line_index: z.number({ error: 'line_index must be a whole number' }).int({ error: 'line_index must be a whole number' }).min(0, { error: 'line_index must be 0 or more' }),
          percent: percentText.optional(),
          qty: qtyText.optional(),
        }),
        { error: 'lines must be a list of {line_index, percent or qty}' },
      )
      .max(500)
      .optional(),
    /** Progress only: what is left of an approved variation (refused, 409, while the client has not approved it). */
    variation_id: z.string({ error: 'variation_id must be text' }).min(1).max(100).optional(),
  })
  .superRefine((v, ctx) => {
    const given = [v.percent, v.percent_complete, v.amount, v.lines, v.variation_id].filter((x) => x !== undefined).length;
    if (v.kind === 'final' && given > 0) ctx.addIssue({ code: 'custom', message: 'A final invoice is what is left: give no percent, amount, lines or variation' });
    if (v.kind !== 'final' && given !== 1) ctx.addIssue({ code: 'custom', message: 'Give exactly one of percent, percent_complete, amount, lines or variation_id' });
    if (v.kind === 'deposit' && (v.lines !== undefined || v.percent_complete !== undefined || v.variation_id !== undefined)) ctx.addIssue({ code: 'custom', message: 'A deposit is a percent of the quote or an amount' });
  });
export type StageInput = z.input<typeof stageInput>;

/**
 * POST /invoices/{quoteId}/variations: extra work on an accepted quote, proposed to the client as
 * an agreement of its own: `lines` (or one `line`) and an optional note saying why.
 */
export const variationInput = z
  .object({
    line: lineInputSchema.optional(),
    lines: z.array(lineInputSchema, { error: 'lines must be a list of line items' }).min(1, { error: 'Add at least one line of extra work' }).max(50, { error: 'A variation can have at most 50 lines' }).optional(),
    note: z.string({ error: 'The note must be text' }).trim().max(1000, { error: 'The note can be at most 1000 characters' }).optional().transform((v) => v ?? ''),
  })
  .superRefine((v, ctx) => {
    if ((v.line === undefined) === (v.lines === undefined)) ctx.addIssue({ code: 'custom', message: 'Give the extra work as `lines` (or one `line`)' });
  })
  .transform(({ line, lines, note }) => ({ lines: lines ?? (line ? [line] : []), note }));
export type VariationInput = z.input<typeof variationInput>;

/** POST /invoices/{quoteId}/variations/{variationId}/send: the email, as for a document (the client's address unless given). */
export const sendVariationInput = sendDocumentInput;
export type SendVariationInput = z.input<typeof sendVariationInput>;

/** POST /invoices/{id}/send answer. */
export const sendResult = z.object({
  id: z.string(),
  status: documentStatus,
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  message_id: z.string(),
  /** When it was sent, or saved to the outbox. */
  sent_at: z.string(),
  /** 'delivered', or 'saved_not_delivered' (no mail server is set up; `status` is unchanged). A refusal is a 422 instead. */
  outcome: sendOutcome.exclude(['failed']),
  /** For 'saved_not_delivered': 'Saved to the outbox — email is not set up on this server'; null when delivered. */
  detail: z.string().nullable(),
  /** The invoice's `gst_notice` once sent: it counts in a GST period already exported (an adjustment to carry), or null. */
  gst_notice: z.string().nullable(),
});
export type SendResult = z.infer<typeof sendResult>;

/** POST /invoices/{quoteId}/variations/{variationId}/send answer: as a document's send (`id` and `status` are the quote's). */
export const variationSendResult = sendResult.omit({ gst_notice: true }).extend({ variation_id: z.string() });
export type VariationSendResult = z.infer<typeof variationSendResult>;

/** POST /invoices/{id}/generate-pdf answer. */
export const generatePdfResult = z.object({ pdf_url: z.string(), sha256: z.string() });

/** A photo on a quote or invoice (GET /invoices/{id}/photos): its bytes are at …/photos/{photo_id} (?size=thumb for the 480 px one). */
export const photoRecord = z.object({
  id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
  /** Printed in the PDF's photos appendix. */
  in_pdf: z.boolean(),
  uploaded_at: z.string(),
});
export type PhotoRecord = z.infer<typeof photoRecord>;
export const photoList = z.object({ photos: z.array(photoRecord), max: z.number().int() });
export type PhotoList = z.infer<typeof photoList>;

/** PATCH /invoices/{id}/photos/{photoId}. */
export const photoUpdateInput = z.object({ in_pdf: z.boolean({ error: 'in_pdf must be true or false' }) });

/** GET …/photos/{photoId}: the kept photo, or its thumbnail. */
export const photoSizeQuery = z.object({ size: z.enum(['full', 'thumb'], { error: "size must be 'full' or 'thumb'" }).optional() });
