// The whole decider: any sequence of commands keeps its invariants, and its events survive storage.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentFigures, foldDocument, type DocumentCommand } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { parseDomainEvent } from '../events/registry.ts';
import { toCents } from '../money/money.ts';
import { clientSnapshotArb } from '../../test/arbitraries.ts';
import { decideOrRefuse, drafted } from '../../test/documentFixtures.ts';

describe('folding', () => {
  it('property: any sequence of commands keeps the invariants, and the events survive storage', () => {
    const commandArb: fc.Arbitrary<DocumentCommand> = fc.oneof(
      fc.record({ amount: fc.integer({ min: 1, max: 100_000 }) }).map(({ amount }) => ({ type: 'RecordPayment' as const, data: { paymentId: `p${amount}`, amount: (amount / 100).toFixed(2), date: '2026-05-10', method: 'cash' as const, reference: '' } })),
      fc.constant<DocumentCommand>({ type: 'MarkPaid', data: { paymentId: 'pm', date: '2026-05-11', method: 'card', reference: '' } }),
      fc.constant<DocumentCommand>({ type: 'MarkIssued' }),
      fc.constant<DocumentCommand>({ type: 'AcceptQuote' }),
      fc.constant<DocumentCommand>({ type: 'DeclineQuote' }),
      fc.constant<DocumentCommand>({ type: 'ConvertQuote', data: { invoiceId: 'i9' } }),
      fc.constant<DocumentCommand>({ type: 'VoidDocument', data: { reason: 'r' } }),
      fc.constant<DocumentCommand>({ type: 'DeleteDraft' }),
      fc.constant<DocumentCommand>({ type: 'SendDocument', data: { to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } }),
      fc.constant<DocumentCommand>({ type: 'RemovePayment', data: { paymentId: 'pm' } }),
      fc.integer({ min: 1, max: 100_000 }).map((amount): DocumentCommand => ({ type: 'RemovePayment', data: { paymentId: `p${amount}` } })),
    );
    fc.assert(fc.property(fc.constantFrom('quote' as const, 'invoice' as const), clientSnapshotArb, fc.array(commandArb, { maxLength: 15 }), (type, client, commands) => {
      let events: DocumentEvent[] = [drafted({ type, client })];
      for (const c of commands) events = [...events, ...decideOrRefuse(c, events)];
      const state = foldDocument(events);
      // Stored as JSON and read back through the event registry, the events fold to the same state.
      const stored = events.map((e) => parseDomainEvent({ type: e.type, version: 1, data: JSON.parse(JSON.stringify(e.data)) as unknown }) as DocumentEvent);
      expect(foldDocument(stored)).toEqual(state);
      // A fold resumed from a snapshot half way equals the fold of the whole stream.
      const half = Math.floor(events.length / 2);
      expect(foldDocument(events.slice(half), foldDocument(events.slice(0, half)))).toEqual(state);
      if (state.status === 'none' || state.status === 'deleted') return;
      const f = documentFigures(state);
      expect(f.balanceCents >= 0n).toBe(true);
      // What the payment log says was received, less what was removed, is what is paid now.
      const logged = state.paymentLog.reduce((a, p) => a + (p.kind === 'recorded' ? toCents(p.amount) : -toCents(p.amount)), 0n);
      expect(logged).toBe(f.paidCents);
      // An invoice is issued once sent, marked issued or paid against, and never goes back to a draft.
      const issuedBy = events.some((e) => e.type === 'DocumentSent' || e.type === 'DocumentIssued' || e.type === 'PaymentRecorded');
      expect(state.issuedOn !== null).toBe(type === 'invoice' && issuedBy);
      if (state.issuedOn !== null) expect(state.status).not.toBe('draft');
    }));
  });
});
