// Payments: recorded, marked paid, removed; the balance never goes below zero.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentDecider, documentFigures, paidDate, paymentStatus, type DocumentCommand } from '../document.ts';
import type { DocumentEvent } from '../events.ts';
import { specFor } from '../../../test/specification.ts';
import { linesArb } from '../../../test/arbitraries.ts';
import { decideOrRefuse, drafted, paid, view } from '../../../test/documentFixtures.ts';

const given = specFor(documentDecider);

describe('payments', () => {
  it('partial, then the rest; paid date is the last payment', () => {
    const d = view(drafted(), paid('p1', '100.00', '2026-05-06'), paid('p2', '365.75', '2026-05-20'));
    expect(paymentStatus(d)).toBe('paid');
    expect(paidDate(d)).toBe('2026-05-20');
    expect(paymentStatus(view(drafted(), paid('p1', '100.00')))).toBe('partial');
  });

  it('refuses more than owing, nothing, fractions of a cent, payments on quotes and void invoices', () => {
    given(drafted()).when({ type: 'RecordPayment', data: { paymentId: 'p', amount: '465.76', date: '2026-05-10', method: 'cash', reference: '' } }).thenThrows('VALIDATION', 'This payment is more than the $465.75 still owing');
    given(drafted()).when({ type: 'RecordPayment', data: { paymentId: 'p', amount: '0', date: '2026-05-10', method: 'cash', reference: '' } }).thenThrows('VALIDATION', /more than \$0.00/);
    given(drafted()).when({ type: 'RecordPayment', data: { paymentId: 'p', amount: '1.005', date: '2026-05-10', method: 'cash', reference: '' } }).thenThrows('VALIDATION', /dollars and cents/);
    given(drafted({ type: 'quote' })).when({ type: 'RecordPayment', data: { paymentId: 'p', amount: '1', date: '2026-05-10', method: 'cash', reference: '' } }).thenThrows('CONFLICT', /Convert the quote/);
    given(drafted(), { type: 'DocumentVoided', data: { documentId: 'd1', reason: 'x' } }).when({ type: 'RecordPayment', data: { paymentId: 'p', amount: '1', date: '2026-05-10', method: 'cash', reference: '' } }).thenThrows('CONFLICT', /void/);
  });

  it('mark paid records the outstanding balance; twice is a conflict', () => {
    const mark: DocumentCommand = { type: 'MarkPaid', data: { paymentId: 'p9', date: '2026-05-12', method: 'bank_transfer', reference: '' } };
    given(drafted(), paid('p1', '65.75')).when(mark).then([{ type: 'PaymentRecorded', data: { documentId: 'd1', paymentId: 'p9', amount: '400.00', date: '2026-05-12', method: 'bank_transfer', reference: '' } }]);
    given(drafted(), paid('p1', '465.75')).when(mark).thenThrows('CONFLICT', 'This invoice is already paid');
  });

  it('removing a payment puts the balance back', () => {
    const d = view(drafted(), paid('p1', '100.00'), { type: 'PaymentRemoved', data: { documentId: 'd1', paymentId: 'p1' } });
    expect(documentFigures(d).balanceCents).toBe(46575n);
    given(drafted()).when({ type: 'RemovePayment', data: { paymentId: 'nope' } }).thenThrows('NOT_FOUND');
  });

  it('property: whatever payments are attempted, the balance never goes below zero', () => {
    fc.assert(fc.property(linesArb(8), fc.array(fc.integer({ min: 0, max: 2_000_000 }), { maxLength: 12 }), (ls, attempts) => {
      let events: DocumentEvent[] = [drafted({ lines: ls })];
      attempts.forEach((cents, i) => {
        const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        events = [...events, ...decideOrRefuse({ type: 'RecordPayment', data: { paymentId: `p${i}`, amount, date: '2026-05-10', method: 'cash', reference: '' } }, events)];
        expect(documentFigures(view(...events)).balanceCents >= 0n).toBe(true);
      });
    }));
  });
});
