// An oracle invoice history as the product's event log (what the API would have appended), for
// comparing the domain's in-memory reports with the oracle. Meta times are midnight UTC of each NZ
// day, which is midday in Auckland: the same calendar day. Credit notes and refunds are decided by
// the product's own decider on the invoice as it stands (their figures are the product's), so the
// reports built from them are compared with the oracle's own figures for them.
import { type DocumentCommand, type DocumentEvent, type LoggedEvent, documentDecider, foldDocument } from '@tradie/domain';
import type { OracleInvoice, OracleLine } from './oracle.ts';

export const toDomainLine = (l: OracleLine, i: number) => ({
  description: `Line ${i + 1}`,
  qty: l.qty,
  unit_price: l.unitPrice,
  tax_included: l.inclusive,
  tax_rate: l.rate,
});

const atNoonNz = (date: string): string => `${date}T00:00:00.000Z`;

export function oracleInvoiceEvents(inv: OracleInvoice, accountId = 'acct-oracle', number = 1): LoggedEvent[] {
  const stream = `document-${inv.id}`;
  const meta = (date: string) => ({ accountId, at: atNoonNz(date) });
  const client = inv.client === '' ? null : { id: null, name: inv.client, email: '', phone: '', address: '', is_business: 'false', business_name: '', company_number: '', gst_number: '' };
  const events: LoggedEvent[] = [
    {
      stream,
      type: 'DocumentDrafted',
      version: 1,
      data: {
        documentId: inv.id, type: 'invoice', number, reference: `INV-${String(number).padStart(4, '0')}`, client, lines: inv.lines.map(toDomainLine),
        gstRounding: inv.rounding, issueDate: inv.issueDate, dueDate: inv.issueDate, paymentTerms: 'Due on receipt', validUntil: null, notes: '', convertedFrom: null,
      },
      meta: meta(inv.issueDate),
    },
  ];
  if (inv.issued) events.push({ stream, type: 'DocumentIssued', version: 1, data: { documentId: inv.id }, meta: meta(inv.issuedOn ?? inv.issueDate) });
  for (const s of inv.steps) {
    if (s.kind === 'pay') {
      const amount = `${s.cents / 100n}.${String(s.cents % 100n).padStart(2, '0')}`;
      events.push({ stream, type: 'PaymentRecorded', version: 1, data: { documentId: inv.id, paymentId: s.id, amount, date: s.date, method: 'bank_transfer', reference: '' }, meta: meta(s.date) });
    } else {
      events.push({ stream, type: 'PaymentRemoved', version: 1, data: { documentId: inv.id, paymentId: s.id }, meta: meta(s.date) });
    }
  }
  if (inv.voidDate !== null) events.push({ stream, type: 'DocumentVoided', version: 1, data: { documentId: inv.id, reason: 'Raised in error' }, meta: meta(inv.voidDate) });
  const decide = (command: DocumentCommand, date: string): void => {
    const state = foldDocument(events.map((e) => ({ type: e.type, data: e.data, meta: { at: e.meta?.at } }) as DocumentEvent & { meta: { at?: string } }));
    for (const e of documentDecider.decide(command, state)) events.push({ stream, type: e.type, version: 1, data: e.data, meta: meta(date) });
  };
  (inv.credits ?? []).forEach((c, k) => {
    const amount = `${c.cents / 100n}.${String(c.cents % 100n).padStart(2, '0')}`;
    decide({ type: 'IssueCreditNote', data: { creditNoteId: c.id, number: number * 10 + k, reference: `CN-${number}-${k}`, date: c.date, reason: 'Oracle credit', supplier: { name: 'Oracle Ltd', gstNumber: '' }, credit: { kind: 'amount', amount } } }, c.date);
    c.refunds.forEach((r, j) => {
      const back = `${r.cents / 100n}.${String(r.cents % 100n).padStart(2, '0')}`;
      decide({ type: 'RecordCreditNoteRefund', data: { creditNoteId: c.id, refundId: `${c.id}-r${j}`, amount: back, date: r.date, method: 'bank_transfer', reference: '' } }, r.date);
    });
  });
  return events;
}
