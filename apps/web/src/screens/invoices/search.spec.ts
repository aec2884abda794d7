import { describe, expect, it } from 'vitest';
import { describeFilter, filterOf, hasFilter, validateInvoicesSearch } from './search.ts';
import { voidConfirmText } from '../invoice-detail/voidText.ts';

describe('the Invoices & Quotes address', () => {
  it('keeps a known tab, status and real dates; drops anything else', () => {
    expect(validateInvoicesSearch({ tab: 'invoices', status: 'draft', from: '2026-01-01', to: '2026-03-31' })).toEqual({ tab: 'invoices', status: 'draft', from: '2026-01-01', to: '2026-03-31' });
    expect(validateInvoicesSearch({ tab: 'receipts', status: 'deleted', from: '2026-02-30', to: 'yesterday' })).toEqual({});
    expect(validateInvoicesSearch({ status: 'issued' })).toEqual({ status: 'issued' });
  });

  it('describes the filter in words, and knows when there is none', () => {
    expect(describeFilter(filterOf({ status: 'draft', from: '2026-01-01', to: '2026-03-31' }), 'invoices')).toBe('Draft invoices dated 01/01/2026 – 31/03/2026');
    expect(describeFilter({ from: '2026-04-01' }, 'quotes')).toBe('Quotes dated from 01/04/2026');
    expect(hasFilter(filterOf({ tab: 'invoices' }))).toBe(false);
  });
});

describe('the confirm before Void', () => {
  it('says what happens to the reports: nothing for a draft, a reversal today for an issued invoice', () => {
    expect(voidConfirmText({ type: 'invoice', issued_on: null, reference: 'INV-0007' })).toMatch(/^Void INV-0007\? It is a draft that was never issued, so no report changes\./);
    expect(voidConfirmText({ type: 'invoice', issued_on: '2026-04-03', reference: 'INV-0002' })).toMatch(/stays in the GST report for the period it was issued, and is taken off again in the period you void it \(today\)/);
    expect(voidConfirmText({ type: 'quote', issued_on: null, reference: 'QTE-0001' })).toBe("Void QTE-0001? Its number stays used and it can't be changed again.");
  });
});
