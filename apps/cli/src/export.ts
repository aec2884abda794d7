// npm run export -- --account EMAIL [--out FILE] [--database-url postgres://… | --data-dir DIR]
//
// Writes one account's data to a single JSON file: its full event log (every client, quote,
// invoice and payment as it happened — the source of every list and report) and the ordinary
// tables needed to restore it (business settings, the logo as base64, the subscription record,
// which invoices are in Xero). Never a password hash, a refresh or reset token, or a Xero token.
// The file is the tradie's own record and what `npm run import` restores; it is signed with a key
// derived from the server's APP_SECRET, and says so in its last member. It reads the store the API
// is configured with (DATABASE_URL, or PGlite in DATA_DIR/db); with PGlite, stop the server first
// (the data directory is locked to one process).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { accountIdByEmail, allMigrations, buildAccountExport, loadConfig, loadSecrets, normaliseEmail, type AccountExport, type Secrets } from '@tradie/api';
import { projections } from '@tradie/projections';
import { openStore, streamCategory, type EventStore } from '@tradie/store';

// The document itself is built by the API (apps/api/src/account/export.ts), which also streams it
// to the signed-in tradie: one implementation, one format.
export {
  ACCOUNT_COLUMNS, ACCOUNT_TABLES, EXPORT_FORMAT, EXPORT_VERSION, columnTypes, normaliseEmail, type AccountExport, type ExportedEvent, type Row,
} from '@tradie/api';

export class CliError extends Error {}

/** Everything of the account with this email, as one JSON-ready document signed with `key` (the server's exportKey). */
export async function exportAccount(store: EventStore, email: string, key: Uint8Array, now: Date = new Date()): Promise<AccountExport> {
  const accountId = await accountIdByEmail(store.db, email);
  const doc = accountId ? await buildAccountExport(store, accountId, now, key) : null;
  if (!doc) throw new CliError(`No account with the email ${normaliseEmail(email)} in this store.`);
  return doc;
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

/**
 * The store the API is configured with (DATABASE_URL / DATA_DIR), or the one named on the command
 * line, with the API's migrations; and the server's keys (APP_SECRET, APP_SECRET_PREVIOUS, or the
 * embedded install's DATA_DIR/app-secret), which sign an export and check an import's signature.
 */
export async function openConfigured(options: StoreOptions, mustExist: boolean): Promise<{ store: EventStore; secrets: Secrets }> {
  const config = loadConfig({ ...process.env, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}), ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) });
  const pgliteDir = join(config.dataDir, 'db');
  if (!config.databaseUrl && mustExist && !existsSync(pgliteDir)) throw new CliError(`There is no database in ${pgliteDir}. Set DATA_DIR or pass --data-dir (or --database-url).`);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : pgliteDir }, projections, allMigrations);
  try {
    return { store, secrets: await loadSecrets(store.db, config) };
  } catch (e) {
    await store.close();
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
}

const usage = `Usage:
  npm run export -- --account EMAIL [--out FILE] [--database-url postgres://… | --data-dir DIR]

Writes the account's full history, settings and logo to one JSON file (default:
tradie-quotes-export-<email>-<date>.json), signed with a key derived from APP_SECRET (npm run
import checks it). Without --database-url / --data-dir it uses DATABASE_URL, or the PGlite
database in DATA_DIR (./data). Stop the server first when using PGlite.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { account: { type: 'string' }, out: { type: 'string' }, 'database-url': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !values.account) {
    console.log(usage);
    process.exit(values.help ? 0 : 2);
  }
  const { store, secrets } = await openConfigured({ databaseUrl: values['database-url'], dataDir: values['data-dir'] }, true);
  try {
    const doc = await exportAccount(store, values.account, secrets.exportKey);
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
