// Creating a quote or invoice: numbered on its account's sequence (QTE-/INV-), with the client as
// the client book has them now and the business's GST rounding, dated today in NZ unless given.
import type { createDocumentInput, DocumentDetail } from '@tradie/contracts';
import type { DocumentType, RevisionInput } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { loadBusinessSettings, roundingInUse } from '../../settings/repository.ts';
import { startAsClaim } from '../../paymentClaims/commands.ts';
import { defaultPaymentTerms } from '../../setup/repository.ts';
import { clientForDocument, emptyDocument, reserveReference } from '../repository.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, type DocumentWork, runDocumentCommand } from './run.ts';

export type CreateDocument = z.output<typeof createDocumentInput>;

/**
 * A new draft of `type`, numbered next on the account's sequence, with the business's GST rounding
 * and what `content` says it holds; answers its detail. The number's lock comes before any append
 * (see reserveReference), so `content` may read but must not append.
 */
export async function draftNumbered(w: DocumentWork, ports: CommandPorts, actor: Actor, type: DocumentType, content: () => Promise<RevisionInput>): Promise<DocumentDetail> {
  const numbering = await reserveReference(w.tx, actor.accountId, type);
  const fields = await content();
  const settings = await loadBusinessSettings(w.tx, actor.accountId);
  const id = ports.ids.uuid();
  const allocated = await numbering.allocate(id);
  const meta = w.meta();
  const drafted = await w.decide(emptyDocument(id), {
    type: 'DraftDocument',
    data: {
      documentId: id,
      type,
      number: allocated.number,
      reference: allocated.reference,
      // One method per GST period: the one in use today (settings/repository.ts).
      gstRounding: roundingInUse(settings, w.today()),
      // Not registered for GST: the domain saves every line without GST.
      gstRegistered: settings.gst_registered,
      ...fields,
    },
  }, { meta });
  await allocated.record(meta);
  // A construction client's new invoice starts as a payment claim (paymentClaims/commands.ts).
  const made = await startAsClaim(w, actor.accountId, drafted);
  return detailOf(made.view, made.version, w.today());
}

export function createDocument(ports: CommandPorts, actor: Actor, input: CreateDocument, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'documents:create', key, request: input } }, (w) =>
    draftNumbered(w, ports, actor, input.type, async () => {
      const client = input.client_id ? await clientForDocument(w.tx, actor.accountId, input.client_id) : null;
      return {
        client: client?.snapshot ?? null,
        lines: input.line_items,
        issueDate: input.issue_date ?? w.today(),
        dueDate: input.due_date ?? null,
        // Without a client: the business's default terms (set in the first-run set-up).
        paymentTerms: input.payment_terms ?? client?.paymentTerms ?? (await defaultPaymentTerms(w.tx, actor.accountId)),
        validUntil: input.valid_until ?? null,
        notes: input.notes ?? '',
        jobTitle: input.job_title ?? '',
        siteAddress: input.site_address ?? '',
        deposit: input.deposit ?? null,
      };
    }),
  );
}
