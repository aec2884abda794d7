// A document's client link and the client's answers through it: issued and withdrawn on the
// document's stream (a revision or a void supersedes it), accepted / declined / changes asked for
// only while the quote is open and through the link that works now.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ClientAnswer, type DocumentCommand, type DocumentView, type DraftInput, documentDecider, documentStatus, foldDocument } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';
import { DomainError } from '../errors.ts';
import { parseDomainEvent } from '../events/registry.ts';
import { specFor } from '../../test/specification.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 90 }]);
const draftInput = (over: Partial<DraftInput> = {}): DraftInput => ({
  documentId: 'q1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days', ...over,
});
const drafted = (over: Partial<DraftInput> = {}): DocumentEvent => documentDecider.decide({ type: 'DraftDocument', data: draftInput(over) }, { status: 'none' })[0]!;
const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'q1', to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Quote' } };
const issued = (linkId = 'l1'): DocumentEvent => ({ type: 'ClientLinkIssued', data: { documentId: 'q1', linkId, expiresOn: '2026-06-03' } });
const seen: ClientAnswer = { linkId: 'l1', ip: '203.0.113.7', userAgent: 'Mozilla/5.0' };
const accept: DocumentCommand = {
  type: 'AcceptQuoteByClient',
  data: { ...seen, documentVersion: 1, shownSha256: 'a'.repeat(64), signerName: ' Jo Bloggs ', signatureSha256: null, termsAccepted: true },
};
const decline: DocumentCommand = { type: 'DeclineQuoteByClient', data: { ...seen, reasons: ['price', 'price', 'timing'], note: 'Too dear' } };
const changes: DocumentCommand = { type: 'RequestQuoteChanges', data: { ...seen, note: 'Two heat pumps please' } };
const view = (...events: DocumentEvent[]): DocumentView => foldDocument(events.map((e) => ({ ...e, meta: { at: '2026-05-05T01:00:00.000Z' } }))) as DocumentView;

describe('issuing and withdrawing a link', () => {
  it('issues one link at a time; withdrawing names the active link', () => {
    given(drafted()).when({ type: 'IssueClientLink', data: { linkId: 'l1', expiresOn: '2026-06-03' } }).then([issued()]);
    given(drafted(), issued()).when({ type: 'IssueClientLink', data: { linkId: 'l2', expiresOn: '2026-06-03' } }).thenThrows('CONFLICT', 'This quote already has a link');
    given(drafted(), issued()).when({ type: 'WithdrawClientLink', data: { linkId: 'l1', reason: 'withdrawn' } }).then([
      { type: 'ClientLinkWithdrawn', data: { documentId: 'q1', linkId: 'l1', reason: 'withdrawn' } },
    ]);
    given(drafted(), issued()).when({ type: 'WithdrawClientLink', data: { linkId: 'l9', reason: 'withdrawn' } }).thenThrows('NOT_FOUND');
    expect(view(drafted(), issued(), { type: 'ClientLinkWithdrawn', data: { documentId: 'q1', linkId: 'l1', reason: 'withdrawn' } }).clientLink).toBeNull();
  });

  it('refuses a link for a void document', () => {
    const voided: DocumentEvent = { type: 'DocumentVoided', data: { documentId: 'q1', reason: 'x' } };
    given(drafted(), voided).when({ type: 'IssueClientLink', data: { linkId: 'l1', expiresOn: '2026-06-03' } }).thenThrows('CONFLICT', /void/);
  });

  it('a revision and a void supersede the active link in the same decision', () => {
    const revised = given(drafted(), issued()).when({ type: 'ReviseDocument', data: { client: null, lines, issueDate: '2026-05-04', paymentTerms: '7 days' } }).events();
    expect(revised.map((e) => e.type)).toEqual(['DocumentRevised', 'ClientLinkWithdrawn']);
    expect(revised[1]!.data).toEqual({ documentId: 'q1', linkId: 'l1', reason: 'superseded' });
    const voided = given(drafted(), sent, issued()).when({ type: 'VoidDocument', data: { reason: 'Re-quoting' } }).events();
    expect(voided.map((e) => e.type)).toEqual(['DocumentVoided', 'ClientLinkWithdrawn']);
    // Without a link, nothing more than before.
    expect(given(drafted(), sent).when({ type: 'VoidDocument', data: { reason: 'x' } }).events().map((e) => e.type)).toEqual(['DocumentVoided']);
  });
});

describe("the client's answers", () => {
  it('accepting moves the quote to accepted, with the name trimmed', () => {
    const events = given(drafted(), issued(), sent).when(accept).events();
    expect(events).toEqual([{ type: 'QuoteAcceptedByClient', data: { documentId: 'q1', ...accept.data, signerName: 'Jo Bloggs' } }]);
    const d = view(drafted(), issued(), sent, ...events);
    expect(d.status).toBe('accepted');
    expect(documentStatus(d, '2026-05-06')).toBe('accepted');
    expect(d.clientAcceptance).toMatchObject({ signerName: 'Jo Bloggs', linkId: 'l1', at: '2026-05-05T01:00:00.000Z' });
    expect(d.acceptedAt).toBe('2026-05-05T01:00:00.000Z');
  });

  it('declining moves it to declined, reasons once each; asking for changes keeps it open', () => {
    const declined = given(drafted(), issued(), sent).when(decline).events();
    expect(declined[0]!.data).toMatchObject({ reasons: ['price', 'timing'], note: 'Too dear' });
    expect(view(drafted(), issued(), sent, ...declined).status).toBe('declined');
    const asked = given(drafted(), issued(), sent).when(changes).events();
    const d = view(drafted(), issued(), sent, ...asked);
    expect(d.status).toBe('sent');
    expect(d.changesRequestedAt).toBe('2026-05-05T01:00:00.000Z');
  });

  it('refuses an answer through a link that no longer works, to an invoice, or once answered', () => {
    given(drafted(), sent).when(accept).thenThrows('CONFLICT', 'This link no longer works');
    given(drafted(), issued('l2'), sent).when(accept).thenThrows('CONFLICT', 'This link no longer works');
    given(drafted({ type: 'invoice', reference: 'INV-0001' }), issued()).when(accept).thenThrows('CONFLICT', 'Only a quote can be answered');
    const accepted: DocumentEvent = { type: 'QuoteAccepted', data: { documentId: 'q1' } };
    given(drafted(), issued(), sent, accepted).when(accept).thenThrows('CONFLICT', 'You have already accepted this quote.');
    given(drafted(), issued(), sent, accepted).when(decline).thenThrows('CONFLICT', 'You have already accepted this quote.');
    given(drafted(), issued(), sent, { type: 'QuoteDeclined', data: { documentId: 'q1' } }).when(changes).thenThrows('CONFLICT', 'You have already declined this quote.');
    // Converted to an invoice after the client accepted: to the client it is accepted.
    given(drafted(), issued(), sent, accepted, { type: 'QuoteConverted', data: { documentId: 'q1', invoiceId: 'i1' } }).when(decline).thenThrows('CONFLICT', 'You have already accepted this quote.');
    given(drafted(), issued(), sent).when({ ...accept, data: { ...accept.data, signerName: '  ' } } as DocumentCommand).thenThrows('VALIDATION');
    given(drafted(), issued(), sent).when({ type: 'RequestQuoteChanges', data: { ...seen, note: ' ' } }).thenThrows('VALIDATION');
  });

  it('property: whatever the order of answers, at most one takes, and every event it writes reads back through the registry', () => {
    const answer = fc.constantFrom<DocumentCommand>(accept, decline, changes, { type: 'WithdrawClientLink', data: { linkId: 'l1', reason: 'withdrawn' } });
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 8 }), (commands) => {
        let events: DocumentEvent[] = [drafted(), issued(), sent];
        for (const c of commands) {
          try {
            events = [...events, ...documentDecider.decide(c, foldDocument(events))];
          } catch (e) {
            if (!(e instanceof DomainError)) throw e;
          }
        }
        const finals = events.filter((e) => e.type === 'QuoteAcceptedByClient' || e.type === 'QuoteDeclinedByClient');
        expect(finals.length).toBeLessThanOrEqual(1);
        for (const e of events) expect(parseDomainEvent({ type: e.type, data: JSON.parse(JSON.stringify(e.data)) })).toEqual(e);
        const d = foldDocument(events) as DocumentView;
        if (finals[0]?.type === 'QuoteAcceptedByClient') expect(d.status).toBe('accepted');
        if (finals[0]?.type === 'QuoteDeclinedByClient') expect(d.status).toBe('declined');
      }),
    );
  });
});
