// A card refund (PaymentRefunded): the balance goes back up, the payment stays, and on the
// payments basis the refund is a negative payment in the period of its own date, with its share
// of GST — the figures below are worked by hand.
import { describe, expect, it } from 'vitest';
import { checkRange, gstReport } from './gstReport.ts';
import { reportRowsFromEvents, type LoggedEvent } from './replay.ts';
import { documentDecider, documentFigures, foldDocument, paymentStatus, type DocumentView } from '../documents/document.ts';
import type { DocumentEvent } from '../documents/events.ts';
import { linesSchema } from '../documents/lines.ts';
import { DomainError } from '../errors.ts';

const drafted: DocumentEvent = documentDecider.decide({ type: 'DraftDocument', data: {
  documentId: 'a', type: 'invoice', number: 1, reference: 'INV-0001', client: null,
  // $200 excl GST → $230.00 with $30.00 GST.
  lines: linesSchema.parse([{ description: 'Heat pump service', qty: 2, unit_price: 100 }]), gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days',
} }, { status: 'none' })[0]!;
const paid: DocumentEvent = { type: 'PaymentRecorded', data: { documentId: 'a', paymentId: 'p1', amount: '230.00', date: '2026-05-05', method: 'card', reference: 'Stripe pi_1' } };
const refund = (refundId: string, amount: string, date: string): DocumentEvent => ({ type: 'PaymentRefunded', data: { documentId: 'a', paymentId: 'p1', refundId, amount, date } });
const log = (...events: DocumentEvent[]): LoggedEvent[] => events.map((e) => ({ stream: `document-${e.data.documentId}`, type: e.type, version: 1, data: e.data }));
const view = (...events: DocumentEvent[]): DocumentView => foldDocument(events) as DocumentView;

describe('PaymentRefunded', () => {
  it('puts the balance back up by what was refunded; the payment stays on the invoice', () => {
    const d = view(drafted, paid, refund('re_1', '69.00', '2026-06-10'));
    const f = documentFigures(d);
    expect(f.paidCents).toBe(16100n); // 230.00 − 69.00
    expect(f.balanceCents).toBe(6900n);
    expect(paymentStatus(d)).toBe('partial');
    expect(d.payments).toHaveLength(1);
    expect(d.refunds).toEqual([{ paymentId: 'p1', refundId: 're_1', amount: '69.00', date: '2026-06-10', recordedAt: null }]);
  });

  it('is decided once per refund id and never more than is left of the payment', () => {
    const d = view(drafted, paid);
    expect(documentDecider.decide({ type: 'RecordRefund', data: { paymentId: 'p1', refundId: 're_1', amount: '69', date: '2026-06-10' } }, d)).toEqual([refund('re_1', '69.00', '2026-06-10')]);
    const after = view(drafted, paid, refund('re_1', '69.00', '2026-06-10'));
    const refused = (data: { paymentId: string; refundId: string; amount: string; date: string }) => {
      try {
        documentDecider.decide({ type: 'RecordRefund', data }, after);
      } catch (e) {
        return e instanceof DomainError ? [e.code, e.message] : e;
      }
      return 'decided';
    };
    expect(refused({ paymentId: 'p1', refundId: 're_1', amount: '1', date: '2026-06-10' })).toEqual(['CONFLICT', 'This refund is already recorded']);
    expect(refused({ paymentId: 'p1', refundId: 're_2', amount: '161.01', date: '2026-06-10' })).toEqual(['VALIDATION', 'This refund is more than the $161.00 left of the payment']);
    expect(refused({ paymentId: 'p9', refundId: 're_2', amount: '1', date: '2026-06-10' })).toEqual(['NOT_FOUND', 'Payment not found']);
    expect(refused({ paymentId: 'p1', refundId: 're_2', amount: '161.00', date: '2026-06-10' })).toBe('decided');
    // A refunded payment stays: it cannot be removed by hand.
    expect(() => documentDecider.decide({ type: 'RemovePayment', data: { paymentId: 'p1' } }, after)).toThrow('This payment was refunded');
  });

  it('counts on the payments basis as a negative payment in the period of its date; earlier periods do not change', () => {
    const rows = reportRowsFromEvents(log(drafted, paid, refund('re_1', '69.00', '2026-06-10')));
    // By hand: $230.00 received on 5 May carries all $30.00 of GST. $69.00 refunded on 10 June
    // carries 69 × 30/230 = $9.00 of GST back out; sales in June are −$69.00.
    expect(rows.payments.map((p) => [p.kind, p.date, p.amountCents, p.gstCents])).toEqual([
      ['payment', '2026-05-05', 23000n, 3000n],
      ['refund', '2026-06-10', -6900n, -900n],
    ]);
    const may = gstReport(rows, checkRange('2026-05-01', '2026-05-31'), 'payments');
    expect(may).toMatchObject({ total_sales: 230, total_gst_collected: 30, invoice_count: 1, corrections: { count: 0, sales: 0, gst: 0 } });
    const june = gstReport(rows, checkRange('2026-06-01', '2026-06-30'), 'payments');
    expect(june).toMatchObject({ total_sales: -69, total_gst_collected: -9, invoice_count: 0, corrections: { count: 1, sales: -69, gst: -9 } });
    expect(june.breakdown_by_month).toEqual([{ month: '2026-06', sales: -69, gst: -9, count: 0 }]);
    const both = gstReport(rows, checkRange('2026-05-01', '2026-06-30'), 'payments');
    expect(both).toMatchObject({ total_sales: 161, total_gst_collected: 21 });
    // The invoice basis keeps the sale where it was supplied: a refund is not a void.
    expect(gstReport(rows, checkRange('2026-05-01', '2026-06-30'))).toMatchObject({ total_sales: 230, total_gst_collected: 30 });
  });
});
