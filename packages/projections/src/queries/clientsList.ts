// Reads of the client book: the `clients` read model for clients, `documents_list` for a client's
// quotes and invoices. Every query is scoped by account.
import type { ClientDocument, ClientHistorySummary, ClientRecord } from '@tradie/contracts';
import { type ClientFields, type LocalDate, centsToNumber, clientWarnings } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import { documentRowOf, type ListRow } from './documentsList.ts';

const CLIENT_COLUMNS =
  'id, name, email, phone, address, is_business, business_name, company_number, gst_number, notes, default_payment_terms, stream_version';

interface ClientRow extends ClientFields {
  id: string;
  stream_version: number | string;
}

/** The record every client answer carries: the client's fields, the version, and the soft warnings. */
export function clientRecordOf(id: string, f: ClientFields, version: number): ClientRecord {
  return {
    id,
    name: f.name,
    email: f.email,
    phone: f.phone,
    address: f.address,
    is_business: f.is_business,
    business_name: f.business_name,
    company_number: f.company_number,
    gst_number: f.gst_number,
    notes: f.notes,
    default_payment_terms: f.default_payment_terms,
    version,
    warnings: clientWarnings(f),
  };
}

const recordOfRow = (r: ClientRow): ClientRecord => clientRecordOf(r.id, r, Number(r.stream_version));

export async function findClient(sql: Sql, accountId: string, id: string): Promise<ClientRecord | null> {
  const [row] = await sql.query<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE account_id = $1 AND id = $2`, [accountId, id]);
  return row ? recordOfRow(row) : null;
}

/** Case-insensitive, accent-insensitive order for names ('Ōtaki' sits with the O's), then a total order. */
const nameCollator = new Intl.Collator('en-NZ', { sensitivity: 'base' });
export function compareClients(a: Pick<ClientRecord, 'name' | 'id'>, b: Pick<ClientRecord, 'name' | 'id'>): number {
  const byName = nameCollator.compare(a.name, b.name);
  if (byName !== 0) return byName;
  const al = a.name.toLowerCase();
  const bl = b.name.toLowerCase();
  if (al !== bl) return al < bl ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Whether `q` (already lower-cased) is part of the name, the email or the business name. */
export const clientMatches = (c: Pick<ClientFields, 'name' | 'email' | 'business_name'>, q: string): boolean =>
  q === '' || [c.name, c.email, c.business_name].some((v) => v.toLowerCase().includes(q));

/**
 * The account's live clients sorted by name. The `search` column (lower-cased name, email and
 * business name) narrows the rows in SQL; the exact per-field match and the order are decided
 * here, so both database drivers answer alike whatever their collation.
 */
export async function listClients(sql: Sql, accountId: string, opts: { q: string; limit?: number | undefined }): Promise<ClientRecord[]> {
  const q = opts.q.toLowerCase();
  const rows = q
    ? await sql.query<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE account_id = $1 AND strpos(search, $2) > 0`, [accountId, q])
    : await sql.query<ClientRow>(`SELECT ${CLIENT_COLUMNS} FROM clients WHERE account_id = $1`, [accountId]);
  const list = rows.filter((r) => clientMatches(r, q)).map(recordOfRow).sort(compareClients);
  return opts.limit === undefined ? list : list.slice(0, opts.limit);
}

/** A row of documents_list as a client's history reads it: the list's columns and what was paid. */
interface DocumentRow extends Omit<ListRow, 'extra_data'> {
  paid_cents: string;
}

/** A client's quotes and invoices, newest first, with the history's sums in whole cents. */
export async function clientDocuments(
  sql: Sql,
  accountId: string,
  clientId: string,
  today: LocalDate,
): Promise<{ documents: ClientDocument[]; summary: ClientHistorySummary }> {
  const rows = await sql.query<DocumentRow>(
    `SELECT id, type, reference, lifecycle, client_name, total_cents::text AS total_cents, paid_cents::text AS paid_cents,
            balance_cents::text AS balance_cents, payment_status, paid_date::text AS paid_date, issue_date::text AS issue_date,
            due_date::text AS due_date, valid_until::text AS valid_until
       FROM documents_list
      WHERE account_id = $1 AND client_id = $2
      ORDER BY issue_date DESC, seq DESC`,
    [accountId, clientId],
  );
  let invoiced = 0n;
  let paid = 0n;
  let outstanding = 0n;
  let overdue = 0n;
  let quoteCount = 0;
  let invoiceCount = 0;
  const documents = rows.map((r): ClientDocument => {
    const row = documentRowOf(r, today);
    const paidCents = BigInt(r.paid_cents);
    const balance = BigInt(r.balance_cents);
    if (r.type === 'quote') quoteCount += 1;
    else {
      invoiceCount += 1;
      if (r.lifecycle !== 'void') {
        invoiced += BigInt(r.total_cents);
        paid += paidCents;
        if (balance > 0n) {
          outstanding += balance;
          if (row.status === 'overdue') overdue += balance;
        }
      }
    }
    return {
      ...row,
      paid: centsToNumber(paidCents),
      balance: centsToNumber(balance),
      payment_status: r.payment_status,
      paid_date: r.paid_date,
      issue_date: r.issue_date,
      due_date: r.due_date,
      valid_until: r.valid_until,
    };
  });
  return {
    documents,
    summary: {
      invoiced_total: centsToNumber(invoiced),
      paid_total: centsToNumber(paid),
      outstanding_balance: centsToNumber(outstanding),
      overdue_balance: centsToNumber(overdue),
      quote_count: quoteCount,
      invoice_count: invoiceCount,
    },
  };
}
