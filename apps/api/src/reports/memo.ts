// A small per-process memo of assembled reports, keyed by the account's version (the store's
// accountVersion; docs/decisions/0007-report-cache.md).
//
// Every change to an account's report rows is written by a transaction that also moves the
// account's version on, and those transactions take turns on the version's row, so each commit
// leaves a version no reader has seen before — even when two commits of one account (two phones,
// a Xero push) finish in the other order than their events were numbered in. An event's position
// is no such key: the log's positions are handed out when events are inserted, not when they
// commit, so the newest position can be read while an older one is still on its way.
//
// The version is read BEFORE the rows. A report computed from rows newer than its key can only be
// served to a reader that read the same key, i.e. one that started before the newer commit; any
// reader after it sees the new version and computes afresh. A rebuild of the read models moves
// every account's version on too. Nothing here is shared between processes: each keeps its own
// entries and every process answers the same numbers. Bounded, least-recently-used entries go first.
import type { EventStore } from '@tradie/store';

export interface ReportMemo {
  /** The value for (account, key) at the account's current version, computing it when missing. */
  get<T>(accountId: string, key: string, compute: () => Promise<T>): Promise<T>;
}

/** `versionOf` is the store's accountVersion. */
export function createReportMemo(versionOf: (accountId: string) => Promise<string>, maxEntries = 500): ReportMemo {
  const entries = new Map<string, { version: string; value: unknown }>();
  return {
    async get<T>(accountId: string, key: string, compute: () => Promise<T>): Promise<T> {
      const version = await versionOf(accountId);
      const k = `${accountId}\u0000${key}`;
      const hit = entries.get(k);
      if (hit && hit.version === version) {
        entries.delete(k);
        entries.set(k, hit);
        return hit.value as T;
      }
      const value = await compute();
      entries.delete(k);
      entries.set(k, { version, value });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}

/**
 * The account's version and its settings together: whether the business is registered for GST (a
 * setting, not an event) decides which costs' GST is claimed, so a settings change is a new key.
 */
export const versionWithSettings =
  (store: Pick<EventStore, 'accountVersion' | 'db'>) =>
  async (accountId: string): Promise<string> => {
    const [version, [settings]] = await Promise.all([
      store.accountVersion(accountId),
      store.db.query<{ h: string }>('SELECT md5(s::text) AS h FROM business_settings s WHERE account_id = $1', [accountId]),
    ]);
    return `${version} ${settings?.h ?? ''}`;
  };
