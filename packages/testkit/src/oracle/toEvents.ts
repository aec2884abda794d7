// An oracle invoice history as the product's event log (what the API would have appended), for
// comparing the domain's in-memory reports with the oracle. Meta times are midnight UTC of each NZ
// day, which is midday in Auckland: the same calendar day.
import type { LoggedEvent } from '@tradie/domain';
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
  return events;
}
