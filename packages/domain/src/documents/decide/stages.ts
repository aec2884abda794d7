// Progress stages and variations on an accepted quote: invoiced, proposed, sent, answered, withdrawn, credited.
import { conflict, invalid, notFound } from '../../errors.ts';
import { linesAsRegistered } from '../../gst/registration.ts';
import { toCents } from '../../money/money.ts';
import type { DocumentEvent } from '../events.ts';
import { LINE_LIMITS } from '../lineValues.ts';
import { TAX_RATE_MESSAGE, isNzGstRate, storedLine } from '../lines.ts';
import { type StageRequest, allocateStageOn, stageCreditLines, stageCreditWeights, stageLedger, stageLinesOf } from '../stages.ts';
import { type Variation, type VariationStatus, isAgreed, quoteLineCount, quoteStageBasis, variationName, variationTotals } from '../variations.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, checkTotal, checkCosts, type CommandOf } from './guards.ts';

/** Stages and variations are for a quote the client accepted (by hand or through its link). */
export function requireAcceptedQuote(state: DocumentState, what: string): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'quote') throw conflict(`Only an accepted quote can ${what}`);
  if (d.status !== 'accepted') throw conflict(`This quote is ${d.status === 'converted' ? 'converted to an invoice already' : d.status}: only an accepted quote can ${what}. Mark it accepted first.`);
  return d;
}

export function decideInvoiceStage(command: CommandOf<'InvoiceStage'>, state: DocumentState): DocumentEvent[] {
  const d = requireAcceptedQuote(state, 'be invoiced in stages');
  const c = command.data;
  const request: StageRequest = 'variationId' in c.request ? variationStageRequest(d, c.request.variationId) : c.request;
  const allocation = allocateStageOn(quoteStageBasis(d), d.stages, request, d.stageCredits);
  return [{ type: 'StageInvoiced', data: { documentId: d.id, invoiceId: c.invoiceId, reference: c.reference, kind: request.kind, lines: stageLinesOf(allocation) } }];
}

/** What is left of each line of an approved variation; refused while the client has not approved it. */
export function variationStageRequest(d: DocumentView, variationId: string): StageRequest {
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

export function requireVariation(d: DocumentView, variationId: string): Variation {
  const v = d.variations.find((x) => x.variationId === variationId);
  if (!v) throw notFound('Variation not found');
  return v;
}

/** A variation the client has not answered yet, on a quote that is still accepted. */
export function requireAwaitingVariation(state: DocumentState, variationId: string, what: string): { d: DocumentView; v: Variation } {
  const d = requireAcceptedQuote(state, what);
  const v = requireVariation(d, variationId);
  if (v.status !== 'awaiting_approval') throw conflict(`${variationName(v)} ${VARIATION_ANSWERED[v.status]}`);
  return { d, v };
}

export const VARIATION_ANSWERED: Record<Exclude<VariationStatus, 'awaiting_approval'>, string> = {
  approved: 'is already approved',
  declined: 'is already declined',
  withdrawn: 'was withdrawn',
};

export function decideProposeVariation(command: CommandOf<'ProposeVariation'>, state: DocumentState): DocumentEvent[] {
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

export function decideSendVariation(command: CommandOf<'SendVariation'>, state: DocumentState): DocumentEvent[] {
  const { variationId, ...send } = command.data;
  const { d } = requireAwaitingVariation(state, variationId, 'have variations sent');
  if (send.to.length === 0) throw invalid('This client has no email address. Add one to the client, then send.');
  return [{ type: 'VariationSent', data: { documentId: d.id, variationId, ...send } }];
}

export function decideRecordUndeliveredVariationSend(command: CommandOf<'RecordUndeliveredVariationSend'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireVariation(d, command.data.variationId);
  return [{ type: 'VariationSendNotDelivered', data: { documentId: d.id, ...command.data } }];
}

/** The client answers a variation through the quote's link that works now. */
export function requireAnswerableVariation(state: DocumentState, variationId: string, linkId: string): { d: DocumentView; v: Variation } {
  const found = requireAwaitingVariation(state, variationId, 'have variations answered');
  if (found.d.clientLink?.linkId !== linkId) throw conflict('This link no longer works');
  return found;
}

export function decideAcceptVariationByClient(command: CommandOf<'AcceptVariationByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const { d } = requireAnswerableVariation(state, c.variationId, c.linkId);
  if (c.signerName.trim() === '') throw invalid('Please type your full name');
  return [{ type: 'VariationAcceptedByClient', data: { documentId: d.id, ...c, signerName: c.signerName.trim() } }];
}

export function decideDeclineVariationByClient(command: CommandOf<'DeclineVariationByClient'>, state: DocumentState): DocumentEvent[] {
  const c = command.data;
  const { d } = requireAnswerableVariation(state, c.variationId, c.linkId);
  return [{ type: 'VariationDeclinedByClient', data: { documentId: d.id, ...c, note: c.note.trim() } }];
}

export function decideApproveVariation(command: CommandOf<'ApproveVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations approved');
  return [{ type: 'VariationApproved', data: { documentId: d.id, variationId: command.data.variationId } }];
}

export function decideDeclineVariation(command: CommandOf<'DeclineVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations declined');
  return [{ type: 'VariationDeclined', data: { documentId: d.id, variationId: command.data.variationId } }];
}

export function decideWithdrawVariation(command: CommandOf<'WithdrawVariation'>, state: DocumentState): DocumentEvent[] {
  const { d } = requireAwaitingVariation(state, command.data.variationId, 'have variations withdrawn');
  return [{ type: 'VariationWithdrawn', data: { documentId: d.id, variationId: command.data.variationId } }];
}

export function decideWithdrawStage(command: CommandOf<'WithdrawStage'>, state: DocumentState): DocumentEvent[] {
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
export function decideCreditStage(command: CommandOf<'CreditStage'>, state: DocumentState): DocumentEvent[] {
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
