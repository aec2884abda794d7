import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DocumentCommand, type DocumentView, type DraftInput, documentDecider, documentFigures, foldDocument, invoiceDraftFromQuote } from '../documents/document.ts';
import type { DocumentEvent } from '../documents/events.ts';
import { linesSchema } from '../documents/lines.ts';
import { roundLineAmount } from '../money/rounding.ts';
import { specFor } from '../../test/specification.ts';
import { linesArb } from '../../test/arbitraries.ts';
import { GST_REGISTRATION_MESSAGES, type GstRegistration, chargesGst, linesAsRegistered } from './registration.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([
  { description: 'Replace hot water cylinder valve', qty: 1, unit_price: 180 },
  { description: 'Labour', qty: 2.5, unit_price: 90, tax_included: true },
]);
const draftInput = (over: Partial<DraftInput> = {}): DraftInput => ({
  documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days', ...over,
});
const drafted = (over: Partial<DraftInput> = {}): DocumentEvent => documentDecider.decide({ type: 'DraftDocument', data: draftInput(over) }, { status: 'none' })[0]!;
const view = (...events: DocumentEvent[]): DocumentView => foldDocument(events) as DocumentView;

const registered: GstRegistration = { registered: true, gstNumber: '49-091-850' };
const notRegistered: GstRegistration = { registered: false, gstNumber: '' };
const noNumber: GstRegistration = { registered: true, gstNumber: ' ' };
const send = (gst: GstRegistration): DocumentCommand => ({ type: 'SendDocument', data: { to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Invoice', gst } });
const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Invoice' } };

describe('a business not registered for GST charges none', () => {
  it('its lines are saved at rate 0, none of them incl. GST: $405.00 is what the client pays', () => {
    const e = drafted({ gstRegistered: false });
    expect(e).toMatchObject({ data: { gstRegistered: false } });
    const d = view(e);
    expect(d.lines.map((l) => [l.tax_rate, l.tax_included])).toEqual([['0', false], ['0', false]]);
    const f = documentFigures(d);
    expect([f.subtotalCents, f.gstCents, f.totalCents]).toEqual([40500n, 0n, 40500n]);
  });

  it('whatever the lines, the document carries no GST and comes to the sum of qty × price', () => {
    fc.assert(
      fc.property(linesArb(12), fc.constantFrom('total', 'line') as fc.Arbitrary<'total' | 'line'>, (ls, rounding) => {
        const d = view(drafted({ lines: ls, gstRounding: rounding, gstRegistered: false }));
        const f = documentFigures(d);
        const sum = ls.reduce((a, l) => a + roundLineAmount(l.qty, l.unit_price), 0n);
        expect(f.gstCents).toBe(0n);
        expect(f.totalCents).toBe(sum);
        expect(f.subtotalCents).toBe(sum);
        expect(chargesGst(d.lines)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('a revision keeps the draft without GST, and takes GST once the business has registered', () => {
    const revise = (gstRegistered?: boolean): DocumentCommand => ({ type: 'ReviseDocument', data: { client: null, lines, issueDate: '2026-05-04', paymentTerms: '7 days', ...(gstRegistered !== undefined ? { gstRegistered } : {}) } });
    const kept = given(drafted({ gstRegistered: false })).when(revise()).events()[0]!;
    expect(kept).toMatchObject({ data: { gstRegistered: false, lines: [{ tax_rate: '0' }, { tax_rate: '0' }] } });
    const now = given(drafted({ gstRegistered: false })).when(revise(true)).events()[0]!;
    expect(now).toMatchObject({ data: { gstRegistered: true, lines: [{ tax_rate: '0.15' }, { tax_rate: '0.15' }] } });
    expect(documentFigures(view(drafted({ gstRegistered: false }), now)).gstCents).toBe(5635n); // 180 × 15 % + 225 × 3/23 = 56.3478…
  });

  it('a variation of its accepted quote carries no GST either', () => {
    const quote = drafted({ type: 'quote', reference: 'QTE-0001', gstRegistered: false });
    const accepted: DocumentEvent = { type: 'QuoteAccepted', data: { documentId: 'd1' } };
    const varied = given(quote, accepted).when({ type: 'ProposeVariation', data: { variationId: 'v1', note: '', lines: [{ description: 'Extra tap', qty: '1', unit_price: '100', tax_included: false, tax_rate: '0.15' }] } }).events()[0]!;
    expect(varied).toMatchObject({ type: 'VariationProposed', data: { lines: [{ tax_rate: '0' }] } });
  });

  it('an invoice made from a quote keeps the quote’s registration', () => {
    const q = view(drafted({ type: 'quote', reference: 'QTE-0001', gstRegistered: false }));
    expect(invoiceDraftFromQuote(q, { invoiceId: 'i1', number: 1, reference: 'INV-0001', issueDate: '2026-05-05' }).gstRegistered).toBe(false);
    expect('gstRegistered' in invoiceDraftFromQuote(view(drafted({ type: 'quote' })), { invoiceId: 'i1', number: 1, reference: 'INV-0001', issueDate: '2026-05-05' })).toBe(false);
  });

  it('linesAsRegistered leaves a registered business’s lines as they are', () => {
    expect(linesAsRegistered(lines, true)).toEqual(lines);
  });
});

describe('nothing goes to the client while registration and the document disagree', () => {
  it('a registered business without its GST number cannot send, hand over or share: the reason is given', () => {
    given(drafted({ gstRegistered: true })).when(send(noNumber)).thenThrows('VALIDATION', GST_REGISTRATION_MESSAGES.noNumber);
    given(drafted({ gstRegistered: true })).when({ type: 'MarkIssued', data: { gst: noNumber } }).thenThrows('VALIDATION', GST_REGISTRATION_MESSAGES.noNumber);
    given(drafted({ gstRegistered: true })).when({ type: 'IssueClientLink', data: { linkId: 'l1', expiresOn: '2026-06-03', gst: noNumber } }).thenThrows('VALIDATION', GST_REGISTRATION_MESSAGES.noNumber);
    expect(given(drafted({ gstRegistered: true })).when(send(registered)).events()).toEqual([sent]);
    expect(given(drafted({ gstRegistered: true })).when({ type: 'IssueClientLink', data: { linkId: 'l1', expiresOn: '2026-06-03', gst: registered } }).events()).toEqual([
      { type: 'ClientLinkIssued', data: { documentId: 'd1', linkId: 'l1', expiresOn: '2026-06-03' } },
    ]);
  });

  it('a business not registered sends without a GST number', () => {
    expect(given(drafted({ gstRegistered: false })).when(send(notRegistered)).events()).toEqual([sent]);
    expect(given(drafted({ gstRegistered: false })).when({ type: 'MarkIssued', data: { gst: notRegistered } }).events()).toEqual([{ type: 'DocumentIssued', data: { documentId: 'd1' } }]);
  });

  it('a draft saved under the other registration must be saved again first', () => {
    given(drafted({ gstRegistered: false })).when(send(registered)).thenThrows('CONFLICT', GST_REGISTRATION_MESSAGES.registeredSince('invoice'));
    given(drafted({ gstRegistered: true })).when(send(notRegistered)).thenThrows('CONFLICT', GST_REGISTRATION_MESSAGES.notRegisteredSince('invoice'));
    given(drafted({ type: 'quote', reference: 'QTE-0001', gstRegistered: true })).when(send(notRegistered)).thenThrows('CONFLICT', GST_REGISTRATION_MESSAGES.notRegisteredSince('quote'));
  });

  it('a draft saved before registration was recorded: with GST it is a registered business’s', () => {
    given(drafted()).when(send(notRegistered)).thenThrows('CONFLICT', GST_REGISTRATION_MESSAGES.notRegisteredSince('invoice'));
    given(drafted()).when(send(noNumber)).thenThrows('VALIDATION', GST_REGISTRATION_MESSAGES.noNumber);
    expect(given(drafted()).when(send(registered)).events()).toEqual([sent]);
    const zeroRated = linesAsRegistered(lines, false);
    expect(given(drafted({ lines: zeroRated })).when(send(notRegistered)).events()).toEqual([sent]);
  });

  it('an issued tax invoice keeps its GST: sent again after the business deregistered, it still needs the number it must show', () => {
    expect(given(drafted({ gstRegistered: true }), sent).when(send({ registered: false, gstNumber: '49-091-850' })).events()).toEqual([sent]);
    given(drafted({ gstRegistered: true }), sent).when(send(notRegistered)).thenThrows('VALIDATION', GST_REGISTRATION_MESSAGES.noNumberOnTaxInvoice);
    expect(documentFigures(view(drafted({ gstRegistered: true }), sent)).gstCents).toBe(5635n);
  });
});
