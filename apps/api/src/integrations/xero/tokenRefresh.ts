// Refresh tokens are single use: two refreshes of the same token race, and the loser gets
// invalid_grant and loses the connection. So every refresh of a connection runs under that
// connection's lock, and whoever gets the lock first re-reads the stored tokens: if someone
// else already refreshed them, it uses theirs and sends nothing.
//
// The lock here is in-process. Several API processes on one PostgreSQL need the same rule
// across processes: the API layer's TokenStore does its load-refresh-save inside a transaction
// holding the connection's row lock (SELECT … FOR UPDATE), inside this lock.
import { AccountingError, type AccountingProvider, type ProviderConnection, type ProviderTokens } from './port.ts';

/** Runs `fn` for one key at a time; callers for other keys are not held up. */
export interface KeyedLock {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(fn, fn);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}

export interface StoredConnection {
  tokens: ProviderTokens;
  tenantId: string;
}

/** Where a connection's tokens live (the API: an encrypted row). */
export interface TokenStore {
  load(connectionKey: string): Promise<StoredConnection | null>;
  save(connectionKey: string, tokens: ProviderTokens): Promise<void>;
}

export interface TokenKeeperDeps {
  provider: Pick<AccountingProvider, 'refresh'>;
  store: TokenStore;
  now: () => Date;
  lock?: KeyedLock;
  /** Refresh this long before expiry (Xero tokens live 30 minutes). Default 5 minutes. */
  refreshBeforeMs?: number;
}

export interface TokenKeeper {
  /** A usable connection; refreshes when the token is near expiry or was just rejected. */
  connection(connectionKey: string, rejectedAccessToken?: string): Promise<ProviderConnection>;
  /** Runs `call`; on a 401 refreshes once and runs it once more. */
  withConnection<T>(connectionKey: string, call: (conn: ProviderConnection) => Promise<T>): Promise<T>;
}

export const notConnected = (): AccountingError => new AccountingError('not_connected', 'Please connect Xero in Settings first');

export function createTokenKeeper(deps: TokenKeeperDeps): TokenKeeper {
  const lock = deps.lock ?? createKeyedLock();
  const refreshBeforeMs = deps.refreshBeforeMs ?? 5 * 60_000;

  const usable = (stored: StoredConnection, rejected: string | undefined): boolean =>
    stored.tokens.accessToken !== rejected && stored.tokens.expiresAt.getTime() - deps.now().getTime() > refreshBeforeMs;

  async function connection(connectionKey: string, rejectedAccessToken?: string): Promise<ProviderConnection> {
    const current = await deps.store.load(connectionKey);
    if (!current) throw notConnected();
    if (usable(current, rejectedAccessToken)) return { accessToken: current.tokens.accessToken, tenantId: current.tenantId };
    return lock.run(connectionKey, async () => {
      // Re-read under the lock: the caller ahead of us may have refreshed already.
      const stored = await deps.store.load(connectionKey);
      if (!stored) throw notConnected();
      if (usable(stored, rejectedAccessToken)) return { accessToken: stored.tokens.accessToken, tenantId: stored.tenantId };
      const tokens = await deps.provider.refresh(stored.tokens.refreshToken);
      await deps.store.save(connectionKey, tokens);
      return { accessToken: tokens.accessToken, tenantId: stored.tenantId };
    });
  }

  return {
    connection,
    async withConnection(connectionKey, call) {
      const conn = await connection(connectionKey);
      try {
        return await call(conn);
      } catch (e) {
        if (!(e instanceof AccountingError && e.kind === 'unauthorized')) throw e;
        return call(await connection(connectionKey, conn.accessToken));
      }
    },
  };
}
