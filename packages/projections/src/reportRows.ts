// report_invoices and report_payments: the rows the GST report, the annual summary and the CSV
// read. The rows are the domain's own reportRowsOf(state), so a report from SQL sums equals the
// in-memory replay of the same events. The document's figures (totals, paid, balance) are the ones
// figuresOf shares with the other read models of the stream, worked out once per folded state.
import { reportRowsOf } from '@tradie/domain';
import { type Projection, column as c, nullableColumn as n } from '@tradie/store';
import { documentKey, figuresOf, foldDocumentStream, streamAccount } from './fold.ts';

/**
 * Each payment with the one before it of the same invoice (removals of payments take no part: they
 * are corrections, never counted as an invoice's payment), in (date, payment id) order. The
 * payments-basis counts are distinct invoices: over a range starting on `start`, an invoice's
 * first payment in the range is the one whose previous payment is missing or dated before
 * `start` (the previous one of a payment in the range is in the range unless it is before it).
 * So `count(*) FILTER (WHERE previous_date IS NULL OR previous_date < start)` counts each
 * invoice once, and with `previous_in_month` (the previous payment's date when it is in the
 * same month) once per month — plain counts in one hashed pass instead of count(DISTINCT).
 */
export function withPrevious<P extends { paymentId: string; date: string }>(payments: readonly P[]): { row: P; previous: P | null }[] {
  const ordered = [...payments].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.paymentId < b.paymentId ? -1 : a.paymentId > b.paymentId ? 1 : 0));
  return ordered.map((row, i) => ({ row, previous: ordered[i - 1] ?? null }));
}

export const reportRowsProjection: Projection = {
  name: 'report_rows',
  // 2: only issued invoices have rows; voids and payment removals are dated corrections.
  // 3: credit notes (report_credits), dated corrections of their own; refunds on them are payment rows.
  // 4: payments-basis shares worked over the invoice net of its credit notes (refunds on them
  //    included), a 'credit' row when a credit note settles money held; the time of supply is the
  //    earlier of the day an invoice was issued and its date.
  // 5: the instant an invoice was first issued (issued_at), which says whether it came after a GST
  //    export of its period (adjustments to carry).
  version: 5,
  categories: ['document'],
  tables: [
    {
      name: 'report_invoices',
      streamKey: 'document_id',
      primaryKey: ['document_id'],
      indexes: {
        report_invoices_account_date: '(account_id, issue_date)',
        report_invoices_account_supply: '(account_id, supply_date)',
        report_invoices_account_void: '(account_id, void_date) WHERE void_date IS NOT NULL',
      },
      columns: [
        c('document_id'), c('account_id'), c('reference'), c('issue_date', 'date'), c('month'), c('supply_date', 'date'), c('supply_month'), c('client_name'), c('client_gst_number'),
        c('subtotal_cents', 'bigint'), c('gst_cents', 'bigint'), c('total_cents', 'bigint'), c('zero_rated_cents', 'bigint'),
        c('paid', 'boolean'), n('paid_date', 'date'), n('void_date', 'date'), n('void_month'), n('issued_at'),
      ],
    },
    {
      name: 'report_payments',
      streamKey: 'document_id',
      primaryKey: ['document_id', 'entry'],
      indexes: { report_payments_account_date: '(account_id, date)' },
      columns: [
        c('document_id'), c('entry'), c('payment_id'), c('kind'), c('account_id'), c('date', 'date'), c('month'), c('amount_cents', 'bigint'),
        c('gst_cents', 'bigint'), c('zero_rated_cents', 'bigint'), c('invoice_paid', 'boolean'), c('invoice_voided', 'boolean'),
        n('previous_date', 'date'), n('previous_in_month', 'date'),
      ],
    },
    {
      name: 'report_credits',
      streamKey: 'document_id',
      primaryKey: ['document_id', 'credit_note_id'],
      indexes: { report_credits_account_date: '(account_id, date)' },
      columns: [
        c('document_id'), c('credit_note_id'), c('account_id'), c('reference'), c('invoice_reference'), c('date', 'date'), c('month'), c('client_name'), c('client_gst_number'),
        c('subtotal_cents', 'bigint'), c('gst_cents', 'bigint'), c('total_cents', 'bigint'), c('zero_rated_cents', 'bigint'),
      ],
    },
  ],
  key: documentKey,
  rows(stream) {
    const state = foldDocumentStream(stream.events);
    if (state.status === 'none') return {};
    const account = streamAccount(stream.events);
    // The totals the documents list and the reminders' targets worked out for the same state.
    const { invoice, payments, credits } = reportRowsOf(state, figuresOf(state));
    if (!invoice) return {};
    return {
      report_invoices: [
        {
          document_id: invoice.documentId, account_id: account, reference: invoice.reference, issue_date: invoice.issueDate,
          month: invoice.month, supply_date: invoice.supplyDate, supply_month: invoice.supplyMonth, client_name: invoice.clientName, client_gst_number: invoice.clientGstNumber,
          subtotal_cents: invoice.subtotalCents.toString(), gst_cents: invoice.gstCents.toString(), total_cents: invoice.totalCents.toString(),
          zero_rated_cents: invoice.zeroRatedCents.toString(), paid: invoice.paid, paid_date: invoice.paidDate,
          void_date: invoice.voidDate, void_month: invoice.voidMonth, issued_at: invoice.issuedAt,
        },
      ],
      report_payments: [
        ...withPrevious(payments.filter((p) => p.kind === 'payment')),
        ...payments.filter((p) => p.kind !== 'payment').map((row) => ({ row, previous: null })),
      ].map(({ row: p, previous }) => ({
        document_id: p.documentId, entry: p.kind === 'refund' ? `refund:${p.refundId ?? p.paymentId}` : `${p.kind}:${p.paymentId}`, payment_id: p.paymentId, kind: p.kind, account_id: account, date: p.date, month: p.month,
        amount_cents: p.amountCents.toString(), gst_cents: p.gstCents.toString(), zero_rated_cents: p.zeroRatedCents.toString(),
        invoice_paid: p.invoicePaid, invoice_voided: p.invoiceVoided, previous_date: previous?.date ?? null, previous_in_month: previous?.month === p.month ? previous.date : null,
      })),
      report_credits: credits.map((r) => ({
        document_id: r.documentId, credit_note_id: r.creditNoteId, account_id: account, reference: r.reference, invoice_reference: r.invoiceReference,
        date: r.date, month: r.month, client_name: r.clientName, client_gst_number: r.clientGstNumber,
        subtotal_cents: r.subtotalCents.toString(), gst_cents: r.gstCents.toString(), total_cents: r.totalCents.toString(), zero_rated_cents: r.zeroRatedCents.toString(),
      })),
    };
  },
};
