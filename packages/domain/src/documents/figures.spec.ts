// Statuses derived from events, never stored: invoice and quote.
import { describe, expect, it } from 'vitest';
import { documentStatus } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { drafted, paid, view } from '../../test/documentFixtures.ts';

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
