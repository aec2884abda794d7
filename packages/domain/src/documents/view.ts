// A quote or invoice as its events left it: the state the decider folds and every read model starts from.
import type { DepositRequest } from './deposit.ts';
import type { LocalDate } from '../dates/dates.ts';
import type { PaymentTerms } from '../dates/paymentTerms.ts';
import type { GstRounding } from '../gst/gst.ts';
import type { CreditNote } from './creditNotes.ts';
import type { ClientDeclineReason, ClientSnapshot, DocumentEvent, DocumentType, PaymentData, SendNotDeliveredOutcome } from './events.ts';
import type { Line } from './lineValues.ts';
import type { PaymentClaim } from './paymentClaims.ts';
import type { StageCreditRecord, StageHistoryEntry, StageRecord } from './stages.ts';
import type { Variation } from './variations.ts';

/**
 * Where a document is in its life. An invoice is a draft until it is issued: sent, marked issued
 * (handed over on site or printed), or paid against. Only issued invoices count in the reports.
 */
export type Lifecycle = 'draft' | 'issued' | 'sent' | 'accepted' | 'declined' | 'converted' | 'void' | 'deleted';

export interface Payment extends Omit<PaymentData, 'documentId'> {
  recordedAt: string | null;
}

/**
 * Every payment recorded, every removal and refund, and every credit note, in the order they
 * happened. Removed payments leave `payments` but stay here: a removal is a correction dated the
 * day it was made, so a report for an earlier period never changes (see reportRowsOf). The
 * payments basis walks this log in order, so each step's share of GST depends only on what came
 * before it.
 */
export interface PaymentLogEntry {
  /**
   * recorded, removed, refunded: a payment, its removal, a refund of it. credited: a credit note
   * issued (`paymentId` is its id, `amount` its total; no money moves). creditRefunded: money paid
   * back against a credit note (`paymentId` is the credit note's id).
   */
  kind: 'recorded' | 'removed' | 'refunded' | 'credited' | 'creditRefunded';
  paymentId: string;
  amount: string;
  /** The payment's date, or for a removal the NZ day it was removed, or for a refund or a credit note its date. */
  date: LocalDate;
  /** For a refund: the provider's refund id (or the credit note refund's id). */
  refundId?: string;
}

/** Money paid back on a payment (PaymentRefunded): the payment stays, the balance goes back up. */
export interface Refund {
  paymentId: string;
  refundId: string;
  amount: string;
  date: LocalDate;
  recordedAt: string | null;
}

/** An email the app sent and the mail server took for delivery (DocumentSent). */
export interface SendRecord {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  at: string | null;
}

/** How an attempt to email the document ended: delivered to the mail server, or not delivered. */
export type SendOutcome = 'delivered' | SendNotDeliveredOutcome;

/**
 * One attempt to email the document, delivered or not. `detail` says why one was not delivered
 * (for 'failed', the mail server's answer); null for a delivered one.
 */
export interface SendAttempt extends SendRecord {
  outcome: SendOutcome;
  detail: string | null;
}

export interface AccountingLink {
  provider: string;
  externalId: string;
  externalNumber: string;
  at: string | null;
  /** The totals the accounting system last answered with for its copy; null until it has. */
  reported: AccountingTotals | null;
  /** Its copy was voided or deleted there (when the app learnt it); null while it stands. */
  voidedThere: { status: 'VOIDED' | 'DELETED'; at: string | null } | null;
}

/** An accounting system's totals for its copy of an invoice, in dollars and cents as it gave them. */
export interface AccountingTotals {
  subtotal: string;
  gst: string;
  total: string;
  at: string | null;
}

/** The link the client opens without signing in, while it works (ClientLinkIssued, until withdrawn). */
export interface ActiveClientLink {
  linkId: string;
  expiresOn: LocalDate;
  issuedAt: string | null;
}

/** The client's acceptance through a link (QuoteAcceptedByClient). */
export interface ClientAcceptance {
  linkId: string;
  documentVersion: number;
  shownSha256: string;
  signerName: string;
  signatureSha256: string | null;
  termsAccepted: boolean;
  /** The terms accepted, word for word ('' for none); undefined when recorded before the wording was kept. */
  terms?: string | undefined;
  ip: string;
  userAgent: string;
  at: string | null;
}

/** A payment reminder: delivered to the mail server, or not (ReminderSent / ReminderNotDelivered). */
export interface ReminderRecord {
  stepId: string;
  to: string[];
  subject: string;
  at: string | null;
  outcome: SendOutcome;
  detail: string | null;
}

/** The client's decline through a link (QuoteDeclinedByClient). */
export interface ClientDecline {
  reasons: ClientDeclineReason[];
  note: string;
  at: string | null;
}

export interface DocumentView {
  status: Lifecycle;
  id: string;
  type: DocumentType;
  number: number;
  reference: string;
  client: ClientSnapshot | null;
  lines: Line[];
  gstRounding: GstRounding;
  /**
   * The business was registered for GST when this was saved: false, its lines carry no GST and an
   * invoice is an 'Invoice'; true, a tax invoice. null: saved before the app recorded it.
   */
  gstRegistered: boolean | null;
  issueDate: LocalDate;
  dueDate: LocalDate;
  /** The due date the invoice itself was given (drafted or revised): a payment claim's due date for payment may differ from it. */
  termsDueDate: LocalDate;
  paymentTerms: PaymentTerms;
  validUntil: LocalDate | null;
  notes: string;
  /** What the job is, in the tradie's words ('' none). */
  jobTitle: string;
  /** Where the work is done, one line of the address a line ('' none). */
  siteAddress: string;
  /** Quotes: the deposit asked for on acceptance (null: none). */
  deposit: DepositRequest | null;
  convertedFrom: string | null;
  convertedTo: string | null;
  payments: Payment[];
  /** Refunds on the payments (card refunds); each lowers what was paid. */
  refunds: Refund[];
  paymentLog: PaymentLogEntry[];
  /** The emails delivered (taken by the mail server): what makes a document sent. */
  sends: SendRecord[];
  /** Every attempt to email it, in order: the delivered ones and those that were not (outbox, refused). */
  sendLog: SendAttempt[];
  /** Invoices: the NZ day it was first issued (sent, marked issued or paid against); null while a draft. */
  issuedOn: LocalDate | null;
  /** Invoices: the instant it was first issued (null while a draft): what decides whether it came after a GST export. */
  issuedAt: string | null;
  acceptedAt: string | null;
  declinedAt: string | null;
  voidedAt: string | null;
  /** The NZ day it was voided: a voided issued invoice is reversed in the period of this day. */
  voidedOn: LocalDate | null;
  voidReason: string | null;
  sync: AccountingLink | null;
  pdfSha256: string | null;
  /** The client link that works now; null when none was issued or the last was withdrawn. */
  clientLink: ActiveClientLink | null;
  /** The client's answers through a link: the last acceptance and decline, and when changes were last asked for. */
  clientAcceptance: ClientAcceptance | null;
  clientDecline: ClientDecline | null;
  changesRequestedAt: string | null;
  /** Payment reminders tried, in order (delivered or not). */
  reminders: ReminderRecord[];
  /** The business paused reminders for this invoice. */
  remindersPaused: boolean;
  /** Quotes: the stage invoices made from it (deposit, progress, final) that stand, in order. */
  stages: StageRecord[];
  /** Quotes: every stage invoiced from it, in order, withdrawn ones included. */
  stageHistory: StageHistoryEntry[];
  /** Quotes: what credit notes on its stage invoices gave back, in order. */
  stageCredits: StageCreditRecord[];
  /** Credit notes against this invoice (each numbered CN-…), in the order they were issued. */
  creditNotes: CreditNote[];
  /** Invoices: a payment claim under the Construction Contracts Act 2002; null when it is not one. */
  paymentClaim: PaymentClaim | null;
  /** Quotes: the variations proposed after acceptance, in order, each its own agreement (the signed `lines` never change). */
  variations: Variation[];
  createdAt: string | null;
  updatedAt: string | null;
}

export type DocumentState = { status: 'none' } | DocumentView;

export const initialDocumentState: DocumentState = { status: 'none' };

/** An event as evolve sees it: the domain event plus, when it was recorded, its time. */
export type EvolvableDocumentEvent = DocumentEvent & { meta?: { at?: string } };
