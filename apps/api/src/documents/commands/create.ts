// Creating a quote or invoice: numbered on its account's sequence (QTE-/INV-), with the client as
// the client book has them now and the business's GST rounding, dated today in NZ unless given.
import type { createDocumentInput, DocumentDetail } from '@tradie/contracts';
import { DEFAULT_PAYMENT_TERMS } from '@tradie/domain';
import type { z } from 'zod';
import type { Actor } from '../../commands.ts';
import { loadBusinessSettings } from '../../settings/repository.ts';
import { clientForDocument, emptyDocument, reserveReference } from '../repository.ts';
import { detailOf } from '../view.ts';
import { type Answer, type CommandPorts, runDocumentCommand } from './run.ts';

export type CreateDocument = z.output<typeof createDocumentInput>;

export function createDocument(ports: CommandPorts, actor: Actor, input: CreateDocument, key: string | undefined): Promise<Answer<DocumentDetail>> {
  return runDocumentCommand(ports, actor, { status: 201, once: { scope: 'documents:create', key, request: input } }, async (w) => {
    // The number's lock comes before any append (see reserveReference).
    const numbering = await reserveReference(w.tx, actor.accountId, input.type);
    const client = input.client_id ? await clientForDocument(w.tx, actor.accountId, input.client_id) : null;
    const settings = await loadBusinessSettings(w.tx, actor.accountId);
    const id = ports.ids.uuid();
    const allocated = await numbering.allocate(id);
    const meta = w.meta();
    const drafted = await w.decide(emptyDocument(id), {
      type: 'DraftDocument',
      data: {
        documentId: id,
        type: input.type,
        number: allocated.number,
        reference: allocated.reference,
        client: client?.snapshot ?? null,
        lines: input.line_items,
        gstRounding: settings.gst_rounding === 'line' ? 'line' : 'total',
        issueDate: input.issue_date ?? w.today(),
        dueDate: input.due_date ?? null,
        paymentTerms: input.payment_terms ?? client?.paymentTerms ?? DEFAULT_PAYMENT_TERMS,
        validUntil: input.valid_until ?? null,
        notes: input.notes ?? '',
      },
    }, { meta });
    await allocated.record(meta);
    return detailOf(drafted.view, drafted.version, w.today());
  });
}
