// An account's data as one JSON document: its full event log (every client, quote, invoice and
// payment as it happened — the source of every list and report) and the ordinary tables needed to
// restore it (business settings, the logo as base64, the subscription record, which invoices are
// in Xero). Never a password hash, a refresh or reset token, or a Xero token. The document is the
// tradie's own record: GET /api/v1/account/export streams it (Settings → Account → Download my
// data), `npm run export` (apps/cli) writes it to a file and `npm run import` restores it. One
// implementation for both: the streamed text is exactly JSON.stringify(document, null, 2) + '\n'.
//
// Signed: the last member, `signature`, is an HMAC-SHA256 over the text of the rest of the document
// (JSON.stringify of every other member, two-space indented), with a key derived from APP_SECRET for
// exports alone (secrets.ts exportKey). The file says so itself, so anyone can see what is covered;
// `npm run import` refuses a file whose signature is missing or does not match unless told
// --unsigned (docs/reliability.md, "Backups").
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EventStore, RecordedEvent, Sql } from '@tradie/store';
import { keyList, type KeyRing } from '../appKeys.ts';

export const EXPORT_FORMAT = 'tradie-quotes/account-export';
export const EXPORT_VERSION = 1;

/**
 * The ordinary tables an account's restore needs, each with the column that names the account, the
 * columns that are never exported, and why a table is exported but never restored (neverRestored). Everything else about an account (sessions, reset tokens,
 * login failures, Xero tokens and sign-in states, idempotency keys, webhook receipts) is
 * short-lived or secret and deliberately left out.
 */
export const ACCOUNT_TABLES: readonly { table: string; owner: string; omit: readonly string[]; neverRestored?: string }[] = [
  { table: 'business_settings', owner: 'account_id', omit: [] },
  { table: 'business_logos', owner: 'account_id', omit: [] },
  // How 'Price from cost' prices: the categories with their percentages, the labour rates.
  { table: 'pricing_settings', owner: 'account_id', omit: [] },
  // The subscription record is the tradie's to keep, but never restored from a file: billing comes
  // from Stripe (its next event for the subscription names the account id, which a restore keeps).
  { table: 'billing_accounts', owner: 'account_id', omit: [], neverRestored: "the subscription comes from Stripe: its next event for the account's subscription brings it back" },
  // Which invoices (and payments) are already in Xero, so a reconnected Xero gets no duplicates.
  { table: 'xero_sync', owner: 'account_id', omit: ['claimed_by', 'claimed_until'] },
  { table: 'xero_payments', owner: 'account_id', omit: [] },
  { table: 'xero_credit_notes', owner: 'account_id', omit: [] },
  { table: 'xero_credit_note_refunds', owner: 'account_id', omit: [] },
  // Saved templates: they follow the tradie to another phone, and to another install.
  { table: 'templates', owner: 'account_id', omit: [] },
  // The price book: its items (less the search column the database works out from search_text),
  // their price history and each supplier's last import mapping. The history's seq is this store's own number.
  { table: 'price_book_items', owner: 'account_id', omit: ['search'] },
  { table: 'price_book_price_changes', owner: 'account_id', omit: ['seq'] },
  { table: 'price_book_import_mappings', owner: 'account_id', omit: [] },
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
  // The GST reports exported for the accountant, and when: what decides whether a backdated invoice is
  // an adjustment to carry. The id is this store's own number.
  { table: 'gst_exports', owner: 'account_id', omit: ['id'] },
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

/** How the file is signed, in its own words. */
export interface ExportSignature {
  algorithm: 'HMAC-SHA256';
  /** Which key: derived from the exporting server's APP_SECRET (SIGNATURE_KEY). */
  key: string;
  /** What the value is computed over (SIGNATURE_COVERS). */
  covers: string;
  /** The MAC, 64 hex digits. */
  value: string;
}

export const SIGNATURE_KEY = 'HKDF-SHA256 of the exporting server\'s APP_SECRET (empty salt, info "tradie-quotes/account-export", 32 bytes)';
export const SIGNATURE_COVERS =
  'Every other member of this document (format, version, exported_at, about, account, tables, events): the UTF-8 text of the document without ' +
  'its "signature" member, written as JSON with two-space indentation and no final newline (JavaScript: JSON.stringify(document, null, 2)).';

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
  /** The signature over everything above (absent from files written before exports were signed). */
  signature?: ExportSignature;
}

const mac = (key: Uint8Array, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

const signatureWith = (value: string): ExportSignature => ({ algorithm: 'HMAC-SHA256', key: SIGNATURE_KEY, covers: SIGNATURE_COVERS, value });

/**
 * Whether a parsed export is the one a server with these keys wrote: 'signed' (its signature matches
 * the rest of it), 'unsigned' (it has none) or 'altered' (it has one that does not match: the file was
 * changed, or written by a server with another APP_SECRET).
 */
export function checkExportSignature(doc: Record<string, unknown>, keys: KeyRing): 'signed' | 'unsigned' | 'altered' {
  const { signature, ...rest } = doc;
  if (signature === undefined) return 'unsigned';
  const value = (signature as { value?: unknown } | null)?.value;
  if ((signature as { algorithm?: unknown } | null)?.algorithm !== 'HMAC-SHA256' || typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value)) return 'altered';
  const given = Buffer.from(value, 'hex');
  const text = JSON.stringify(rest, null, 2);
  return keyList(keys).some((key) => timingSafeEqual(given, mac(key, text))) ? 'signed' : 'altered';
}

export const EXPORT_ABOUT =
  'Everything this Tradie Quotes account holds: the full history of its clients, quotes, invoices and payments (events, oldest first), ' +
  'its business settings and logo, and its subscription record. No password or sign-in token is included. Keep it somewhere safe: it holds everything needed to restore the account.';

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

/** Everything of the account, as one JSON-ready document signed with `key` (secrets.exportKey); null when there is no such account. */
export async function buildAccountExport(store: EventStore, accountId: string, now: Date, key: Uint8Array): Promise<AccountExport | null> {
  const account = await exportedProfile(store.db, accountId);
  if (!account) return null;
  const tables: Record<string, Row[]> = {};
  for (const spec of ACCOUNT_TABLES) {
    const rows = await exportedTable(store.db, accountId, spec);
    if (rows) tables[spec.table] = rows;
  }
  const events = (await store.readAccount(accountId)).map(exportedEvent);
  const unsigned = { ...header(now), account, tables, events };
  return { ...unsigned, signature: signatureWith(mac(key, JSON.stringify(unsigned, null, 2)).toString('hex')) };
}

/** `value` as JSON.stringify(value, null, 2) writes it when nested `depth` levels deep. */
const nested = (value: unknown, depth: number): string => JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);

/**
 * The same document as text, a section at a time: the header and profile, each table, then the
 * events one by one, so a large account is never held as one string (nor twice); the signature is
 * worked out as the text goes and written last. Null when there is no such account (checked before
 * the first chunk). The chunks joined are exactly JSON.stringify(buildAccountExport(…), null, 2) + '\n'.
 */
export async function streamAccountExport(store: EventStore, accountId: string, now: Date, key: Uint8Array): Promise<AsyncGenerator<string> | null> {
  const account = await exportedProfile(store.db, accountId);
  if (!account) return null;
  const signing = createHmac('sha256', key);
  // Every chunk but the last is text of the unsigned document too: it goes into the signature as it goes out.
  const signed = (text: string): string => {
    signing.update(text, 'utf8');
    return text;
  };
  return (async function* chunks() {
    let head = '{';
    for (const [name, value] of Object.entries({ ...header(now), account })) {
      head += `${head === '{' ? '' : ','}\n  ${JSON.stringify(name)}: ${nested(value, 1)}`;
    }
    yield signed(`${head},\n  "tables": {`);
    let first = true;
    for (const spec of ACCOUNT_TABLES) {
      const rows = await exportedTable(store.db, accountId, spec);
      if (!rows) continue;
      yield signed(`${first ? '' : ','}\n    ${JSON.stringify(spec.table)}: ${nested(rows, 2)}`);
      first = false;
    }
    yield signed(first ? '},\n  "events": [' : '\n  },\n  "events": [');
    const events = await store.readAccount(accountId);
    for (let i = 0; i < events.length; i += 1) {
      yield signed(`${i === 0 ? '' : ','}\n    ${nested(exportedEvent(events[i]!), 2)}`);
      // Let the memory of the events already written go as the stream is read.
      (events as (RecordedEvent | undefined)[])[i] = undefined;
    }
    yield signed(events.length === 0 ? ']' : '\n  ]');
    // The unsigned document ends here; the signed one goes on with its signature.
    signing.update('\n}', 'utf8');
    yield `,\n  "signature": ${nested(signatureWith(signing.digest('hex')), 1)}\n}\n`;
  })();
}

/** The download's file name: tradie-export-YYYY-MM-DD.json (the day in UTC). */
export const exportFileName = (now: Date): string => `tradie-export-${now.toISOString().slice(0, 10)}.json`;
