// What must hold in the database after a run, whatever happened during it (a killed server, a
// restarted database): no partial command and read models that are exactly the fold of the log.
//
// - Every drafted document has its number allocated in its account's sequence, and every number
//   allocated has its document (the two are appended in one transaction); sequence numbers are
//   1, 2, 3… with no repeats.
// - Every payment in the log (not removed since) has its report_payments row, and every row its event
//   (a payment, or money paid back on a credit note). A credit note's number names the credit note.
// - Every converted quote's invoice was drafted.
// - A projection rebuild (store.rebuildProjections) gives the live read models byte for byte:
//   each table dumped as row_to_json text ordered by its key, before and after.
//
// Run it with the API stopped (PGlite allows one process) or idle (PostgreSQL).
import { projections } from '@tradie/projections';
import { type DbConfig, type Sql, openStore } from '@tradie/store';

export interface StoreCheck {
  /** Rows per read model (before the rebuild). */
  rows: Record<string, number>;
  events: number;
  rebuildEqual: boolean;
  /** Every way the store is not as it must be; empty when all holds. */
  problems: string[];
  rebuildMs: number;
}

const CONSISTENCY: { what: string; sql: string }[] = [
  {
    what: 'drafted without its number allocated',
    sql: `SELECT d.data->>'reference' AS x FROM events d WHERE d.event_type = 'DocumentDrafted' AND NOT EXISTS (
            SELECT 1 FROM events s WHERE s.event_type = 'ReferenceAllocated' AND s.account_id = d.account_id
              AND s.data->>'documentId' = d.data->>'documentId' AND s.data->>'number' = d.data->>'number')`,
  },
  {
    what: 'number allocated without its document',
    sql: `SELECT s.data->>'reference' AS x FROM events s WHERE s.event_type = 'ReferenceAllocated' AND NOT EXISTS (
            SELECT 1 FROM events d WHERE d.event_type = 'DocumentDrafted' AND d.stream_id = 'document-' || (s.data->>'documentId'))
            AND NOT EXISTS (
            SELECT 1 FROM events c WHERE c.event_type = 'CreditNoteIssued' AND c.account_id = s.account_id AND c.data->>'creditNoteId' = s.data->>'documentId')`,
  },
  {
    what: 'sequence number out of step with its stream',
    sql: `SELECT s.stream_id || ' v' || s.stream_version || ' = ' || (s.data->>'number') AS x FROM events s
          WHERE s.event_type = 'ReferenceAllocated' AND s.stream_version <> (s.data->>'number')::int`,
  },
  {
    what: 'reference used twice',
    sql: `SELECT account_id || ' ' || (data->>'reference') AS x FROM events WHERE event_type = 'DocumentDrafted'
          GROUP BY account_id, data->>'reference' HAVING count(*) > 1`,
  },
  {
    what: 'payment event without its report_payments row',
    sql: `SELECT p.data->>'paymentId' AS x FROM events p WHERE p.event_type = 'PaymentRecorded'
            AND NOT EXISTS (SELECT 1 FROM events r WHERE r.stream_id = p.stream_id AND r.event_type = 'PaymentRemoved' AND r.data->>'paymentId' = p.data->>'paymentId')
            AND NOT EXISTS (SELECT 1 FROM report_payments rp WHERE rp.document_id = p.data->>'documentId' AND rp.payment_id = p.data->>'paymentId')`,
  },
  {
    what: 'report_payments row without its payment event',
    sql: `SELECT rp.payment_id AS x FROM report_payments rp WHERE NOT EXISTS (
            SELECT 1 FROM events p WHERE p.stream_id = 'document-' || rp.document_id AND p.event_type = 'PaymentRecorded' AND p.data->>'paymentId' = rp.payment_id)
            AND NOT EXISTS (
            SELECT 1 FROM events c WHERE c.stream_id = 'document-' || rp.document_id AND c.event_type = 'CreditNoteRefunded' AND c.data->>'creditNoteId' = rp.payment_id)`,
  },
  {
    what: 'converted quote whose invoice was never drafted',
    sql: `SELECT q.stream_id AS x FROM events q WHERE q.event_type = 'QuoteConverted' AND NOT EXISTS (
            SELECT 1 FROM events d WHERE d.event_type = 'DocumentDrafted' AND d.stream_id = 'document-' || (q.data->>'invoiceId'))`,
  },
];

/** Every read model table as text rows, in key order. */
export async function dumpReadModels(sql: Sql): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const table of projections.flatMap((p) => p.tables)) {
    const rows = await sql.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM ${table.name} t ORDER BY ${table.primaryKey.map((k) => (table.columns.find((c) => c.name === k)?.type === 'text' ? `${k} COLLATE "C"` : k)).join(', ')}`);
    out.set(table.name, rows.map((r) => r.j));
  }
  return out;
}

/** The first difference between two dumps, or null when they are equal. */
export function firstDifference(a: Map<string, string[]>, b: Map<string, string[]>): string | null {
  for (const [table, rows] of a) {
    const other = b.get(table) ?? [];
    if (rows.length !== other.length) return `${table}: ${rows.length} rows live, ${other.length} after the rebuild`;
    const i = rows.findIndex((r, k) => r !== other[k]);
    if (i >= 0) return `${table} row ${i}: live ${rows[i]} ≠ rebuilt ${other[i]}`;
  }
  return null;
}

export async function checkStore(config: DbConfig): Promise<StoreCheck> {
  const store = await openStore(config, projections);
  try {
    const problems: string[] = [];
    for (const c of CONSISTENCY) {
      const rows = await store.db.query<{ x: string }>(c.sql);
      if (rows.length > 0) problems.push(`${c.what}: ${rows.length} (${rows.slice(0, 5).map((r) => r.x).join(', ')})`);
    }
    const [{ n } = { n: 0 }] = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const live = await dumpReadModels(store.db);
    const t0 = performance.now();
    await store.rebuildProjections();
    const rebuildMs = performance.now() - t0;
    const rebuilt = await dumpReadModels(store.db);
    const diff = firstDifference(live, rebuilt);
    if (diff) problems.push(`projection rebuild differs from the live read models: ${diff}`);
    return { rows: Object.fromEntries([...live].map(([t, r]) => [t, r.length])), events: Number(n), rebuildEqual: diff === null, problems, rebuildMs: Math.round(rebuildMs) };
  } finally {
    await store.close();
  }
}
