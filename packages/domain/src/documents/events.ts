// Events of a quote or invoice stream (document-{id}). Past tense; data carries the ids so a
// fixture line reads on its own. Amounts are decimal strings ("123.45"). The zod schemas are the
// definition: the types below are `z.infer` of them (registry.ts checks stored events with them).
import { z } from 'zod';
import { paymentTermsSchema } from '../dates/paymentTermsSchema.ts';
import { type EventUnion, amountField, idField, localDateField } from '../events/fields.ts';
import { storedClientFields } from '../clients/events.ts';
import { storedLineSchema } from './lines.ts';

import { DOCUMENT_TYPES, PAYMENT_METHODS } from './kinds.ts';
import { STAGE_KINDS } from './stages.ts';
import { depositRequestSchema } from './deposit.ts';

export { DOCUMENT_TYPES, PAYMENT_METHODS, PAYMENT_METHOD_LABELS, type DocumentType, type PaymentMethod } from './kinds.ts';

/** Who the document is for, as they were when it was drafted or revised. Survives the client's deletion. */
export const clientSnapshotSchema = z
  .object({
    id: z.string().nullable(),
    // The client's own fields as its events store them, less the notes and terms.
    ...storedClientFields.omit({ notes: true, default_payment_terms: true }).shape,
  })
  .meta({ title: 'ClientSnapshot', description: "who the document is for, as they were when it was drafted or revised; survives the client's deletion" });
export type ClientSnapshot = z.infer<typeof clientSnapshotSchema>;


const documentBody = {
  client: clientSnapshotSchema.nullable().describe('who it is for, a snapshot taken now (null: no client)'),
  lines: z.array(storedLineSchema).min(1),
  issueDate: localDateField,
  dueDate: localDateField,
  paymentTerms: paymentTermsSchema,
  validUntil: localDateField.nullable().describe('Quotes only: the day the price stops holding.'),
  notes: z.string(),
  jobTitle: z.string().describe("what the job is, in the tradie's words ('' none)"),
  siteAddress: z.string().describe("where the work is done, its lines kept apart by '\\n' ('' none)"),
  deposit: depositRequestSchema.nullable().describe('Quotes only: the deposit asked for on acceptance (null: none).'),
};

/**
 * Whether the business was registered for GST when the document was drafted or last revised: when
 * false every line is at rate 0 and an invoice is an 'Invoice', not a 'Tax invoice'. Absent on
 * documents saved before the app recorded it (they keep their lines and title as they were).
 */
const gstRegisteredField = z
  .boolean()
  .optional()
  .describe("the business was registered for GST when it was saved (false: no GST, titled 'Invoice'); absent before this was recorded");

export const draftedDataSchema = z
  .object({
    documentId: idField,
    type: z.enum(DOCUMENT_TYPES),
    number: z.number().int().positive(),
    reference: z.string().describe('QTE-0001 / INV-0001'),
    gstRounding: z.enum(['total', 'line']),
    gstRegistered: gstRegisteredField,
    convertedFrom: z.string().nullable().describe('Set on an invoice made from a quote: the quote.'),
    ...documentBody,
  })
  .describe('A new quote or invoice, drafted.');
export type DraftedData = z.infer<typeof draftedDataSchema>;

export const revisedDataSchema = z
  .object({ documentId: idField, ...documentBody, gstRegistered: gstRegisteredField })
  .describe('A draft changed (drafts only).');
export type RevisedData = z.infer<typeof revisedDataSchema>;

/**
 * Where a payment came from when it was made in the accounting system the
 * invoice is synced to (a payment reconciled in Xero, say), not here. Absent on what was recorded
 * here: events written before this field existed read as recorded here.
 */
export const accountingSourceSchema = z
  .object({
    provider: z.string().describe("'xero'"),
    externalId: z.string().min(1).describe("the record's id there (Xero's PaymentID)"),
  })
  .meta({ title: 'AccountingSource', description: 'the accounting system a payment was made in, and its id there' });
export type AccountingSource = z.infer<typeof accountingSourceSchema>;

export const paymentDataSchema = z
  .object({
    documentId: idField,
    paymentId: idField,
    amount: amountField,
    date: localDateField,
    method: z.enum(PAYMENT_METHODS),
    reference: z.string(),
    source: accountingSourceSchema.optional().describe('set when the payment was made in the accounting system and came back from it (never sent back there); absent for one recorded here'),
  })
  .describe("A payment received. 'Mark Paid' records the outstanding balance. A payment on a draft invoice issues it.");
export type PaymentData = z.infer<typeof paymentDataSchema>;

/** How a send that was not delivered ended (DocumentSendNotDelivered). */
export const SEND_NOT_DELIVERED_OUTCOMES = ['saved_not_delivered', 'failed'] as const;
export type SendNotDeliveredOutcome = (typeof SEND_NOT_DELIVERED_OUTCOMES)[number];

/** Why a client link stopped working (ClientLinkWithdrawn). */
export const CLIENT_LINK_WITHDRAWN_REASONS = ['withdrawn', 'superseded'] as const;
export type ClientLinkWithdrawnReason = (typeof CLIENT_LINK_WITHDRAWN_REASONS)[number];

/** What a client may give as a reason for declining a quote. */
export const CLIENT_DECLINE_REASONS = ['price', 'timing', 'went_elsewhere', 'scope', 'other'] as const;
export type ClientDeclineReason = (typeof CLIENT_DECLINE_REASONS)[number];

/** Where a client's answer came from: the link, and the browser that sent it. */
const clientAnswerFields = {
  documentId: idField,
  linkId: idField.describe('the client link the answer came through'),
  ip: z.string().describe("the client's IP address as the server saw it"),
  userAgent: z.string().describe("the client's browser, as it named itself (at most 500 characters)"),
};

/** Which variation of which quote an event is about. */
const variationRef = { documentId: idField.describe('the quote'), variationId: idField };

/** The supplier as a credit note names them (the business's name and GST number when it was issued). */
export const creditNoteSupplierSchema = z.object({
  name: z.string().describe("the business's name"),
  gstNumber: z.string().describe("the business's GST number ('' when it has none)"),
});

export const creditNoteIssuedSchema = z
  .object({
    documentId: idField.describe('the invoice credited'),
    creditNoteId: idField,
    number: z.number().int().positive(),
    reference: z.string().describe('CN-0001'),
    invoiceReference: z.string().describe("the invoice's reference (INV-0001)"),
    date: localDateField.describe('the NZ day the credit note is issued: it counts in the GST period of this day'),
    reason: z.string().min(1),
    supplier: creditNoteSupplierSchema,
    lines: z
      .array(z.object({ lineIndex: z.number().int().nonnegative(), line: storedLineSchema }))
      .describe("the invoice's lines credited, each with the quantity credited (empty for a credit of an amount)"),
    amount: amountField.nullable().describe('a credit of an amount, GST-inclusive (null for a credit of lines)'),
    subtotal: amountField.describe('the correction excluding GST'),
    gst: amountField.describe('the GST of the correction'),
    total: amountField.describe('the correction including GST'),
    zeroRated: amountField.describe('of the total, the zero-rated part'),
    source: accountingSourceSchema
      .extend({ externalNumber: z.string().describe("its number there (Xero's CreditNoteNumber)") })
      .optional()
      .describe('set when the credit note was raised and allocated in the accounting system and came back from it (never sent back there); absent for one issued here'),
  })
  .describe("A credit note against an issued invoice: a numbered document of its own (CN- sequence) recorded on the invoice's stream. The invoice's balance goes down by `total`; on the invoice basis it is negative sales and GST dated `date`.");
export type CreditNoteIssuedData = z.infer<typeof creditNoteIssuedSchema>;

/** Every event of a document stream and the schema of its data. */
export const documentEventSchemas = {
  DocumentDrafted: draftedDataSchema,
  DocumentRevised: revisedDataSchema,
  DocumentSent: z
    .object({ documentId: idField, to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string() })
    .describe('Emailed by the app and taken by the mail server for delivery; the time is `meta.at`. Issues a draft invoice.'),
  DocumentSendNotDelivered: z
    .object({
      documentId: idField,
      to: z.array(z.string()),
      cc: z.array(z.string()),
      bcc: z.array(z.string()),
      subject: z.string(),
      outcome: z.enum(SEND_NOT_DELIVERED_OUTCOMES).describe("'saved_not_delivered': kept in this server's outbox, no mail server is set up; 'failed': the mail server refused it"),
      detail: z.string().describe("what went wrong, in words (for 'failed', the mail server's answer)"),
    })
    .describe('An email of the document the app tried to send but did not deliver; the time is `meta.at`. Changes no status: the document is not sent by it.'),
  DocumentIssued: z
    .object({ documentId: idField })
    .describe('A draft invoice handed over without the app\'s email (on site, printed): issued from `meta.at` and counts in the reports.'),
  QuoteAccepted: z.object({ documentId: idField }).describe('The client accepted the quote.'),
  QuoteDeclined: z.object({ documentId: idField }).describe('The client declined the quote.'),
  QuoteConverted: z
    .object({ documentId: idField, invoiceId: idField.describe('the new invoice, drafted in the same transaction') })
    .describe('The quote was made into an invoice.'),
  PaymentRecorded: paymentDataSchema,
  PaymentRemoved: z
    .object({
      documentId: idField,
      paymentId: idField,
      source: accountingSourceSchema.optional().describe('set when the payment was deleted in the accounting system and the removal came back from it'),
    })
    .describe('A payment removed: a correction dated the NZ day of `meta.at` (the payment stays received on its own date).'),
  PaymentRefunded: z
    .object({
      documentId: idField,
      paymentId: idField.describe('the payment refunded (in part or in full)'),
      refundId: idField.describe("the payment provider's refund ('re_...')"),
      amount: amountField.describe('what was refunded now, at most what is left of the payment'),
      date: localDateField.describe('the NZ day of the refund'),
    })
    .describe("Money paid back to the client on a payment (a card refund made in the business's Stripe account): the balance goes back up by `amount`; on the payments basis it is a negative payment dated `date`."),
  DocumentVoided: z
    .object({ documentId: idField, reason: z.string() })
    .describe('A document voided. An issued document keeps its number; an issued invoice is reversed in the reports on the NZ day of `meta.at`.'),
  DocumentDeleted: z.object({ documentId: idField }).describe('A draft deleted: only a draft nobody has seen or paid.'),
  SyncedToAccounting: z
    .object({ documentId: idField, provider: z.string().describe("'xero'"), externalId: z.string(), externalNumber: z.string() })
    .describe('The invoice was copied to an accounting system.'),
  AccountingTotalsReported: z
    .object({ documentId: idField, provider: z.string(), subtotal: amountField, gst: amountField, total: amountField })
    .describe('The totals the accounting system answered with for its copy of the invoice (dollars and cents, as it gave them). Recorded only when they change; a difference from ours shows on the detail screen.'),
  AccountingVoidReported: z
    .object({ documentId: idField, provider: z.string(), status: z.enum(['VOIDED', 'DELETED']).describe("what the accounting system says of its copy: 'VOIDED' or 'DELETED'") })
    .describe("The accounting system's copy of the invoice was voided or deleted there. Nothing is voided here by it: the invoice shows it, gets no reminders, and the tradie voids it here (or not)."),
  PdfGenerated: z.object({ documentId: idField, sha256: z.string().describe('of the PDF produced') }).describe('A PDF was produced.'),
  ClientLinkIssued: z
    .object({ documentId: idField, linkId: idField, expiresOn: localDateField.describe('the last NZ day the link works') })
    .describe("A link for the client to open the document without signing in (/q/… or /i/…). The token is never in an event: only the link's id."),
  ClientLinkWithdrawn: z
    .object({
      documentId: idField,
      linkId: idField,
      reason: z.enum(CLIENT_LINK_WITHDRAWN_REASONS).describe("'withdrawn': by the business; 'superseded': the quote changed (revised, voided) after the link was sent"),
    })
    .describe('A client link stopped working.'),
  QuoteAcceptedByClient: z
    .object({
      ...clientAnswerFields,
      documentVersion: z.number().int().positive().describe('the stream version of the quote the client was shown'),
      shownSha256: z.string().describe('SHA-256 of what the page showed (lines, totals, notes, terms)'),
      signerName: z.string().describe('the name the client typed'),
      signatureSha256: z.string().nullable().describe('SHA-256 of the finger signature (PNG, kept outside the log); null when not signed'),
      termsAccepted: z.boolean().describe("the client ticked the business's terms"),
      terms: z.string().optional().describe("the business's terms the client accepted, word for word ('' when none were set); absent on acceptances recorded before the wording was kept"),
    })
    .describe('The client accepted the quote through its link: the quote is accepted, as with QuoteAccepted.'),
  QuoteDeclinedByClient: z
    .object({ ...clientAnswerFields, reasons: z.array(z.enum(CLIENT_DECLINE_REASONS)), note: z.string() })
    .describe('The client declined the quote through its link: the quote is declined, as with QuoteDeclined.'),
  QuoteChangesRequested: z
    .object({ ...clientAnswerFields, note: z.string() })
    .describe('The client asked for changes through its link. The status does not change; it shows on the timeline.'),
  ReminderSent: z
    .object({
      documentId: idField,
      stepId: z.string().min(1).describe("the reminder step it was ('due', 'd7'…; 'manual' when sent by hand)"),
      to: z.array(z.string()),
      subject: z.string(),
      balance: amountField.describe('what the reminder said was owing'),
    })
    .describe('A payment reminder emailed and taken by the mail server for delivery; the time is `meta.at`.'),
  ReminderNotDelivered: z
    .object({
      documentId: idField,
      stepId: z.string().min(1),
      to: z.array(z.string()),
      subject: z.string(),
      outcome: z.enum(SEND_NOT_DELIVERED_OUTCOMES).describe("'saved_not_delivered': kept in this server's outbox; 'failed': the mail server refused it for good"),
      detail: z.string().describe("what went wrong, in words (for 'failed', the mail server's answer)"),
    })
    .describe('A payment reminder that was not delivered; the time is `meta.at`. The step counts as done: it is not tried again.'),
  CreditNoteIssued: creditNoteIssuedSchema,
  CreditNoteRefunded: z
    .object({
      documentId: idField,
      creditNoteId: idField,
      refundId: idField,
      amount: amountField.describe('money paid back to the client, at most what the credit left owing back'),
      date: localDateField.describe('the NZ day it was paid back'),
      method: z.enum(PAYMENT_METHODS),
      reference: z.string(),
    })
    .describe('Money paid back to the client against a credit note that credited more than was owing: on the payments basis a negative payment dated `date`.'),
  CreditNoteEmailed: z
    .object({
      documentId: idField.describe('the invoice credited'),
      creditNoteId: idField,
      to: z.array(z.string()),
      cc: z.array(z.string()),
      bcc: z.array(z.string()),
      subject: z.string(),
      outcome: z
        .enum(['delivered', ...SEND_NOT_DELIVERED_OUTCOMES])
        .describe("'delivered': a mail server took it; 'saved_not_delivered': kept in this server's outbox, no mail server is set up; 'failed': the mail server refused it"),
      detail: z.string().nullable().describe("what went wrong, in words (null when delivered; for 'failed', the mail server's answer)"),
    })
    .describe('An attempt to email a credit note (its PDF attached) to the client, with what happened to it; the time is `meta.at`. Changes no figure.'),
  StageInvoiced: z
    .object({
      documentId: idField.describe('the quote'),
      invoiceId: idField.describe('the stage invoice, drafted in the same transaction'),
      reference: z.string().describe("the stage invoice's reference (INV-0001)"),
      kind: z.enum(STAGE_KINDS).describe("'deposit', 'progress' or 'final' (the remainder)"),
      lines: z
        .array(
          z.object({
            lineIndex: z.number().int().nonnegative().describe("the quote's line"),
            amount: amountField.describe("what this stage invoices of the line's value, GST included"),
            share: z.string().regex(/^\d+\/[1-9]\d*$/).describe("the share of the line's value this stage takes, an exact fraction 'n/d'"),
          }),
        )
        .min(1),
    })
    .describe("A stage of an accepted quote invoiced (deposit, progress or final): what the new invoice takes of each quote line. The quote keeps these to refuse invoicing past 100 % and to leave the final invoice the exact remainder."),
  StageWithdrawn: z
    .object({ documentId: idField.describe('the quote'), invoiceId: idField.describe('the stage invoice voided or deleted') })
    .describe("A stage invoice was voided or deleted: what it took of the quote's lines is left to invoice again."),
  StageCredited: z
    .object({
      documentId: idField.describe('the quote'),
      invoiceId: idField.describe('the stage invoice credited'),
      creditNoteId: idField,
      creditNoteReference: z.string().describe("the credit note's reference (CN-0001)"),
      lines: z
        .array(
          z.object({
            lineIndex: z.number().int().nonnegative().describe("the quote's line"),
            amount: amountField.describe("what the credit gives back of what the stage took of the line, GST included"),
            share: z.string().regex(/^\d+\/[1-9]\d*$/).describe("the share of the line's value given back, an exact fraction 'n/d'"),
          }),
        )
        .min(1),
    })
    .describe("A credit note on a stage invoice gave part or all of the stage back to the quote: Quoted / Invoiced / Remaining and the next stages count the stage net of it."),
  QuoteVaried: z
    .object({ documentId: idField, line: storedLineSchema.describe('the line added to the quote') })
    .describe('No longer written (VariationProposed replaced it). A line of extra work added to an accepted quote before variations were agreed with the client apart: it reads as an approved variation, valued with the quote, and can be invoiced in stages.'),
  VariationProposed: z
    .object({
      documentId: idField.describe('the quote'),
      variationId: idField,
      number: z.number().int().positive().describe("1, 2, … on this quote ('Variation 1')"),
      lines: z.array(storedLineSchema).min(1).describe('the extra work and its price'),
      note: z.string().describe("why, in the business's words ('' for none)"),
    })
    .describe('A variation to an accepted quote: extra work proposed to the client as an agreement of its own. The signed quote does not change. It awaits the approval of the client (through the link, or by the business on their word) and can be invoiced only once approved.'),
  VariationSent: z
    .object({ ...variationRef, to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()), subject: z.string() })
    .describe("The variation was emailed to the client with the quote's link and taken by the mail server for delivery; the time is `meta.at`."),
  VariationSendNotDelivered: z
    .object({
      ...variationRef,
      to: z.array(z.string()),
      cc: z.array(z.string()),
      bcc: z.array(z.string()),
      subject: z.string(),
      outcome: z.enum(SEND_NOT_DELIVERED_OUTCOMES).describe("'saved_not_delivered': kept in this server's outbox, no mail server is set up; 'failed': the mail server refused it"),
      detail: z.string().describe("what went wrong, in words (for 'failed', the mail server's answer)"),
    })
    .describe('An email of the variation the app tried to send but did not deliver; the time is `meta.at`. The variation is not sent by it.'),
  VariationAcceptedByClient: z
    .object({
      ...clientAnswerFields,
      variationId: idField,
      shownSha256: z.string().describe('SHA-256 of what the page showed of the variation (its lines, totals and note)'),
      signerName: z.string().describe('the name the client typed'),
      signatureSha256: z.string().nullable().describe('SHA-256 of the finger signature (PNG, kept outside the log); null when not signed'),
    })
    .describe('The client approved the variation through the quote\'s link: it can be invoiced. The acceptance certificate states these facts.'),
  VariationDeclinedByClient: z
    .object({ ...clientAnswerFields, variationId: idField, note: z.string() })
    .describe('The client declined the variation through the quote\'s link: it cannot be invoiced.'),
  VariationApproved: z.object(variationRef).describe('The business marked the variation approved (the client agreed to it in person or in writing): it can be invoiced.'),
  VariationDeclined: z.object(variationRef).describe('The business marked the variation declined: it cannot be invoiced.'),
  VariationWithdrawn: z.object(variationRef).describe('The business withdrew a variation the client had not answered: it cannot be answered or invoiced.'),
  PaymentClaimSet: z
    .object({
      documentId: idField,
      contractReference: z.string().describe("identifies the construction contract (its reference or name); '' while not filled in"),
      contractDate: localDateField.nullable().describe('the day the contract was made'),
      site: z.string().describe('where the construction work is done'),
      work: z.string().describe('the construction work the claim relates to'),
      periodFrom: localDateField.nullable(),
      periodTo: localDateField.nullable(),
      retentionPercent: z.string().regex(/^\d{1,3}(\.\d{1,2})?$/).describe('retention the payer withholds, percent of this claim (GST included); "0" for none'),
      paymentDueDate: localDateField.nullable().describe("the contract's due date for payment; null: 20 working days after service"),
      scheduleWorkingDays: z.number().int().positive().nullable().describe('working days the contract gives for a payment schedule; null: 20'),
      form1Version: z.string().describe('the version of the Form 1 notice the claim carries'),
    })
    .describe('The invoice is (or its details as) a payment claim under the Construction Contracts Act 2002. Only while a draft: a served claim never changes. It is served when first emailed or marked issued, and its due date for payment, unless the contract sets one, becomes 20 working days after that day.'),
  PaymentClaimCleared: z.object({ documentId: idField }).describe('The draft invoice is no longer a payment claim.'),
  PaymentScheduleReceived: z
    .object({
      documentId: idField,
      receivedOn: localDateField.describe('the NZ day the payer\'s payment schedule was received'),
      scheduledAmount: amountField.describe('what the payer proposes to pay'),
      reasons: z.string().describe('the payer\'s reasons when it is less than the claimed amount'),
    })
    .describe('The payer answered a served payment claim with a payment schedule (the latest one recorded counts). The claim shows any difference from the claimed amount.'),
  RetentionReleased: z
    .object({ documentId: idField, releaseId: idField, amount: amountField.describe('retention the payer released'), date: localDateField })
    .describe('Retention withheld on a payment claim was released by the payer: it is no longer held back, and is owed like the rest of the balance.'),
  RemindersPaused: z.object({ documentId: idField }).describe('The business paused payment reminders for this invoice.'),
  RemindersResumed: z.object({ documentId: idField }).describe('The business turned payment reminders for this invoice back on.'),
} as const;

export type DocumentEvent = EventUnion<typeof documentEventSchemas>;

export type DocumentEventType = DocumentEvent['type'];

export const documentStreamId = (documentId: string): string => `document-${documentId}`;
