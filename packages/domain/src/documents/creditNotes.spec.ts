// Credit notes on the invoice decider, against numbers worked by hand. The invoice: 1 × $180 and
// 2.5 × $90, GST exclusive: 405.00 + GST 60.75 = 465.75.
import { describe, expect, it } from 'vitest';
import { type DocumentCommand, type DocumentView, type IssueCreditNoteInput, documentDecider, documentFigures, foldDocument, paymentStatus } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';
import { gstReport } from '../reports/gstReport.ts';
import { reportRowsOf } from '../reports/rows.ts';
import { specFor } from '../../test/specification.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([
  { description: 'Replace hot water cylinder valve', qty: 1, unit_price: 180 },
  { description: 'Labour', qty: 2.5, unit_price: 90 },
]);
const drafted = documentDecider.decide(
  { type: 'DraftDocument', data: { documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
  { status: 'none' },
)[0]!;
const issued: DocumentEvent = { type: 'DocumentIssued', data: { documentId: 'd1' } };
const paidInFull: DocumentEvent = { type: 'PaymentRecorded', data: { documentId: 'd1', paymentId: 'p1', amount: '465.75', date: '2026-05-10', method: 'bank_transfer', reference: '' } };
const supplier = { name: 'Kauri Plumbing Ltd', gstNumber: '49-091-850' };

const creditCommand = (credit: IssueCreditNoteInput['credit'], n = 1, date = '2026-07-15'): DocumentCommand => ({
  type: 'IssueCreditNote',
  data: { creditNoteId: `cn${n}`, number: n, reference: `CN-000${n}`, date, reason: 'Valve supplied by the client', supplier, credit },
});
const decide = (events: DocumentEvent[], c: DocumentCommand): DocumentEvent[] => documentDecider.decide(c, foldDocument(events));
const view = (events: DocumentEvent[]): DocumentView => foldDocument(events) as DocumentView;

describe('issuing a credit note', () => {
  it('credits a whole line: 180.00 + GST 27.00 = 207.00, with the supply correction information', () => {
    const [e] = decide([drafted, issued], creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }] }));
    expect(e).toEqual({
      type: 'CreditNoteIssued',
      data: {
        documentId: 'd1', creditNoteId: 'cn1', number: 1, reference: 'CN-0001', invoiceReference: 'INV-0001', date: '2026-07-15',
        reason: 'Valve supplied by the client', supplier, lines: [{ lineIndex: 0, line: lines[0] }], amount: null,
        subtotal: '180.00', gst: '27.00', total: '207.00', zeroRated: '0.00',
      },
    });
    const d = view([drafted, issued, e!]);
    const f = documentFigures(d);
    expect([f.creditedCents, f.balanceCents]).toEqual([20700n, 25875n]);
  });

  it('credits part of a line: 1 of the 2.5 hours, 90.00 + 13.50 = 103.50', () => {
    const [e] = decide([drafted, issued], creditCommand({ kind: 'lines', lines: [{ lineIndex: 1, qty: '1' }] }));
    expect(e).toMatchObject({ data: { lines: [{ lineIndex: 1, line: { qty: '1', unit_price: '90' } }], subtotal: '90.00', gst: '13.50', total: '103.50' } });
  });

  it('credits an amount: 46.00 carries the invoice\'s GST share, 46 × 60.75 / 465.75 = 6.00', () => {
    const [e] = decide([drafted, issued], creditCommand({ kind: 'amount', amount: '46' }));
    expect(e).toMatchObject({ data: { lines: [], amount: '46.00', subtotal: '40.00', gst: '6.00', total: '46.00' } });
  });

  it('all of it, in two credits: the second carries what is left, 258.75 of which GST 33.75', () => {
    const first = decide([drafted, issued], creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }] }));
    const [second] = decide([drafted, issued, ...first], creditCommand({ kind: 'lines', lines: [{ lineIndex: 1 }] }, 2));
    expect(second).toMatchObject({ data: { subtotal: '225.00', gst: '33.75', total: '258.75' } });
    const d = view([drafted, issued, ...first, second!]);
    expect(documentFigures(d).balanceCents).toBe(0n);
    expect(paymentStatus(d)).toBe('paid');
  });

  it('refuses a draft, a quote, a void invoice, and says why', () => {
    given(drafted).when(creditCommand({ kind: 'amount', amount: '10' })).thenThrows('CONFLICT', /draft/);
    given(drafted, issued, { type: 'DocumentVoided', data: { documentId: 'd1', reason: 'x' } }).when(creditCommand({ kind: 'amount', amount: '10' })).thenThrows('CONFLICT', /void/);
    const quote = documentDecider.decide(
      { type: 'DraftDocument', data: { documentId: 'd1', type: 'quote', number: 1, reference: 'QTE-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days' } },
      { status: 'none' },
    )[0]!;
    given(quote, { type: 'DocumentSent', data: { documentId: 'd1', to: ['a@b.nz'], cc: [], bcc: [], subject: 's' } }).when(creditCommand({ kind: 'amount', amount: '10' })).thenThrows('CONFLICT', /Only an invoice/);
  });

  it('refuses more than is left: 465.76, then after crediting 207.00 anything over 258.75', () => {
    given(drafted, issued).when(creditCommand({ kind: 'amount', amount: '465.76' })).thenThrows('VALIDATION', /more than the \$465\.75 left/);
    const first = decide([drafted, issued], creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }] }));
    given(drafted, issued, ...first).when(creditCommand({ kind: 'amount', amount: '258.76' }, 2)).thenThrows('VALIDATION', /\$258\.75 left/);
    given(drafted, issued, ...first).when(creditCommand({ kind: 'lines', lines: [{ lineIndex: 0, qty: '0.5' }] }, 2)).thenThrows('VALIDATION', /already fully credited/);
    given(drafted, issued).when(creditCommand({ kind: 'lines', lines: [{ lineIndex: 1, qty: '2.6' }] })).thenThrows('VALIDATION', /only 2\.5 left/);
  });

  it('refuses bad input: no line, a line not there, a line twice, cents below a cent, no reason', () => {
    given(drafted, issued).when(creditCommand({ kind: 'lines', lines: [] })).thenThrows('VALIDATION', /at least one line/);
    given(drafted, issued).when(creditCommand({ kind: 'lines', lines: [{ lineIndex: 2 }] })).thenThrows('VALIDATION', /no line 3/);
    given(drafted, issued).when(creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }, { lineIndex: 0 }] })).thenThrows('VALIDATION', /twice/);
    given(drafted, issued).when(creditCommand({ kind: 'amount', amount: '1.005' })).thenThrows('VALIDATION', /dollars and cents/);
    given(drafted, issued).when(creditCommand({ kind: 'amount', amount: '0' })).thenThrows('VALIDATION', /more than \$0\.00/);
    given(drafted, issued).when({ type: 'IssueCreditNote', data: { creditNoteId: 'cn1', number: 1, reference: 'CN-0001', date: '2026-07-15', reason: '  ', supplier, credit: { kind: 'amount', amount: '1' } } }).thenThrows('VALIDATION', /why/);
  });

  it('an issued invoice with a credit note is never voided', () => {
    const first = decide([drafted, issued], creditCommand({ kind: 'amount', amount: '10' }));
    given(drafted, issued, ...first).when({ type: 'VoidDocument', data: { reason: 'x' } }).thenThrows('CONFLICT', /credit notes/);
  });
});

describe('money owed back: a credit larger than the balance', () => {
  const credited = (): DocumentEvent[] => [drafted, issued, paidInFull, ...decide([drafted, issued, paidInFull], creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }] }))];
  const refund = (amount: string, refundId = 'r1'): DocumentCommand => ({ type: 'RecordCreditNoteRefund', data: { creditNoteId: 'cn1', refundId, amount, date: '2026-08-03', method: 'bank_transfer', reference: 'Refund' } });

  it('paid 465.75, credited 207.00: balance −207.00 (to refund); a refund of 207.00 brings it to 0', () => {
    expect(documentFigures(view(credited())).balanceCents).toBe(-20700n);
    given(...credited()).when(refund('207.01')).thenThrows('VALIDATION', /\$207\.00 owed back/);
    const [r] = decide(credited(), refund('207'));
    expect(r).toEqual({ type: 'CreditNoteRefunded', data: { documentId: 'd1', creditNoteId: 'cn1', refundId: 'r1', amount: '207.00', date: '2026-08-03', method: 'bank_transfer', reference: 'Refund' } });
    const d = view([...credited(), r!]);
    expect(documentFigures(d).balanceCents).toBe(0n);
    given(...credited(), r!).when(refund('1', 'r2')).thenThrows('VALIDATION', /Nothing is owed back/);
  });

  it('a credit that only lowers an unpaid balance owes nothing back', () => {
    const events = [drafted, issued, ...decide([drafted, issued], creditCommand({ kind: 'amount', amount: '46' }))];
    given(...events).when(refund('1')).thenThrows('VALIDATION', /Nothing is owed back/);
  });
});

describe('reports: the credit note is a correction in the period it is issued', () => {
  it('invoice basis: May has the invoice (465.75, GST 60.75), July the credit (−207.00, GST −27.00); May never changes', () => {
    const events = credited();
    const rows = reportRowsOf(view(events));
    const all = { invoices: [rows.invoice!], payments: rows.payments, credits: rows.credits };
    const may = gstReport(all, { start: '2026-05-01', end: '2026-06-30' });
    expect([may.total_sales, may.total_gst_collected, may.corrections.count]).toEqual([465.75, 60.75, 0]);
    const july = gstReport(all, { start: '2026-07-01', end: '2026-08-31' });
    expect([july.total_sales, july.total_gst_collected, july.invoice_count]).toEqual([-207, -27, 0]);
    expect(july.corrections).toEqual({ count: 1, sales: -207, gst: -27, invoices_voided: 0, credit_notes: 1, payments_removed: 0, refunds: 0 });
    // Payments basis: nothing in July (no money moved); the refund in August, −207.00 with GST −27.00.
    const julyPaid = gstReport(all, { start: '2026-07-01', end: '2026-07-31' }, 'payments');
    expect([julyPaid.total_sales, julyPaid.total_gst_collected]).toEqual([0, 0]);
  });

  it('payments basis: the refund counts when it is paid back, with the credit note\'s GST (207.00 × 3/23 = 27.00)', () => {
    const [r] = decide(credited(), { type: 'RecordCreditNoteRefund', data: { creditNoteId: 'cn1', refundId: 'r1', amount: '207', date: '2026-08-03', method: 'bank_transfer', reference: '' } });
    const rows = reportRowsOf(view([...credited(), r!]));
    const all = { invoices: [rows.invoice!], payments: rows.payments, credits: rows.credits };
    const aug = gstReport(all, { start: '2026-08-01', end: '2026-08-31' }, 'payments');
    expect([aug.total_sales, aug.total_gst_collected]).toEqual([-207, -27]);
    expect(aug.corrections).toEqual({ count: 1, sales: -207, gst: -27, invoices_voided: 0, credit_notes: 0, payments_removed: 0, refunds: 1 });
    const may = gstReport(all, { start: '2026-05-01', end: '2026-05-31' }, 'payments');
    expect([may.total_sales, may.total_gst_collected]).toEqual([465.75, 60.75]);
  });

  function credited(): DocumentEvent[] {
    return [drafted, issued, paidInFull, ...decide([drafted, issued, paidInFull], creditCommand({ kind: 'lines', lines: [{ lineIndex: 0 }] }))];
  }
});

describe('emailing a credit note', () => {
  const credited = [drafted, issued, ...decide([drafted, issued], creditCommand({ kind: 'amount', amount: '20' }))];
  const email = (outcome: 'delivered' | 'saved_not_delivered' | 'failed', detail: string | null, creditNoteId = 'cn1'): DocumentCommand => ({
    type: 'RecordCreditNoteEmail',
    data: { creditNoteId, to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Credit note CN-0001', outcome, detail },
  });

  it('records what happened to each email on the credit note, and changes no figure', () => {
    const delivered = decide(credited, email('delivered', 'ignored'));
    expect(delivered).toEqual([{ type: 'CreditNoteEmailed', data: { documentId: 'd1', creditNoteId: 'cn1', to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Credit note CN-0001', outcome: 'delivered', detail: null } }]);
    const outbox = decide(credited, email('saved_not_delivered', 'Saved to the outbox'));
    const after = view([...credited, ...delivered, ...outbox]);
    expect(after.creditNotes[0]!.sends.map((s) => [s.outcome, s.detail])).toEqual([['delivered', null], ['saved_not_delivered', 'Saved to the outbox']]);
    expect(documentFigures(after).balanceCents).toBe(documentFigures(view(credited)).balanceCents);
  });

  it('refuses a credit note that is not on the invoice, and an email to nobody', () => {
    expect(() => decide(credited, email('delivered', null, 'cn9'))).toThrow('Credit note not found');
    expect(() => decide(credited, { type: 'RecordCreditNoteEmail', data: { creditNoteId: 'cn1', to: [], cc: [], bcc: [], subject: 'x', outcome: 'delivered', detail: null } })).toThrow('Say who the credit note goes to');
  });
});
