// npm run import -- --file FILE [--email NEW_EMAIL] [--password PASSWORD] [--unsigned] [--database-url … | --data-dir …]
//
// Restores a file written by `npm run export` into a store where the account does not exist yet:
// the user (same account id; the exported email or --email), the business settings, logo and Xero
// links, then every event in its original order through the store's own append, which builds the
// read models (lists, reports) in the same transaction — the same rows a projection rebuild makes.
// All of it in one transaction: a refused or failed import leaves nothing behind. The user then
// sets a password with 'Forgot password', or gets the one given with --password.
//
// The file believes nothing it is not entitled to (docs/reliability.md, "Backups"):
// - Its signature must match (account/export.ts: an HMAC with a key derived from this server's
//   APP_SECRET, or APP_SECRET_PREVIOUS): a changed or unsigned file is refused, unless --unsigned,
//   and then what it will restore is printed first.
// - Billing and the trial never come from a file: the subscription record is not restored (Stripe's
//   next event for the subscription brings it back), and the trial starts at the import, by this
//   server's clock (TRIAL_DAYS from today).
// - The address is confirmed only when it is the exported one and the signature matched: --email to
//   another address, or --unsigned, restores it unconfirmed.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkExportSignature, hashPassword, verificationKeys, type KeyRing } from '@tradie/api';
import type { EventStore, NewEvent, RecordedEvent, StoreTx } from '@tradie/store';
import {
  ACCOUNT_TABLES, CliError, EXPORT_FORMAT, EXPORT_VERSION, columnTypes, normaliseEmail, openConfigured, summary, type AccountExport, type ExportedEvent, type Row,
} from './export.ts';

/** Stored instead of a password hash until the user sets one: no password verifies against it. */
export const NO_PASSWORD = 'none$set-a-password-with-forgot-password';

export interface ImportOptions {
  /** The keys the file's signature must match: this server's export keys (verificationKeys(secrets, 'exportKey')). */
  keys: KeyRing;
  /** --unsigned: restore a file whose signature is missing or does not match (its contents are then printed first). */
  unsigned?: boolean | undefined;
  /** Restore under this email instead of the exported one (unconfirmed). */
  email?: string | undefined;
  /** Give the restored user this password (otherwise they use 'Forgot password'). */
  password?: string | undefined;
  /** log2 of scrypt's N for the password hash. */
  passwordCost?: number | undefined;
  /** This server's clock: the restored account's trial starts at it. */
  now?: Date | undefined;
}

export interface ImportResult {
  accountId: string;
  email: string;
  events: number;
  /** Whether the file's signature matched. */
  signature: 'signed' | 'unsigned' | 'altered';
  /** Whether the restored address counts as confirmed. */
  emailConfirmed: boolean;
}

export const UNSIGNED_FILE =
  'This file has no signature, so nothing shows it is what the app exported. Nothing was imported. If you trust what it holds, run the import again with --unsigned: it prints what it will restore.';
export const ALTERED_FILE =
  "This file's signature does not match what it holds: it was changed after it was exported, or exported by a server with another APP_SECRET " +
  "(set APP_SECRET, or APP_SECRET_PREVIOUS, to that server's). Nothing was imported. If you trust what it holds, run the import again with --unsigned: it prints what it will restore.";

/** Why a file may not be restored without --unsigned, or null when its signature matches. */
export function signatureRefusal(doc: AccountExport, keys: KeyRing): string | null {
  const check = checkExportSignature(doc as unknown as Record<string, unknown>, keys);
  return check === 'signed' ? null : check === 'unsigned' ? UNSIGNED_FILE : ALTERED_FILE;
}

/** What an import of this file restores, line by line, and what it never takes from a file: printed before an --unsigned import. */
export function restorePlan(doc: AccountExport, options: Pick<ImportOptions, 'email' | 'keys'>): string[] {
  const check = checkExportSignature(doc as unknown as Record<string, unknown>, options.keys);
  const email = normaliseEmail(options.email ?? doc.account.email);
  const rows = ACCOUNT_TABLES.filter((t) => !t.neverRestored && (doc.tables[t.table]?.length ?? 0) > 0).map((t) => `${t.table} (${doc.tables[t.table]!.length})`);
  const connect = (doc.tables.payment_accounts ?? []).map((r) => r.stripe_account_id).filter((id): id is string => typeof id === 'string');
  return [
    check === 'signed' ? 'The signature matches: the file is what this server exported.' : `Restoring a file whose signature ${check === 'unsigned' ? 'is missing' : 'does not match'} (--unsigned). It will restore what the file says:`,
    `  the account ${doc.account.id}: ${doc.account.full_name} <${email}>, unconfirmed${email === normaliseEmail(doc.account.email) ? '' : ` (exported as ${doc.account.email})`}`,
    `  ${summary(doc)}`,
    `  tables: ${rows.length > 0 ? rows.join(', ') : 'none'}`,
    ...(connect.length > 0 ? [`  card payments go to Stripe account ${connect.join(', ')}`] : []),
    ...ACCOUNT_TABLES.filter((t) => t.neverRestored && (doc.tables[t.table]?.length ?? 0) > 0).map((t) => `  not restored: ${t.table} — ${t.neverRestored}`),
    `  not restored: the trial in the file — a restored account's trial starts today, by this server's clock`,
  ];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks the file's shape before anything is written; a file from a newer version is refused. */
export function readExport(text: string): AccountExport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CliError('The file is not JSON. Is it a file written by npm run export?');
  }
  if (!isObject(doc) || doc.format !== EXPORT_FORMAT) throw new CliError('The file is not a Tradie Quotes account export.');
  if (typeof doc.version !== 'number' || doc.version > EXPORT_VERSION) throw new CliError(`The file is format version ${String(doc.version)}; this version of the app reads up to ${EXPORT_VERSION}. Update the app first.`);
  const account = doc.account;
  if (!isObject(account) || typeof account.id !== 'string' || typeof account.email !== 'string' || typeof account.full_name !== 'string') throw new CliError('The file has no account.');
  if (!isObject(doc.tables) || !Array.isArray(doc.events)) throw new CliError('The file has no tables or no events.');
  const versions = new Map<string, number>();
  for (const e of doc.events as unknown[]) {
    if (!isObject(e) || typeof e.stream_id !== 'string' || typeof e.type !== 'string' || typeof e.event_id !== 'string' || !isObject(e.data) || !isObject(e.meta)) {
      throw new CliError('The file has an event that is not complete.');
    }
    if (e.meta.accountId !== account.id) throw new CliError(`Event ${e.event_id} belongs to another account.`);
    // Each stream's events come in order, 1, 2, 3…, with none missing.
    const expected = (versions.get(e.stream_id) ?? 0) + 1;
    if (e.stream_version !== expected) throw new CliError(`The events of ${e.stream_id} are not complete (version ${String(e.stream_version)} where ${expected} was expected).`);
    versions.set(e.stream_id, expected);
  }
  return doc as unknown as AccountExport;
}

/** Inserts a row, casting each value to its column's type; columns the file has but the table does not are reported. */
async function insertRow(tx: StoreTx, table: string, types: Map<string, string>, row: Row, overrides: Row = {}): Promise<string[]> {
  const values = { ...row, ...overrides };
  const columns = Object.keys(values).filter((c) => types.has(c));
  const params = columns.map((c) => {
    const v = values[c];
    if (v === null || v === undefined) return null;
    const type = types.get(c);
    if (type === 'bytea') return Buffer.from(String(v), 'base64');
    if (type === 'jsonb' || type === 'json') return JSON.stringify(v);
    return v;
  });
  // JSON goes as text and is cast on the server: postgres.js would encode a string sent for a jsonb parameter once more.
  const cast = (c: string): string => (types.get(c) === 'jsonb' || types.get(c) === 'json' ? `::text::${types.get(c)}` : `::${types.get(c)}`);
  await tx.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c, i) => `$${i + 1}${cast(c)}`).join(', ')})`, params);
  return Object.keys(values).filter((c) => !types.has(c));
}

const newEvent = (e: ExportedEvent): NewEvent => ({ type: e.type, version: e.schema_version, data: e.data, meta: e.meta as NewEvent['meta'], eventId: e.event_id });

/**
 * Restores the export into the store; refuses (writing nothing) a file whose signature does not
 * match unless `unsigned`, and an account or email already there. Billing and the trial never come
 * from the file; the address is confirmed only when it is the exported one, under a matching signature.
 */
export async function importAccount(store: EventStore, doc: AccountExport, options: ImportOptions): Promise<ImportResult> {
  const signature = checkExportSignature(doc as unknown as Record<string, unknown>, options.keys);
  if (signature !== 'signed' && !options.unsigned) throw new CliError(signature === 'unsigned' ? UNSIGNED_FILE : ALTERED_FILE);
  const accountId = doc.account.id;
  const email = normaliseEmail(options.email ?? doc.account.email);
  const emailConfirmed = signature === 'signed' && email === normaliseEmail(doc.account.email) && doc.account.email_confirmed_at != null;
  const now = options.now ?? new Date();
  const passwordHash = options.password === undefined ? NO_PASSWORD : await hashPassword(options.password, options.passwordCost);
  const ignored = new Set<string>();
  await store.transaction(async (tx) => {
    const [taken] = await tx.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE email = $1 OR id = $2', [email, accountId]);
    if (taken) {
      throw new CliError(
        taken.email === email
          ? `An account with the email ${email} already exists in this store. Pass --email to restore under another address.`
          : `This account (${accountId}) already exists in this store. Import restores into a store that does not have it.`,
      );
    }
    const [events] = await tx.query<{ n: number | string }>('SELECT count(*)::int AS n FROM events WHERE account_id = $1', [accountId]);
    if (Number(events?.n ?? 0) > 0) throw new CliError(`This store already holds events of account ${accountId}. Import restores into a store that does not have it.`);
    for (const { table, owner } of ACCOUNT_TABLES) {
      const [row] = await tx.query(`SELECT 1 FROM ${table} WHERE ${owner} = $1 LIMIT 1`, [accountId]);
      if (row) throw new CliError(`This store already holds ${table} rows of account ${accountId}.`);
    }

    const userTypes = await columnTypes(tx, 'users');
    await insertRow(tx, 'users', userTypes, { ...doc.account }, {
      email, password_hash: passwordHash, trial_started_at: now.toISOString(), email_confirmed_at: emailConfirmed ? doc.account.email_confirmed_at : null,
    });
    for (const { table, neverRestored } of ACCOUNT_TABLES) {
      if (neverRestored) continue;
      const rows = doc.tables[table] ?? [];
      if (rows.length === 0) continue;
      const types = await columnTypes(tx, table);
      for (const row of rows) for (const c of await insertRow(tx, table, types, row, { account_id: accountId })) ignored.add(`${table}.${c}`);
    }

    // The log in its original order: each run of one stream's events is one append, so every
    // event keeps its id and stream version, later positions keep the original order, and the
    // inline projections write each stream's read-model rows.
    const written = new Map<string, RecordedEvent[]>();
    for (let i = 0; i < doc.events.length; ) {
      const streamId = doc.events[i]!.stream_id;
      let j = i;
      while (j < doc.events.length && doc.events[j]!.stream_id === streamId) j += 1;
      const loaded = written.get(streamId) ?? [];
      const result = await tx.append(streamId, loaded.length, doc.events.slice(i, j).map(newEvent), loaded);
      written.set(streamId, [...loaded, ...result.events]);
      i = j;
    }
  });
  if (ignored.size > 0) console.warn(`Not restored (no such column in this version): ${[...ignored].join(', ')}`);
  return { accountId, email, events: doc.events.length, signature, emailConfirmed };
}

const usage = `Usage:
  npm run import -- --file FILE [--email NEW_EMAIL] [--password PASSWORD] [--unsigned] [--database-url postgres://… | --data-dir DIR]

Restores an account written by npm run export into a store that does not have it yet (refused if
the account or the email is already there). The file's signature must match this server's
APP_SECRET (or APP_SECRET_PREVIOUS); --unsigned restores a changed or unsigned file, after printing
what it will restore. The subscription and the trial never come from the file (the trial starts
today); --email restores under a new address, unconfirmed. Without --password the user sets one
with 'Forgot password'. Without --database-url / --data-dir it uses DATABASE_URL, or PGlite in
DATA_DIR (./data).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, unsigned: { type: 'boolean' }, 'database-url': { type: 'string' }, 'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.file) {
    console.log(usage);
    process.exit(values.help ? 0 : 2);
  }
  if (values.password !== undefined && values.password.length < 8) throw new CliError('The password must be at least 8 characters.');
  const doc = readExport(readFileSync(values.file, 'utf8'));
  const { store, secrets } = await openConfigured({ databaseUrl: values['database-url'], dataDir: values['data-dir'] }, false);
  try {
    const keys = verificationKeys(secrets, 'exportKey');
    const refusal = signatureRefusal(doc, keys);
    if (refusal && !values.unsigned) throw new CliError(refusal);
    if (values.unsigned) console.log(restorePlan(doc, { email: values.email, keys }).join('\n'));
    const cost = process.env.PASSWORD_COST ? Number(process.env.PASSWORD_COST) : undefined;
    const done = await importAccount(store, doc, { keys, unsigned: values.unsigned, email: values.email, password: values.password, passwordCost: cost });
    console.log(`Imported ${done.email} (account ${done.accountId}): ${summary(doc)}.`);
    if (!done.emailConfirmed) console.log(`The address ${done.email} is not confirmed: the app asks to confirm it before sending from it.`);
    if (values.password === undefined) console.log("No password is set: sign in after 'Forgot password' on the sign-in page (or import again with --password).");
  } finally {
    await store.close();
  }
}

if (import.meta.main) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
