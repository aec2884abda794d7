// Reads of reminder_targets (the open, emailed invoices reminders may be for) and the overdue
// invoices of an account (documents_list). Every query is scoped by account, except the
// scheduler's sweep, which reads the targets of the accounts it is given.
import type { LocalDate } from '@tradie/domain';
import type { Sql } from '@tradie/store';

export interface ReminderTarget {
  documentId: string;
  accountId: string;
  clientId: string | null;
  reference: string;
  clientName: string;
  dueDate: LocalDate;
  balanceCents: bigint;
  /** When the invoice was first emailed (ISO). */
  sentAt: string;
  /** Who the last email of it went to: who its reminders go to. */
  sentTo: string[];
  paused: boolean;
  reminders: { stepId: string; at: string | null }[];
  streamVersion: number;
}

interface Row {
  document_id: string;
  account_id: string;
  client_id: string | null;
  reference: string;
  client_name: string;
  due_date: string;
  balance_cents: string;
  sent_ms: number | string;
  sent_to: string[];
  paused: boolean;
  reminders: { stepId: string; at: string | null }[];
  stream_version: number | string;
}

const COLUMNS = `document_id, account_id, client_id, reference, client_name, due_date::text AS due_date, balance_cents::text AS balance_cents,
  (extract(epoch FROM sent_at) * 1000)::float8 AS sent_ms, sent_to, paused, reminders, stream_version`;

const targetOf = (r: Row): ReminderTarget => ({
  documentId: r.document_id,
  accountId: r.account_id,
  clientId: r.client_id,
  reference: r.reference,
  clientName: r.client_name,
  dueDate: r.due_date,
  balanceCents: BigInt(r.balance_cents),
  sentAt: new Date(Number(r.sent_ms)).toISOString(),
  sentTo: r.sent_to,
  paused: r.paused,
  reminders: r.reminders,
  streamVersion: Number(r.stream_version),
});

/** The open targets of the given accounts (the scheduler's sweep). */
export async function reminderTargetsOf(sql: Sql, accountIds: readonly string[]): Promise<ReminderTarget[]> {
  if (accountIds.length === 0) return [];
  const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM reminder_targets WHERE account_id = ANY($1::text[])`, [accountIds]);
  return rows.map(targetOf);
}

/** One invoice's target row, or null when reminders cannot be for it (paid, voided, never emailed…). */
export async function reminderTarget(sql: Sql, accountId: string, documentId: string): Promise<ReminderTarget | null> {
  const [row] = await sql.query<Row>(`SELECT ${COLUMNS} FROM reminder_targets WHERE account_id = $1 AND document_id = $2`, [accountId, documentId]);
  return row ? targetOf(row) : null;
}

export interface OverdueInvoice {
  documentId: string;
  reference: string;
  clientName: string;
  dueDate: LocalDate;
  balanceCents: bigint;
}

/** Invoices given to the client with money owing past their due date (before `today`), oldest due first. */
export async function overdueInvoices(sql: Sql, accountId: string, today: LocalDate, limit = 50): Promise<{ count: number; totalCents: bigint; items: OverdueInvoice[] }> {
  // An invoice voided in the accounting system (extra_data.voided_in) is owed by nobody: not overdue.
  const where = `account_id = $1 AND type = 'invoice' AND lifecycle IN ('sent', 'issued') AND balance_cents > 0 AND due_date < $2::date AND NOT (extra_data ? 'voided_in')`;
  const [sum] = await sql.query<{ n: string; total: string | null }>(`SELECT count(*)::text AS n, sum(balance_cents)::text AS total FROM documents_list WHERE ${where}`, [accountId, today]);
  const rows = await sql.query<{ id: string; reference: string; client_name: string; due_date: string; balance_cents: string }>(
    `SELECT id, reference, client_name, due_date::text AS due_date, balance_cents::text AS balance_cents FROM documents_list WHERE ${where}
     ORDER BY due_date, seq LIMIT $3::int`,
    [accountId, today, limit],
  );
  return {
    count: Number(sum?.n ?? 0),
    totalCents: BigInt(sum?.total ?? '0'),
    items: rows.map((r) => ({ documentId: r.id, reference: r.reference, clientName: r.client_name, dueDate: r.due_date, balanceCents: BigInt(r.balance_cents) })),
  };
}
