// A document's lifecycle after drafting: issued by hand, a quote accepted or declined, voided, or
// deleted (an unseen draft goes; anything a client may have seen is voided, its number kept).
import type { DocumentDetail, voidDocumentInput } from '@tradie/contracts';
import { discardCommand, type DocumentCommand, type DocumentView } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { gstRegistrationOf, loadBusinessSettings } from '../../settings/repository.ts';
import { detailOf } from '../view.ts';
import { gstNoticeOf } from '../../reports/gstExports.ts';
import { type Answer, type CommandPorts, type CommandRun, type DocumentWork, runDocumentCommand } from './run.ts';
import { stageQuoteOf } from './work.ts';

/**
 * A stage invoice voided or deleted gives its share of the quote back (StageWithdrawn on the
 * quote, in the same transaction): it can be invoiced again. A quote deleted since is left alone.
 */
async function withdrawStage(w: DocumentWork, invoice: DocumentView): Promise<void> {
  const quote = await stageQuoteOf(w, invoice);
  if (!quote) return;
  await w.decide(quote, { type: 'WithdrawStage', data: { invoiceId: invoice.id } });
}

/** A command that needs nothing but the document, answered with its detail. */
function decideOn(ports: CommandPorts, actor: Actor, id: string, command: DocumentCommand, run: CommandRun = {}): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, run, async (w) => {
    const done = await w.decide(id, command);
    return detailOf(done.view, done.version, w.today());
  });
}

/**
 * An invoice handed over on site or printed: issued without the app's email, so it counts in the
 * reports. Like a send, refused while the business's GST registration and the invoice disagree.
 */
export const issueDocument = (ports: CommandPorts, actor: Actor, id: string): Promise<Answer<DocumentDetail>> =>
  runDocumentCommand(ports, actor, {}, async (w) => {
    const gst = gstRegistrationOf(await loadBusinessSettings(w.tx, actor.accountId));
    const done = await w.decide(id, { type: 'MarkIssued', data: { gst } });
    return detailOf(done.view, done.version, w.today(), await gstNoticeOf(w.tx, actor.accountId, done.view));
  });

export const acceptQuote = (ports: CommandPorts, actor: Actor, id: string): Promise<Answer<DocumentDetail>> => decideOn(ports, actor, id, { type: 'AcceptQuote' });

export const declineQuote = (ports: CommandPorts, actor: Actor, id: string): Promise<Answer<DocumentDetail>> => decideOn(ports, actor, id, { type: 'DeclineQuote' });

export type VoidDocument = z.output<typeof voidDocumentInput>;

export const voidDocument = (ports: CommandPorts, actor: Actor, id: string, input: VoidDocument): Promise<Answer<DocumentDetail>> =>
  runDocumentCommand(ports, actor, {}, async (w) => {
    const done = await w.decide(id, { type: 'VoidDocument', data: { reason: input.reason } });
    await withdrawStage(w, done.view);
    return detailOf(done.view, done.version, w.today());
  });

export interface Discarded {
  id: string;
  outcome: 'deleted' | 'voided';
}

/** Deletes an unseen draft, voids anything else (the domain's discardCommand says which). */
export function discardDocument(ports: CommandPorts, actor: Actor, id: string): Promise<Answer<Discarded>> {
  return runDocumentCommand(ports, actor, {}, async (w) => {
    const loaded = await w.load(id);
    const command = discardCommand(loaded.state);
    const done = await w.decide(loaded, command);
    await withdrawStage(w, done.view);
    return { id, outcome: command.type === 'DeleteDraft' ? 'deleted' : 'voided' };
  });
}
