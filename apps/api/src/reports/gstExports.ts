// The GST reports exported for the accountant (the invoice-basis GST CSV and the accountant's ZIP),
// recorded as each file is made. What was exported is what the accountant files, so an invoice
// issued afterwards that counts in an exported range is carried to a later period instead of
// changing the exported one (packages/domain/src/reports/gstCarry.ts,
// docs/decisions/0024-backdated-invoices-in-an-exported-period.md).
import { carriedRows, gstCarryNotice, gstCarryOf, timeOfSupply, type CarriedInvoiceRow, type DateRange, type DocumentView, type GstExportRecord, type LocalDate } from '@tradie/domain';
import type { Sql } from '@tradie/store';

export type GstExportKind = 'gst-csv' | 'accountant-zip';

/**
 * Records that the invoice-basis GST report for `range` was exported at `at`. The same file of the
 * same range at the same moment is one fact, kept once (a restored account whose report is
 * downloaded again at the moment it was first exported adds nothing).
 */
export async function recordGstExport(sql: Sql, accountId: string, kind: GstExportKind, range: DateRange, at: Date): Promise<void> {
  await sql.query(
    `INSERT INTO gst_exports (account_id, kind, start_date, end_date, exported_at)
     SELECT $1, $2, $3::date, $4::date, $5::timestamptz
      WHERE NOT EXISTS (SELECT 1 FROM gst_exports WHERE account_id = $1 AND kind = $2 AND start_date = $3::date AND end_date = $4::date AND exported_at = $5::timestamptz)`,
    [accountId, kind, range.start, range.end, at.toISOString()],
  );
}

/** The account's exports, oldest first. Index: gst_exports (account_id, exported_at). */
export async function gstExportsOf(sql: Sql, accountId: string): Promise<GstExportRecord[]> {
  const rows = await sql.query<{ start: string; end: string; at: string }>(
    `SELECT to_char(start_date, 'YYYY-MM-DD') AS start, to_char(end_date, 'YYYY-MM-DD') AS "end",
            to_char(exported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
       FROM gst_exports WHERE account_id = $1 ORDER BY exported_at, id`,
    [accountId],
  );
  return rows.map((r) => ({ start: r.start as LocalDate, end: r.end as LocalDate, at: r.at }));
}

type CarryTuple = [string, string, LocalDate, string, LocalDate, string, string, string, string, string, string, string, boolean, LocalDate | null, LocalDate | null, string | null, string];

/**
 * The account's invoices carried from an exported period, with their carries. Only an invoice whose
 * time of supply lies in an exported range and that was issued after the first export can be one:
 * with no export (most accounts) this reads nothing more. Index: report_invoices (account_id, supply_date).
 */
/**
 * What any carry can touch: the days from the earliest exported start to the latest exported end,
 * and the instant of the first export (nothing before it can have been carried). Null: no export.
 */
export function exportSpan(made: readonly GstExportRecord[]): { from: LocalDate; to: LocalDate; first: string } | null {
  if (made.length === 0) return null;
  return {
    from: made.reduce((a, e) => (e.start < a ? e.start : a), made[0]!.start),
    to: made.reduce((a, e) => (e.end > a ? e.end : a), made[0]!.end),
    first: made.reduce((a, e) => (Date.parse(e.at) < Date.parse(a) ? e.at : a), made[0]!.at),
  };
}

export async function carriedInvoices(sql: Sql, accountId: string, exports?: readonly GstExportRecord[]): Promise<CarriedInvoiceRow[]> {
  const made = exports ?? (await gstExportsOf(sql, accountId));
  const span = exportSpan(made);
  if (!span) return [];
  const { from, to, first } = span;
  const [row] = await sql.query<{ rows: string }>(
    `SELECT coalesce(json_agg(json_build_array(document_id, reference, issue_date, month, supply_date, supply_month, client_name, client_gst_number,
              subtotal_cents::text, gst_cents::text, total_cents::text, zero_rated_cents::text, paid, paid_date, void_date, void_month, issued_at)
              ORDER BY supply_date, document_id), '[]')::text AS rows
       FROM report_invoices
      WHERE account_id = $1 AND supply_date BETWEEN $2::date AND $3::date AND issued_at IS NOT NULL AND issued_at::timestamptz > $4::timestamptz`,
    [accountId, from, to, first],
  );
  const tuples = JSON.parse(row?.rows ?? '[]') as CarryTuple[];
  return carriedRows(
    tuples.map(([documentId, reference, issueDate, month, supplyDate, supplyMonth, clientName, clientGstNumber, subtotal, gst, total, zero, paid, paidDate, voidDate, voidMonth, issuedAt]) => ({
      documentId, reference, issueDate, month, supplyDate, supplyMonth, clientName, clientGstNumber,
      subtotalCents: BigInt(subtotal), gstCents: BigInt(gst), totalCents: BigInt(total), zeroRatedCents: BigInt(zero),
      paid, paidDate, voidDate, voidMonth, issuedAt,
    })),
    made,
  );
}

/**
 * What an issued invoice says when it counts in a GST period exported before it was issued (the
 * answer to sending, marking issued or paid, and the invoice's detail), or null.
 */
export async function gstNoticeOf(sql: Sql, accountId: string, d: DocumentView): Promise<string | null> {
  if (d.type !== 'invoice' || d.issuedAt === null) return null;
  const carry = gstCarryOf({ supplyDate: timeOfSupply(d), issuedAt: d.issuedAt }, await gstExportsOf(sql, accountId));
  return carry ? gstCarryNotice(carry) : null;
}
