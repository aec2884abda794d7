// npm run export -- --account EMAIL [--out FILE] [--database-url postgres://… | --data-dir DIR]
//
// Writes one account's data to a single JSON file: its full event log (every client, quote,
// invoice and payment as it happened — the source of every list and report) and the ordinary
// tables needed to restore it (business settings, the logo as base64, the subscription record,
// which invoices are in Xero). Never a password hash, a refresh or reset token, or a Xero token.
// The file is the tradie's own record and what `npm run import` restores. It reads the store the
// API is configured with (DATABASE_URL, or PGlite in DATA_DIR/db); with PGlite, stop the server
// first (the data directory is locked to one process).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allMigrations, loadConfig } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore, streamCategory, type EventStore, type RecordedEvent, type Sql } from '@tradie/store';

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

export interface AccountExport {
  format: typeof EXPORT_FORMAT;
  version: number;
  exported_at: string;
  /** What the file holds, in words, for whoever opens it. */
  about: string;
  account: { id: string; email: string; full_name: string; created_at: string; trial_started_at: string; email_confirmed_at?: string | null };
  /** Rows of the ordinary tables, by table; binary columns as base64 text. */
  tables: Record<string, Row[]>;
  /** The account's events in log order. */
  events: ExportedEvent[];
}

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

/** Emails are compared trimmed and lower-cased, as the API stores them. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export class CliError extends Error {}

/** Everything of the account with this email, as one JSON-ready document. */
export async function exportAccount(store: EventStore, email: string, now: Date = new Date()): Promise<AccountExport> {
  const db = store.db;
  const [user] = await db.query<Row>(`SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM users WHERE email = $1`, [normaliseEmail(email)]);
  if (!user) throw new CliError(`No account with the email ${normaliseEmail(email)} in this store.`);
  const accountId = String(user.id);
  const tables: Record<string, Row[]> = {};
  for (const { table, owner, omit } of ACCOUNT_TABLES) {
    const types = await columnTypes(db, table);
    if (types.size === 0) continue;
    const columns = [...types.keys()].filter((c) => !omit.includes(c));
    const rows = await db.query<Row>(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${owner} = $1 ORDER BY ${columns.slice(0, 3).join(', ')}`, [accountId]);
    tables[table] = rows.map((r) => Object.fromEntries(columns.map((c) => [c, portable(r[c], types.get(c))])));
  }
  const events = (await store.readAccount(accountId)).map(exportedEvent);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: now.toISOString(),
    about:
      'Everything this Tradie Quotes account holds: the full history of its clients, quotes, invoices and payments (events, oldest first), ' +
      'its business settings and logo, and its subscription record. No password or sign-in token is included. Restore it with `npm run import`.',
    account: {
      id: accountId,
      email: String(user.email),
      full_name: String(user.full_name),
      created_at: String(portable(user.created_at, 'timestamptz')),
      trial_started_at: String(portable(user.trial_started_at, 'timestamptz')),
      // A confirmed address stays confirmed in the restored store (files from before it: unconfirmed).
      email_confirmed_at: user.email_confirmed_at == null ? null : String(portable(user.email_confirmed_at, 'timestamptz')),
    },
    tables,
    events,
  };
}

/** '12 clients, 40 documents, …' — what a file holds, for the command's last line. */
export function summary(doc: AccountExport): string {
  const streams = new Map<string, Set<string>>();
  for (const e of doc.events) {
    const category = streamCategory(e.stream_id);
    if (!streams.has(category)) streams.set(category, new Set());
    streams.get(category)!.add(e.stream_id);
  }
  const count = (category: string, noun: string): string => `${streams.get(category)?.size ?? 0} ${noun}`;
  const logo = (doc.tables.business_logos?.length ?? 0) > 0 ? 'a logo' : 'no logo';
  const settings = (doc.tables.business_settings?.length ?? 0) > 0 ? 'business settings' : 'default settings';
  return `${doc.events.length} events (${count('client', 'clients')}, ${count('document', 'quotes and invoices')}), ${settings}, ${logo}`;
}

export interface StoreOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}

/** The store the API is configured with (DATABASE_URL / DATA_DIR), or the one named on the command line, with the API's migrations. */
export async function openConfiguredStore(options: StoreOptions, mustExist: boolean): Promise<EventStore> {
  const config = loadConfig({ ...process.env, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}), ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) });
  const pgliteDir = join(config.dataDir, 'db');
  if (!config.databaseUrl && mustExist && !existsSync(pgliteDir)) throw new CliError(`There is no database in ${pgliteDir}. Set DATA_DIR or pass --data-dir (or --database-url).`);
  return openStore({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : pgliteDir }, projections, allMigrations);
}

const usage = `Usage:
  npm run export -- --account EMAIL [--out FILE] [--database-url postgres://… | --data-dir DIR]

Writes the account's full history, settings and logo to one JSON file (default:
tradie-quotes-export-<email>-<date>.json). Without --database-url / --data-dir it uses
DATABASE_URL, or the PGlite database in DATA_DIR (./data). Stop the server first when using PGlite.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { account: { type: 'string' }, out: { type: 'string' }, 'database-url': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !values.account) {
    console.log(usage);
    process.exit(values.help ? 0 : 2);
  }
  const store = await openConfiguredStore({ databaseUrl: values['database-url'], dataDir: values['data-dir'] }, true);
  try {
    const doc = await exportAccount(store, values.account);
    const file = values.out ?? `tradie-quotes-export-${normaliseEmail(values.account).replace(/[^a-z0-9]+/g, '-')}-${doc.exported_at.slice(0, 10)}.json`;
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    console.log(`Exported ${doc.account.email}: ${summary(doc)} → ${file}`);
  } finally {
    await store.close();
  }
}

if (import.meta.main) {
  main().catch((e: unknown) => {
    console.error(e instanceof CliError ? e.message : e instanceof Error ? e.message : String(e));
    if (!(e instanceof CliError)) console.error(usage);
    process.exit(1);
  });
}
