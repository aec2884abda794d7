// A send that was not delivered (DocumentSendNotDelivered: kept in the outbox, or refused by the
// mail server) is recorded with its outcome and changes nothing else: the document is not sent,
// an invoice is not issued, a draft stays a draft nobody has seen.
import { describe, expect, it } from 'vitest';
import { discardCommand, documentDecider, documentStatus, foldDocument, type DocumentView } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';
import { reportRowsOf } from '../reports/rows.ts';
import { parseDomainEvent } from '../events/registry.ts';

const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 90 }]);
const drafted = documentDecider.decide(
  { type: 'DraftDocument', data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
  { status: 'none' },
)[0]!;
const mail = { to: ['a@b.nz'], cc: [], bcc: [], subject: 'Invoice' };
const at = (iso: string, e: DocumentEvent) => ({ ...e, meta: { at: iso } });
const view = (events: Parameters<typeof foldDocument>[0]): DocumentView => foldDocument(events) as DocumentView;

describe('a send that was not delivered', () => {
  const saved = documentDecider.decide({ type: 'RecordUndeliveredSend', data: { ...mail, outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server' } }, foldDocument([drafted]));

  it('is recorded as DocumentSendNotDelivered, a registered event', () => {
    expect(saved).toEqual([{ type: 'DocumentSendNotDelivered', data: { documentId: 'd1', ...mail, outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server' } }]);
    expect(parseDomainEvent({ type: 'DocumentSendNotDelivered', version: 1, data: saved[0]!.data })).toEqual(saved[0]);
  });

  it('leaves a draft a draft: not sent, not issued, in no report, still discardable', () => {
    const d = view([at('2026-05-04T21:30:00.000Z', drafted), at('2026-05-04T22:00:00.000Z', saved[0]!)]);
    expect(d.status).toBe('draft');
    expect(d.issuedOn).toBeNull();
    expect(d.sends).toEqual([]);
    expect(d.sendLog).toEqual([{ ...mail, at: '2026-05-04T22:00:00.000Z', outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server' }]);
    expect(documentStatus(d, '2026-05-05')).toBe('draft');
    expect(reportRowsOf(d).invoice).toBeNull();
    expect(discardCommand(d)).toEqual({ type: 'DeleteDraft' });
  });

  it('keeps every attempt in order; only a delivered one sends the document', () => {
    const failed: DocumentEvent = { type: 'DocumentSendNotDelivered', data: { documentId: 'd1', ...mail, outcome: 'failed', detail: 'The mail server refused it: 550 User unknown' } };
    const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', ...mail } };
    const d = view([drafted, failed, sent]);
    expect(d.status).toBe('sent');
    expect(d.sends).toHaveLength(1);
    expect(d.sendLog.map((s) => [s.outcome, s.detail])).toEqual([['failed', 'The mail server refused it: 550 User unknown'], ['delivered', null]]);
  });
});
