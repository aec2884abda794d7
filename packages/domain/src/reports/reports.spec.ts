import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annualSummary, assembleAnnualSummary, checkTaxYear, compareClients } from './annualSummary.ts';
import { checkRange, gstReport, MISSING_DATES } from './gstReport.ts';
import { reportRowsFromEvents, type LoggedEvent } from './replay.ts';
import { reportRowsOf } from './rows.ts';
import { documentDecider, documentFigures, foldDocument, type DocumentView } from '../documents/document.ts';
import type { DocumentEvent } from '../documents/events.ts';
import { linesSchema } from '../documents/lines.ts';
import { DomainError } from '../errors.ts';
import { linesArb, localDateArb } from '../../test/arbitraries.ts';

const client = (name: string) => ({ id: name, name, email: '', phone: '', address: '', is_business: 'false' as const, business_name: '', company_number: '', gst_number: '' });

function invoice(id: string, issueDate: string, lineInput: unknown[], opts: { type?: 'quote' | 'invoice'; client?: string } = {}): DocumentEvent {
  return documentDecider.decide({ type: 'DraftDocument', data: {
    documentId: id, type: opts.type ?? 'invoice', number: 1, reference: id.toUpperCase(), client: opts.client ? client(opts.client) : null,
    lines: linesSchema.parse(lineInput), gstRounding: 'total', issueDate, paymentTerms: '7 days',
  } }, { status: 'none' })[0]!;
}
const pay = (id: string, paymentId: string, amount: string, date: string): DocumentEvent => ({ type: 'PaymentRecorded', data: { documentId: id, paymentId, amount, date, method: 'cash', reference: '' } });
const issue = (id: string): DocumentEvent => ({ type: 'DocumentIssued', data: { documentId: id } });
const log = (...events: DocumentEvent[]): LoggedEvent[] => events.map((e) => ({ stream: `document-${e.data.documentId}`, type: e.type, version: 1, data: e.data }));

describe('GST report, invoice basis', () => {
  // A: 100 excl → 115 (paid, which issues it); B: 230 incl → GST 30, marked issued; C: quote, ignored;
  // D: issued and voided the same day (in and out again); E: 31 March, outside Q2; F: a draft, left out.
  const events = log(
    invoice('a', '2026-04-01', [{ description: 'Callout', qty: 1, unit_price: 100 }], { client: 'Hemi' }),
    pay('a', 'p1', '115.00', '2026-04-03'),
    invoice('b', '2026-06-30', [{ description: 'Parts', qty: 1, unit_price: 230, tax_included: true }], { client: 'Mere' }),
    issue('b'),
    invoice('c', '2026-05-05', [{ description: 'Quote', qty: 1, unit_price: 999 }], { type: 'quote' }),
    invoice('d', '2026-05-05', [{ description: 'Oops', qty: 1, unit_price: 50 }]),
    issue('d'),
    { type: 'DocumentVoided', data: { documentId: 'd', reason: 'wrong client' } },
    invoice('e', '2026-03-31', [{ description: 'Before', qty: 1, unit_price: 10 }]),
    issue('e'),
    invoice('f', '2026-05-06', [{ description: 'Not yet', qty: 1, unit_price: 70 }]),
  );
  const rows = reportRowsFromEvents(events);

  it('counts only issued invoices supplied in the range, first and last day inclusive; a void in the range nets out; drafts are left out', () => {
    const r = gstReport(rows, checkRange('2026-04-01', '2026-06-30'));
    expect(r).toMatchObject({ basis: 'invoice', total_sales: 345, total_gst_collected: 45, invoice_count: 3, paid_invoices_count: 1, unpaid_invoices_count: 1, voided_invoices_count: 1 });
    expect(r.corrections).toEqual({ count: 1, sales: -57.5, gst: -7.5, invoices_voided: 1, credit_notes: 0, payments_removed: 0, refunds: 0 });
    expect(r.drafts_left_out).toBe(1);
    expect(r.breakdown_by_month).toEqual([
      { month: '2026-04', sales: 115, gst: 15, count: 1 },
      { month: '2026-05', sales: 0, gst: 0, count: 1 },
      { month: '2026-06', sales: 230, gst: 30, count: 1 },
    ]);
    expect(r.gst_return).toEqual({ box5: 345, box6: 0, box7: 345, box8: 45, box9: 0, box10: 45, box11: 0, box12: 0, box13: 0, box14: 0, box15: 45 });
  });

  it('payments basis: only the money received in the range', () => {
    const r = gstReport(rows, checkRange('2026-04-01', '2026-06-30'), 'payments');
    expect(r).toMatchObject({ basis: 'payments', total_sales: 115, total_gst_collected: 15, invoice_count: 1, paid_invoices_count: 1 });
  });

  it('refuses missing or reversed dates with the screen\'s words', () => {
    expect(() => checkRange('', '2026-01-01')).toThrow(MISSING_DATES);
    expect(() => checkRange('2026-02-01', '2026-01-01')).toThrow(/on or before/);
    expect(() => checkRange('2026-02-30', '2026-03-01')).toThrow(DomainError);
  });
});

describe('annual summary', () => {
  it('tax year 2027 runs April 2026 – March 2027, revenue excluding GST, top clients by revenue', () => {
    const rows = reportRowsFromEvents(log(
      invoice('a', '2026-04-01', [{ description: 'x', qty: 1, unit_price: 100 }], { client: 'Hemi' }),
      pay('a', 'p1', '115.00', '2026-04-03'),
      invoice('b', '2027-03-31', [{ description: 'y', qty: 2, unit_price: 100 }], { client: 'Mere' }),
      issue('b'),
      invoice('c', '2027-04-01', [{ description: 'z', qty: 1, unit_price: 5000 }], { client: 'Ana' }),
      issue('c'),
    ));
    const s = annualSummary(rows, 2027);
    expect(s).toMatchObject({ start_date: '2026-04-01', end_date: '2027-03-31', label: '2026–27', total_revenue: 300, total_gst: 45, paid_revenue: 100, unpaid_revenue: 200 });
    expect(s.top_clients).toEqual([{ name: 'Mere', revenue: 200 }, { name: 'Hemi', revenue: 100 }]);
    expect(s.monthly_breakdown.map((m) => m.month)).toEqual(['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03']);
    expect(s.monthly_breakdown[0]).toEqual({ month: '2026-04', revenue: 100, gst: 15, count: 1, paid_count: 1 });
  });

  it('top 10 at most, ties broken by name', () => {
    const clients = Array.from({ length: 12 }, (_, i) => ({ name: `C${String(i).padStart(2, '0')}`, revenueCents: BigInt((i % 3) + 1) * 100n }));
    const none = { count: 0, revenueCents: 0n, gstCents: 0n };
    const s = assembleAnnualSummary({ months: [], clients, corrections: none, credited: none, refunded: { count: 0, cents: 0n }, draftsLeftOut: 0 }, 2026);
    expect(s.top_clients).toHaveLength(10);
    expect(s.top_clients[0]).toEqual({ name: 'C02', revenue: 3 });
    expect([...clients].sort(compareClients).map((c) => c.name).slice(0, 4)).toEqual(['C02', 'C05', 'C08', 'C11']);
  });

  it('a tax year must be a year', () => {
    expect(checkTaxYear('2026')).toBe(2026);
    expect(() => checkTaxYear('twenty')).toThrow(DomainError);
    expect(() => checkTaxYear(undefined)).toThrow(DomainError);
  });
});

describe('properties', () => {
  const invoicesArb = fc.array(fc.record({ issueDate: localDateArb, lines: linesArb(6), paidShare: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 25 });
  const build = (specs: { issueDate: string; lines: ReturnType<typeof linesSchema.parse>; paidShare: number }[]) => {
    const events: DocumentEvent[] = [];
    specs.forEach((s, i) => {
      const id = `i${i}`;
      const d = documentDecider.decide({ type: 'DraftDocument', data: { documentId: id, type: 'invoice', number: i + 1, reference: `INV-${i + 1}`, client: client(`Client ${i % 4}`), lines: s.lines, gstRounding: 'total', issueDate: s.issueDate, paymentTerms: '7 days' } }, { status: 'none' });
      events.push(...d, issue(id));
      const view = foldDocument([...d, issue(id)]) as DocumentView;
      const total = reportRowsOf(view).invoice!.totalCents;
      if (s.paidShare > 0 && total > 0n) {
        const first = (total * BigInt(s.paidShare)) / 3n;
        if (first > 0n) events.push(pay(id, `${id}-a`, (Number(first) / 100).toFixed(2), s.issueDate));
        if (first < total) events.push(pay(id, `${id}-b`, (Number(total - first) / 100).toFixed(2), s.issueDate));
      }
    });
    return reportRowsFromEvents(log(...events));
  };

  it('the rows are the same with the figures handed in (as the read model shares them) as worked out inside', () => {
    fc.assert(fc.property(linesArb(6), localDateArb, fc.integer({ min: 0, max: 3 }), (lines, issueDate, payments) => {
      const d = documentDecider.decide({ type: 'DraftDocument', data: { documentId: 'x', type: 'invoice', number: 1, reference: 'INV-1', client: client('Hemi'), lines, gstRounding: 'total', issueDate, paymentTerms: '7 days' } }, { status: 'none' });
      const events = [...d, issue('x'), ...Array.from({ length: payments }, (_, k) => pay('x', `p${k}`, '1.00', issueDate))];
      const view = foldDocument(events) as DocumentView;
      expect(reportRowsOf(view, documentFigures(view))).toEqual(reportRowsOf(view));
    }));
  });

  it('a GST report equals the sum of its invoice list, and its months add up to its totals', () => {
    fc.assert(fc.property(invoicesArb, (specs) => {
      const rows = build(specs);
      const range = checkRange('2020-01-01', '2030-12-31');
      const r = gstReport(rows, range);
      const cents = (n: number) => Math.round(n * 100);
      expect(cents(r.total_sales)).toBe(Number(rows.invoices.reduce((a, x) => a + x.totalCents, 0n)));
      expect(cents(r.total_gst_collected)).toBe(Number(rows.invoices.reduce((a, x) => a + x.gstCents, 0n)));
      expect(r.breakdown_by_month.reduce((a, m) => a + cents(m.sales), 0)).toBe(cents(r.total_sales));
      expect(r.breakdown_by_month.reduce((a, m) => a + m.count, 0)).toBe(r.invoice_count);
      expect(r.paid_invoices_count + r.unpaid_invoices_count + r.voided_invoices_count).toBe(r.invoice_count);
    }), { numRuns: 60 });
  });

  it('once every invoice is paid, the payments basis carries exactly the invoice-basis GST', () => {
    fc.assert(fc.property(invoicesArb.map((xs) => xs.map((x) => ({ ...x, paidShare: Math.max(1, x.paidShare) }))), (specs) => {
      const rows = build(specs);
      const range = checkRange('2020-01-01', '2030-12-31');
      const inv = gstReport(rows, range, 'invoice');
      const pays = gstReport(rows, range, 'payments');
      const nonZero = rows.invoices.filter((r) => r.totalCents > 0n);
      expect(pays.total_gst_collected).toBe(gstReport({ invoices: nonZero, payments: [] }, range).total_gst_collected);
      expect(pays.total_sales).toBe(inv.total_sales);
    }), { numRuns: 60 });
  });
});
