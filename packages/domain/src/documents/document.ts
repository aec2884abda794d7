// The quote/invoice decider: decide(command, state) → events | DomainError, evolve(state, event)
// → state. Both pure. Statuses are derived from events, never stored by hand.
// The concerns live beside it: view.ts (state), evolve.ts, figures.ts, commands.ts and decide/ (one module per
// concern); this file joins them into the one decide/evolve and is what the package exports.
import type { LocalDate } from '../dates/dates.ts';
import { type PaymentTerms, dueDateFor } from '../dates/paymentTerms.ts';
import type { Decider } from '../decider.ts';
import { assertNever } from '../errors.ts';
import type { DraftInput, DocumentCommand } from './commands.ts';
import { decideRecordAccountingSync, decideRecordAccountingVoid, decideRecordAccountingTotals } from './decide/accounting.ts';
import { decideIssueClientLink, decideWithdrawClientLink, decideAcceptQuoteByClient, decideDeclineQuoteByClient, decideRequestQuoteChanges } from './decide/clientAnswers.ts';
import { decideIssueCreditNote, decideRecordCreditNoteRefund, decideRecordCreditNoteEmail } from './decide/credits.ts';
import type { CommandOf } from './decide/guards.ts';
import { decideDraftDocument, decideReviseDocument, decideSendDocument, decideRecordUndeliveredSend, decideMarkIssued, decideAcceptQuote, decideDeclineQuote, decideConvertQuote, decideVoidDocument, decideDeleteDraft, decideRecordPdf } from './decide/lifecycle.ts';
import { decideSetPaymentClaim, decideClearPaymentClaim, decideRecordPaymentSchedule, decideReleaseRetention } from './decide/paymentClaims.ts';
import { decideRecordPayment, decideMarkPaid, decideRemovePayment, decideRecordRefund } from './decide/payments.ts';
import { decideRecordReminder, decidePauseReminders, decideResumeReminders } from './decide/reminders.ts';
import { decideInvoiceStage, decideProposeVariation, decideSendVariation, decideRecordUndeliveredVariationSend, decideAcceptVariationByClient, decideDeclineVariationByClient, decideApproveVariation, decideDeclineVariation, decideWithdrawVariation, decideWithdrawStage, decideCreditStage } from './decide/stages.ts';
import type { DocumentEvent } from './events.ts';
import { evolveDocument } from './evolve.ts';
import { type DocumentView, type DocumentState, initialDocumentState, type EvolvableDocumentEvent } from './view.ts';

export { type Lifecycle, type Payment, type PaymentLogEntry, type Refund, type SendRecord, type SendOutcome, type SendAttempt, type AccountingLink, type AccountingTotals, type ActiveClientLink, type ClientAcceptance, type ReminderRecord, type ClientDecline, type DocumentView, type DocumentState, initialDocumentState, type EvolvableDocumentEvent } from './view.ts';
export { evolveDocument, foldDocument } from './evolve.ts';
export { type DocumentFigures, moneyMoved, documentFigures, timeOfSupply, type PaymentStatus, accountingExtraData, paymentStatus, paidDate, type DocumentStatus, documentStatus, deriveStatus, STATUS_LABELS } from './figures.ts';
export { type RevisionInput, type DraftInput, type DocumentCommand, type IssueCreditNoteInput, type VariationStageRequest, type ClientAnswer, documentNoun, isTaxInvoice, type DocumentTitle, documentTitleOf } from './commands.ts';
export { sameSource, requireGstReady } from './decide/guards.ts';
export { remindersStopped } from './decide/accounting.ts';
export { isDiscardableDraft, discardCommand } from './decide/lifecycle.ts';
export { QUOTE_ALREADY_ANSWERED, requireOpenQuoteFor } from './decide/clientAnswers.ts';
export { VARIATION_NOTE_MAX } from './decide/stages.ts';
export { claimRetentionCents, amountDueNowCents } from './decide/paymentClaims.ts';

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

