// Payments made in the accounting system the invoice is synced to, come back from it: recorded
// once per record there, removed only when they are deleted there.
import { describe, expect, it } from 'vitest';
import { type DocumentCommand, documentDecider, foldDocument } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';

const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 100 }]); // 200.00 + GST 30.00 = 230.00
const drafted = documentDecider.decide(
  { type: 'DraftDocument', data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
  { status: 'none' },
)[0]!;
const issued: DocumentEvent = { type: 'DocumentIssued', data: { documentId: 'd1' } };
const xero = (externalId: string) => ({ provider: 'xero', externalId });
const pay = (paymentId: string, amount: string, source?: { provider: string; externalId: string }): DocumentCommand => ({
  type: 'RecordPayment',
  data: { paymentId, amount, date: '2026-05-10', method: 'bank_transfer', reference: 'ANZ', source },
});
const decide = (events: DocumentEvent[], c: DocumentCommand): DocumentEvent[] => documentDecider.decide(c, foldDocument(events));
const after = (events: DocumentEvent[], c: DocumentCommand): DocumentEvent[] => [...events, ...decide(events, c)];

describe('a payment from the accounting system', () => {
  it('is recorded with its source, which the invoice keeps; one recorded here has none', () => {
    const [e] = decide([drafted, issued], pay('xero-p1', '100.00', xero('p1')));
    expect(e).toEqual({ type: 'PaymentRecorded', data: { documentId: 'd1', paymentId: 'xero-p1', amount: '100.00', date: '2026-05-10', method: 'bank_transfer', reference: 'ANZ', source: xero('p1') } });
    expect(decide([drafted, issued], pay('here', '100.00'))[0]!.data).not.toHaveProperty('source');
  });

  it('is recorded once per record there, whatever id it is given here', () => {
    const events = after([drafted, issued], pay('xero-p1', '100.00', xero('p1')));
    expect(() => decide(events, pay('another-id', '100.00', xero('p1')))).toThrow('This payment is already recorded from Xero');
    expect(decide(events, pay('xero-p2', '100.00', xero('p2')))).toHaveLength(1);
  });

  it('is removed only by its removal there: the tradie is told to delete it in Xero', () => {
    const events = after(after([drafted, issued], pay('xero-p1', '100.00', xero('p1'))), pay('here', '50.00'));
    expect(() => decide(events, { type: 'RemovePayment', data: { paymentId: 'xero-p1' } })).toThrow('This payment was recorded in Xero. Delete it in Xero and it goes from here too.');
    expect(() => decide(events, { type: 'RemovePayment', data: { paymentId: 'xero-p1', source: xero('p9') } })).toThrow('This payment was not recorded from Xero');
    expect(() => decide(events, { type: 'RemovePayment', data: { paymentId: 'here', source: xero('p1') } })).toThrow('This payment was not recorded from Xero');
    expect(decide(events, { type: 'RemovePayment', data: { paymentId: 'xero-p1', source: xero('p1') } })).toEqual([
      { type: 'PaymentRemoved', data: { documentId: 'd1', paymentId: 'xero-p1', source: xero('p1') } },
    ]);
    expect(decide(events, { type: 'RemovePayment', data: { paymentId: 'here' } })).toEqual([{ type: 'PaymentRemoved', data: { documentId: 'd1', paymentId: 'here' } }]);
  });
});
