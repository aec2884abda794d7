// Credit notes (docs/api/credit-notes.md): crediting an issued invoice in whole or in part, the
// credit notes of an invoice, one credit note, and money paid back against one.
import { z } from 'zod';
import { money } from './common.ts';
import { clientSnapshotRecord, lineRecord, paymentInput, paymentRecord, sendAttemptRecord, sendDocumentInput, sendOutcome } from './invoices.ts';

const quantity = z.union([z.number(), z.string()], { error: 'qty must be a number' });

/**
 * POST /invoices/{id}/credit-notes: some of the invoice's lines (each all of what is left of it,
 * or `qty` of it), or an amount including GST — one of the two — and why.
 */
export const creditNoteInput = z
  .object({
    lines: z
      .array(z.object({ line_index: z.number({ error: 'line_index must be a whole number from 0' }).int().nonnegative(), qty: quantity.optional() }), { error: 'lines must be a list of {line_index, qty?}' })
      .min(1, { error: 'Choose at least one line to credit' })
      .max(500)
      .optional(),
    amount: z.union([z.number(), z.string()], { error: 'Amount must be a number' }).optional(),
    reason: z.string({ error: 'Say why the invoice is credited (reason)' }).trim().min(1, { error: 'Say why the invoice is credited (reason)' }).max(500, { error: 'The reason can be at most 500 characters' }),
  })
  .refine((v) => (v.lines === undefined) !== (v.amount === undefined), { error: 'Give either lines or an amount to credit, not both' });
export type CreditNoteInput = z.input<typeof creditNoteInput>;

/** POST /credit-notes/{id}/refunds: money paid back to the client against a credit note; the fields of a payment. */
export const creditNoteRefundInput = z.object(paymentInput.shape);
export type CreditNoteRefundInput = z.input<typeof creditNoteRefundInput>;


/** A credit note: the supply correction information and how it stands. Money as numbers rounded to cents. */
export const creditNoteRecord = z.object({
  id: z.string(),
  number: z.number().int(),
  /** CN-0001 */
  reference: z.string(),
  invoice_id: z.string(),
  /** The original invoice's reference (INV-0001). */
  invoice_reference: z.string(),
  /** The NZ day it was issued: it counts in the GST period of this day. */
  date: z.string(),
  reason: z.string(),
  /** The supplier (the business) as it was when the credit note was issued. */
  supplier: z.object({ name: z.string(), gst_number: z.string() }),
  client: clientSnapshotRecord.nullable(),
  client_name: z.string(),
  /** The invoice's lines credited, each with the quantity credited and its GST; empty for a credit of an amount. */
  line_items: z.array(z.object({ line_index: z.number().int(), ...lineRecord.shape })),
  /** A credit of an amount (GST-inclusive); null for a credit of lines. */
  amount: money.nullable(),
  subtotal: money,
  gst: money,
  total: money,
  /** Money paid back to the client against this credit note. */
  refunded: money,
  refunds: z.array(paymentRecord),
  formatted: z.object({ subtotal: z.string(), gst: z.string(), total: z.string(), refunded: z.string() }),
  pdf_url: z.string(),
  /** Every attempt to email it to the client, oldest first, with its outcome ('delivered' only when a mail server took it). */
  sends: z.array(sendAttemptRecord),
  created_at: z.string().nullable(),
});
export type CreditNoteRecord = z.infer<typeof creditNoteRecord>;

/**
 * POST /credit-notes/{id}/send: every field optional, as for an invoice; left out, it goes to the
 * client's email with the business's CC and BCC, and a subject and message about the credit note.
 */
export const creditNoteSendInput = sendDocumentInput;
export type CreditNoteSendInput = z.input<typeof creditNoteSendInput>;

/** The answer to a credit note's send: what happened to the email, and the credit note as it is now. */
export const creditNoteSendResult = z.object({
  /** 'delivered' (a mail server took it) or 'saved_not_delivered' (no mail server is set up: nobody received it). A refusal is a 422 instead. */
  outcome: sendOutcome.exclude(['failed']),
  /** For 'saved_not_delivered': the words the screen shows; null when delivered. */
  detail: z.string().nullable(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  credit_note: creditNoteRecord,
});
export type CreditNoteSendResult = z.infer<typeof creditNoteSendResult>;
