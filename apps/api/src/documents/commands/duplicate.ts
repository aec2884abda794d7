// Duplicating a quote or invoice: a new draft of the same type, numbered next on its sequence
// (QTE-/INV-), dated today in NZ with the dates that follow from it worked out again. The lines,
// notes, job title, site address and payment terms are copied; the client is taken from the client book as they are now,
// or kept as the source had them when the client has been removed since. Any document can be
// duplicated, a voided one too (that is how a voided invoice is issued again); the source is read,
// never changed.
import type { DocumentDetail } from '@tradie/contracts';
import type { ClientSnapshot, DocumentView } from '@tradie/domain';
import type { StoreTx } from '@tradie/store';
import type { Actor } from '../../commands.ts';
import { clientForDocument } from '../repository.ts';
import { draftNumbered } from './create.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';
import { NotFound } from '../../errors.ts';

/** Answers the new draft's detail (201); a repeat with the same Idempotency-Key replays it. */
export function duplicateDocument(ports: CommandPorts, actor: Actor, sourceId: string, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'documents:duplicate', key, request: { id: sourceId } } }, async (w) => {
    // Reading the source appends nothing, so the number's lock still comes before any append.
    const source = (await w.load(sourceId)).state;
    return draftNumbered(w, ports, actor, source.type, async () => ({
      client: await currentClient(w.tx, actor.accountId, source),
      lines: source.lines,
      issueDate: w.today(),
      // Worked out again from today: the due date from the terms, a quote's valid-until date.
      dueDate: null,
      paymentTerms: source.paymentTerms,
      validUntil: null,
      notes: source.notes,
      jobTitle: source.jobTitle,
      siteAddress: source.siteAddress,
      deposit: source.deposit,
    }));
  });
}

/** The source's client as the client book has them now; the source's snapshot when they were removed since. */
async function currentClient(tx: StoreTx, accountId: string, source: DocumentView): Promise<ClientSnapshot | null> {
  const clientId = source.client?.id;
  if (!source.client || !clientId) return source.client;
  try {
    return (await clientForDocument(tx, accountId, clientId)).snapshot;
  } catch (e) {
    if (e instanceof NotFound) return source.client;
    throw e;
  }
}
