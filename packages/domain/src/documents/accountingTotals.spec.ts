import { describe, expect, it } from 'vitest';
import { accountingDifference, accountingDifferenceText } from './accountingTotals.ts';
import { documentDecider, type DocumentView } from './document.ts';

const at = '2026-05-05T00:00:00.000Z';
function synced(reported?: { subtotal: string; gst: string; total: string }): DocumentView {
  const lines = [1, 2, 3].map((n) => ({ description: `Washer ${n}`, qty: '1', unit_price: '1.11', tax_included: false, tax_rate: '0.15' }));
  const events = [
    { type: 'DocumentDrafted', data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-05', dueDate: '2026-05-12', paymentTerms: '7 days', validUntil: null, notes: '', convertedFrom: null } },
    { type: 'SyncedToAccounting', data: { documentId: 'd1', provider: 'xero', externalId: 'x1', externalNumber: 'INV-0001' } },
    ...(reported ? [{ type: 'AccountingTotalsReported', data: { documentId: 'd1', provider: 'xero', ...reported } }] : []),
  ];
  let s = documentDecider.initialState();
  for (const e of events) s = documentDecider.evolve(s, { ...e, meta: { at } } as never);
  return s as DocumentView;
}

describe("the accounting system's totals against ours", () => {
  it('nothing to say before it has answered, or when it agrees', () => {
    expect(accountingDifference(synced())).toBeNull();
    expect(accountingDifference(synced({ subtotal: '3.33', gst: '0.50', total: '3.83' }))).toBeNull();
  });

  it('a different total is named first, in the words the detail screen shows', () => {
    const diff = accountingDifference(synced({ subtotal: '3.33', gst: '0.51', total: '3.84' }));
    expect(diff).toEqual({ field: 'total', theirsCents: 384n, oursCents: 383n });
    expect(accountingDifferenceText('xero', diff!)).toBe('Xero shows $3.84 — this invoice is $3.83');
  });

  it('the same total with the GST split otherwise is still a difference', () => {
    const diff = accountingDifference(synced({ subtotal: '3.32', gst: '0.51', total: '3.83' }));
    expect(accountingDifferenceText('xero', diff!)).toBe('Xero shows $0.51 GST — this invoice has $0.50 GST');
  });

  it('recording the same totals again decides nothing; other totals decide one event', () => {
    const d = synced({ subtotal: '3.33', gst: '0.51', total: '3.84' });
    expect(documentDecider.decide({ type: 'RecordAccountingTotals', data: { provider: 'xero', subtotal: '3.33', gst: '0.51', total: '3.84' } }, d)).toEqual([]);
    expect(documentDecider.decide({ type: 'RecordAccountingTotals', data: { provider: 'xero', subtotal: '3.33', gst: '0.50', total: '3.83' } }, d)).toHaveLength(1);
    expect(() => documentDecider.decide({ type: 'RecordAccountingTotals', data: { provider: 'myob', subtotal: '1.00', gst: '0.15', total: '1.15' } }, d)).toThrow();
  });
});
