// The time of supply (GST Act s 9(1): the earlier of the invoice being issued and any payment)
// against the independent oracle: an invoice dated three months ahead and issued today counts in
// today's period; one dated before the day it was issued counts at its date.
import { describe, expect, it } from 'vitest';
import { checkRange, gstReport, reportRowsFromEvents, type GstReport } from '@tradie/domain';
import { oracleGstReport, type OracleInvoice } from '../src/oracle/oracle.ts';
import { oracleInvoiceEvents } from '../src/oracle/toEvents.ts';

const figures = ({ basis: _b, start_date: _s, end_date: _e, ...rest }: GstReport) => rest;

// $8,765.43 + GST 15 % = 1,314.8145 → s 19O 1,314.81; total $10,080.24.
const job: Omit<OracleInvoice, 'id' | 'issueDate' | 'issuedOn'> = {
  client: 'Aroha Ngata', lines: [{ qty: '1', unitPrice: '8765.43', inclusive: false, rate: '0.15' }], rounding: 'total', issued: true, steps: [], voidDate: null,
};

describe('time of supply on the invoice basis', () => {
  const postdated: OracleInvoice = { ...job, id: 'ahead', issueDate: '2027-02-12', issuedOn: '2026-11-12' };
  const backdated: OracleInvoice = { ...job, id: 'behind', issueDate: '2026-09-30', issuedOn: '2026-11-12' };
  const rows = reportRowsFromEvents([...oracleInvoiceEvents(postdated, 'acct', 1), ...oracleInvoiceEvents(backdated, 'acct', 2)]);
  const periods = [['2026-08-01', '2026-09-30'], ['2026-10-01', '2026-11-30'], ['2027-02-01', '2027-03-31']] as const;

  it.each(periods)('the GST report for %s – %s is the oracle\'s', (start, end) => {
    expect(figures(gstReport(rows, checkRange(start, end), 'invoice'))).toEqual(oracleGstReport([postdated, backdated], start, end, 'invoice'));
  });

  it('an invoice dated 12 Feb 2027 and issued on 12 Nov 2026 counts in Oct–Nov 2026 ($10,080.24, GST $1,314.81), not in Feb–Mar 2027', () => {
    const octNov = gstReport({ invoices: rows.invoices.filter((r) => r.documentId === 'ahead'), payments: [] }, checkRange('2026-10-01', '2026-11-30'));
    expect(octNov.breakdown_by_month).toEqual([{ month: '2026-10', sales: 0, gst: 0, count: 0 }, { month: '2026-11', sales: 10080.24, gst: 1314.81, count: 1 }]);
    const febMar = gstReport({ invoices: rows.invoices.filter((r) => r.documentId === 'ahead'), payments: [] }, checkRange('2027-02-01', '2027-03-31'));
    expect(febMar.total_sales).toBe(0);
    // The backdated invoice counts at the date written on it.
    expect(rows.invoices.find((r) => r.documentId === 'behind')!.supplyDate).toBe('2026-09-30');
  });
});
