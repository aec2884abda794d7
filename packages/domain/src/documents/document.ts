// The quote/invoice decider: decide(command, state) → events | DomainError, evolve(state, event)
// → state. Both pure. Statuses are derived from events, never stored by hand.
import { type LocalDate, compareDates, formatNzDateLong, isLocalDate, nzDateOf } from '../dates/dates.ts';
import type { Decider } from '../decider.ts';
import { type PaymentTerms, dueDateFor, quoteValidUntil } from '../dates/paymentTerms.ts';
import { assertNever, conflict, invalid, notFound } from '../errors.ts';
import { type DocumentTotals, type GstRounding, documentTotals } from '../gst/gst.ts';
import { GST_REGISTRATION_MESSAGES, type GstRegistration, chargesGst, linesAsRegistered } from '../gst/registration.ts';
import { centsToString, formatNzd, requirePositiveCents, toCents, wholeCentsOf } from '../money/money.ts';
import type { AccountingSource, ClientDeclineReason, ClientLinkWithdrawnReason, ClientSnapshot, DocumentEvent, DocumentType, PaymentData, PaymentMethod, SendNotDeliveredOutcome } from './events.ts';
import { LINE_LIMITS, MAX_DOCUMENT_TOTAL, type Line } from './lineValues.ts';
import { TAX_RATE_MESSAGE, isNzGstRate, storedLine } from './lines.ts';
import { CATEGORY_ID_PATTERN } from '../profit/categories.ts';
import { parseExactDecimal } from '../money/rounding.ts';
import { type StageCreditRecord, type StageHistoryEntry, type StageRecord, type StageRequest, allocateStageOn, stageCreditLines, stageCreditWeights, stageLedger, stageLinesOf } from './stages.ts';
import { type Variation, type VariationStatus, isAgreed, quoteLineCount, quoteStageBasis, variationName, variationTotals } from './variations.ts';
import { type DueDateChoice, type PaymentClaim, type PaymentClaimDetails, checkClaimDetails, chosenPaymentDueDate, siteOnOneLine, checkRetentionRelease, checkSchedule, claimDates, claimNotReady, invoiceClaimCalculation, missingClaimElements, retentionCents, retentionHeldCents } from './paymentClaims.ts';
import { CCA_FORM_1 } from './ccaForm1.ts';
import { clientDisplayName } from '../clients/displayName.ts';
import { type CreditNote, type CreditRequest, checkCreditRefund, creditFigures, creditRefundedCents, creditedCents } from './creditNotes.ts';
import { accountingProviderName } from './accountingProviders.ts';
import { jobDetails } from './jobDetails.ts';

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

export function evolveDocument(state: DocumentState, event: EvolvableDocumentEvent): DocumentState {
  const at = event.meta?.at ?? null;
  if (event.type === 'DocumentDrafted') {
    const d = event.data;
    return {
      status: 'draft',
      id: d.documentId,
      type: d.type,
      number: d.number,
      reference: d.reference,
      client: d.client,
      lines: d.lines,
      gstRounding: d.gstRounding,
      gstRegistered: d.gstRegistered ?? null,
      issueDate: d.issueDate,
      dueDate: d.dueDate,
      termsDueDate: d.dueDate,
      paymentTerms: d.paymentTerms,
      validUntil: d.validUntil,
      notes: d.notes,
      jobTitle: d.jobTitle,
      siteAddress: d.siteAddress,
      convertedFrom: d.convertedFrom,
      convertedTo: null,
      payments: [],
      refunds: [],
      paymentLog: [],
      sends: [],
      sendLog: [],
      issuedOn: null,
      issuedAt: null,
      acceptedAt: null,
      declinedAt: null,
      voidedAt: null,
      voidedOn: null,
      voidReason: null,
      sync: null,
      pdfSha256: null,
      clientLink: null,
      clientAcceptance: null,
      clientDecline: null,
      changesRequestedAt: null,
      reminders: [],
      remindersPaused: false,
      stages: [],
      stageHistory: [],
      stageCredits: [],
      creditNotes: [],
      paymentClaim: null,
      variations: [],
      createdAt: at,
      updatedAt: at,
    };
  }
  if (state.status === 'none') return state;
  const s: DocumentView = { ...state, updatedAt: at ?? state.updatedAt };
  // The NZ day of the event (the day a void or a removal is dated); an event without a time is
  // dated on the document's issue date, which never moves a figure out of its original period.
  const day = (): LocalDate => (at ? nzDateOf(at) : s.issueDate);
  const issued = (): LocalDate | null => (s.type === 'invoice' ? (s.issuedOn ?? day()) : null);
  const issuedAt = (): string | null => (s.type === 'invoice' ? (s.issuedOn !== null ? s.issuedAt : at) : null);
  // A payment claim is served when it is first emailed or handed over; its due date for payment,
  // unless the contract set one, is then fixed from that day.
  const served = (c: PaymentClaim | null): PaymentClaim | null => (c && c.servedOn === null ? { ...c, servedOn: day(), servedAt: at } : c);
  const servedDueDate = (): LocalDate => (s.paymentClaim && s.paymentClaim.servedOn === null ? claimDates(s.paymentClaim, day()).paymentDue : s.dueDate);
  switch (event.type) {
    case 'DocumentRevised': {
      const { documentId: _id, gstRegistered, ...fields } = event.data;
      // A draft payment claim keeps its due date for payment; the invoice's own is kept beside it.
      const claimDue = s.paymentClaim ? claimDates(s.paymentClaim, compareDates(day(), fields.issueDate) > 0 ? day() : fields.issueDate).paymentDue : null;
      return { ...s, ...fields, gstRegistered: gstRegistered ?? s.gstRegistered, dueDate: claimDue ?? fields.dueDate, termsDueDate: fields.dueDate };
    }
    case 'DocumentSent': {
      const { documentId: _id, ...send } = event.data;
      return {
        ...s,
        status: s.status === 'draft' || s.status === 'issued' ? 'sent' : s.status,
        issuedOn: issued(), issuedAt: issuedAt(),
        paymentClaim: served(s.paymentClaim),
        dueDate: servedDueDate(),
        sends: [...s.sends, { ...send, at }],
        sendLog: [...s.sendLog, { ...send, at, outcome: 'delivered', detail: null }],
      };
    }
    case 'DocumentSendNotDelivered': {
      // Not delivered: recorded, and nothing else changes (the document is not sent by it).
      const { documentId: _id, ...attempt } = event.data;
      return { ...s, sendLog: [...s.sendLog, { ...attempt, at }] };
    }
    case 'DocumentIssued':
      return { ...s, status: s.status === 'draft' ? 'issued' : s.status, issuedOn: issued(), issuedAt: issuedAt(), paymentClaim: served(s.paymentClaim), dueDate: servedDueDate() };
    case 'QuoteAccepted':
      return { ...s, status: 'accepted', acceptedAt: at };
    case 'QuoteDeclined':
      return { ...s, status: 'declined', declinedAt: at };
    case 'QuoteConverted':
      return { ...s, status: 'converted', convertedTo: event.data.invoiceId };
    case 'PaymentRecorded': {
      const { documentId: _id, ...p } = event.data;
      return {
        ...s,
        // Money taken against a draft issues it: it is a supply now, and no longer editable.
        status: s.status === 'draft' ? 'issued' : s.status,
        issuedOn: issued(), issuedAt: issuedAt(),
        payments: [...s.payments, { ...p, recordedAt: at }],
        paymentLog: [...s.paymentLog, { kind: 'recorded', paymentId: p.paymentId, amount: p.amount, date: p.date }],
      };
    }
    case 'PaymentRemoved': {
      const removed = s.payments.find((p) => p.paymentId === event.data.paymentId);
      if (!removed) return s;
      return {
        ...s,
        payments: s.payments.filter((p) => p.paymentId !== event.data.paymentId),
        paymentLog: [...s.paymentLog, { kind: 'removed', paymentId: removed.paymentId, amount: removed.amount, date: at ? nzDateOf(at) : removed.date }],
      };
    }
    case 'PaymentRefunded': {
      const { documentId: _id, ...r } = event.data;
      return {
        ...s,
        refunds: [...s.refunds, { ...r, recordedAt: at }],
        paymentLog: [...s.paymentLog, { kind: 'refunded', paymentId: r.paymentId, amount: r.amount, date: r.date, refundId: r.refundId }],
      };
    }
    case 'DocumentVoided':
      return { ...s, status: 'void', voidedAt: at, voidedOn: day(), voidReason: event.data.reason };
    case 'DocumentDeleted':
      return { ...s, status: 'deleted' };
    case 'SyncedToAccounting': {
      const { documentId: _id, ...link } = event.data;
      return { ...s, sync: { ...link, at, reported: null, voidedThere: null } };
    }
    case 'AccountingTotalsReported': {
      if (!s.sync) return s;
      const { subtotal, gst, total } = event.data;
      return { ...s, sync: { ...s.sync, reported: { subtotal, gst, total, at } } };
    }
    case 'AccountingVoidReported':
      return s.sync ? { ...s, sync: { ...s.sync, voidedThere: { status: event.data.status, at } } } : s;
    case 'PdfGenerated':
      return { ...s, pdfSha256: event.data.sha256 };
    case 'ClientLinkIssued':
      return { ...s, clientLink: { linkId: event.data.linkId, expiresOn: event.data.expiresOn, issuedAt: at } };
    case 'ClientLinkWithdrawn':
      return s.clientLink?.linkId === event.data.linkId ? { ...s, clientLink: null } : s;
    case 'QuoteAcceptedByClient': {
      const { documentId: _id, ...a } = event.data;
      return { ...s, status: 'accepted', acceptedAt: at, clientAcceptance: { ...a, at } };
    }
    case 'QuoteDeclinedByClient':
      return { ...s, status: 'declined', declinedAt: at, clientDecline: { reasons: event.data.reasons, note: event.data.note, at } };
    case 'QuoteChangesRequested':
      return { ...s, changesRequestedAt: at };
    case 'ReminderSent': {
      const { documentId: _id, balance: _balance, ...r } = event.data;
      return { ...s, reminders: [...s.reminders, { ...r, at, outcome: 'delivered', detail: null }] };
    }
    case 'ReminderNotDelivered': {
      const { documentId: _id, ...r } = event.data;
      return { ...s, reminders: [...s.reminders, { ...r, at }] };
    }
    case 'StageInvoiced': {
      const { documentId: _id, ...stage } = event.data;
      return { ...s, stages: [...s.stages, stage], stageHistory: [...s.stageHistory, { stage, withdrawn: false, withdrawnAt: null }] };
    }
    case 'QuoteVaried':
      // Before variations were agreed apart: a line added and agreed at once, valued with the quote.
      return {
        ...s,
        variations: [
          ...s.variations,
          { ...newVariation(s, `legacy-${quoteLineCount(s)}`, [event.data.line], '', at), status: 'approved', legacy: true, approvedAt: at, approvedAfterStages: s.stageHistory.length },
        ],
      };
    case 'VariationProposed':
      return { ...s, variations: [...s.variations, { ...newVariation(s, event.data.variationId, event.data.lines, event.data.note, at), number: event.data.number }] };
    case 'VariationSent': {
      const { documentId: _id, variationId, ...send } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, sendLog: [...v.sendLog, { ...send, at, outcome: 'delivered', detail: null }] }));
    }
    case 'VariationSendNotDelivered': {
      // Not delivered: recorded, and the variation is not sent by it.
      const { documentId: _id, variationId, ...attempt } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, sendLog: [...v.sendLog, { ...attempt, at }] }));
    }
    case 'VariationAcceptedByClient': {
      const { documentId: _id, variationId, ...a } = event.data;
      return withVariation(s, variationId, (v) => ({ ...v, status: 'approved', approvedAt: at, approvedAfterStages: s.stageHistory.length, clientAcceptance: { ...a, at } }));
    }
    case 'VariationApproved':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'approved', approvedAt: at, approvedAfterStages: s.stageHistory.length }));
    case 'VariationDeclinedByClient':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'declined', declinedAt: at, declinedByClient: true, declineNote: event.data.note }));
    case 'VariationDeclined':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'declined', declinedAt: at }));
    case 'VariationWithdrawn':
      return withVariation(s, event.data.variationId, (v) => ({ ...v, status: 'withdrawn', withdrawnAt: at }));
    case 'PaymentClaimSet': {
      const { documentId: _id, ...details } = event.data;
      const claim: PaymentClaim = { ...details, servedOn: null, servedAt: null, schedules: s.paymentClaim?.schedules ?? [], retentionReleases: s.paymentClaim?.retentionReleases ?? [] };
      // Until it is served, its due date for payment reads as if it were served that day.
      const from = compareDates(day(), s.issueDate) > 0 ? day() : s.issueDate;
      return { ...s, paymentClaim: claim, dueDate: claimDates(claim, from).paymentDue };
    }
    case 'PaymentClaimCleared':
      return { ...s, paymentClaim: null, dueDate: s.termsDueDate };
    case 'PaymentScheduleReceived': {
      if (!s.paymentClaim) return s;
      const { documentId: _id, ...r } = event.data;
      return { ...s, paymentClaim: { ...s.paymentClaim, schedules: [...s.paymentClaim.schedules, { ...r, recordedAt: at }] } };
    }
    case 'RetentionReleased': {
      if (!s.paymentClaim) return s;
      const { documentId: _id, ...r } = event.data;
      return { ...s, paymentClaim: { ...s.paymentClaim, retentionReleases: [...s.paymentClaim.retentionReleases, { ...r, recordedAt: at }] } };
    }
    case 'StageCredited': {
      const { documentId: _id, ...credit } = event.data;
      return { ...s, stageCredits: [...s.stageCredits, credit] };
    }
    case 'StageWithdrawn':
      return {
        ...s,
        stages: s.stages.filter((x) => x.invoiceId !== event.data.invoiceId),
        stageHistory: s.stageHistory.map((h) => (h.stage.invoiceId === event.data.invoiceId && !h.withdrawn ? { ...h, withdrawn: true, withdrawnAt: at } : h)),
      };
    case 'RemindersPaused':
      return { ...s, remindersPaused: true };
    case 'RemindersResumed':
      return { ...s, remindersPaused: false };
    case 'CreditNoteIssued': {
      const { documentId: _id, ...note } = event.data;
      return {
        ...s,
        creditNotes: [...s.creditNotes, { ...note, issuedAt: at, refunds: [], sends: [] }],
        paymentLog: [...s.paymentLog, { kind: 'credited', paymentId: note.creditNoteId, amount: note.total, date: note.date }],
      };
    }
    case 'CreditNoteRefunded': {
      const { documentId: _id, creditNoteId, ...r } = event.data;
      return {
        ...s,
        creditNotes: s.creditNotes.map((n) => (n.creditNoteId === creditNoteId ? { ...n, refunds: [...n.refunds, { ...r, recordedAt: at }] } : n)),
        paymentLog: [...s.paymentLog, { kind: 'creditRefunded', paymentId: creditNoteId, amount: r.amount, date: r.date, refundId: r.refundId }],
      };
    }
    case 'CreditNoteEmailed': {
      const { documentId: _id, creditNoteId, ...send } = event.data;
      return { ...s, creditNotes: s.creditNotes.map((n) => (n.creditNoteId === creditNoteId ? { ...n, sends: [...n.sends, { ...send, at }] } : n)) };
    }
    default:
      return assertNever(event);
  }
}

/** A variation as proposed: awaiting approval, its lines numbered after every line the quote has so far. */
function newVariation(s: DocumentView, variationId: string, lines: Line[], note: string, at: string | null): Variation {
  return {
    variationId, number: s.variations.length + 1, note, lines, firstLine: quoteLineCount(s), status: 'awaiting_approval', legacy: false, proposedAt: at, sendLog: [],
    approvedAt: null, approvedAfterStages: null, clientAcceptance: null, declinedAt: null, declineNote: null, declinedByClient: false, withdrawnAt: null,
  };
}

const withVariation = (s: DocumentView, variationId: string, change: (v: Variation) => Variation): DocumentView => ({
  ...s,
  variations: s.variations.map((v) => (v.variationId === variationId ? change(v) : v)),
});

export const foldDocument = (events: Iterable<EvolvableDocumentEvent>, from: DocumentState = initialDocumentState): DocumentState => {
  let s = from;
  for (const e of events) s = evolveDocument(s, e);
  return s;
};

// ---- derived figures ----------------------------------------------------------------------

export interface DocumentFigures extends DocumentTotals {
  paidCents: bigint;
  /** What credit notes credited (GST-inclusive). */
  creditedCents: bigint;
  /** total − paid − credited; below zero when a credit left money owed back to the client. */
  balanceCents: bigint;
}

/**
 * The money that moved on an invoice, named apart: what the client paid (every payment standing)
 * and what was paid back to them (card refunds on payments and refunds on credit notes). What is
 * paid (`paidCents`) is the first less the second.
 */
export function moneyMoved(d: Pick<DocumentView, 'payments' | 'refunds' | 'creditNotes'>): { receivedCents: bigint; refundedCents: bigint } {
  return {
    receivedCents: d.payments.reduce((a, p) => a + toCents(p.amount), 0n),
    refundedCents: d.refunds.reduce((a, r) => a + toCents(r.amount), 0n) + creditRefundedCents(d.creditNotes ?? []),
  };
}

export function documentFigures(d: DocumentView): DocumentFigures {
  const totals = documentTotals(d.lines, d.gstRounding);
  // A refund gives money back: what was paid is the payments less their refunds (on payments
  // and on credit notes).
  const moved = moneyMoved(d);
  const paidCents = moved.receivedCents - moved.refundedCents;
  const credited = creditedCents(d.creditNotes ?? []);
  return { ...totals, paidCents, creditedCents: credited, balanceCents: totals.totalCents - paidCents - credited };
}

/**
 * The time of supply on the invoice basis (GST Act s 9(1)): the earlier of the invoice being
 * issued and any payment. An invoice dated ahead (postdated) counts from the day it was issued
 * (sent, marked issued or paid against); one dated before that day (backdated) counts from its
 * date; a payment before either (a deposit) brings it to the payment's date. Every payment ever
 * received counts, removed ones too: an earlier period's report never changes because of a later
 * correction. (docs/decisions/0001)
 */
export function timeOfSupply(d: Pick<DocumentView, 'issueDate' | 'issuedOn' | 'paymentLog'>): LocalDate {
  const issued = d.issuedOn !== null && d.issuedOn < d.issueDate ? d.issuedOn : d.issueDate;
  return d.paymentLog.reduce((earliest, p) => (p.kind === 'recorded' && p.date < earliest ? p.date : earliest), issued);
}

export type PaymentStatus = 'paid' | 'partial' | 'unpaid';

/**
 * What the list and the detail both say of the accounting system's copy, as `extra_data`: its id
 * and number (`{provider}_invoice_id`, `{provider}_invoice_number`), `paid_in` when the invoice is
 * paid and money came back from there ('Paid (in Xero)'), and `voided_in` while its copy is voided
 * or deleted there and the invoice is not void here ('Voided in Xero', off the Overdue card).
 */
export function accountingExtraData(d: DocumentView, f: DocumentFigures = documentFigures(d)): Record<string, string> {
  if (!d.sync) return {};
  const { provider } = d.sync;
  const extra: Record<string, string> = { [`${provider}_invoice_id`]: d.sync.externalId, [`${provider}_invoice_number`]: d.sync.externalNumber };
  if (d.status !== 'void' && f.balanceCents <= 0n && d.payments.some((p) => p.source?.provider === provider)) extra['paid_in'] = provider;
  if (d.sync.voidedThere && d.status !== 'void') extra['voided_in'] = provider;
  return extra;
}

/** paid when nothing is owed, partial when something was paid and something is owed. Quotes are never paid. */
export function paymentStatus(d: DocumentView, f: DocumentFigures = documentFigures(d)): PaymentStatus {
  if (d.type === 'quote') return 'unpaid';
  if (f.balanceCents <= 0n) return 'paid';
  return f.paidCents > 0n ? 'partial' : 'unpaid';
}

/** The day the last payment brought the balance to nothing. */
export function paidDate(d: DocumentView, f: DocumentFigures = documentFigures(d)): LocalDate | null {
  if (paymentStatus(d, f) !== 'paid' || d.payments.length === 0) return null;
  return d.payments.map((p) => p.date).reduce((a, b) => (a > b ? a : b));
}

export type DocumentStatus =
  | 'draft'
  | 'issued'
  | 'sent'
  | 'accepted'
  | 'declined'
  | 'converted'
  | 'expired'
  | 'partial'
  | 'paid'
  | 'overdue'
  | 'void'
  | 'deleted';

/**
 * The status a person sees. Quotes: draft → sent → accepted | declined | converted, expired when
 * an open quote passes its valid-until date. Invoices: draft → sent → partial → paid, overdue when
 * money is owed past the due date, void. `today` is the NZ calendar day, passed in.
 */
export function documentStatus(d: DocumentView, today: LocalDate, f: DocumentFigures = documentFigures(d)): DocumentStatus {
  return deriveStatus({ type: d.type, lifecycle: d.status, validUntil: d.validUntil, dueDate: d.dueDate, paymentStatus: paymentStatus(d, f) }, today);
}

/** The same rule from the few facts a list row keeps (the read model derives status at read time). */
export function deriveStatus(
  d: { type: DocumentType; lifecycle: Lifecycle; validUntil: LocalDate | null; dueDate: LocalDate; paymentStatus: PaymentStatus },
  today: LocalDate,
): DocumentStatus {
  if (d.lifecycle === 'void' || d.lifecycle === 'deleted') return d.lifecycle;
  if (d.type === 'quote') {
    if ((d.lifecycle === 'draft' || d.lifecycle === 'sent') && d.validUntil && compareDates(d.validUntil, today) < 0) return 'expired';
    return d.lifecycle;
  }
  if (d.paymentStatus === 'paid') return 'paid';
  // A draft was never given to anyone (money taken issues it): it cannot be overdue.
  if (d.lifecycle === 'draft') return 'draft';
  if (compareDates(d.dueDate, today) < 0) return 'overdue';
  if (d.paymentStatus === 'partial') return 'partial';
  return d.lifecycle === 'sent' || d.lifecycle === 'issued' ? d.lifecycle : 'draft';
}

export const STATUS_LABELS: Record<DocumentStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  converted: 'Converted',
  expired: 'Expired',
  partial: 'Partly paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
  deleted: 'Deleted',
};

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

function requireExisting(state: DocumentState): DocumentView {
  if (state.status === 'none' || state.status === 'deleted') throw notFound('Invoice or quote not found');
  return state;
}

function requireInvoice(d: DocumentView, what: string): void {
  if (d.type !== 'invoice') throw conflict(`Quotes can't ${what}. Convert the quote to an invoice first.`);
}

function requireNotVoid(d: DocumentView): void {
  if (d.status === 'void') throw conflict(`This ${documentNoun(d.type)} is void.`);
}

const MAX_TOTAL_CENTS = toCents(MAX_DOCUMENT_TOTAL);

/**
 * A document comes to at most MAX_DOCUMENT_TOTAL, GST included, so every amount it shows is exact
 * as a JSON number. Every line is worth at least nothing, so no line, subtotal or GST is more.
 */
function checkTotal(lines: readonly Line[], rounding: GstRounding, type: DocumentType): void {
  const { totalCents } = documentTotals(lines, rounding);
  if (totalCents > MAX_TOTAL_CENTS) {
    const noun = documentNoun(type);
    throw invalid(`${noun === 'invoice' ? 'An invoice' : 'A quote'} can come to at most ${formatNzd(MAX_TOTAL_CENTS)} (GST included), and this one comes to ${formatNzd(totalCents)}. Split the work over more than one ${noun}.`);
  }
}

/** A cost, where recorded, is a plain decimal of 0 or more; a category an id; a line's own markup a percentage. */
function checkCosts(lines: readonly Line[]): void {
  const plain = (v: string) => {
    const p = parseExactDecimal(v);
    return p !== null && p.m >= 0n && p.scale <= LINE_LIMITS.maxDecimals;
  };
  for (const l of lines) {
    if (l.cost !== undefined && l.cost !== null && !plain(l.cost)) throw invalid(`${l.description}: the cost must be a number of 0 or more with at most ${LINE_LIMITS.maxDecimals} decimal places`);
    if (l.category !== undefined && !CATEGORY_ID_PATTERN.test(l.category)) throw invalid(`${l.description}: '${l.category}' is not a category`);
    if (l.markup !== undefined && l.markup !== null && !plain(l.markup)) throw invalid(`${l.description}: the markup must be a percentage of 0 or more`);
  }
}

function checkLinesAndDates(lines: Line[], issueDate: LocalDate, dueDate: LocalDate, validUntil: LocalDate | null, rounding: GstRounding, type: DocumentType): void {
  if (lines.length === 0) throw invalid('Add at least one line item');
  if (lines.length > LINE_LIMITS.maxLines) throw invalid(`A document can have at most ${LINE_LIMITS.maxLines} line items`);
  if (lines.some((l) => l.description.trim() === '')) throw invalid('Each line needs a description');
  if (lines.some((l) => !isNzGstRate(l.tax_rate))) throw invalid(TAX_RATE_MESSAGE);
  checkTotal(lines, rounding, type);
  checkCosts(lines);
  if (!isLocalDate(issueDate)) throw invalid('The issue date is not a valid date');
  if (!isLocalDate(dueDate)) throw invalid('The due date is not a valid date');
  if (compareDates(dueDate, issueDate) < 0) throw invalid('The due date cannot be before the issue date');
  if (validUntil !== null) {
    if (!isLocalDate(validUntil)) throw invalid('The valid-until date is not a valid date');
    if (compareDates(validUntil, issueDate) < 0) throw invalid('A quote cannot expire before its issue date');
  }
}

function paymentEvent(d: DocumentView, p: { paymentId: string; amount: string; date: LocalDate; method: PaymentMethod; reference: string; source?: AccountingSource | undefined }): DocumentEvent {
  requireInvoice(d, 'take payments');
  requireNotVoid(d);
  if (!isLocalDate(p.date)) throw invalid('The payment date is not a valid date');
  if (d.payments.some((x) => x.paymentId === p.paymentId)) throw conflict('This payment is already recorded');
  if (p.source && d.payments.some((x) => sameSource(x.source, p.source))) throw conflict(`This payment is already recorded from ${accountingProviderName(p.source.provider)}`);
  const cents = requirePositiveCents(p.amount, 'A payment');
  const { balanceCents } = documentFigures(d);
  if (balanceCents <= 0n) throw conflict('This invoice is already paid in full');
  if (cents > balanceCents) throw invalid(`This payment is more than the ${formatNzd(balanceCents)} still owing`);
  // Once issued, the invoice's GST period is set: an earlier payment would move it back into a
  // period that may be filed already. (A payment on a draft, a deposit, may be dated before it.)
  if (d.issuedOn !== null) {
    const supply = timeOfSupply(d);
    if (compareDates(p.date, supply) < 0) {
      throw invalid(`This invoice counts for GST from ${formatNzDateLong(supply)}, so a payment on it can't be dated before then: that would move the invoice into an earlier GST period. Please check the payment date.`);
    }
  }
  const data: PaymentData = { documentId: d.id, paymentId: p.paymentId, amount: centsToString(cents), date: p.date, method: p.method, reference: p.reference };
  return { type: 'PaymentRecorded', data: p.source ? { ...data, source: { provider: p.source.provider, externalId: p.source.externalId } } : data };
}

/** Whether two accounting sources name the same record there. */
export const sameSource = (a: AccountingSource | undefined, b: AccountingSource | undefined): boolean =>
  a !== undefined && b !== undefined && a.provider === b.provider && a.externalId === b.externalId;

/** The command of a given type. */
type CommandOf<T extends DocumentCommand['type']> = Extract<DocumentCommand, { type: T }>;

function decideDraftDocument(command: CommandOf<'DraftDocument'>, state: DocumentState): DocumentEvent[] {
  if (state.status !== 'none') throw conflict('This document already exists');
  const c = command.data;
  // Checked before the defaults are worked out from it: 2026-13-01 has no 'seven days later'.
  if (!isLocalDate(c.issueDate)) throw invalid('The issue date is not a valid date');
  const dueDate = c.dueDate ?? dueDateFor(c.issueDate, c.paymentTerms);
  const validUntil = c.type === 'quote' ? (c.validUntil ?? quoteValidUntil(c.issueDate)) : null;
  // A business not registered for GST charges none: its lines go at rate 0.
  const lines = c.gstRegistered === false ? linesAsRegistered(c.lines, false) : c.lines;
  checkLinesAndDates(lines, c.issueDate, dueDate, validUntil, c.gstRounding, c.type);
  const job = jobDetails(c);
  if (c.convertedFrom && c.type !== 'invoice') throw invalid('Only an invoice can be made from a quote');
  return [
    {
      type: 'DocumentDrafted',
      data: {
        documentId: c.documentId,
        type: c.type,
        number: c.number,
        reference: c.reference,
        client: c.client,
        lines: lines.map(storedLine),
        gstRounding: c.gstRounding,
        ...(c.gstRegistered !== undefined ? { gstRegistered: c.gstRegistered } : {}),
        issueDate: c.issueDate,
        dueDate,
        paymentTerms: c.paymentTerms,
        validUntil,
        notes: c.notes ?? '',
        ...job,
        convertedFrom: c.convertedFrom ?? null,
      },
    },
  ];
}

function decideReviseDocument(command: CommandOf<'ReviseDocument'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.payments.length > 0) throw conflict("This invoice has payments recorded, so it can't be changed. To replace it, remove the payments, void it and create a new invoice.");
  if (d.status !== 'draft') throw conflict(`This ${documentNoun(d.type)} has been ${d.status === 'void' ? 'voided' : d.status}, so it can't be changed.${d.type === 'invoice' ? ' Void it and create a new invoice instead.' : ' Create a new quote instead.'}`);
  if (d.sync) throw conflict(`This invoice is synced to ${d.sync.provider === 'xero' ? 'Xero' : 'your accounting software'}, so it can't be changed here. Void it and create a new invoice instead.`);
  const c = command.data;
  if (!isLocalDate(c.issueDate)) throw invalid('The issue date is not a valid date');
  const dueDate = c.dueDate ?? dueDateFor(c.issueDate, c.paymentTerms);
  const validUntil = d.type === 'quote' ? (c.validUntil ?? quoteValidUntil(c.issueDate)) : null;
  // Saved again, a draft takes the business's registration as it is now.
  const registered = c.gstRegistered ?? d.gstRegistered;
  const lines = registered === false ? linesAsRegistered(c.lines, false) : c.lines;
  checkLinesAndDates(lines, c.issueDate, dueDate, validUntil, d.gstRounding, d.type);
  const job = jobDetails(c);
  return [
    {
      type: 'DocumentRevised',
      data: {
        documentId: d.id, client: c.client, lines: lines.map(storedLine), issueDate: c.issueDate, dueDate, paymentTerms: c.paymentTerms, validUntil, notes: c.notes ?? '', ...job,
        ...(registered !== null ? { gstRegistered: registered } : {}),
      },
    },
    ...supersedeLink(d),
  ];
}

function decideSendDocument(command: CommandOf<'SendDocument'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireNotVoid(d);
  if (d.status === 'converted') throw conflict('This quote has been converted to an invoice. Send the invoice instead.');
  if (d.status === 'declined') throw conflict('This quote was declined.');
  if (command.data.to.length === 0) throw invalid('This client has no email address. Add one to the client, then send.');
  const { gst, ...send } = command.data;
  requireGstReady(d, gst);
  requireClaimReady(d);
  return [{ type: 'DocumentSent', data: { documentId: d.id, ...send } }];
}

function decideRecordUndeliveredSend(command: CommandOf<'RecordUndeliveredSend'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  return [{ type: 'DocumentSendNotDelivered', data: { documentId: d.id, ...command.data } }];
}

function decideMarkIssued(command: CommandOf<'MarkIssued'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'be marked issued');
  requireNotVoid(d);
  if (d.status !== 'draft') throw conflict('This invoice is already issued');
  requireGstReady(d, command.data?.gst);
  requireClaimReady(d);
  return [{ type: 'DocumentIssued', data: { documentId: d.id } }];
}

/**
 * The quote the client's answer is recorded on. A quote takes an answer while it is a draft or
 * sent, and the client may change their mind (accepted ↔ declined); nothing else takes one.
 */
function requireAnswerableQuote(state: DocumentState, answer: 'accepted' | 'declined'): DocumentView {
  const d = requireExisting(state);
  const otherAnswer = answer === 'accepted' ? 'declined' : 'accepted';
  if (d.type !== 'quote') throw conflict(`Only a quote can be ${answer}`);
  if (d.status === answer) throw conflict(`This quote is already ${answer}`);
  if (d.status !== 'draft' && d.status !== 'sent' && d.status !== otherAnswer) throw conflict(`This quote is ${d.status}, so it can't be ${answer}`);
  return d;
}

function decideAcceptQuote(_command: CommandOf<'AcceptQuote'>, state: DocumentState): DocumentEvent[] {
  return [{ type: 'QuoteAccepted', data: { documentId: requireAnswerableQuote(state, 'accepted').id } }];
}

function decideDeclineQuote(_command: CommandOf<'DeclineQuote'>, state: DocumentState): DocumentEvent[] {
  return [{ type: 'QuoteDeclined', data: { documentId: requireAnswerableQuote(state, 'declined').id } }];
}

function decideConvertQuote(command: CommandOf<'ConvertQuote'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.type !== 'quote') throw conflict('Only a quote can be converted to an invoice');
  if (d.status === 'converted') throw conflict('This quote has already been converted to an invoice');
  if (d.status === 'void') throw conflict("This quote is void, so it can't be converted");
  if (d.status === 'declined') throw conflict('This quote was declined. Mark it accepted first if the client changed their mind.');
  if (d.stages.length > 0) throw conflict('This quote is being invoiced in stages. Make a progress or final invoice instead.');
  // The invoice would be the signed lines alone: a variation agreed or waiting would be left behind.
  const varied = d.variations.filter((v) => v.status === 'approved' || v.status === 'awaiting_approval');
  if (varied.length > 0) throw conflict(`This quote has ${varied.map(variationName).join(' and ')}. Invoice it with a final invoice instead: it takes the quote and its approved variations.`);
  return [{ type: 'QuoteConverted', data: { documentId: d.id, invoiceId: command.data.invoiceId } }];
}

function decideRecordPayment(command: CommandOf<'RecordPayment'>, state: DocumentState): DocumentEvent[] {
  return [paymentEvent(requireExisting(state), command.data)];
}

function decideMarkPaid(command: CommandOf<'MarkPaid'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'be marked paid');
  requireNotVoid(d);
  const { balanceCents } = documentFigures(d);
  if (balanceCents <= 0n) throw conflict('This invoice is already paid');
  return [paymentEvent(d, { ...command.data, amount: centsToString(balanceCents) })];
}

function decideRemovePayment(command: CommandOf<'RemovePayment'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take payments');
  requireNotVoid(d);
  const payment = d.payments.find((p) => p.paymentId === command.data.paymentId);
  if (!payment) throw notFound('Payment not found');
  if (d.refunds.some((r) => r.paymentId === command.data.paymentId)) throw conflict('This payment was refunded, so it stays on the invoice with its refund.');
  const source = command.data.source;
  // What the accounting system holds as paid there is its to take back: a payment made there goes
  // when it is deleted there, never by a removal here (it would come straight back).
  if (payment.source && !source) {
    const name = accountingProviderName(payment.source.provider);
    throw conflict(`This payment was recorded in ${name}. Delete it in ${name} and it goes from here too.`);
  }
  if (source && !sameSource(payment.source, source)) throw conflict(`This payment was not recorded from ${accountingProviderName(source.provider)}`);
  const data = { documentId: d.id, paymentId: command.data.paymentId };
  return [{ type: 'PaymentRemoved', data: source ? { ...data, source: { provider: source.provider, externalId: source.externalId } } : data }];
}

/** A refund of a recorded payment: never more than is left of it, once per refund id. */
function decideRecordRefund(command: CommandOf<'RecordRefund'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take payments');
  const c = command.data;
  const payment = d.payments.find((p) => p.paymentId === c.paymentId);
  if (!payment) throw notFound('Payment not found');
  if (!isLocalDate(c.date)) throw invalid('The refund date is not a valid date');
  if (compareDates(c.date, payment.date) < 0) throw invalid(`A refund can't be dated before the payment it gives back (${formatNzDateLong(payment.date)})`);
  if (d.refunds.some((r) => r.refundId === c.refundId)) throw conflict('This refund is already recorded');
  const cents = requirePositiveCents(c.amount, 'A refund');
  const left = toCents(payment.amount) - d.refunds.filter((r) => r.paymentId === c.paymentId).reduce((a, r) => a + toCents(r.amount), 0n);
  if (cents > left) throw invalid(`This refund is more than the ${formatNzd(left)} left of the payment`);
  return [{ type: 'PaymentRefunded', data: { documentId: d.id, paymentId: c.paymentId, refundId: c.refundId, amount: centsToString(cents), date: c.date } }];
}

/**
 * An invoice the business credits: issued (a draft is still changed, not credited), not void. It
 * is never edited: the credit note is a document of its own, recorded on the invoice's stream.
 */
function requireCreditable(state: DocumentState): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'invoice') throw conflict('Only an invoice can be credited');
  if (d.status === 'void') throw conflict("This invoice is void, so it can't be credited");
  if (d.status === 'draft' || d.issuedOn === null) throw conflict("This invoice is a draft: change it instead of crediting it");
  return d;
}

function decideIssueCreditNote(command: CommandOf<'IssueCreditNote'>, state: DocumentState): DocumentEvent[] {
  const d = requireCreditable(state);
  const c = command.data;
  if (!isLocalDate(c.date)) throw invalid('The credit note date is not a valid date');
  if (c.reason.trim() === '') throw invalid('Say why the invoice is credited');
  if (d.creditNotes.some((n) => n.creditNoteId === c.creditNoteId)) throw conflict('This credit note is already issued');
  if (c.source && d.creditNotes.some((n) => sameSource(n.source, c.source))) throw conflict(`This credit note is already recorded from ${accountingProviderName(c.source.provider)}`);
  const f = creditFigures(d, d.creditNotes, c.credit);
  return [
    {
      type: 'CreditNoteIssued',
      data: {
        documentId: d.id,
        creditNoteId: c.creditNoteId,
        number: c.number,
        reference: c.reference,
        invoiceReference: d.reference,
        date: c.date,
        reason: c.reason.trim(),
        // An invoice made while the business was not registered for GST credits no GST and names no GST number.
        supplier: d.gstRegistered === false ? { ...c.supplier, gstNumber: '' } : c.supplier,
        lines: f.lines.map((l) => ({ lineIndex: l.lineIndex, line: storedLine(l.line) })),
        amount: f.amount,
        subtotal: centsToString(f.subtotalCents),
        gst: centsToString(f.gstCents),
        total: centsToString(f.totalCents),
        zeroRated: centsToString(f.zeroRatedCents),
        ...(c.source ? { source: { provider: c.source.provider, externalId: c.source.externalId, externalNumber: c.source.externalNumber } } : {}),
      },
    },
  ];
}

/** Money paid back against a credit note: at most what the invoice owes back (its balance below zero). */
function decideRecordCreditNoteRefund(command: CommandOf<'RecordCreditNoteRefund'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take refunds');
  const c = command.data;
  const note = d.creditNotes.find((n) => n.creditNoteId === c.creditNoteId);
  if (!note) throw notFound('Credit note not found');
  if (note.refunds.some((r) => r.refundId === c.refundId)) throw conflict('This refund is already recorded');
  const { balanceCents } = documentFigures(d);
  const cents = checkCreditRefund(note, c.amount, c.date, -balanceCents);
  return [{ type: 'CreditNoteRefunded', data: { documentId: d.id, creditNoteId: c.creditNoteId, refundId: c.refundId, amount: centsToString(cents), date: c.date, method: c.method, reference: c.reference } }];
}

/** What happened to an email of a credit note: a credit note of this invoice, sent to someone. */
function decideRecordCreditNoteEmail(command: CommandOf<'RecordCreditNoteEmail'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'have credit notes');
  const c = command.data;
  if (!d.creditNotes.some((n) => n.creditNoteId === c.creditNoteId)) throw notFound('Credit note not found');
  if (c.to.length + c.cc.length + c.bcc.length === 0) throw invalid('Say who the credit note goes to');
  return [{ type: 'CreditNoteEmailed', data: { documentId: d.id, ...c, detail: c.outcome === 'delivered' ? null : c.detail } }];
}

function decideVoidDocument(command: CommandOf<'VoidDocument'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.status === 'void') throw conflict(`This ${documentNoun(d.type)} is already void`);
  if ((d.creditNotes ?? []).length > 0) throw conflict('This invoice has credit notes, so it stays issued: credit what is left instead of voiding it');
  if (d.status === 'converted') throw conflict('This quote has been converted to an invoice. Void the invoice instead.');
  if (d.payments.length > 0) throw conflict('Remove the payments recorded on this invoice before voiding it');
  return [{ type: 'DocumentVoided', data: { documentId: d.id, reason: command.data.reason } }, ...supersedeLink(d)];
}

function decideDeleteDraft(_command: CommandOf<'DeleteDraft'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!isDiscardableDraft(d)) throw conflict(`Only drafts can be deleted. Void this ${documentNoun(d.type)} instead.`);
  return [{ type: 'DocumentDeleted', data: { documentId: d.id } }];
}

function decideRecordAccountingSync(command: CommandOf<'RecordAccountingSync'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'be synced to accounting');
  if (d.sync) throw conflict('This invoice is already synced');
  return [{ type: 'SyncedToAccounting', data: { documentId: d.id, ...command.data } }];
}

function decideRecordAccountingVoid(command: CommandOf<'RecordAccountingVoid'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!d.sync || d.sync.provider !== command.data.provider) throw conflict("This invoice isn't synced to that accounting system.");
  if (d.status === 'void' || d.sync.voidedThere !== null) return [];
  return [{ type: 'AccountingVoidReported', data: { documentId: d.id, ...command.data } }];
}

/**
 * Whether payment reminders are over for the invoice: voided here, or its copy voided or deleted in
 * the accounting system (a client is never chased for an invoice the books no longer hold). Every
 * reminder path asks it: the reminder targets, the sender, and the reminder sent by hand.
 */
export const remindersStopped = (d: Pick<DocumentView, 'status' | 'sync'>): boolean => d.status === 'void' || d.sync?.voidedThere != null;

function decideRecordAccountingTotals(command: CommandOf<'RecordAccountingTotals'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!d.sync || d.sync.provider !== command.data.provider) throw conflict("This invoice isn't synced to that accounting system.");
  const was = d.sync.reported;
  const { subtotal, gst, total } = command.data;
  if (was && was.subtotal === subtotal && was.gst === gst && was.total === total) return [];
  return [{ type: 'AccountingTotalsReported', data: { documentId: d.id, ...command.data } }];
}

function decideRecordPdf(command: CommandOf<'RecordPdf'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  return d.pdfSha256 === command.data.sha256 ? [] : [{ type: 'PdfGenerated', data: { documentId: d.id, sha256: command.data.sha256 } }];
}

/** A change to what the client was shown ends the link they were sent: they need the new one. */
const supersedeLink = (d: DocumentView): DocumentEvent[] =>
  d.clientLink ? [{ type: 'ClientLinkWithdrawn', data: { documentId: d.id, linkId: d.clientLink.linkId, reason: 'superseded' } }] : [];

function decideIssueClientLink(command: CommandOf<'IssueClientLink'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireNotVoid(d);
  if (d.status === 'converted') throw conflict('This quote has been converted to an invoice. Share the invoice instead.');
  if (d.clientLink) throw conflict(`This ${documentNoun(d.type)} already has a link`);
  const { gst, ...link } = command.data;
  if (!isLocalDate(link.expiresOn)) throw invalid('The link expiry is not a valid date');
  requireGstReady(d, gst);
  return [{ type: 'ClientLinkIssued', data: { documentId: d.id, ...link } }];
}

function decideWithdrawClientLink(command: CommandOf<'WithdrawClientLink'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.clientLink?.linkId !== command.data.linkId) throw notFound('This link is not active');
  return [{ type: 'ClientLinkWithdrawn', data: { documentId: d.id, ...command.data } }];
}

/** What the client reads when the quote was answered already (a converted quote was accepted). */
export const QUOTE_ALREADY_ANSWERED = {
  accepted: 'You have already accepted this quote.',
  declined: 'You have already declined this quote.',
} as const;

/**
 * The quote a client answers through its link: a quote still open (sent, or a draft whose link
 * the business shared), and the link it came through is the one that works now. The link pages
 * ask it first, before they look at what the client sent, so an answered quote says so.
 */
export function requireOpenQuoteFor(state: DocumentState, linkId: string): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'quote') throw conflict('Only a quote can be answered');
  if (d.clientLink?.linkId !== linkId) throw conflict('This link no longer works');
  if (d.status === 'accepted' || d.status === 'converted') throw conflict(QUOTE_ALREADY_ANSWERED.accepted);
  if (d.status === 'declined') throw conflict(QUOTE_ALREADY_ANSWERED.declined);
  if (d.status !== 'draft' && d.status !== 'sent') throw conflict(`This quote is ${d.status === 'void' ? 'void' : d.status}, so it can't be answered`);
  return d;
}

function decideAcceptQuoteByClient(command: CommandOf<'AcceptQuoteByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const d = requireOpenQuoteFor(state, c.linkId);
  if (c.signerName.trim() === '') throw invalid('Please type your full name');
  return [{ type: 'QuoteAcceptedByClient', data: { documentId: d.id, ...c, signerName: c.signerName.trim() } }];
}

function decideDeclineQuoteByClient(command: CommandOf<'DeclineQuoteByClient'>, state: DocumentState): DocumentEvent[] {
  const d = requireOpenQuoteFor(state, command.data.linkId);
  return [{ type: 'QuoteDeclinedByClient', data: { documentId: d.id, ...command.data, reasons: [...new Set(command.data.reasons)] } }];
}

function decideRequestQuoteChanges(command: CommandOf<'RequestQuoteChanges'>, state: DocumentState): DocumentEvent[] {
  const d = requireOpenQuoteFor(state, command.data.linkId);
  if (command.data.note.trim() === '') throw invalid('Please say what you would like changed');
  return [{ type: 'QuoteChangesRequested', data: { documentId: d.id, ...command.data } }];
}

/** Reminders are for an invoice given to the client, not voided. */
function requireRemindable(state: DocumentState): DocumentView {
  const d = requireExisting(state);
  requireInvoice(d, 'have payment reminders');
  requireNotVoid(d);
  if (d.status === 'draft') throw conflict('A draft invoice has not been given to the client, so it cannot be reminded');
  return d;
}

function decideRecordReminder(command: CommandOf<'RecordReminder'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  const { outcome, detail, balance, ...r } = command.data;
  if (outcome === 'delivered') {
    if (wholeCentsOf(balance) === null) throw invalid('The balance must be in dollars and cents');
    return [{ type: 'ReminderSent', data: { documentId: d.id, ...r, balance } }];
  }
  return [{ type: 'ReminderNotDelivered', data: { documentId: d.id, ...r, outcome, detail: detail ?? '' } }];
}

function decidePauseReminders(_command: CommandOf<'PauseReminders'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  return d.remindersPaused ? [] : [{ type: 'RemindersPaused', data: { documentId: d.id } }];
}

function decideResumeReminders(_command: CommandOf<'ResumeReminders'>, state: DocumentState): DocumentEvent[] {
  const d = requireRemindable(state);
  return d.remindersPaused ? [{ type: 'RemindersResumed', data: { documentId: d.id } }] : [];
}

/** Stages and variations are for a quote the client accepted (by hand or through its link). */
function requireAcceptedQuote(state: DocumentState, what: string): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'quote') throw conflict(`Only an accepted quote can ${what}`);
  if (d.status !== 'accepted') throw conflict(`This quote is ${d.status === 'converted' ? 'converted to an invoice already' : d.status}: only an accepted quote can ${what}. Mark it accepted first.`);
  return d;
}

function decideInvoiceStage(command: CommandOf<'InvoiceStage'>, state: DocumentState): DocumentEvent[] {
  const d = requireAcceptedQuote(state, 'be invoiced in stages');
  const c = command.data;
  const request: StageRequest = 'variationId' in c.request ? variationStageRequest(d, c.request.variationId) : c.request;
  const allocation = allocateStageOn(quoteStageBasis(d), d.stages, request, d.stageCredits);
  return [{ type: 'StageInvoiced', data: { documentId: d.id, invoiceId: c.invoiceId, reference: c.reference, kind: request.kind, lines: stageLinesOf(allocation) } }];
}

/** What is left of each line of an approved variation; refused while the client has not approved it. */
function variationStageRequest(d: DocumentView, variationId: string): StageRequest {
  const v = requireVariation(d, variationId);
  if (!isAgreed(v)) {
    const name = variationName(v);
    if (v.status === 'awaiting_approval') throw conflict(`${name} is awaiting the client's approval: it can be invoiced once they approve it.`);
    throw conflict(`${name} was ${v.status === 'declined' ? 'declined' : 'withdrawn'}, so it can't be invoiced.`);
  }
  const lines = v.lines.map((_, k) => v.firstLine + k);
  const ledger = stageLedger(quoteLineCount(d), d.stages, d.stageCredits);
  if (lines.every((i) => ledger[i]!.share.n >= ledger[i]!.share.d)) throw conflict(`${variationName(v)} is invoiced in full already.`);
  return { kind: 'progress', remainderOf: lines };
}

function requireVariation(d: DocumentView, variationId: string): Variation {
  const v = d.variations.find((x) => x.variationId === variationId);
  if (!v) throw notFound('Variation not found');
  return v;
}

/** A variation the client has not answered yet, on a quote that is still accepted. */
function requireAwaitingVariation(state: DocumentState, variationId: string, what: string): { d: DocumentView; v: Variation } {
  const d = requireAcceptedQuote(state, what);
  const v = requireVariation(d, variationId);
  if (v.status !== 'awaiting_approval') throw conflict(`${variationName(v)} ${VARIATION_ANSWERED[v.status]}`);
  return { d, v };
}

const VARIATION_ANSWERED: Record<Exclude<VariationStatus, 'awaiting_approval'>, string> = {
  approved: 'is already approved',
  declined: 'is already declined',
  withdrawn: 'was withdrawn',
};

function decideProposeVariation(command: CommandOf<'ProposeVariation'>, state: DocumentState): DocumentEvent[] {
  const d = requireAcceptedQuote(state, 'be varied');
  // A quote made without GST (the business not registered) takes its variations without GST too.
  const c = { ...command.data, lines: linesAsRegistered(command.data.lines, d.gstRegistered !== false) };
  if (d.variations.some((v) => v.variationId === c.variationId)) throw conflict('This variation is already on the quote');
  if (c.lines.length === 0) throw invalid('Add at least one line of extra work');
  if (quoteLineCount(d) + c.lines.length > LINE_LIMITS.maxLines) throw invalid(`A quote and its variations can have at most ${LINE_LIMITS.maxLines} line items`);
  if (c.lines.some((l) => l.description.trim() === '')) throw invalid('Each line needs a description');
  if (c.lines.some((l) => !isNzGstRate(l.tax_rate))) throw invalid(TAX_RATE_MESSAGE);
  checkCosts(c.lines);
  if (c.note.length > VARIATION_NOTE_MAX) throw invalid(`The note can be at most ${VARIATION_NOTE_MAX} characters`);
  if (variationTotals(c, d.gstRounding).totalCents <= 0n) throw invalid('A variation must come to more than $0.00');
  // The quote with the variations that may still be agreed stays within the bound an invoice of it has.
  const standing = d.variations.filter((v) => v.status === 'approved' || v.status === 'awaiting_approval');
  checkTotal([...d.lines, ...standing.flatMap((v) => v.lines), ...c.lines], d.gstRounding, d.type);
  // The signed quote and the client's link stay as they are: the variation is shown and answered apart.
  return [{ type: 'VariationProposed', data: { documentId: d.id, variationId: c.variationId, number: d.variations.length + 1, lines: c.lines.map(storedLine), note: c.note.trim() } }];
}

/** The longest note a variation carries. */
export const VARIATION_NOTE_MAX = 1000;

function decideSendVariation(command: CommandOf<'SendVariation'>, state: DocumentState): DocumentEvent[] {
  const { variationId, ...send } = command.data;
  const { d } = requireAwaitingVariation(state, variationId, 'have variations sent');
  if (send.to.length === 0) throw invalid('This client has no email address. Add one to the client, then send.');
  return [{ type: 'VariationSent', data: { documentId: d.id, variationId, ...send } }];
}

function decideRecordUndeliveredVariationSend(command: CommandOf<'RecordUndeliveredVariationSend'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireVariation(d, command.data.variationId);
  return [{ type: 'VariationSendNotDelivered', data: { documentId: d.id, ...command.data } }];
}

/** The client answers a variation through the quote's link that works now. */
function requireAnswerableVariation(state: DocumentState, variationId: string, linkId: string): { d: DocumentView; v: Variation } {
  const found = requireAwaitingVariation(state, variationId, 'have variations answered');
  if (found.d.clientLink?.linkId !== linkId) throw conflict('This link no longer works');
  return found;
}

function decideAcceptVariationByClient(command: CommandOf<'AcceptVariationByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const { d } = requireAnswerableVariation(state, c.variationId, c.linkId);
  if (c.signerName.trim() === '') throw invalid('Please type your full name');
  return [{ type: 'VariationAcceptedByClient', data: { documentId: d.id, ...c, signerName: c.signerName.trim() } }];
}

function decideDeclineVariationByClient(command: CommandOf<'DeclineVariationByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const { d } = requireAnswerableVariation(state, c.variationId, c.linkId);
  return [{ type: 'VariationDeclinedByClient', data: { documentId: d.id, ...c, note: c.note.trim() } }];
}

function decideApproveVariation(command: CommandOf<'ApproveVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations approved');
  return [{ type: 'VariationApproved', data: { documentId: d.id, variationId: command.data.variationId } }];
}

function decideDeclineVariation(command: CommandOf<'DeclineVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations declined');
  return [{ type: 'VariationDeclined', data: { documentId: d.id, variationId: command.data.variationId } }];
}

function decideWithdrawVariation(command: CommandOf<'WithdrawVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations withdrawn');
  return [{ type: 'VariationWithdrawn', data: { documentId: d.id, variationId: command.data.variationId } }];
}

function decideWithdrawStage(command: CommandOf<'WithdrawStage'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!d.stages.some((s) => s.invoiceId === command.data.invoiceId)) return [];
  return [{ type: 'StageWithdrawn', data: { documentId: d.id, invoiceId: command.data.invoiceId } }];
}

/**
 * A credit note on one of this quote's stage invoices gives what it credits back to the quote
 * (docs/decisions/0015): by the quote lines its credited lines stand for, or an amount spread over
 * what is left of the stage. Nothing when the invoice is no stage of this quote, or this credit
 * note was given back already.
 */
function decideCreditStage(command: CommandOf<'CreditStage'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  const c = command.data;
  const stage = d.stages.find((s) => s.invoiceId === c.invoiceId);
  if (!stage || d.stageCredits.some((x) => x.creditNoteId === c.creditNoteId)) return [];
  const basis = quoteStageBasis(d);
  const weights = stageCreditWeights(basis.lines, stage, c.invoiceLines, c.creditedLines);
  const lines = stageCreditLines(basis.values, stage, d.stageCredits, toCents(c.total), weights);
  if (lines.length === 0) return [];
  return [{ type: 'StageCredited', data: { documentId: d.id, invoiceId: c.invoiceId, creditNoteId: c.creditNoteId, creditNoteReference: c.creditNoteReference, lines } }];
}

// ---- GST registration ----------------------------------------------------------------------

/**
 * Nothing is given to the client (emailed, handed over, shared by link) while the business's GST
 * registration and the document disagree: a registered business's document needs its GST number
 * (a tax invoice must show it), and a draft saved under the other registration must be saved
 * again first, so its GST is what the business may charge. An issued document keeps the GST it
 * was issued with. `gst` is the business's registration now; left out, nothing is checked.
 */
export function requireGstReady(d: DocumentView, gst: GstRegistration | undefined): void {
  if (!gst) return;
  // Saved before registration was recorded: it charged GST as a registered business would.
  const saved = d.gstRegistered ?? (chargesGst(d.lines) ? true : gst.registered);
  const unissued = d.status === 'draft';
  if (unissued && saved !== gst.registered) {
    throw conflict(gst.registered ? GST_REGISTRATION_MESSAGES.registeredSince(documentNoun(d.type)) : GST_REGISTRATION_MESSAGES.notRegisteredSince(documentNoun(d.type)));
  }
  if (saved && gst.gstNumber.trim() === '') throw invalid(gst.registered ? GST_REGISTRATION_MESSAGES.noNumber : GST_REGISTRATION_MESSAGES.noNumberOnTaxInvoice);
}

// ---- payment claims (Construction Contracts Act 2002) ------------------------------------

/** A payment claim is served only with every element s 20 requires; the refusal lists what is missing. */
function requireClaimReady(d: DocumentView): void {
  if (!d.paymentClaim || d.paymentClaim.servedOn !== null) return;
  const missing = missingClaimElements(d.paymentClaim, { clientName: d.client ? clientDisplayName(d.client) : '', totalCents: documentTotals(d.lines, d.gstRounding).totalCents });
  if (missing.length > 0) claimNotReady(missing);
}

function requireDraftInvoice(state: DocumentState, what: string): DocumentView {
  const d = requireExisting(state);
  requireInvoice(d, what);
  requireNotVoid(d);
  if (d.status !== 'draft') throw conflict('This invoice has been issued, so its payment claim details can no longer change. Credit it or void it and make a new claim.');
  return d;
}

function decideSetPaymentClaim(command: CommandOf<'SetPaymentClaim'>, state: DocumentState): DocumentEvent[] {
  const d = requireDraftInvoice(state, 'be payment claims');
  const { dueDateChoice, today, ...given } = command.data;
  const details: PaymentClaimDetails = { ...given, site: siteOnOneLine(given.site), paymentDueDate: chosenPaymentDueDate(given, dueDateChoice ?? null, d.termsDueDate, compareDates(today, d.issueDate) > 0 ? today : d.issueDate) };
  checkClaimDetails(details, d.issueDate);
  return [{ type: 'PaymentClaimSet', data: { documentId: d.id, ...details, form1Version: CCA_FORM_1.version } }];
}

function decideClearPaymentClaim(_command: CommandOf<'ClearPaymentClaim'>, state: DocumentState): DocumentEvent[] {
  const d = requireDraftInvoice(state, 'be payment claims');
  return d.paymentClaim ? [{ type: 'PaymentClaimCleared', data: { documentId: d.id } }] : [];
}

function requireClaim(state: DocumentState): DocumentView & { paymentClaim: PaymentClaim } {
  const d = requireExisting(state);
  requireNotVoid(d);
  if (!d.paymentClaim) throw conflict('This invoice is not a payment claim under the Construction Contracts Act 2002');
  return d as DocumentView & { paymentClaim: PaymentClaim };
}

/** The retention withheld on this claim: its percent of the invoice's total. */
export const claimRetentionCents = (d: Pick<DocumentView, 'lines' | 'gstRounding'> & { paymentClaim: Pick<PaymentClaim, 'retentionPercent'> }): bigint =>
  retentionCents(documentTotals(d.lines, d.gstRounding).totalCents, d.paymentClaim.retentionPercent);

/**
 * What is owed now: the balance less any retention held back on a payment claim (owed, but not due
 * until released). Payment reminders chase this, never retention the payer is entitled to hold.
 */
export function amountDueNowCents(d: DocumentView, f: DocumentFigures = documentFigures(d)): bigint {
  if (!d.paymentClaim || f.balanceCents <= 0n) return f.balanceCents;
  const due = f.balanceCents - retentionHeldCents(d.paymentClaim, claimRetentionCents(d as DocumentView & { paymentClaim: PaymentClaim }));
  return due > 0n ? due : 0n;
}

function decideRecordPaymentSchedule(command: CommandOf<'RecordPaymentSchedule'>, state: DocumentState): DocumentEvent[] {
  const d = requireClaim(state);
  const claimed = invoiceClaimCalculation(d, d.paymentClaim.retentionPercent).claimedCents;
  const cents = checkSchedule(command.data, d.paymentClaim, claimed);
  return [{ type: 'PaymentScheduleReceived', data: { documentId: d.id, receivedOn: command.data.receivedOn, scheduledAmount: centsToString(cents), reasons: command.data.reasons.trim() } }];
}

function decideReleaseRetention(command: CommandOf<'ReleaseRetention'>, state: DocumentState): DocumentEvent[] {
  const d = requireClaim(state);
  if (d.paymentClaim.retentionReleases.some((r) => r.releaseId === command.data.releaseId)) return [];
  const held = retentionHeldCents(d.paymentClaim, claimRetentionCents(d));
  const cents = checkRetentionRelease(command.data.amount, command.data.date, held);
  return [{ type: 'RetentionReleased', data: { documentId: d.id, releaseId: command.data.releaseId, amount: centsToString(cents), date: command.data.date } }];
}

const decisions: { [T in DocumentCommand['type']]: (command: CommandOf<T>, state: DocumentState) => DocumentEvent[] } = {
  DraftDocument: decideDraftDocument,
  ReviseDocument: decideReviseDocument,
  SendDocument: decideSendDocument,
  RecordUndeliveredSend: decideRecordUndeliveredSend,
  MarkIssued: decideMarkIssued,
  AcceptQuote: decideAcceptQuote,
  DeclineQuote: decideDeclineQuote,
  ConvertQuote: decideConvertQuote,
  RecordPayment: decideRecordPayment,
  MarkPaid: decideMarkPaid,
  RemovePayment: decideRemovePayment,
  RecordRefund: decideRecordRefund,
  VoidDocument: decideVoidDocument,
  DeleteDraft: decideDeleteDraft,
  RecordAccountingSync: decideRecordAccountingSync,
  RecordAccountingTotals: decideRecordAccountingTotals,
  RecordAccountingVoid: decideRecordAccountingVoid,
  RecordPdf: decideRecordPdf,
  IssueClientLink: decideIssueClientLink,
  WithdrawClientLink: decideWithdrawClientLink,
  AcceptQuoteByClient: decideAcceptQuoteByClient,
  DeclineQuoteByClient: decideDeclineQuoteByClient,
  RequestQuoteChanges: decideRequestQuoteChanges,
  RecordReminder: decideRecordReminder,
  PauseReminders: decidePauseReminders,
  ResumeReminders: decideResumeReminders,
  InvoiceStage: decideInvoiceStage,
  ProposeVariation: decideProposeVariation,
  SendVariation: decideSendVariation,
  RecordUndeliveredVariationSend: decideRecordUndeliveredVariationSend,
  AcceptVariationByClient: decideAcceptVariationByClient,
  DeclineVariationByClient: decideDeclineVariationByClient,
  ApproveVariation: decideApproveVariation,
  DeclineVariation: decideDeclineVariation,
  WithdrawVariation: decideWithdrawVariation,
  WithdrawStage: decideWithdrawStage,
  CreditStage: decideCreditStage,
  IssueCreditNote: decideIssueCreditNote,
  RecordCreditNoteRefund: decideRecordCreditNoteRefund,
  RecordCreditNoteEmail: decideRecordCreditNoteEmail,
  SetPaymentClaim: decideSetPaymentClaim,
  ClearPaymentClaim: decideClearPaymentClaim,
  RecordPaymentSchedule: decideRecordPaymentSchedule,
  ReleaseRetention: decideReleaseRetention,
};

export function decideDocument(command: DocumentCommand, state: DocumentState): DocumentEvent[] {
  if (!Object.hasOwn(decisions, command.type)) return assertNever(command as never);
  const decide = decisions[command.type] as (command: DocumentCommand, state: DocumentState) => DocumentEvent[];
  return decide(command, state);
}

/** A draft nobody has seen or paid: deleting it is safe. Anything else is voided, keeping its number. */
export const isDiscardableDraft = (d: DocumentView): boolean => d.status === 'draft' && d.sends.length === 0 && d.payments.length === 0 && d.sync === null;

/** DELETE on a document: drafts go, issued documents are voided (the number is never reused). */
export const discardCommand = (d: DocumentView, reason = 'Deleted by user'): DocumentCommand =>
  isDiscardableDraft(d) ? { type: 'DeleteDraft' } : { type: 'VoidDocument', data: { reason } };

/** The invoice a quote becomes: its lines, client, notes, job title and site; a new number and today's date. */
export function invoiceDraftFromQuote(quote: DocumentView, input: { invoiceId: string; number: number; reference: string; issueDate: LocalDate; paymentTerms?: PaymentTerms }): DraftInput {
  const paymentTerms = input.paymentTerms ?? quote.paymentTerms;
  return {
    documentId: input.invoiceId,
    type: 'invoice',
    number: input.number,
    reference: input.reference,
    client: quote.client,
    lines: quote.lines,
    gstRounding: quote.gstRounding,
    // The quote's registration, as its prices were agreed; a change since is caught before it goes out.
    ...(quote.gstRegistered !== null ? { gstRegistered: quote.gstRegistered } : {}),
    issueDate: input.issueDate,
    dueDate: dueDateFor(input.issueDate, paymentTerms),
    paymentTerms,
    validUntil: null,
    notes: quote.notes,
    jobTitle: quote.jobTitle,
    siteAddress: quote.siteAddress,
    convertedFrom: quote.id,
  };
}

export const documentDecider = { decide: decideDocument, evolve: evolveDocument, initialState: (): DocumentState => initialDocumentState } satisfies Decider<DocumentCommand, EvolvableDocumentEvent, DocumentState>;

