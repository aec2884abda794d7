// The reports read the projections report_invoices and report_payments (packages/projections),
// never the event log. SQL adds up whole cents per month over an indexed range of one account's
// rows and hands the sums to the domain's assemblers — the same functions `npm run replay` uses
// on the same rows in memory, so the two cannot disagree.
//
// bigint sums come back ::text (PGlite answers numbers, postgres.js strings) and become BigInt.
import {
  assembleAnnualSummary, assembleGstReport, taxYearRange, TOP_CLIENTS,
  type AnnualSums, type AnnualSummary, type DateRange, type GstBasis, type GstReport, type GstSums, type LocalDate,
} from '@tradie/domain';
import type { Sql } from '@tradie/store';

interface MonthRow {
  month: string | null;
  sales: string;
  gst: string;
  zero: string;
  count: number | string;
  paid: number | string;
}

/**
 * Invoice basis: invoices by their time of supply (supply_date: the issue date or an earlier
 * deposit), whole value, in the month of supply. Index: report_invoices (account_id, supply_date).
 */
export async function invoiceBasisSums(sql: Sql, accountId: string, range: DateRange): Promise<GstSums> {
  const rows = await sql.query<MonthRow>(
    `SELECT supply_month AS month,
            sum(total_cents)::text AS sales, sum(gst_cents)::text AS gst, sum(zero_rated_cents)::text AS zero,
            count(*)::int AS count, count(*) FILTER (WHERE paid)::int AS paid
       FROM report_invoices
      WHERE account_id = $1 AND supply_date BETWEEN $2::date AND $3::date
      GROUP BY supply_month`,
    [accountId, range.start, range.end],
  );
  const months = rows.map((r) => ({ month: r.month ?? '', salesCents: BigInt(r.sales), gstCents: BigInt(r.gst), zeroRatedCents: BigInt(r.zero), count: Number(r.count) }));
  return {
    months,
    invoiceCount: months.reduce((a, m) => a + m.count, 0),
    paidCount: rows.reduce((a, r) => a + Number(r.paid), 0),
  };
}

/**
 * Payments basis: payments received in the range with their share of GST; counts are distinct
 * invoices, per month and over the whole range (the grouping set `()` is the whole range).
 * Index: report_payments (account_id, date).
 */
export async function paymentsBasisSums(sql: Sql, accountId: string, range: DateRange): Promise<GstSums> {
  const rows = await sql.query<MonthRow>(
    `SELECT month,
            sum(amount_cents)::text AS sales, sum(gst_cents)::text AS gst, sum(zero_rated_cents)::text AS zero,
            count(DISTINCT document_id)::int AS count,
            count(DISTINCT document_id) FILTER (WHERE invoice_paid)::int AS paid
       FROM report_payments
      WHERE account_id = $1 AND date BETWEEN $2::date AND $3::date
      GROUP BY GROUPING SETS ((month), ())`,
    [accountId, range.start, range.end],
  );
  const whole = rows.find((r) => r.month === null);
  return {
    months: rows
      .filter((r) => r.month !== null)
      .map((r) => ({ month: r.month ?? '', salesCents: BigInt(r.sales), gstCents: BigInt(r.gst), zeroRatedCents: BigInt(r.zero), count: Number(r.count) })),
    invoiceCount: Number(whole?.count ?? 0),
    paidCount: Number(whole?.paid ?? 0),
  };
}

export async function gstReportFor(sql: Sql, accountId: string, range: DateRange, basis: GstBasis): Promise<GstReport> {
  const sums = basis === 'invoice' ? await invoiceBasisSums(sql, accountId, range) : await paymentsBasisSums(sql, accountId, range);
  return assembleGstReport(sums, range, basis);
}

/**
 * Annual summary: invoices by issue date in the tax year; revenue is GST-exclusive. The top
 * clients are ranked in SQL exactly as compareClients ranks them (revenue, then name in
 * code-point order: COLLATE "C"), so the ten SQL returns are the ten the domain keeps.
 * Index: report_invoices (account_id, issue_date).
 */
export async function annualSums(sql: Sql, accountId: string, year: number): Promise<AnnualSums> {
  const range = taxYearRange(year);
  const [months, clients] = await Promise.all([
    sql.query<{ month: string; revenue: string; gst: string; count: number | string; paid_count: number | string; paid_revenue: string }>(
      `SELECT month,
              sum(subtotal_cents)::text AS revenue, sum(gst_cents)::text AS gst,
              count(*)::int AS count, count(*) FILTER (WHERE paid)::int AS paid_count,
              coalesce(sum(subtotal_cents) FILTER (WHERE paid), 0)::text AS paid_revenue
         FROM report_invoices
        WHERE account_id = $1 AND issue_date BETWEEN $2::date AND $3::date
        GROUP BY month`,
      [accountId, range.start, range.end],
    ),
    sql.query<{ name: string; revenue: string }>(
      `SELECT client_name AS name, sum(subtotal_cents)::text AS revenue
         FROM report_invoices
        WHERE account_id = $1 AND issue_date BETWEEN $2::date AND $3::date AND client_name <> ''
        GROUP BY client_name
        ORDER BY sum(subtotal_cents) DESC, client_name COLLATE "C"
        LIMIT $4::int`,
      [accountId, range.start, range.end, TOP_CLIENTS],
    ),
  ]);
  return {
    months: months.map((m) => ({
      month: m.month,
      revenueCents: BigInt(m.revenue),
      gstCents: BigInt(m.gst),
      count: Number(m.count),
      paidCount: Number(m.paid_count),
      paidRevenueCents: BigInt(m.paid_revenue),
    })),
    clients: clients.map((c) => ({ name: c.name, revenueCents: BigInt(c.revenue) })),
  };
}

export async function annualSummaryFor(sql: Sql, accountId: string, year: number): Promise<AnnualSummary> {
  return assembleAnnualSummary(await annualSums(sql, accountId, year), year);
}

// ---- rows for the CSV exports ----------------------------------------------------------------

/** One invoice as the CSV shows it. */
export interface InvoiceLine {
  reference: string;
  issueDate: LocalDate;
  supplyDate: LocalDate;
  clientName: string;
  clientGstNumber: string;
  subtotalCents: bigint;
  gstCents: bigint;
  totalCents: bigint;
  zeroRatedCents: bigint;
  paid: boolean;
  paidDate: LocalDate | null;
}

/** One payment as the payments-basis CSV shows it, with its invoice's reference and client. */
export interface PaymentLine {
  documentId: string;
  reference: string;
  date: LocalDate;
  issueDate: LocalDate;
  clientName: string;
  clientGstNumber: string;
  amountCents: bigint;
  gstCents: bigint;
  zeroRatedCents: bigint;
  invoicePaid: boolean;
  paidDate: LocalDate | null;
}

// The rows travel as one JSON document built by the database (json_agg), not as thousands of
// protocol rows: on PGlite that is several times faster for a year of invoices. bigint cents are
// cast to text inside the JSON so no amount passes through a float.

type InvoiceTuple = [string, string, string, string, string, string, string, string, string, boolean, string | null];

const toInvoiceLine = ([reference, issueDate, supplyDate, clientName, clientGstNumber, subtotal, gst, total, zero, paid, paidDate]: InvoiceTuple): InvoiceLine => ({
  reference,
  issueDate,
  supplyDate,
  clientName,
  clientGstNumber,
  subtotalCents: BigInt(subtotal),
  gstCents: BigInt(gst),
  totalCents: BigInt(total),
  zeroRatedCents: BigInt(zero),
  paid,
  paidDate,
});

const INVOICE_TUPLE = `json_build_array(reference, issue_date, supply_date, client_name, client_gst_number,
  subtotal_cents::text, gst_cents::text, total_cents::text, zero_rated_cents::text, paid, paid_date)`;

async function jsonRows<T>(sql: Sql, text: string, params: unknown[]): Promise<T[]> {
  const [row] = await sql.query<{ rows: string }>(text, params);
  return JSON.parse(row?.rows ?? '[]') as T[];
}

/** Invoices supplied in the range (invoice basis), in date order. */
export async function invoicesSuppliedIn(sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> {
  const rows = await jsonRows<InvoiceTuple>(
    sql,
    `SELECT coalesce(json_agg(${INVOICE_TUPLE} ORDER BY supply_date, issue_date, reference COLLATE "C", document_id), '[]')::text AS rows
       FROM report_invoices
      WHERE account_id = $1 AND supply_date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(toInvoiceLine);
}

/** Invoices issued in the range (annual summary), in date order. */
export async function invoicesIssuedIn(sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> {
  const rows = await jsonRows<InvoiceTuple>(
    sql,
    `SELECT coalesce(json_agg(${INVOICE_TUPLE} ORDER BY issue_date, reference COLLATE "C", document_id), '[]')::text AS rows
       FROM report_invoices
      WHERE account_id = $1 AND issue_date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(toInvoiceLine);
}

type PaymentTuple = [string, string, string, string, string, string, string, string, string, boolean, string | null];

/** Payments received in the range (payments basis), in date order, with their invoice's details. */
export async function paymentsReceivedIn(sql: Sql, accountId: string, range: DateRange): Promise<PaymentLine[]> {
  const rows = await jsonRows<PaymentTuple>(
    sql,
    `SELECT coalesce(json_agg(json_build_array(p.document_id, i.reference, p.date, i.issue_date, i.client_name, i.client_gst_number,
              p.amount_cents::text, p.gst_cents::text, p.zero_rated_cents::text, p.invoice_paid, i.paid_date)
              ORDER BY p.date, i.reference COLLATE "C", p.document_id, p.payment_id), '[]')::text AS rows
       FROM report_payments p
       JOIN report_invoices i ON i.document_id = p.document_id AND i.account_id = p.account_id
      WHERE p.account_id = $1 AND p.date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(([documentId, reference, date, issueDate, clientName, clientGstNumber, amount, gst, zero, invoicePaid, paidDate]) => ({
    documentId,
    reference,
    date,
    issueDate,
    clientName,
    clientGstNumber,
    amountCents: BigInt(amount),
    gstCents: BigInt(gst),
    zeroRatedCents: BigInt(zero),
    invoicePaid,
    paidDate,
  }));
}
