// What the accounting system says of its copy of an invoice, come back from it: a void or deletion
// there is recorded once, stops reminders and voids nothing here; a credit note raised there is
// recorded once per note there and credits exactly what one issued here for that amount credits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DocumentCommand, documentDecider, foldDocument, remindersStopped } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';

const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 100 }]); // 200.00 + GST 30.00 = 230.00
const drafted = documentDecider.decide(
  { type: 'DraftDocument', data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
  { status: 'none' },
)[0]!;
const issued: DocumentEvent = { type: 'DocumentIssued', data: { documentId: 'd1' } };
const synced: DocumentEvent = { type: 'SyncedToAccounting', data: { documentId: 'd1', provider: 'xero', externalId: 'x-1', externalNumber: 'INV-0001' } };
const decide = (events: DocumentEvent[], c: DocumentCommand): DocumentEvent[] => documentDecider.decide(c, foldDocument(events));
const after = (events: DocumentEvent[], c: DocumentCommand): DocumentEvent[] => [...events, ...decide(events, c)];
const voidThere = (status: 'VOIDED' | 'DELETED'): DocumentCommand => ({ type: 'RecordAccountingVoid', data: { provider: 'xero', status } });
const credit = (creditNoteId: string, amount: string, source?: { provider: string; externalId: string; externalNumber: string }): DocumentCommand => ({
  type: 'IssueCreditNote',
  data: { creditNoteId, number: 1, reference: 'CN-0001', date: '2026-05-10', reason: 'Credited', supplier: { name: 'Kōwhai', gstNumber: '123-456-789' }, credit: { kind: 'amount', amount }, source },
});

describe('the copy voided or deleted in the accounting system', () => {
  it('is recorded once, whichever it says, stops reminders, and leaves the invoice as it was here', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<'VOIDED' | 'DELETED'>('VOIDED', 'DELETED'), { minLength: 1, maxLength: 5 }), (reports) => {
        let events = [drafted, issued, synced];
        for (const r of reports) events = after(events, voidThere(r));
        const s = foldDocument(events);
        expect(events.filter((e) => e.type === 'AccountingVoidReported')).toHaveLength(1);
        if (s.status === 'none') throw new Error('no invoice');
        expect(s.sync?.voidedThere?.status).toBe(reports[0]);
        expect(s.status).toBe('issued');
        expect(remindersStopped(s)).toBe(true);
      }),
    );
  });

  it('is refused for an invoice not synced there, and nothing is recorded once the invoice is void here', () => {
    expect(() => decide([drafted, issued], voidThere('VOIDED'))).toThrow("This invoice isn't synced to that accounting system.");
    const voided = after([drafted, issued, synced], { type: 'VoidDocument', data: { reason: 'Raised in error' } });
    expect(decide(voided, voidThere('VOIDED'))).toEqual([]);
    const s = foldDocument([drafted, issued, synced]);
    if (s.status === 'none') throw new Error('no invoice');
    expect(remindersStopped(s)).toBe(false);
  });
});

describe('a credit note raised in the accounting system', () => {
  it('credits exactly what one issued here for the same amount credits, and is recorded once per note there', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 23_000 }), (cents) => {
        const amount = (cents / 100).toFixed(2);
        const there = decide([drafted, issued, synced], credit('c1', amount, { provider: 'xero', externalId: 'cn-1', externalNumber: 'CN-0007' }))[0];
        const here = decide([drafted, issued, synced], credit('c1', amount))[0];
        if (there?.type !== 'CreditNoteIssued' || here?.type !== 'CreditNoteIssued') throw new Error('no credit note');
        const { source, ...figures } = there.data;
        expect(figures).toEqual(here.data);
        expect(source).toEqual({ provider: 'xero', externalId: 'cn-1', externalNumber: 'CN-0007' });
      }),
    );
    const events = after([drafted, issued, synced], credit('c1', '10.00', { provider: 'xero', externalId: 'cn-1', externalNumber: 'CN-0007' }));
    expect(() => decide(events, credit('c2', '10.00', { provider: 'xero', externalId: 'cn-1', externalNumber: 'CN-0007' }))).toThrow('This credit note is already recorded from Xero');
  });
});
