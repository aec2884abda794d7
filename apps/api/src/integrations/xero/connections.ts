// The account's Xero connection: one row in xero_connections with its tokens sealed
// (secretBox.ts), and the token keeper over it.
//
// Refresh tokens are single use, so a refresh must happen once however many requests, in however
// many API processes, find the access token stale at the same moment. The adapter's keeper
// (integrations/xero/tokenRefresh.ts) re-reads the tokens under a lock before refreshing; the
// lock given to it here is two locks: an in-process one (callers in this process queue without
// holding a database connection) around a database transaction that holds the connection row
// FOR UPDATE. The keeper's load/save inside that lock run in the same transaction (carried by
// AsyncLocalStorage), so the second process, once it gets the row, reads the tokens the first
// one saved and sends nothing to Xero.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../../deps.ts';
import { createKeyedLock, createTokenKeeper, type KeyedLock, type ProviderTokens, type StoredConnection, type Tenant, type TokenKeeper, type TokenStore } from './index.ts';
import { verificationKeys, type KeyRing } from '../../appKeys.ts';
import { open, seal } from './secretBox.ts';

export interface ConnectionRow {
  account_id: string;
  tenant_id: string;
  tenant_name: string;
  connection_id: string;
  access_token_enc: string;
  refresh_token_enc: string;
  expires_at: string | Date;
  scope: string;
  auth_event_id: string | null;
  needs_reauth: boolean;
}

const accessContext = (accountId: string) => `xero:${accountId}:access_token`;
const refreshContext = (accountId: string) => `xero:${accountId}:refresh_token`;
export const verifierContext = (stateHash: string) => `xero:oauth-state:${stateHash}`;

export async function readConnection(sql: Sql, accountId: string, forUpdate = false): Promise<ConnectionRow | null> {
  const [row] = await sql.query<ConnectionRow>(`SELECT * FROM xero_connections WHERE account_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [accountId]);
  return row ?? null;
}

/** The row's tokens, opened with the given keys (the current one, then the previous: verificationKeys). */
export function tokensOf(keys: KeyRing, row: ConnectionRow): ProviderTokens {
  return {
    accessToken: open(keys, row.access_token_enc, accessContext(row.account_id)),
    refreshToken: open(keys, row.refresh_token_enc, refreshContext(row.account_id)),
    expiresAt: new Date(row.expires_at),
    scope: row.scope,
    authEventId: row.auth_event_id,
  };
}

/** Stores (or replaces) the account's connection; `sql` is a transaction to write in, when there is one. */
export async function saveConnection(deps: Pick<AppDeps, 'store' | 'secrets' | 'clock'>, accountId: string, tokens: ProviderTokens, tenant: Tenant, sql: Sql = deps.store.db): Promise<void> {
  const key = deps.secrets.encryptionKey;
  const now = deps.clock.now().toISOString();
  await sql.query(
    `INSERT INTO xero_connections (account_id, tenant_id, tenant_name, connection_id, access_token_enc, refresh_token_enc, expires_at, scope, auth_event_id, needs_reauth, connected_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $10)
     ON CONFLICT (account_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, tenant_name = EXCLUDED.tenant_name, connection_id = EXCLUDED.connection_id,
       access_token_enc = EXCLUDED.access_token_enc, refresh_token_enc = EXCLUDED.refresh_token_enc, expires_at = EXCLUDED.expires_at, scope = EXCLUDED.scope,
       auth_event_id = EXCLUDED.auth_event_id, needs_reauth = false, connected_at = EXCLUDED.connected_at, updated_at = EXCLUDED.updated_at`,
    [accountId, tenant.tenantId, tenant.tenantName, tenant.connectionId, seal(key, tokens.accessToken, accessContext(accountId)), seal(key, tokens.refreshToken, refreshContext(accountId)), tokens.expiresAt.toISOString(), tokens.scope, tokens.authEventId ?? tenant.authEventId, now],
  );
}

export async function markNeedsReauth(sql: Sql, accountId: string, at: Date): Promise<void> {
  await sql.query('UPDATE xero_connections SET needs_reauth = true, updated_at = $2 WHERE account_id = $1', [accountId, at.toISOString()]);
}

/** Forgets the account's connection; true when there was one to forget (this call removed it). */
export async function deleteConnection(sql: Sql, accountId: string): Promise<boolean> {
  const gone = await sql.query('DELETE FROM xero_connections WHERE account_id = $1 RETURNING account_id', [accountId]);
  return gone.length > 0;
}

/** The keeper for one app: keyed by account id; `connection(accountId)` gives usable tokens or throws not_connected. */
export function createConnectionKeeper(deps: Pick<AppDeps, 'store' | 'secrets' | 'clock'> & { accounting: NonNullable<AppDeps['accounting']> }): TokenKeeper {
  const key = deps.secrets.encryptionKey;
  const openKeys = verificationKeys(deps.secrets, 'encryptionKey');
  const inTransaction = new AsyncLocalStorage<Sql>();
  const sql = (): Sql => inTransaction.getStore() ?? deps.store.db;
  const inProcess = createKeyedLock();

  const store: TokenStore = {
    async load(accountId): Promise<StoredConnection | null> {
      const row = await readConnection(sql(), accountId);
      if (!row || row.needs_reauth) return null;
      return { tokens: tokensOf(openKeys, row), tenantId: row.tenant_id };
    },
    async save(accountId, tokens) {
      await sql().query(
        'UPDATE xero_connections SET access_token_enc = $2, refresh_token_enc = $3, expires_at = $4, scope = $5, auth_event_id = COALESCE($6, auth_event_id), updated_at = $7 WHERE account_id = $1',
        [accountId, seal(key, tokens.accessToken, accessContext(accountId)), seal(key, tokens.refreshToken, refreshContext(accountId)), tokens.expiresAt.toISOString(), tokens.scope, tokens.authEventId, deps.clock.now().toISOString()],
      );
    },
  };

  const lock: KeyedLock = {
    run: (accountId, fn) =>
      inProcess.run(accountId, () =>
        deps.store.db.tx(async (tx) => {
          // Across processes: whoever holds the row refreshes; the others wait here, then re-read.
          await readConnection(tx, accountId, true);
          return inTransaction.run(tx, fn);
        }),
      ),
  };

  return createTokenKeeper({ provider: deps.accounting, store, now: () => deps.clock.now(), lock });
}
