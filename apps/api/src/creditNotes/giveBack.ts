// A credit note on a stage invoice gives its share back to the quote it was invoiced from. One
// function for the tradie's own credit notes (commands.ts) and those made in Xero (the Xero pull).
import type { CreditNote, DocumentView } from '@tradie/domain';
import { type DocumentWork, stageQuoteOf } from '../documents/commands/work.ts';

/**
 * A credit note on a stage invoice gives what it credits back to the quote (CreditStage, in the
 * same transaction): Quoted / Invoiced / Remaining and the next stages are net of it. A quote
 * deleted since is left alone. A credit note made in Xero and brought here gives its share back
 * through this too (integrations/xero/sync.ts).
 */
export async function giveBackToQuote(w: DocumentWork, invoice: DocumentView, note: CreditNote): Promise<void> {
  const quote = await stageQuoteOf(w, invoice);
  if (!quote) return;
  await w.decide(quote, {
    type: 'CreditStage',
    data: { invoiceId: invoice.id, creditNoteId: note.creditNoteId, creditNoteReference: note.reference, total: note.total, invoiceLines: invoice.lines, creditedLines: note.lines },
  });
}
