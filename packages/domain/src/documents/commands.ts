// What can be asked of a quote or invoice: the commands and their inputs, and the words a document is called by.
import type { LocalDate } from '../dates/dates.ts';
import type { PaymentTerms } from '../dates/paymentTerms.ts';
import type { GstRounding } from '../gst/gst.ts';
import type { GstRegistration } from '../gst/registration.ts';
import type { CreditRequest } from './creditNotes.ts';
import type { DepositRequest } from './deposit.ts';
import type { AccountingSource, ClientDeclineReason, ClientLinkWithdrawnReason, ClientSnapshot, DocumentType, PaymentMethod, SendNotDeliveredOutcome } from './events.ts';
import type { Line } from './lineValues.ts';
import type { DueDateChoice, PaymentClaimDetails } from './paymentClaims.ts';
import type { StageRequest } from './stages.ts';
import type { SendOutcome, DocumentView } from './view.ts';

// ---- commands -----------------------------------------------------------------------------

/** What a revision sets: who it is for, the lines, the dates, terms and notes. */
export interface RevisionInput {
  client: ClientSnapshot | null;
  lines: Line[];
  issueDate: LocalDate;
  /** Defaults from the payment terms. */
  dueDate?: LocalDate | null;
  paymentTerms: PaymentTerms;
  validUntil?: LocalDate | null;
  notes?: string;
  /** What the job is ('' or left out: none). */
  jobTitle?: string;
  /** Where the work is done, its lines apart ('' or left out: none). */
  siteAddress?: string;
  /** Quotes only: a deposit asked for on acceptance (null or left out: none). */
  deposit?: DepositRequest | null;
  /**
   * Whether the business is registered for GST now (its settings): when false every line is saved
   * at rate 0. Left out, a revision keeps the document's own and a draft records none.
   */
  gstRegistered?: boolean;
}

/** A new document: all a revision sets, and what it is (its id, type, number and GST rounding). */
export interface DraftInput extends RevisionInput {
  documentId: string;
  type: DocumentType;
  number: number;
  reference: string;
  gstRounding: GstRounding;
  convertedFrom?: string | null;
}

export type DocumentCommand =
  | { type: 'DraftDocument'; data: DraftInput }
  | { type: 'ReviseDocument'; data: RevisionInput }
  /** `gst`: the business's GST registration now, checked before anything is given to the client (requireGstReady). */
  | { type: 'SendDocument'; data: { to: string[]; cc: string[]; bcc: string[]; subject: string; gst?: GstRegistration } }
  /** After SendDocument was decided, the mail was not delivered: record that instead of DocumentSent. */
  | { type: 'RecordUndeliveredSend'; data: { to: string[]; cc: string[]; bcc: string[]; subject: string; outcome: SendNotDeliveredOutcome; detail: string } }
  | { type: 'MarkIssued'; data?: { gst?: GstRegistration } }
  | { type: 'AcceptQuote' }
  | { type: 'DeclineQuote' }
  | { type: 'ConvertQuote'; data: { invoiceId: string } }
  /** `source`: a payment made in the accounting system, come back from it (never sent back there). */
  | { type: 'RecordPayment'; data: { paymentId: string; amount: string; date: LocalDate; method: PaymentMethod; reference: string; source?: AccountingSource | undefined } }
  /** `source`: the payment was deleted in the accounting system (only such a removal takes a payment that came from there). */
  | { type: 'RemovePayment'; data: { paymentId: string; source?: AccountingSource | undefined } }
  | { type: 'RecordRefund'; data: { paymentId: string; refundId: string; amount: string; date: LocalDate } }
  | { type: 'MarkPaid'; data: { paymentId: string; date: LocalDate; method: PaymentMethod; reference: string } }
  | { type: 'VoidDocument'; data: { reason: string } }
  | { type: 'DeleteDraft' }
  | { type: 'RecordAccountingSync'; data: { provider: string; externalId: string; externalNumber: string } }
  | { type: 'RecordAccountingTotals'; data: { provider: string; subtotal: string; gst: string; total: string } }
  /** The accounting system says its copy is voided or deleted there (recorded once; nothing is voided here by it). */
  | { type: 'RecordAccountingVoid'; data: { provider: string; status: 'VOIDED' | 'DELETED' } }
  | { type: 'RecordPdf'; data: { sha256: string } }
  | { type: 'IssueClientLink'; data: { linkId: string; expiresOn: LocalDate; gst?: GstRegistration } }
  | { type: 'WithdrawClientLink'; data: { linkId: string; reason: ClientLinkWithdrawnReason } }
  | { type: 'AcceptQuoteByClient'; data: ClientAnswer & { documentVersion: number; shownSha256: string; signerName: string; signatureSha256: string | null; termsAccepted: boolean; terms?: string } }
  | { type: 'DeclineQuoteByClient'; data: ClientAnswer & { reasons: ClientDeclineReason[]; note: string } }
  | { type: 'RequestQuoteChanges'; data: ClientAnswer & { note: string } }
  /** A payment reminder was emailed (outcome 'delivered') or was not (the outbox, a refusal). */
  | { type: 'RecordReminder'; data: { stepId: string; to: string[]; subject: string; balance: string; outcome: SendOutcome; detail: string | null } }
  | { type: 'PauseReminders' }
  /** A stage of an accepted quote (deposit, progress, final), to be drafted as invoice `invoiceId`; or what is left of an approved variation. */
  | { type: 'InvoiceStage'; data: { invoiceId: string; reference: string; request: StageRequest | VariationStageRequest } }
  /** Extra work on an accepted quote, proposed to the client as an agreement of its own. */
  | { type: 'ProposeVariation'; data: { variationId: string; lines: Line[]; note: string } }
  /** Before the variation's email goes: the refusals; after the mail server took it, recorded (VariationSent). */
  | { type: 'SendVariation'; data: { variationId: string; to: string[]; cc: string[]; bcc: string[]; subject: string } }
  | { type: 'RecordUndeliveredVariationSend'; data: { variationId: string; to: string[]; cc: string[]; bcc: string[]; subject: string; outcome: SendNotDeliveredOutcome; detail: string } }
  | { type: 'AcceptVariationByClient'; data: ClientAnswer & { variationId: string; shownSha256: string; signerName: string; signatureSha256: string | null } }
  | { type: 'DeclineVariationByClient'; data: ClientAnswer & { variationId: string; note: string } }
  /** The client answered in person or in writing: the business records it. */
  | { type: 'ApproveVariation'; data: { variationId: string } }
  | { type: 'DeclineVariation'; data: { variationId: string } }
  | { type: 'WithdrawVariation'; data: { variationId: string } }
  /** A stage invoice of this quote was voided or deleted: its share is left to invoice again. */
  | { type: 'WithdrawStage'; data: { invoiceId: string } }
  /** A credit note on a stage invoice of this quote: what it credits goes back to the quote. */
  | { type: 'CreditStage'; data: { invoiceId: string; creditNoteId: string; creditNoteReference: string; total: string; invoiceLines: Line[]; creditedLines: { lineIndex: number; line: Line }[] } }
  | { type: 'ResumeReminders' }
  /** A credit note against an issued invoice; number and reference come from the CN- sequence. */
  | { type: 'IssueCreditNote'; data: IssueCreditNoteInput }
  | { type: 'RecordCreditNoteRefund'; data: { creditNoteId: string; refundId: string; amount: string; date: LocalDate; method: PaymentMethod; reference: string } }
  | { type: 'RecordCreditNoteEmail'; data: { creditNoteId: string; to: string[]; cc: string[]; bcc: string[]; subject: string; outcome: SendOutcome; detail: string | null } }
  /** Make a draft invoice a payment claim under the Construction Contracts Act 2002, or change its details. */
  /**
   * `dueDateChoice`: which due date for payment applies when the contract sets none and the Act's
   * default (20 working days after service, as if served `today`) is not the invoice's own due date.
   */
  | { type: 'SetPaymentClaim'; data: PaymentClaimDetails & { dueDateChoice?: DueDateChoice | null; today: LocalDate } }
  | { type: 'ClearPaymentClaim' }
  | { type: 'RecordPaymentSchedule'; data: { receivedOn: LocalDate; scheduledAmount: string; reasons: string } }
  | { type: 'ReleaseRetention'; data: { releaseId: string; amount: string; date: LocalDate } };

export interface IssueCreditNoteInput {
  creditNoteId: string;
  number: number;
  reference: string;
  date: LocalDate;
  reason: string;
  supplier: { name: string; gstNumber: string };
  credit: CreditRequest;
  /** Raised and allocated in the accounting system, come back from it: one credit note here per note there. */
  source?: (AccountingSource & { externalNumber: string }) | undefined;
}

/** A progress stage that takes what is left of an approved variation. */
export interface VariationStageRequest {
  kind: 'progress';
  variationId: string;
}

/** Where a client's answer came from: the link it came through and the browser. */
export interface ClientAnswer {
  linkId: string;
  ip: string;
  userAgent: string;
}

export const documentNoun = (type: DocumentType): string => (type === 'quote' ? 'quote' : 'invoice');

/**
 * A registered business's invoice is a tax invoice; anything else an invoice or a quote. An
 * invoice saved before the app recorded registration is one when the business has a GST number
 * (`businessGstNumber`), as its PDF always said.
 */
export function isTaxInvoice(d: Pick<DocumentView, 'type' | 'gstRegistered'>, businessGstNumber = ''): boolean {
  if (d.type !== 'invoice') return false;
  return d.gstRegistered ?? businessGstNumber.trim() !== '';
}

/** The title a person reads on the screen, the client's page and the PDF. */
export type DocumentTitle = 'Quote' | 'Tax invoice' | 'Invoice';
export const documentTitleOf = (d: Pick<DocumentView, 'type' | 'gstRegistered'>, businessGstNumber = ''): DocumentTitle =>
  d.type === 'quote' ? 'Quote' : isTaxInvoice(d, businessGstNumber) ? 'Tax invoice' : 'Invoice';
