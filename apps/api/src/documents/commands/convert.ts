// Turning a quote into an invoice: the quote is marked converted and a new invoice drafted from
// it, numbered on the invoice sequence, in one transaction.
import type { DocumentDetail } from '@tradie/contracts';
import { invoiceDraftFromQuote } from '@tradie/domain';
import type { Actor } from '../../commands.ts';
import { startAsClaim } from '../../paymentClaims/commands.ts';
import { emptyDocument, reserveReference } from '../repository.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';

/** Answers the new invoice's detail. */
export function convertQuote(ports: CommandPorts, actor: Actor, quoteId: string): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201 }, async (w) => {
    // The number's lock comes before any append (see reserveReference).
    const numbering = await reserveReference(w.tx, actor.accountId, 'invoice');
    const quote = await w.load(quoteId);
    const invoiceId = ports.ids.uuid();
    const meta = w.meta();
    await w.decide(quote, { type: 'ConvertQuote', data: { invoiceId } }, { meta });
    const allocated = await numbering.allocate(invoiceId);
    const draft = invoiceDraftFromQuote(quote.state, { invoiceId, number: allocated.number, reference: allocated.reference, issueDate: w.today() });
    const drafted = await w.decide(emptyDocument(invoiceId), { type: 'DraftDocument', data: draft }, { meta });
    await allocated.record(meta);
    const invoice = await startAsClaim(w, actor.accountId, drafted);
    return detailOf(invoice.view, invoice.version, w.today());
  });
}
