// Which Xero account each cost category's bills are coded to (docs/api/accounting.md, "Bills"). By
// default a category goes to the account of Xero's standard New Zealand chart for it
// (billMapping.ts BILL_ACCOUNT_CODES; General Expenses for anything else). A business whose chart
// differs, or whose accountant wants fuel somewhere else, chooses per category from the
// organisation's own active expense accounts, read from Xero when the choice is made (so a code
// Xero does not have is refused in words before anything is kept). A choice applies to bills sent
// or changed from then on; bills already in Xero stay as they are (the accountant recodes those there).
import { ACCOUNTING_MESSAGES, type XeroBillAccounts } from '@tradie/contracts';
import { BUILT_IN_CATEGORIES } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../../deps.ts';
import { BadRequest, Invalid } from '../../errors.ts';
import { billAccountCode } from './billMapping.ts';
import { readConnection } from './connections.ts';
import type { ExpenseAccount } from './port.ts';
import { apiErrorOf, xeroRuntime } from './sync.ts';

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'ids' | 'log' | 'accounting' | 'config'>;

export const BILL_ACCOUNT_MESSAGES = {
  unknownCode: (code: string) => `Xero has no active expense account with the code ${code}. Choose one from the list.`,
} as const;

/** The code a category's bills go to: the one chosen, else the standard chart's. */
export async function billAccountFor(sql: Sql, accountId: string, category: string): Promise<string> {
  const key = category.trim().toLowerCase();
  const [row] = await sql.query<{ code: string }>('SELECT code FROM xero_bill_accounts WHERE account_id = $1 AND category = $2', [accountId, key]);
  return row?.code ?? billAccountCode(key);
}

/** The connected organisation's expense accounts (one call, within its budget), or the refusal in words. */
async function expenseAccounts(deps: Deps, accountId: string): Promise<ExpenseAccount[]> {
  const runtime = xeroRuntime(deps);
  if (!runtime) throw new BadRequest(ACCOUNTING_MESSAGES.notConfigured);
  const conn = await readConnection(deps.store.db, accountId);
  if (!conn) throw new BadRequest(ACCOUNTING_MESSAGES.notConnected);
  if (conn.needs_reauth) throw new BadRequest(ACCOUNTING_MESSAGES.reconnect);
  try {
    return await runtime.keeper.withConnection(accountId, (c) => runtime.provider.listExpenseAccounts(c));
  } catch (e) {
    throw await apiErrorOf(deps, accountId, e);
  }
}

/**
 * The categories a cost can have here (the built-in ones, then any the account's costs use), each
 * with the code its bills go to and whether it was chosen, and the organisation's accounts to choose from.
 */
export async function billAccountsOf(deps: Deps, accountId: string, known?: ExpenseAccount[]): Promise<XeroBillAccounts> {
  const accounts = known ?? (await expenseAccounts(deps, accountId));
  const db = deps.store.db;
  const chosen = new Map((await db.query<{ category: string; code: string }>('SELECT category, code FROM xero_bill_accounts WHERE account_id = $1', [accountId])).map((r) => [r.category, r.code]));
  const used = (await db.query<{ category: string }>('SELECT DISTINCT lower(category) AS category FROM costs WHERE account_id = $1 ORDER BY 1', [accountId])).map((r) => r.category);
  const categories = [...new Set<string>([...BUILT_IN_CATEGORIES, ...used, ...chosen.keys()])];
  return {
    categories: categories.map((category) => ({ category, code: chosen.get(category) ?? billAccountCode(category), chosen: chosen.has(category), standard_code: billAccountCode(category) })),
    accounts,
  };
}

/** Codes a category's bills to `code` (one of the organisation's expense accounts), or back to the standard chart's with null. */
export async function chooseBillAccount(deps: Deps, accountId: string, category: string, code: string | null): Promise<XeroBillAccounts> {
  const key = category.trim().toLowerCase();
  // Read once: the code is checked against it, and the answer lists it.
  const accounts = await expenseAccounts(deps, accountId);
  if (code === null) {
    await deps.store.db.query('DELETE FROM xero_bill_accounts WHERE account_id = $1 AND category = $2', [accountId, key]);
  } else {
    if (!accounts.some((a) => a.code === code)) throw new Invalid(BILL_ACCOUNT_MESSAGES.unknownCode(code));
    await deps.store.db.query(
      `INSERT INTO xero_bill_accounts (account_id, category, code, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, category) DO UPDATE SET code = EXCLUDED.code, updated_at = EXCLUDED.updated_at`,
      [accountId, key, code, deps.clock.now().toISOString()],
    );
  }
  return billAccountsOf(deps, accountId, accounts);
}
