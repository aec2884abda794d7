// Invoicing an accepted quote in stages (deposit, progress, final, an approved variation) and
// proposing a variation. A stage records on the quote what it takes of each line (StageInvoiced,
// decided by the domain's allocation) and drafts the stage invoice, numbered on the invoice
// sequence, in one transaction: a refusal (the quote not accepted, past 100 %, a variation the
// client has not approved, bad input) writes nothing.
import type { DocumentDetail, stageInput, variationInput } from '@tradie/contracts';
import { type PaymentTerms, type StageRequest, type VariationStageRequest, finalInvoiceNote, invoiceDraftFromQuote, quoteLines, stageInvoiceLines } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { startAsClaim } from '../../paymentClaims/commands.ts';
import { emptyDocument, reserveReference } from '../repository.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, type Decided, type DocumentWork, runDocumentCommand } from './run.ts';

export type StageInput = z.output<typeof stageInput>;
export type Variation = z.output<typeof variationInput>;

/** The API's body as the domain's request (the body's shape is checked by its contract). */
export function stageRequestOf(input: StageInput): StageRequest | VariationStageRequest {
  if (input.kind === 'final') return { kind: 'final' };
  if (input.variation_id !== undefined) return { kind: 'progress', variationId: input.variation_id };
  if (input.percent !== undefined) return { kind: input.kind, percent: input.percent };
  if (input.percent_complete !== undefined) return { kind: 'progress', complete: input.percent_complete };
  if (input.amount !== undefined) return { kind: input.kind, amount: input.amount };
  return {
    kind: 'progress',
    lines: (input.lines ?? []).map((l) => ({ lineIndex: l.line_index, ...(l.percent !== undefined ? { percent: l.percent } : {}), ...(l.qty !== undefined ? { qty: l.qty } : {}) })),
  };
}

/** Answers the new stage invoice's detail (201); a repeat with the same Idempotency-Key replays it. */
export function invoiceStage(ports: CommandPorts, actor: Actor, quoteId: string, input: StageInput, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'documents:stage', key, request: { quoteId, ...input } } }, async (w) => {
    const invoice = await invoiceStageIn(w, ports, actor.accountId, quoteId, stageRequestOf(input));
    return detailOf(invoice.view, invoice.version, w.today());
  });
}

/**
 * Inside a document command, before any other append (the invoice number's lock comes first, see
 * reserveReference): records the stage on the quote and drafts its invoice, dated today. A
 * deposit asked for on acceptance is due on receipt (`paymentTerms`); any other stage takes the
 * quote's terms.
 */
export async function invoiceStageIn(w: DocumentWork, ports: Pick<CommandPorts, 'ids'>, accountId: string, quoteId: string, request: StageRequest | VariationStageRequest, options: { paymentTerms?: PaymentTerms } = {}): Promise<Decided> {
  const numbering = await reserveReference(w.tx, accountId, 'invoice');
  const quote = await w.load(quoteId);
  const invoiceId = ports.ids.uuid();
  const allocated = await numbering.allocate(invoiceId);
  const meta = w.meta();
  const decided = await w.decide(quote, { type: 'InvoiceStage', data: { invoiceId, reference: allocated.reference, request } }, { meta });
  const stage = decided.view.stages.at(-1)!;
  const earlier = decided.view.stages.slice(0, -1);
  const draft = invoiceDraftFromQuote(decided.view, { invoiceId, number: allocated.number, reference: allocated.reference, issueDate: w.today(), ...(options.paymentTerms ? { paymentTerms: options.paymentTerms } : {}) });
  const note = stage.kind === 'final' ? finalInvoiceNote(earlier, decided.view.stageCredits) : '';
  const notes = [draft.notes ?? '', note].filter((n) => n !== '').join('\n\n');
  // The quote's lines for stages: the signed lines, then the variations' (named after their variation).
  const drafted = await w.decide(emptyDocument(invoiceId), { type: 'DraftDocument', data: { ...draft, lines: stageInvoiceLines(quoteLines(decided.view).labelled, stage, earlier), notes } }, { meta });
  await allocated.record(meta);
  // A construction client's stage invoice starts as a payment claim (paymentClaims/commands.ts).
  return startAsClaim(w, accountId, drafted);
}

/**
 * Proposes a variation of an accepted quote: extra work as an agreement of its own, awaiting the
 * client's approval (the signed quote and its link stay as they are). Answers the quote's detail.
 */
export function proposeVariation(ports: CommandPorts, actor: Actor, quoteId: string, input: Variation, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'documents:variation', key, request: { quoteId, ...input } } }, async (w) => {
    const decided = await w.decide(quoteId, { type: 'ProposeVariation', data: { variationId: ports.ids.uuid(), lines: input.lines, note: input.note } });
    return detailOf(decided.view, decided.version, w.today());
  });
}
