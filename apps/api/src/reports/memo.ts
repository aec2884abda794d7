// A small per-process memo of assembled reports, keyed by the account's newest event position.
//
// Every change to an account's report rows is the projection of an event appended for that
// account, and appends commit in position order (the store's advisory lock), so the account's
// largest position — one step down the events (account_id, position) index — names the state
// of its rows exactly. The position is read BEFORE the rows: a report computed from rows newer
// than its key is only ever served while that key is current, which ends when a later event
// commits. A rebuild of the projections writes the same rows from the same events, so entries
// stay right. Nothing here must be shared between processes: each keeps its own entries and
// every process answers the same numbers. Bounded, least-recently-used entries go first.
import type { Sql } from '@tradie/store';

export interface ReportMemo {
  /** The value for (account, key) at the account's current position, computing it when missing. */
  get<T>(accountId: string, key: string, compute: () => Promise<T>): Promise<T>;
}

export function createReportMemo(sql: Sql, maxEntries = 500): ReportMemo {
  const entries = new Map<string, { position: string; value: unknown }>();
  return {
    async get<T>(accountId: string, key: string, compute: () => Promise<T>): Promise<T> {
      const [row] = await sql.query<{ p: string | null }>('SELECT max(position)::text AS p FROM events WHERE account_id = $1', [accountId]);
      const position = row?.p ?? 'none';
      const k = `${accountId}\u0000${key}`;
      const hit = entries.get(k);
      if (hit && hit.position === position) {
        entries.delete(k);
        entries.set(k, hit);
        return hit.value as T;
      }
      const value = await compute();
      entries.delete(k);
      entries.set(k, { position, value });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}
