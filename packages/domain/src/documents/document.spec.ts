import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  documentDecider, documentFigures, documentStatus, discardCommand, foldDocument, invoiceDraftFromQuote, paidDate, paymentStatus,
  type DocumentCommand, type DocumentView, type DraftInput,
} from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';
import { DomainError } from '../errors.ts';
import { parseDomainEvent } from '../events/registry.ts';
import { toCents } from '../money/money.ts';
import { specFor } from '../../test/specification.ts';
import { clientSnapshotArb, linesArb } from '../../test/arbitraries.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([
  { description: 'Replace hot water cylinder valve', qty: 1, unit_price: 180 },
  { description: 'Labour', qty: 2.5, unit_price: 90 },
]); // 180 + 225 = 405 excl, GST 60.75, total 465.75

const draftInput = (over: Partial<DraftInput> = {}): DraftInput => ({
  documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total',
  issueDate: '2026-05-04', paymentTerms: '7 days', ...over,
});
const drafted = (over: Partial<DraftInput> = {}): DocumentEvent => documentDecider.decide({ type: 'DraftDocument', data: draftInput(over) }, { status: 'none' })[0]!;
const paid = (paymentId: string, amount: string, date = '2026-05-10'): DocumentEvent => ({
  type: 'PaymentRecorded', data: { documentId: 'd1', paymentId, amount, date, method: 'bank_transfer', reference: '' },
});
const view = (...events: DocumentEvent[]): DocumentView => foldDocument(events) as DocumentView;

/** The events a command gives, or none when the domain refuses it (any other error is a bug and fails the test). */
function decideOrRefuse(command: DocumentCommand, events: readonly DocumentEvent[]): DocumentEvent[] {
  try {
    return documentDecider.decide(command, foldDocument(events));
  } catch (e) {
    if (e instanceof DomainError) return [];
    throw e;
  }
}

describe('drafting', () => {
  it('an invoice is due by its payment terms; a quote holds 30 days', () => {
    expect(drafted()).toMatchObject({ type: 'DocumentDrafted', data: { dueDate: '2026-05-11', validUntil: null, notes: '', convertedFrom: null } });
    expect(drafted({ type: 'quote', reference: 'QTE-0001' })).toMatchObject({ data: { validUntil: '2026-06-03' } });
  });

  it('refuses no lines, a due date before the issue date, an impossible date', () => {
    given().when({ type: 'DraftDocument', data: draftInput({ lines: [] }) }).thenThrows('VALIDATION', 'Add at least one line item');
    given().when({ type: 'DraftDocument', data: draftInput({ dueDate: '2026-05-01' }) }).thenThrows('VALIDATION', /due date/);
    given().when({ type: 'DraftDocument', data: draftInput({ issueDate: '2026-02-30' }) }).thenThrows('VALIDATION', /issue date/);
  });

  it('totals: 405 + 15% = 465.75', () => {
    const f = documentFigures(view(drafted()));
    expect([f.subtotalCents, f.gstCents, f.totalCents, f.balanceCents]).toEqual([40500n, 6075n, 46575n, 46575n]);
  });
});

describe('revising', () => {
  const rev: DocumentCommand = { type: 'ReviseDocument', data: { client: null, lines: lines.slice(0, 1), issueDate: '2026-05-04', paymentTerms: '14 days' } };
  it('drafts only', () => {
    expect(given(drafted()).when(rev).events()).toMatchObject([{ type: 'DocumentRevised', data: { dueDate: '2026-05-18' } }]);
    given(drafted(), { type: 'DocumentSent', data: { documentId: 'd1', to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } }).when(rev).thenThrows('CONFLICT', /has been sent, so it can't be changed/);
    given(drafted(), paid('p1', '10.00')).when(rev).thenThrows('CONFLICT', /payments recorded/);
  });
  it('not once it is synced to Xero: the ledger would no longer match', () => {
    const synced: DocumentEvent = { type: 'SyncedToAccounting', data: { documentId: 'd1', provider: 'xero', externalId: 'x', externalNumber: 'INV-0001' } };
    given(drafted(), synced).when(rev).thenThrows('CONFLICT', /synced to Xero, so it can't be changed here/);
  });
});

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

describe('statuses, derived', () => {
  it('invoice: draft → sent → partial → paid; overdue past due and unpaid; void', () => {
    const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } };
    expect(documentStatus(view(drafted()), '2026-05-05')).toBe('draft');
    expect(documentStatus(view(drafted(), sent), '2026-05-05')).toBe('sent');
    expect(documentStatus(view(drafted(), sent), '2026-05-12')).toBe('overdue');
    expect(documentStatus(view(drafted(), sent), '2026-05-11')).toBe('sent'); // due today is not overdue
    expect(documentStatus(view(drafted(), sent, paid('p1', '1.00')), '2026-05-05')).toBe('partial');
    expect(documentStatus(view(drafted(), sent, paid('p1', '465.75')), '2026-09-01')).toBe('paid');
    expect(documentStatus(view(drafted(), { type: 'DocumentVoided', data: { documentId: 'd1', reason: '' } }), '2026-05-05')).toBe('void');
  });

  it('quote: draft → sent → accepted | declined | converted; expired after valid-until', () => {
    const q = drafted({ type: 'quote' });
    expect(documentStatus(view(q), '2026-06-03')).toBe('draft');
    expect(documentStatus(view(q), '2026-06-04')).toBe('expired');
    expect(documentStatus(view(q, { type: 'QuoteAccepted', data: { documentId: 'd1' } }), '2026-07-01')).toBe('accepted');
    expect(documentStatus(view(q, { type: 'QuoteConverted', data: { documentId: 'd1', invoiceId: 'i1' } }), '2026-05-05')).toBe('converted');
  });
});

describe('quotes', () => {
  const q = drafted({ type: 'quote', reference: 'QTE-0001' });
  it('converts once, into an invoice carrying its lines and client', () => {
    given(q).when({ type: 'ConvertQuote', data: { invoiceId: 'i1' } }).then([{ type: 'QuoteConverted', data: { documentId: 'd1', invoiceId: 'i1' } }]);
    given(q, { type: 'QuoteConverted', data: { documentId: 'd1', invoiceId: 'i1' } }).when({ type: 'ConvertQuote', data: { invoiceId: 'i2' } }).thenThrows('CONFLICT', 'This quote has already been converted to an invoice');
    const inv = invoiceDraftFromQuote(view(q), { invoiceId: 'i1', number: 7, reference: 'INV-0007', issueDate: '2026-05-20' });
    expect(inv).toMatchObject({ type: 'invoice', lines, convertedFrom: 'd1', dueDate: '2026-05-27', reference: 'INV-0007' });
  });

  it('accept and decline', () => {
    given(q).when({ type: 'AcceptQuote' }).then([{ type: 'QuoteAccepted', data: { documentId: 'd1' } }]);
    given(q, { type: 'QuoteAccepted', data: { documentId: 'd1' } }).when({ type: 'AcceptQuote' }).thenThrows('CONFLICT');
    given(drafted()).when({ type: 'AcceptQuote' }).thenThrows('CONFLICT', 'Only a quote can be accepted');
  });
});

describe('void, delete, send, sync, pdf', () => {
  it('a clean draft is deleted; an issued one is voided instead, keeping its number', () => {
    expect(discardCommand(view(drafted()))).toEqual({ type: 'DeleteDraft' });
    const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } };
    expect(discardCommand(view(drafted(), sent))).toMatchObject({ type: 'VoidDocument' });
    given(drafted(), sent).when({ type: 'DeleteDraft' }).thenThrows('CONFLICT', /Void this invoice instead/);
  });

  it('void needs the payments removed first', () => {
    given(drafted(), paid('p1', '5.00')).when({ type: 'VoidDocument', data: { reason: 'x' } }).thenThrows('CONFLICT', /Remove the payments/);
  });

  it('send needs a recipient', () => {
    given(drafted()).when({ type: 'SendDocument', data: { to: [], cc: [], bcc: [], subject: 's' } }).thenThrows('VALIDATION', /no email address/);
  });

  it('syncs once; the same PDF twice records nothing new', () => {
    const synced: DocumentEvent = { type: 'SyncedToAccounting', data: { documentId: 'd1', provider: 'xero', externalId: 'x', externalNumber: 'INV-0001' } };
    given(drafted(), synced).when({ type: 'RecordAccountingSync', data: { provider: 'xero', externalId: 'y', externalNumber: 'n' } }).thenThrows('CONFLICT');
    given(drafted(), { type: 'PdfGenerated', data: { documentId: 'd1', sha256: 'abc' } }).when({ type: 'RecordPdf', data: { sha256: 'abc' } }).then([]);
  });

  it('a deleted document is not found', () => {
    given(drafted(), { type: 'DocumentDeleted', data: { documentId: 'd1' } }).when({ type: 'AcceptQuote' }).thenThrows('NOT_FOUND');
  });
});

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

describe('issuing', () => {
  const send: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } };
  it('a draft invoice handed over on site is marked issued: no longer editable, counted from then', () => {
    expect(given(drafted()).when({ type: 'MarkIssued' }).events()).toEqual([{ type: 'DocumentIssued', data: { documentId: 'd1' } }]);
    const issued = foldDocument([drafted(), { type: 'DocumentIssued', data: { documentId: 'd1' } }], undefined) as DocumentView;
    expect(issued.status).toBe('issued');
    expect(documentStatus(issued, '2026-05-05')).toBe('issued');
    given(drafted(), { type: 'DocumentIssued', data: { documentId: 'd1' } })
      .when({ type: 'ReviseDocument', data: { client: null, lines, issueDate: '2026-05-04', paymentTerms: '7 days' } })
      .thenThrows('CONFLICT', /has been issued, so it can't be changed/);
  });
  it('only once, only invoices, never a void one', () => {
    given(drafted(), { type: 'DocumentIssued', data: { documentId: 'd1' } }).when({ type: 'MarkIssued' }).thenThrows('CONFLICT', 'This invoice is already issued');
    given(drafted(), send).when({ type: 'MarkIssued' }).thenThrows('CONFLICT', 'This invoice is already issued');
    given(drafted({ type: 'quote', reference: 'QTE-0001' })).when({ type: 'MarkIssued' }).thenThrows('CONFLICT', /Quotes can't be marked issued/);
    given(drafted(), { type: 'DocumentVoided', data: { documentId: 'd1', reason: 'x' } }).when({ type: 'MarkIssued' }).thenThrows('CONFLICT', /void/);
  });
  it('sending or a payment issues it too, dated the NZ day it happened; sending an issued invoice makes it sent', () => {
    const at = (e: DocumentEvent, iso: string) => ({ ...e, meta: { at: iso } });
    const sent = foldDocument([at(drafted(), '2026-05-03T20:00:00.000Z'), at(send, '2026-05-04T13:00:00.000Z')]) as DocumentView;
    expect([sent.status, sent.issuedOn]).toEqual(['sent', '2026-05-05']); // 1 am on 5 May in Auckland
    const paidDraft = foldDocument([drafted(), paid('p1', '10.00')]) as DocumentView;
    expect([paidDraft.status, paidDraft.issuedOn]).toEqual(['issued', '2026-05-04']);
    const issuedThenSent = foldDocument([drafted(), { type: 'DocumentIssued', data: { documentId: 'd1' } }, send]) as DocumentView;
    expect(issuedThenSent.status).toBe('sent');
  });
  it('voids and payment removals are dated the NZ day they were recorded', () => {
    const at = (e: DocumentEvent, iso: string) => ({ ...e, meta: { at: iso } });
    const s = foldDocument([
      drafted(), send, paid('p1', '10.00', '2026-05-10'),
      at({ type: 'PaymentRemoved', data: { documentId: 'd1', paymentId: 'p1' } }, '2026-07-01T12:30:00.000Z'),
      at({ type: 'DocumentVoided', data: { documentId: 'd1', reason: 'x' } }, '2026-07-02T11:00:00.000Z'),
    ]) as DocumentView;
    expect(s.paymentLog).toEqual([
      { kind: 'recorded', paymentId: 'p1', amount: '10.00', date: '2026-05-10' },
      { kind: 'removed', paymentId: 'p1', amount: '10.00', date: '2026-07-02' },
    ]);
    expect(s.voidedOn).toBe('2026-07-02');
  });
  it('refuses a GST rate New Zealand does not have, even past the API', () => {
    const odd = [{ ...lines[0]!, tax_rate: '0.125' }];
    given().when({ type: 'DraftDocument', data: draftInput({ lines: odd }) }).thenThrows('VALIDATION', /no other GST rate/);
  });
});
