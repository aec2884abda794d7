// An account's data as one JSON document: its full event log (every client, quote, invoice and
// payment as it happened — the source of every list and report) and the ordinary tables needed to
// restore it (business settings, the logo as base64, the subscription record, which invoices are
// in Xero). Never a password hash, a refresh or reset token, or a Xero token. The document is the
// tradie's own record: GET /api/v1/account/export streams it (Settings → Account → Download my
// data), `npm run export` (apps/cli) writes it to a file and `npm run import` restores it. One
// implementation for both: the streamed text is exactly JSON.stringify(document, null, 2) + '\n'.
import type { EventStore, RecordedEvent, Sql } from '@tradie/store';

export const EXPORT_FORMAT = 'tradie-quotes/account-export';
export const EXPORT_VERSION = 1;

/**
 * The ordinary tables an account's restore needs, each with the column that names the account and
 * the columns that are never exported. Everything else about an account (sessions, reset tokens,
 * login failures, Xero tokens and sign-in states, idempotency keys, webhook receipts) is
 * short-lived or secret and deliberately left out.
 */
export const ACCOUNT_TABLES: readonly { table: string; owner: string; omit: readonly string[] }[] = [
  { table: 'business_settings', owner: 'account_id', omit: [] },
  { table: 'business_logos', owner: 'account_id', omit: [] },
  { table: 'billing_accounts', owner: 'account_id', omit: [] },
  // Which invoices (and payments) are already in Xero, so a reconnected Xero gets no duplicates.
  { table: 'xero_sync', owner: 'account_id', omit: ['claimed_by', 'claimed_until'] },
  { table: 'xero_payments', owner: 'account_id', omit: [] },
  { table: 'xero_credit_notes', owner: 'account_id', omit: [] },
  { table: 'xero_credit_note_refunds', owner: 'account_id', omit: [] },
  // Saved templates: they follow the tradie to another phone, and to another install.
  { table: 'templates', owner: 'account_id', omit: [] },
  // The business's own Stripe account for card payments and its surcharge choice (no secret: an id).
  { table: 'payment_accounts', owner: 'account_id', omit: [] },
  // Payment reminders: the steps and wording, and the clients who asked for none.
  { table: 'reminder_settings', owner: 'account_id', omit: [] },
  { table: 'reminder_client_optouts', owner: 'account_id', omit: [] },
  // Construction clients: their new invoices start as payment claims.
  { table: 'payment_claim_clients', owner: 'account_id', omit: [] },
  // The signatures clients drew when accepting quotes (the acceptance itself is in the events).
  { table: 'client_signatures', owner: 'account_id', omit: [] },
  // Card payments to sort out in Stripe (paid twice, disputed), and whether each was dealt with.
  // The id is this store's own number: a restore numbers them afresh.
  { table: 'payment_issues', owner: 'account_id', omit: ['id'] },
];

/** The user's profile: who the account is. Never the password hash. */
export const ACCOUNT_COLUMNS = ['id', 'email', 'full_name', 'created_at', 'trial_started_at', 'email_confirmed_at'] as const;

export type Row = Record<string, unknown>;

export interface ExportedEvent {
  position: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  meta: Record<string, unknown>;
  recorded_at: string;
}

export interface ExportedAccount {
  id: string;
  email: string;
  full_name: string;
  created_at: string;
  trial_started_at: string;
  email_confirmed_at?: string | null;
}

export interface AccountExport {
  format: typeof EXPORT_FORMAT;
  version: number;
  exported_at: string;
  /** What the file holds, in words, for whoever opens it. */
  about: string;
  account: ExportedAccount;
  /** Rows of the ordinary tables, by table; binary columns as base64 text. */
  tables: Record<string, Row[]>;
  /** The account's events in log order. */
  events: ExportedEvent[];
}

export const EXPORT_ABOUT =
  'Everything this Tradie Quotes account holds: the full history of its clients, quotes, invoices and payments (events, oldest first), ' +
  'its business settings and logo, and its subscription record. No password or sign-in token is included. Restore it with `npm run import`.';

/** Emails are compared trimmed and lower-cased, as the API stores them. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** A table's columns and their SQL types (bytea, jsonb, timestamptz…), in table order. */
export async function columnTypes(sql: Sql, table: string): Promise<Map<string, string>> {
  const rows = await sql.query<{ column_name: string; udt_name: string }>(
    `SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return new Map(rows.map((r) => [r.column_name, r.udt_name]));
}

/** A value as JSON carries it: timestamps as ISO 8601, binary as base64, the rest as the driver gives it. */
function portable(value: unknown, type: string | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'bytea') return Buffer.from(value as Uint8Array).toString('base64');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  // A bigint column is text whichever driver read it (postgres.js gives text, PGlite a number).
  if (type === 'int8' && typeof value === 'number') return String(value);
  return value;
}

const exportedEvent = (e: RecordedEvent): ExportedEvent => ({
  position: e.position,
  stream_id: e.streamId,
  stream_version: e.streamVersion,
  event_id: e.eventId,
  type: e.type,
  schema_version: e.version,
  data: e.data,
  meta: e.meta,
  recorded_at: e.recordedAt,
});

/**
 * The account id of the user with this email, or null. A deleted account waiting for its purge
 * (account/purge.ts) is found by the address it had, so its data can still be handed over.
 */
export async function accountIdByEmail(sql: Sql, email: string): Promise<string | null> {
  const [user] = await sql.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [normaliseEmail(email)]);
  if (user) return String(user.id);
  const [deleted] = await sql.query<{ account_id: string }>('SELECT account_id FROM account_deletions WHERE email = $1 ORDER BY requested_at DESC LIMIT 1', [normaliseEmail(email)]);
  return deleted ? String(deleted.account_id) : null;
}

/** The user's profile as exported (a deleted account's with the address it had), or null when there is no such account. */
export async function exportedProfile(sql: Sql, accountId: string): Promise<ExportedAccount | null> {
  const columns = ACCOUNT_COLUMNS.map((c) => (c === 'email' ? 'COALESCE(d.email, u.email) AS email' : `u.${c}`));
  const [user] = await sql.query<Row>(`SELECT ${columns.join(', ')} FROM users u LEFT JOIN account_deletions d ON d.account_id = u.id WHERE u.id = $1`, [accountId]);
  if (!user) return null;
  return {
    id: String(user.id),
    email: String(user.email),
    full_name: String(user.full_name),
    created_at: String(portable(user.created_at, 'timestamptz')),
    trial_started_at: String(portable(user.trial_started_at, 'timestamptz')),
    // A confirmed address stays confirmed in the restored store (files from before it: unconfirmed).
    email_confirmed_at: user.email_confirmed_at == null ? null : String(portable(user.email_confirmed_at, 'timestamptz')),
  };
}

/** One ordinary table's rows of the account, JSON-ready; null when the table does not exist in this store. */
async function exportedTable(sql: Sql, accountId: string, { table, owner, omit }: (typeof ACCOUNT_TABLES)[number]): Promise<Row[] | null> {
  const types = await columnTypes(sql, table);
  if (types.size === 0) return null;
  const columns = [...types.keys()].filter((c) => !omit.includes(c));
  const rows = await sql.query<Row>(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${owner} = $1 ORDER BY ${columns.slice(0, 3).join(', ')}`, [accountId]);
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, portable(r[c], types.get(c))])));
}

const header = (now: Date) => ({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: now.toISOString(), about: EXPORT_ABOUT }) as const;

/** Everything of the account, as one JSON-ready document; null when there is no such account. */
export async function buildAccountExport(store: EventStore, accountId: string, now: Date): Promise<AccountExport | null> {
  const account = await exportedProfile(store.db, accountId);
  if (!account) return null;
  const tables: Record<string, Row[]> = {};
  for (const spec of ACCOUNT_TABLES) {
    const rows = await exportedTable(store.db, accountId, spec);
    if (rows) tables[spec.table] = rows;
  }
  const events = (await store.readAccount(accountId)).map(exportedEvent);
  return { ...header(now), account, tables, events };
}

/** `value` as JSON.stringify(value, null, 2) writes it when nested `depth` levels deep. */
const nested = (value: unknown, depth: number): string => JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);

/**
 * The same document as text, a section at a time: the header and profile, each table, then the
 * events one by one, so a large account is never held as one string (nor twice). Null when there
 * is no such account (checked before the first chunk). The chunks joined are exactly
 * JSON.stringify(buildAccountExport(…), null, 2) + '\n'.
 */
export async function streamAccountExport(store: EventStore, accountId: string, now: Date): Promise<AsyncGenerator<string> | null> {
  const account = await exportedProfile(store.db, accountId);
  if (!account) return null;
  return (async function* chunks() {
    let head = '{';
    for (const [key, value] of Object.entries({ ...header(now), account })) {
      head += `${head === '{' ? '' : ','}\n  ${JSON.stringify(key)}: ${nested(value, 1)}`;
    }
    yield `${head},\n  "tables": {`;
    let first = true;
    for (const spec of ACCOUNT_TABLES) {
      const rows = await exportedTable(store.db, accountId, spec);
      if (!rows) continue;
      yield `${first ? '' : ','}\n    ${JSON.stringify(spec.table)}: ${nested(rows, 2)}`;
      first = false;
    }
    yield first ? '},\n  "events": [' : '\n  },\n  "events": [';
    const events = await store.readAccount(accountId);
    for (let i = 0; i < events.length; i += 1) {
      yield `${i === 0 ? '' : ','}\n    ${nested(exportedEvent(events[i]!), 2)}`;
      // Let the memory of the events already written go as the stream is read.
      (events as (RecordedEvent | undefined)[])[i] = undefined;
    }
    yield events.length === 0 ? ']\n}\n' : '\n  ]\n}\n';
  })();
}

/** The download's file name: tradie-export-YYYY-MM-DD.json (the day in UTC). */
export const exportFileName = (now: Date): string => `tradie-export-${now.toISOString().slice(0, 10)}.json`;
