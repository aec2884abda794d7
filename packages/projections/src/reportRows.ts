// report_invoices and report_payments: the rows the GST report, the annual summary and the CSV
// read. The rows are the domain's own reportRowsOf(state), so a report from SQL sums equals the
// in-memory replay of the same events.
import { reportRowsOf } from '@tradie/domain';
import type { Projection, RecordedEvent, Sql } from '@tradie/store';
import { foldDocumentStream, streamAccount } from './fold.ts';

export const reportRowsSchema = `
CREATE TABLE IF NOT EXISTS report_invoices (
  document_id        text PRIMARY KEY,
  account_id         text NOT NULL,
  reference          text NOT NULL,
  issue_date         date NOT NULL,
  month              text NOT NULL,
  client_name        text NOT NULL,
  client_gst_number  text NOT NULL,
  subtotal_cents     bigint NOT NULL,
  gst_cents          bigint NOT NULL,
  total_cents        bigint NOT NULL,
  zero_rated_cents   bigint NOT NULL,
  paid               boolean NOT NULL,
  paid_date          date
);
CREATE INDEX IF NOT EXISTS report_invoices_account_date ON report_invoices (account_id, issue_date);
CREATE TABLE IF NOT EXISTS report_payments (
  document_id        text NOT NULL,
  payment_id         text NOT NULL,
  account_id         text NOT NULL,
  date               date NOT NULL,
  month              text NOT NULL,
  amount_cents       bigint NOT NULL,
  gst_cents          bigint NOT NULL,
  zero_rated_cents   bigint NOT NULL,
  invoice_paid       boolean NOT NULL,
  PRIMARY KEY (document_id, payment_id)
);
CREATE INDEX IF NOT EXISTS report_payments_account_date ON report_payments (account_id, date);
`;

async function project(sql: Sql, stream: { streamId: string; events: RecordedEvent[] }): Promise<void> {
  const state = foldDocumentStream(stream.events);
  if (state.status === 'none') return;
  const account = streamAccount(stream.events);
  const { invoice, payments } = reportRowsOf(state);
  await sql.query('DELETE FROM report_payments WHERE document_id = $1', [state.id]);
  if (!invoice) {
    await sql.query('DELETE FROM report_invoices WHERE document_id = $1', [state.id]);
    return;
  }
  await sql.query(
    `INSERT INTO report_invoices (document_id, account_id, reference, issue_date, month, client_name, client_gst_number,
       subtotal_cents, gst_cents, total_cents, zero_rated_cents, paid, paid_date)
     VALUES ($1,$2,$3,$4::date,$5,$6,$7,$8::bigint,$9::bigint,$10::bigint,$11::bigint,$12,$13::date)
     ON CONFLICT (document_id) DO UPDATE SET reference = EXCLUDED.reference, issue_date = EXCLUDED.issue_date, month = EXCLUDED.month,
       client_name = EXCLUDED.client_name, client_gst_number = EXCLUDED.client_gst_number, subtotal_cents = EXCLUDED.subtotal_cents,
       gst_cents = EXCLUDED.gst_cents, total_cents = EXCLUDED.total_cents, zero_rated_cents = EXCLUDED.zero_rated_cents,
       paid = EXCLUDED.paid, paid_date = EXCLUDED.paid_date`,
    [
      invoice.documentId, account, invoice.reference, invoice.issueDate, invoice.month, invoice.clientName, invoice.clientGstNumber,
      invoice.subtotalCents.toString(), invoice.gstCents.toString(), invoice.totalCents.toString(), invoice.zeroRatedCents.toString(),
      invoice.paid, invoice.paidDate,
    ],
  );
  for (const p of payments) {
    await sql.query(
      `INSERT INTO report_payments (document_id, payment_id, account_id, date, month, amount_cents, gst_cents, zero_rated_cents, invoice_paid)
       VALUES ($1,$2,$3,$4::date,$5,$6::bigint,$7::bigint,$8::bigint,$9)`,
      [p.documentId, p.paymentId, account, p.date, p.month, p.amountCents.toString(), p.gstCents.toString(), p.zeroRatedCents.toString(), p.invoicePaid],
    );
  }
}

export const reportRowsProjection: Projection = {
  name: 'report_rows',
  categories: ['document'],
  schema: reportRowsSchema,
  tables: ['report_invoices', 'report_payments'],
  project,
};
