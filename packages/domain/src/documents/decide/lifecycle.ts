// A document's life: drafted, revised, sent (or not delivered), issued, a quote answered or converted, voided or
// deleted, its PDF recorded.
import { isLocalDate } from '../../dates/dates.ts';
import { dueDateFor, quoteValidUntil } from '../../dates/paymentTerms.ts';
import { conflict, invalid } from '../../errors.ts';
import { linesAsRegistered } from '../../gst/registration.ts';
import { type DocumentCommand, documentNoun } from '../commands.ts';
import type { DocumentEvent } from '../events.ts';
import { checkedDeposit } from '../deposit.ts';
import { jobDetails } from '../jobDetails.ts';
import { storedLine } from '../lines.ts';
import { variationName } from '../variations.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { supersedeLink } from './clientAnswers.ts';
import { requireExisting, requireInvoice, requireNotVoid, checkLinesAndDates, type CommandOf, requireGstReady } from './guards.ts';
import { requireClaimReady } from './paymentClaims.ts';

export function decideDraftDocument(command: CommandOf<'DraftDocument'>, state: DocumentState): DocumentEvent[] {
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
  const deposit = checkedDeposit(c.type, lines, c.gstRounding, c.deposit);
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
        deposit,
        convertedFrom: c.convertedFrom ?? null,
      },
    },
  ];
}

export function decideReviseDocument(command: CommandOf<'ReviseDocument'>, state: DocumentState): DocumentEvent[] {
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
  const deposit = checkedDeposit(d.type, lines, d.gstRounding, c.deposit);
  return [
    {
      type: 'DocumentRevised',
      data: {
        documentId: d.id, client: c.client, lines: lines.map(storedLine), issueDate: c.issueDate, dueDate, paymentTerms: c.paymentTerms, validUntil, notes: c.notes ?? '', ...job, deposit,
        ...(registered !== null ? { gstRegistered: registered } : {}),
      },
    },
    ...supersedeLink(d),
  ];
}

export function decideSendDocument(command: CommandOf<'SendDocument'>, state: DocumentState): DocumentEvent[] {
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

export function decideRecordUndeliveredSend(command: CommandOf<'RecordUndeliveredSend'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  return [{ type: 'DocumentSendNotDelivered', data: { documentId: d.id, ...command.data } }];
}

export function decideMarkIssued(command: CommandOf<'MarkIssued'>, state: DocumentState): DocumentEvent[] {
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
export function requireAnswerableQuote(state: DocumentState, answer: 'accepted' | 'declined'): DocumentView {
  const d = requireExisting(state);
  const otherAnswer = answer === 'accepted' ? 'declined' : 'accepted';
  if (d.type !== 'quote') throw conflict(`Only a quote can be ${answer}`);
  if (d.status === answer) throw conflict(`This quote is already ${answer}`);
  if (d.status !== 'draft' && d.status !== 'sent' && d.status !== otherAnswer) throw conflict(`This quote is ${d.status}, so it can't be ${answer}`);
  return d;
}

export function decideAcceptQuote(_command: CommandOf<'AcceptQuote'>, state: DocumentState): DocumentEvent[] {
  return [{ type: 'QuoteAccepted', data: { documentId: requireAnswerableQuote(state, 'accepted').id } }];
}

export function decideDeclineQuote(_command: CommandOf<'DeclineQuote'>, state: DocumentState): DocumentEvent[] {
  return [{ type: 'QuoteDeclined', data: { documentId: requireAnswerableQuote(state, 'declined').id } }];
}

export function decideConvertQuote(command: CommandOf<'ConvertQuote'>, state: DocumentState): DocumentEvent[] {
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


export function decideVoidDocument(command: CommandOf<'VoidDocument'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (d.status === 'void') throw conflict(`This ${documentNoun(d.type)} is already void`);
  if ((d.creditNotes ?? []).length > 0) throw conflict('This invoice has credit notes, so it stays issued: credit what is left instead of voiding it');
  if (d.status === 'converted') throw conflict('This quote has been converted to an invoice. Void the invoice instead.');
  if (d.payments.length > 0) throw conflict('Remove the payments recorded on this invoice before voiding it');
  return [{ type: 'DocumentVoided', data: { documentId: d.id, reason: command.data.reason } }, ...supersedeLink(d)];
}

export function decideDeleteDraft(_command: CommandOf<'DeleteDraft'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  if (!isDiscardableDraft(d)) throw conflict(`Only drafts can be deleted. Void this ${documentNoun(d.type)} instead.`);
  return [{ type: 'DocumentDeleted', data: { documentId: d.id } }];
}


export function decideRecordPdf(command: CommandOf<'RecordPdf'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  return d.pdfSha256 === command.data.sha256 ? [] : [{ type: 'PdfGenerated', data: { documentId: d.id, sha256: command.data.sha256 } }];
}

/** A draft nobody has seen or paid: deleting it is safe. Anything else is voided, keeping its number. */
export const isDiscardableDraft = (d: DocumentView): boolean => d.status === 'draft' && d.sends.length === 0 && d.payments.length === 0 && d.sync === null;

/** DELETE on a document: drafts go, issued documents are voided (the number is never reused). */
export const discardCommand = (d: DocumentView, reason = 'Deleted by user'): DocumentCommand =>
  isDiscardableDraft(d) ? { type: 'DeleteDraft' } : { type: 'VoidDocument', data: { reason } };
