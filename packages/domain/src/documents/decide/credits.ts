// Credit notes on an invoice: issued, refunded, emailed.
import { isLocalDate } from '../../dates/dates.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { centsToString } from '../../money/money.ts';
import { accountingProviderName } from '../accountingProviders.ts';
import { checkCreditRefund, creditFigures } from '../creditNotes.ts';
import type { DocumentEvent } from '../events.ts';
import { documentFigures } from '../figures.ts';
import { storedLine } from '../lines.ts';
import type { DocumentView, DocumentState } from '../view.ts';
import { requireExisting, requireInvoice, sameSource, type CommandOf } from './guards.ts';

/**
 * An invoice the business credits: issued (a draft is still changed, not credited), not void. It
 * is never edited: the credit note is a document of its own, recorded on the invoice's stream.
 */
export function requireCreditable(state: DocumentState): DocumentView {
  const d = requireExisting(state);
  if (d.type !== 'invoice') throw conflict('Only an invoice can be credited');
  if (d.status === 'void') throw conflict("This invoice is void, so it can't be credited");
  if (d.status === 'draft' || d.issuedOn === null) throw conflict("This invoice is a draft: change it instead of crediting it");
  return d;
}

export function decideIssueCreditNote(command: CommandOf<'IssueCreditNote'>, state: DocumentState): DocumentEvent[] {
  const d = requireCreditable(state);
  const c = command.data;
  if (!isLocalDate(c.date)) throw invalid('The credit note date is not a valid date');
  if (c.reason.trim() === '') throw invalid('Say why the invoice is credited');
  if (d.creditNotes.some((n) => n.creditNoteId === c.creditNoteId)) throw conflict('This credit note is already issued');
  if (c.source && d.creditNotes.some((n) => sameSource(n.source, c.source))) throw conflict(`This credit note is already recorded from ${accountingProviderName(c.source.provider)}`);
  const f = creditFigures(d, d.creditNotes, c.credit);
  return [
    {
      type: 'CreditNoteIssued',
      data: {
        documentId: d.id,
        creditNoteId: c.creditNoteId,
        number: c.number,
        reference: c.reference,
        invoiceReference: d.reference,
        date: c.date,
        reason: c.reason.trim(),
        // An invoice made while the business was not registered for GST credits no GST and names no GST number.
        supplier: d.gstRegistered === false ? { ...c.supplier, gstNumber: '' } : c.supplier,
        lines: f.lines.map((l) => ({ lineIndex: l.lineIndex, line: storedLine(l.line) })),
        amount: f.amount,
        subtotal: centsToString(f.subtotalCents),
        gst: centsToString(f.gstCents),
        total: centsToString(f.totalCents),
        zeroRated: centsToString(f.zeroRatedCents),
        ...(c.source ? { source: { provider: c.source.provider, externalId: c.source.externalId, externalNumber: c.source.externalNumber } } : {}),
      },
    },
  ];
}

/** Money paid back against a credit note: at most what the invoice owes back (its balance below zero). */
export function decideRecordCreditNoteRefund(command: CommandOf<'RecordCreditNoteRefund'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'take refunds');
  const c = command.data;
  const note = d.creditNotes.find((n) => n.creditNoteId === c.creditNoteId);
  if (!note) throw notFound('Credit note not found');
  if (note.refunds.some((r) => r.refundId === c.refundId)) throw conflict('This refund is already recorded');
  const { balanceCents } = documentFigures(d);
  const cents = checkCreditRefund(note, c.amount, c.date, -balanceCents);
  return [{ type: 'CreditNoteRefunded', data: { documentId: d.id, creditNoteId: c.creditNoteId, refundId: c.refundId, amount: centsToString(cents), date: c.date, method: c.method, reference: c.reference } }];
}

/** What happened to an email of a credit note: a credit note of this invoice, sent to someone. */
export function decideRecordCreditNoteEmail(command: CommandOf<'RecordCreditNoteEmail'>, state: DocumentState): DocumentEvent[] {
  const d = requireExisting(state);
  requireInvoice(d, 'have credit notes');
  const c = command.data;
  if (!d.creditNotes.some((n) => n.creditNoteId === c.creditNoteId)) throw notFound('Credit note not found');
  if (c.to.length + c.cc.length + c.bcc.length === 0) throw invalid('Say who the credit note goes to');
  return [{ type: 'CreditNoteEmailed', data: { documentId: d.id, ...c, detail: c.outcome === 'delivered' ? null : c.detail } }];
}
