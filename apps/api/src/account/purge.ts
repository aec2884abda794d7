// The purge of deleted accounts (decision record docs/decisions/0010-account-deletion.md). When an
// account's purge_after has passed, every row that names it goes in one transaction: every table
// of the schema with an account_id or user_id column (the event log, every read model, settings,
// logo, billing record, Xero connection and links, tokens, audit entries, idempotency keys,
// outbox rows — and tables added later, without a list to keep up to date), the throttle rows
// keyed by its id or address, and finally the user row itself. Nothing of the account is kept:
// the tradie was offered all of it as a download (account/export.ts) before deleting.
import { accountFilesPrefix } from '../costs/receipts.ts';
import { filesOf } from '../files/index.ts';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../deps.ts';

/** Every table of the schema with a column naming the account, and that column. */
export async function accountOwnedTables(sql: Sql): Promise<{ table: string; column: string }[]> {
  const rows = await sql.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.column_name IN ('account_id', 'user_id')
      ORDER BY c.table_name, c.column_name`,
  );
  return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Erases one account now, in the caller's transaction; answers how many rows of each table went. */
export async function purgeAccount(sql: Sql, accountId: string, email: string | null): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  const count = (table: string, n: number): void => {
    if (n > 0) removed[table] = (removed[table] ?? 0) + n;
  };
  for (const { table, column } of await accountOwnedTables(sql)) {
    count(table, (await sql.query(`DELETE FROM ${quoted(table)} WHERE ${quoted(column)} = $1 RETURNING 1`, [accountId])).length);
  }
  // Throttle rows are keyed by words such as 'login:account:<email>' or '<kind>:<account id>'.
  const [current] = await sql.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [accountId]);
  const subjects = [accountId, email, current?.email].filter((s): s is string => !!s);
  for (const subject of subjects) {
    count('rate_limits', (await sql.query('DELETE FROM rate_limits WHERE strpos(key, $1) > 0 RETURNING 1', [subject])).length);
    count('login_failures', (await sql.query('DELETE FROM login_failures WHERE email = $1 RETURNING 1', [subject])).length);
  }
  count('users', (await sql.query('DELETE FROM users WHERE id = $1 RETURNING 1', [accountId])).length);
  return removed;
}

/** Purges every deleted account whose window has passed; answers the ids purged. */
export async function purgeDeletedAccounts(deps: Pick<AppDeps, 'store' | 'clock' | 'log' | 'config' | 'files'>): Promise<string[]> {
  const due = await deps.store.db.query<{ account_id: string; email: string }>(
    'SELECT account_id, email FROM account_deletions WHERE purge_after <= $1 ORDER BY purge_after',
    [deps.clock.now().toISOString()],
  );
  const purged: string[] = [];
  for (const { account_id: accountId, email } of due) {
    const removed = await deps.store.db.tx((sql) => purgeAccount(sql, accountId, email));
    // Its files (receipts) go after its rows: a file with no row is never served.
    await filesOf(deps).deletePrefix(accountFilesPrefix(accountId));
    deps.log('info', 'purged a deleted account', { accountId, rows: Object.values(removed).reduce((a, b) => a + b, 0) });
    purged.push(accountId);
  }
  return purged;
}
