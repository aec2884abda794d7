// A document's life: drafting, revising, quotes answered and converted, issuing, void, delete, send, sync, PDF.
import { describe, expect, it } from 'vitest';
import { documentDecider, documentFigures, documentStatus, discardCommand, foldDocument, invoiceDraftFromQuote, type DocumentCommand, type DocumentView } from '../document.ts';
import type { DocumentEvent } from '../events.ts';
import { specFor } from '../../../test/specification.ts';
import { draftInput, drafted, lines, paid, view } from '../../../test/documentFixtures.ts';

const given = specFor(documentDecider);

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
