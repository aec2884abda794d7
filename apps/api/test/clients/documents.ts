// Quotes and invoices for the client tests, written through the domain's document decider and
// the same command runner the API uses (the documents API is built separately).
import type { ClientRecord } from '@tradie/contracts';
import {
  type ClientSnapshot, type DocumentCommand, type DocumentType, type Line, type LocalDate, type PaymentTerms,
  documentDecider, documentStreamId, formatReference,
} from '@tradie/domain';
import { decideAndAppend, eventMeta, execute, loadStream } from '../../src/commands.ts';
import type { TestApp } from '../support/testApp.ts';

export const snapshotOf = (c: ClientRecord): ClientSnapshot => ({
  id: c.id, name: c.name, email: c.email, phone: c.phone, address: c.address, is_business: c.is_business,
  business_name: c.business_name, company_number: c.company_number, gst_number: c.gst_number,
});

/** One GST-exclusive line at 15%. */
export const line = (qty: string, unitPrice: string, description = 'Labour'): Line => ({
  description, qty, unit_price: unitPrice, tax_included: false, tax_rate: '0.15',
});

let number = 0;

export async function draft(
  t: TestApp,
  accountId: string,
  d: { type: DocumentType; client: ClientSnapshot | null; lines: Line[]; issueDate: LocalDate; paymentTerms?: PaymentTerms },
): Promise<string> {
  const id = t.deps.ids.uuid();
  number += 1;
  await apply(t, accountId, id, {
    type: 'DraftDocument',
    data: {
      documentId: id, type: d.type, number, reference: formatReference(d.type, number), client: d.client, lines: d.lines,
      gstRounding: 'total', issueDate: d.issueDate, paymentTerms: d.paymentTerms ?? '7 days',
    },
  });
  return id;
}

export async function apply(t: TestApp, accountId: string, documentId: string, command: DocumentCommand): Promise<void> {
  await execute(t.deps, async (tx) => {
    const loaded = await loadStream(tx, documentStreamId(documentId), documentDecider);
    await decideAndAppend(tx, loaded, documentDecider, command, eventMeta(t.deps, { accountId, userId: accountId }));
  });
}
