// The reports read the projections report_invoices and report_payments (packages/projections),
// never the event log. SQL adds up whole cents (per day for the GST report, per month and per
// client for the annual summary) over an indexed range of one account's rows, in one pass each,
// and hands the sums to the domain's assemblers — the same functions `npm run replay` uses
// on the same rows in memory, so the two cannot disagree.
//
// bigint sums come back ::text (PGlite answers numbers, postgres.js strings) and become BigInt.
import {
  assembleAnnualSummary, assembleGstReport, monthOf, periodLabel, taxYearRange, withCarries,
  NO_CORRECTIONS, type PaymentRowKind, type AnnualSums, type AnnualSummary, type DateRange, type GstBasis, type GstMonthSums, type GstReport, type GstSums, type LocalDate, type ReportInvoiceRow,
} from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { carriedInvoices } from './gstExports.ts';
import { purchasesFor } from './purchases.ts';

interface DayRow {
  day: LocalDate;
  sales: string;
  gst: string;
  zero: string;
  count: number | string;
  invoices: number | string;
  paid: number | string;
  voided: number | string;
  /** Corrections dated that day (voids and credit notes on the invoice basis, removed payments and refunds on the payments basis). */
  corrections: number | string;
  /** Of them, by kind (CorrectionSums). */
  voids: number | string;
  credit_notes: number | string;
  removals: number | string;
  refunds: number | string;
  correction_sales: string | null;
  correction_gst: string | null;
}

// The GST sums are per day in SQL and per month here (monthOf, as the projection's month
// columns are). Grouping by the date the index is ordered by needs no sort whatever plan the
// planner picks (with stale statistics it walks the index; a sort of the rows by the month's
// text was most of the query then); a year is 365 small rows.
function gstSumsOfDays(rows: readonly DayRow[], draftsLeftOut: number): GstSums {
  const months = new Map<string, GstMonthSums>();
  let invoiceCount = 0;
  let paidCount = 0;
  let voidedCount = 0;
  const corrections = { ...NO_CORRECTIONS };
  for (const r of rows) {
    const month = monthOf(r.day);
    const m = months.get(month) ?? { month, salesCents: 0n, gstCents: 0n, zeroRatedCents: 0n, count: 0 };
    m.salesCents += BigInt(r.sales);
    m.gstCents += BigInt(r.gst);
    m.zeroRatedCents += BigInt(r.zero);
    m.count += Number(r.count);
    months.set(month, m);
    invoiceCount += Number(r.invoices);
    paidCount += Number(r.paid);
    voidedCount += Number(r.voided);
    corrections.count += Number(r.corrections);
    corrections.salesCents += BigInt(r.correction_sales ?? '0');
    corrections.gstCents += BigInt(r.correction_gst ?? '0');
    corrections.voids += Number(r.voids);
    corrections.creditNotes += Number(r.credit_notes);
    corrections.removals += Number(r.removals);
    corrections.refunds += Number(r.refunds);
  }
  return { months: [...months.values()], invoiceCount, paidCount, voidedCount, corrections, draftsLeftOut };
}

/**
 * Draft invoices dated in the range: never issued, so in no report; the screen says how many.
 * Index: documents_list (account_id, type, seq).
 */
export async function draftsLeftOut(sql: Sql, accountId: string, range: DateRange): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>(
    `SELECT count(*)::int AS n FROM documents_list
      WHERE account_id = $1 AND type = 'invoice' AND lifecycle = 'draft' AND issue_date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return Number(row?.n ?? 0);
}

/**
 * DayRows of corrections on the invoice basis: the rows of `table` that `dated` picks, subtracted at
 * their whole value on the day in `dayColumn` (an invoice on the day of its void, a credit note on its date).
 */
const correctionsPerDay = (table: string, dayColumn: string, dated: string, kind: 'voids' | 'credit_notes'): string =>
  `SELECT to_char(${dayColumn}, 'YYYY-MM-DD') AS day,
              (-sum(total_cents))::text AS sales, (-sum(gst_cents))::text AS gst, (-sum(zero_rated_cents))::text AS zero,
              0 AS count, 0 AS invoices, 0 AS paid, 0 AS voided,
              count(*)::int AS corrections, (-sum(total_cents))::text AS correction_sales, (-sum(gst_cents))::text AS correction_gst,
              ${kind === 'voids' ? 'count(*)::int' : '0'} AS voids, ${kind === 'credit_notes' ? 'count(*)::int' : '0'} AS credit_notes, 0 AS removals, 0 AS refunds
         FROM ${table}
        WHERE account_id = $1 AND ${dated}
        GROUP BY ${dayColumn}`;

/**
 * Invoice basis: issued invoices by their time of supply (supply_date: the issue date or an
 * earlier deposit), whole value, in the month of supply; minus, on the day of the void, every
 * invoice voided in the range; minus, on their dates, the credit notes issued in the range.
 * Indexes: report_invoices (account_id, supply_date), the partial (account_id, void_date) and
 * report_credits (account_id, date).
 */
export async function invoiceBasisSums(sql: Sql, accountId: string, range: DateRange): Promise<GstSums> {
  const [rows, drafts] = await Promise.all([
    sql.query<DayRow>(
      `SELECT to_char(supply_date, 'YYYY-MM-DD') AS day,
              sum(total_cents)::text AS sales, sum(gst_cents)::text AS gst, sum(zero_rated_cents)::text AS zero,
              count(*)::int AS count, count(*)::int AS invoices, count(*) FILTER (WHERE paid)::int AS paid,
              count(*) FILTER (WHERE void_date IS NOT NULL)::int AS voided,
              0 AS corrections, NULL AS correction_sales, NULL AS correction_gst, 0 AS voids, 0 AS credit_notes, 0 AS removals, 0 AS refunds
         FROM report_invoices
        WHERE account_id = $1 AND supply_date BETWEEN $2::date AND $3::date
        GROUP BY supply_date
       UNION ALL
       ${correctionsPerDay('report_invoices', 'void_date', 'void_date IS NOT NULL AND void_date BETWEEN $2::date AND $3::date', 'voids')}
       UNION ALL
       ${correctionsPerDay('report_credits', 'date', 'date BETWEEN $2::date AND $3::date', 'credit_notes')}`,
      [accountId, range.start, range.end],
    ),
    draftsLeftOut(sql, accountId, range),
  ]);
  return gstSumsOfDays(rows, drafts);
}

/**
 * Payments basis: payments received in the range with their share of GST, and payments removed
 * in the range (negative rows, kind 'removal'); counts are distinct invoices with a payment, per
 * month and over the whole range. An invoice is counted at its first payment in the range (and in
 * the month): the one whose previous payment, stored beside it by the projection, is missing or
 * dated before the range (see withPrevious in the projection) — plain filtered counts, which add
 * up over days and months, instead of count(DISTINCT), which sorts.
 * Index: report_payments (account_id, date).
 */
export async function paymentsBasisSums(sql: Sql, accountId: string, range: DateRange): Promise<GstSums> {
  const [rows, drafts] = await Promise.all([
    sql.query<DayRow>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS day,
              sum(amount_cents)::text AS sales, sum(gst_cents)::text AS gst, sum(zero_rated_cents)::text AS zero,
              count(*) FILTER (WHERE kind = 'payment' AND (previous_in_month IS NULL OR previous_in_month < $2::date))::int AS count,
              count(*) FILTER (WHERE kind = 'payment' AND (previous_date IS NULL OR previous_date < $2::date))::int AS invoices,
              count(*) FILTER (WHERE kind = 'payment' AND invoice_paid AND (previous_date IS NULL OR previous_date < $2::date))::int AS paid,
              count(*) FILTER (WHERE kind = 'payment' AND invoice_voided AND (previous_date IS NULL OR previous_date < $2::date))::int AS voided,
              count(*) FILTER (WHERE kind <> 'payment')::int AS corrections,
              (sum(amount_cents) FILTER (WHERE kind <> 'payment'))::text AS correction_sales,
              (sum(gst_cents) FILTER (WHERE kind <> 'payment'))::text AS correction_gst,
              0 AS voids, 0 AS credit_notes,
              count(*) FILTER (WHERE kind = 'removal')::int AS removals, count(*) FILTER (WHERE kind = 'refund')::int AS refunds
         FROM report_payments
        WHERE account_id = $1 AND date BETWEEN $2::date AND $3::date
        GROUP BY date`,
      [accountId, range.start, range.end],
    ),
    draftsLeftOut(sql, accountId, range),
  ]);
  return gstSumsOfDays(rows, drafts);
}

/** Boxes 9 and 13 as the tradesperson typed them for this report (GST amounts, cents). */
export interface ManualAdjustments {
  debitCents: bigint;
  creditCents: bigint;
}
export const NO_MANUAL_ADJUSTMENTS: ManualAdjustments = { debitCents: 0n, creditCents: 0n };

/**
 * The GST report, sales and the purchases of the stored costs (purchases.ts). On the invoice basis, invoices issued after an export of the period they count
 * in are moved to the period they are carried to (withCarries, the same function the replay uses).
 */
export async function gstReportFor(sql: Sql, accountId: string, range: DateRange, basis: GstBasis, manual: ManualAdjustments = NO_MANUAL_ADJUSTMENTS): Promise<GstReport> {
  if (basis === 'payments') {
    const [sums, purchases] = await Promise.all([paymentsBasisSums(sql, accountId, range), purchasesFor(sql, accountId, range, basis, manual.creditCents)]);
    return assembleGstReport(sums, range, basis, purchases, purchases.adjustments, manual.debitCents);
  }
  const [sums, carried, purchases] = await Promise.all([invoiceBasisSums(sql, accountId, range), carriedInvoices(sql, accountId), purchasesFor(sql, accountId, range, basis, manual.creditCents)]);
  return assembleGstReport(withCarries(sums, carried, range), range, basis, purchases, purchases.adjustments, manual.debitCents);
}

/**
 * Annual summary: issued invoices by issue date in the tax year, revenue GST-exclusive; an invoice
 * voided in the year is subtracted in the month of the void, a credit note issued in it in its
 * month (and from paid revenue when its invoice is paid in full: the join to its invoice's row).
 * One pass over the year's rows gives both the months and the revenue of every client (grouping
 * sets); the domain's assembler ranks the clients (compareClients) and keeps the top ten, exactly as
 * the replay does. Invoices with no client ('') are no top client. Money paid back in the year is
 * summed apart from the payment rows of kind 'refund'.
 * Indexes: report_invoices (account_id, issue_date) and the partial (account_id, void_date),
 * report_credits (account_id, date), report_payments (account_id, date).
 */
export async function annualSums(sql: Sql, accountId: string, year: number): Promise<AnnualSums> {
  const range = taxYearRange(year);
  const [rows, refunds, drafts] = await Promise.all([
    sql.query<{
      by_month: number | string; month: string | null; name: string | null; revenue: string; gst: string; count: number | string;
      paid_count: number | string; paid_revenue: string | null; corrections: number | string; correction_revenue: string | null; correction_gst: string | null;
      credits: number | string; credit_revenue: string | null; credit_gst: string | null;
    }>(
      `WITH entries AS (
         SELECT month, client_name, subtotal_cents AS revenue, gst_cents AS gst, 1 AS n, paid, paid AS paid_side, 'invoice' AS kind
           FROM report_invoices
          WHERE account_id = $1 AND issue_date BETWEEN $2::date AND $3::date
         UNION ALL
         SELECT void_month, client_name, -subtotal_cents, -gst_cents, 0, false, false, 'void'
           FROM report_invoices
          WHERE account_id = $1 AND void_date IS NOT NULL AND void_date BETWEEN $2::date AND $3::date
         UNION ALL
         SELECT c.month, c.client_name, -c.subtotal_cents, -c.gst_cents, 0, false, coalesce(i.paid, false), 'credit'
           FROM report_credits c
           LEFT JOIN report_invoices i ON i.document_id = c.document_id AND i.account_id = c.account_id
          WHERE c.account_id = $1 AND c.date BETWEEN $2::date AND $3::date
       )
       SELECT GROUPING(client_name) AS by_month, month, client_name AS name,
              sum(revenue)::text AS revenue, sum(gst)::text AS gst,
              sum(n)::int AS count, count(*) FILTER (WHERE paid)::int AS paid_count,
              sum(revenue) FILTER (WHERE paid_side)::text AS paid_revenue,
              count(*) FILTER (WHERE kind <> 'invoice')::int AS corrections,
              sum(revenue) FILTER (WHERE kind <> 'invoice')::text AS correction_revenue,
              sum(gst) FILTER (WHERE kind <> 'invoice')::text AS correction_gst,
              count(*) FILTER (WHERE kind = 'credit')::int AS credits,
              sum(revenue) FILTER (WHERE kind = 'credit')::text AS credit_revenue,
              sum(gst) FILTER (WHERE kind = 'credit')::text AS credit_gst
         FROM entries
        GROUP BY GROUPING SETS ((month), (client_name))`,
      [accountId, range.start, range.end],
    ),
    refundedIn(sql, accountId, range),
    draftsLeftOut(sql, accountId, range),
  ]);
  const sums: AnnualSums = {
    months: [], clients: [],
    corrections: { count: 0, revenueCents: 0n, gstCents: 0n },
    credited: { count: 0, revenueCents: 0n, gstCents: 0n },
    refunded: refunds,
    draftsLeftOut: drafts,
  };
  for (const r of rows) {
    if (Number(r.by_month) === 1) {
      sums.months.push({
        month: r.month ?? '',
        revenueCents: BigInt(r.revenue),
        gstCents: BigInt(r.gst),
        count: Number(r.count),
        paidCount: Number(r.paid_count),
        paidRevenueCents: BigInt(r.paid_revenue ?? '0'),
      });
      sums.corrections.count += Number(r.corrections);
      sums.corrections.revenueCents += BigInt(r.correction_revenue ?? '0');
      sums.corrections.gstCents += BigInt(r.correction_gst ?? '0');
      sums.credited.count += Number(r.credits);
      sums.credited.revenueCents += BigInt(r.credit_revenue ?? '0');
      sums.credited.gstCents += BigInt(r.credit_gst ?? '0');
    } else if (r.name) {
      sums.clients.push({ name: r.name, revenueCents: BigInt(r.revenue) });
    }
  }
  return sums;
}

export async function annualSummaryFor(sql: Sql, accountId: string, year: number): Promise<AnnualSummary> {
  return assembleAnnualSummary(await annualSums(sql, accountId, year), year);
}

// ---- rows for the CSV exports ----------------------------------------------------------------

/** One invoice as the CSV shows it, or the reversal of one voided in the range (negative amounts). */
export type InvoiceLine = Pick<
  ReportInvoiceRow,
  'reference' | 'issueDate' | 'supplyDate' | 'clientName' | 'clientGstNumber' | 'subtotalCents' | 'gstCents' | 'totalCents' | 'zeroRatedCents' | 'paid' | 'paidDate' | 'voidDate'
> & {
  /**
   * 'void': the reversal of an invoice voided on voidDate; 'credit': a credit note issued on its
   * issueDate (= supplyDate), reference CN-…, of the invoice `creditOf` (its `paid`: whether that
   * invoice is paid in full). Both have negative amounts. 'carried': an invoice carried into the
   * range from a period exported before it was issued (`carriedFrom` names that period), counted on
   * `carriedTo`.
   */
  kind: 'invoice' | 'void' | 'credit' | 'carried';
  creditOf?: string;
  documentId?: string;
  carriedFrom?: string;
  carriedTo?: LocalDate;
};

/** One payment as the payments-basis CSV shows it, with its invoice's reference and client. */
export interface PaymentLine {
  /**
   * 'removal': a payment removed on `date`; 'refund': money refunded on a payment or paid back on a
   * credit note on `date` (negative amounts); 'credit': the GST a credit note moved on money held (no money).
   */
  kind: PaymentRowKind;
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
  invoiceVoided: boolean;
  paidDate: LocalDate | null;
}

// The rows travel as one JSON document built by the database (json_agg), not as thousands of
// protocol rows: on PGlite that is several times faster for a year of invoices. bigint cents are
// cast to text inside the JSON so no amount passes through a float.

type InvoiceTuple = [string, string, string, string, string, string, string, string, string, boolean, string | null, string | null, 'invoice' | 'void', string];

const toInvoiceLine = ([reference, issueDate, supplyDate, clientName, clientGstNumber, subtotal, gst, total, zero, paid, paidDate, voidDate, kind, documentId]: InvoiceTuple): InvoiceLine => {
  const sign = kind === 'void' ? -1n : 1n;
  return {
    kind,
    documentId,
    reference,
    issueDate,
    supplyDate,
    clientName,
    clientGstNumber,
    subtotalCents: sign * BigInt(subtotal),
    gstCents: sign * BigInt(gst),
    totalCents: sign * BigInt(total),
    zeroRatedCents: sign * BigInt(zero),
    paid,
    paidDate,
    voidDate,
  };
};

const invoiceTuple = (kind: 'invoice' | 'void'): string => `json_build_array(reference, issue_date, supply_date, client_name, client_gst_number,
  subtotal_cents::text, gst_cents::text, total_cents::text, zero_rated_cents::text, paid, paid_date, void_date, '${kind}', document_id)`;

async function jsonRows<T>(sql: Sql, text: string, params: unknown[]): Promise<T[]> {
  const [row] = await sql.query<{ rows: string }>(text, params);
  return JSON.parse(row?.rows ?? '[]') as T[];
}

/** Invoices voided in the range, as reversals, in date order. */
async function voidsIn(sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> {
  const rows = await jsonRows<InvoiceTuple>(
    sql,
    `SELECT coalesce(json_agg(${invoiceTuple('void')} ORDER BY void_date, reference COLLATE "C", document_id), '[]')::text AS rows
       FROM report_invoices
      WHERE account_id = $1 AND void_date IS NOT NULL AND void_date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(toInvoiceLine);
}

type CreditTuple = [string, string, string, string, string, string, string, string, string, boolean | null];

/**
 * Credit notes issued in the range, as corrections with negative amounts, in date order; `paid`
 * is whether the invoice credited is paid in full (the annual CSV counts the credit on that side).
 */
async function creditsIn(sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> {
  const rows = await jsonRows<CreditTuple>(
    sql,
    `SELECT coalesce(json_agg(json_build_array(c.reference, c.invoice_reference, c.date, c.client_name, c.client_gst_number,
              c.subtotal_cents::text, c.gst_cents::text, c.total_cents::text, c.zero_rated_cents::text, i.paid)
              ORDER BY c.date, c.reference COLLATE "C", c.credit_note_id), '[]')::text AS rows
       FROM report_credits c
       LEFT JOIN report_invoices i ON i.document_id = c.document_id AND i.account_id = c.account_id
      WHERE c.account_id = $1 AND c.date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(([reference, invoiceReference, date, clientName, clientGstNumber, subtotal, gst, total, zero, invoicePaid]) => ({
    kind: 'credit',
    creditOf: invoiceReference,
    reference,
    issueDate: date,
    supplyDate: date,
    clientName,
    clientGstNumber,
    subtotalCents: -BigInt(subtotal),
    gstCents: -BigInt(gst),
    totalCents: -BigInt(total),
    zeroRatedCents: -BigInt(zero),
    paid: invoicePaid === true,
    paidDate: null,
    voidDate: null,
  }));
}

/** Money paid back to clients in the range (refunds on payments and on credit notes): how many, and how much (GST included, positive). */
export async function refundedIn(sql: Sql, accountId: string, range: DateRange): Promise<{ count: number; cents: bigint }> {
  const [row] = await sql.query<{ n: number | string; cents: string | null }>(
    `SELECT count(*)::int AS n, (-sum(amount_cents))::text AS cents FROM report_payments
      WHERE account_id = $1 AND kind = 'refund' AND date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return { count: Number(row?.n ?? 0), cents: BigInt(row?.cents ?? '0') };
}

/** The date a line counts on: its time of supply (or issue date), or for a reversal the day of the void. */
const byDate = (dateOf: (l: InvoiceLine) => LocalDate) => (a: InvoiceLine, b: InvoiceLine): number => {
  const da = dateOf(a);
  const db = dateOf(b);
  return da < db ? -1 : da > db ? 1 : 0;
};

/**
 * Invoices dated in the range (by time of supply, or by issue date), reversals of invoices voided in
 * it and credit notes issued in it, in date order.
 */
async function invoiceLinesIn(sql: Sql, accountId: string, range: DateRange, by: 'supply' | 'issue'): Promise<InvoiceLine[]> {
  const [dateColumn, order] = by === 'supply' ? ['supply_date', 'supply_date, issue_date'] : ['issue_date', 'issue_date'];
  const [rows, voids, carried] = await Promise.all([
    jsonRows<InvoiceTuple>(
      sql,
      `SELECT coalesce(json_agg(${invoiceTuple('invoice')} ORDER BY ${order}, reference COLLATE "C", document_id), '[]')::text AS rows
         FROM report_invoices
        WHERE account_id = $1 AND ${dateColumn} BETWEEN $2::date AND $3::date`,
      [accountId, range.start, range.end],
    ),
    voidsIn(sql, accountId, range),
    by === 'supply' ? carriedInvoices(sql, accountId) : Promise.resolve([]),
  ]);
  const credits = await creditsIn(sql, accountId, range);
  // By time of supply: an invoice carried from an exported period leaves it, and comes in, listed last, where it is carried to.
  const gone = new Set(carried.map((c) => c.documentId));
  const carriedIn: InvoiceLine[] = carried
    .filter((c) => c.carryDate >= range.start && c.carryDate <= range.end)
    .sort((a, b) => (a.carryDate < b.carryDate ? -1 : a.carryDate > b.carryDate ? 1 : a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0))
    .map((c) => ({
      kind: 'carried', documentId: c.documentId, reference: c.reference, issueDate: c.issueDate, supplyDate: c.supplyDate, clientName: c.clientName, clientGstNumber: c.clientGstNumber,
      subtotalCents: c.subtotalCents, gstCents: c.gstCents, totalCents: c.totalCents, zeroRatedCents: c.zeroRatedCents, paid: c.paid, paidDate: c.paidDate, voidDate: c.voidDate,
      carriedFrom: periodLabel(c.exported), carriedTo: c.carryDate,
    }));
  const own = rows.map(toInvoiceLine).filter((l) => !gone.has(l.documentId ?? ''));
  // A stable sort keeps each list's own order among equal dates.
  return [...[...own, ...voids, ...credits].sort(byDate((l) => (l.kind === 'void' ? l.voidDate! : by === 'supply' ? l.supplyDate : l.issueDate))), ...carriedIn];
}

/** Invoices supplied in the range (invoice basis) and reversals of invoices voided in it, in date order. */
export const invoicesSuppliedIn = (sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> => invoiceLinesIn(sql, accountId, range, 'supply');

/** Invoices issued in the range (annual summary) and reversals of invoices voided in it, in date order. */
export const invoicesIssuedIn = (sql: Sql, accountId: string, range: DateRange): Promise<InvoiceLine[]> => invoiceLinesIn(sql, accountId, range, 'issue');

type PaymentTuple = [string, string, string, string, string, string, string, string, string, boolean, string | null, PaymentRowKind, boolean];

/** Payments received in the range (payments basis), in date order, with their invoice's details. */
export async function paymentsReceivedIn(sql: Sql, accountId: string, range: DateRange): Promise<PaymentLine[]> {
  const rows = await jsonRows<PaymentTuple>(
    sql,
    `SELECT coalesce(json_agg(json_build_array(p.document_id, i.reference, p.date, i.issue_date, i.client_name, i.client_gst_number,
              p.amount_cents::text, p.gst_cents::text, p.zero_rated_cents::text, p.invoice_paid, i.paid_date, p.kind, p.invoice_voided)
              ORDER BY p.date, i.reference COLLATE "C", p.document_id, p.entry), '[]')::text AS rows
       FROM report_payments p
       JOIN report_invoices i ON i.document_id = p.document_id AND i.account_id = p.account_id
      WHERE p.account_id = $1 AND p.date BETWEEN $2::date AND $3::date`,
    [accountId, range.start, range.end],
  );
  return rows.map(([documentId, reference, date, issueDate, clientName, clientGstNumber, amount, gst, zero, invoicePaid, paidDate, kind, invoiceVoided]) => ({
    kind,
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
    invoiceVoided,
    paidDate,
  }));
}
