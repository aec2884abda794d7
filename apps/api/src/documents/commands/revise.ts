// Revising a draft: a field left out keeps its value. Moving the issue date or the payment terms
// re-derives the dates that follow from them unless they are given too.
import type { DocumentDetail, reviseDocumentInput } from '@tradie/contracts';
import type { DocumentCommand, DocumentView } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { loadBusinessSettings } from '../../settings/repository.ts';
import { clientForDocument } from '../repository.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, type DocumentWork, runDocumentCommand } from './run.ts';
import { Invalid, NotFound } from '../../errors.ts';

export type ReviseDocument = z.output<typeof reviseDocumentInput>;

export function reviseDocument(ports: CommandPorts, actor: Actor, id: string, input: ReviseDocument): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, {}, async (w) => {
    const revised = await w.decide(id, (d) => revision(w, actor, d, input), { expectedVersion: input.version });
    return detailOf(revised.view, revised.version, w.today());
  });
}

/** The revision the input asks of draft `d`, with the client looked up again when named. */
async function revision(w: DocumentWork, actor: Actor, d: DocumentView, input: ReviseDocument): Promise<DocumentCommand> {
  if (input.type && input.type !== d.type) {
    throw new Invalid(d.type === 'quote' ? "A quote can't become an invoice by editing it. Convert it to an invoice instead." : "An invoice can't become a quote.");
  }
  let client = d.client;
  let terms = input.payment_terms ?? d.paymentTerms;
  if (input.client_id === null || input.client_id === '') client = null;
  else if (input.client_id !== undefined) {
    // The same client again picks up their current details; a client removed since keeps the snapshot.
    const found = await clientForDocument(w.tx, actor.accountId, input.client_id).catch((e: unknown) => {
      if (e instanceof NotFound && input.client_id === d.client?.id) return null;
      throw e;
    });
    if (found) {
      client = found.snapshot;
      if (input.client_id !== d.client?.id) terms = input.payment_terms ?? found.paymentTerms;
    }
  }
  const datesMoved = input.issue_date !== undefined || terms !== d.paymentTerms;
  // A draft saved again takes the business's GST registration as it is now.
  const { gst_registered: gstRegistered } = await loadBusinessSettings(w.tx, actor.accountId);
  return {
    type: 'ReviseDocument',
    data: {
      client,
      lines: input.line_items,
      issueDate: input.issue_date ?? d.issueDate,
      dueDate: input.due_date ?? (datesMoved ? null : d.dueDate),
      paymentTerms: terms,
      validUntil: input.valid_until ?? (input.issue_date !== undefined ? null : d.validUntil),
      notes: input.notes ?? d.notes,
      jobTitle: input.job_title ?? d.jobTitle,
      siteAddress: input.site_address ?? d.siteAddress,
      deposit: input.deposit === undefined ? d.deposit : input.deposit,
      gstRegistered,
    },
  };
}
