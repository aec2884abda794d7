// The postgres.js adapter for a real PostgreSQL server (DATABASE_URL). Fails fast when the
// server is unreachable, so the API can answer 503 instead of hanging.
import postgres from 'postgres';
import { isUnavailable, mapDriverError } from './errors.ts';
import { poolGate } from './poolGate.ts';
import { type Db, type Sql, StoreUnavailableError } from './types.ts';

export interface PostgresOptions {
  url: string;
  /** Pool size. */
  max?: number;
  /** Seconds to wait for a connection before failing. */
  connectTimeout?: number;
}

type Client = postgres.Sql | postgres.TransactionSql;

/** A postgres.js pool, and whether any of its queries has gone through (its connections were used). */
interface Pool {
  sql: postgres.Sql;
  used: boolean;
}

export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const open = (): Pool => ({
    sql: postgres(options.url, {
      max: options.max ?? 10,
      connect_timeout: options.connectTimeout ?? 3,
      idle_timeout: 30,
      max_lifetime: 60 * 30,
      // After a failed connection postgres.js waits before the next attempt, and requests wait with
      // it: by default up to 20 s, growing with every failure in the pool. Kept short, a request
      // while the database is down fails within a second (503) and the first ones after it is back
      // go through at once. Attempts are made only for requests, so this does not hammer the server.
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5),
      onnotice: () => {},
      // bigint (int8) comes back as a string; the store selects positions as text anyway.
      types: {},
    }),
    used: false,
  });
  let pool = open();
  /**
   * The database failed us (it went away, or is restarting). postgres.js 3.4.9 keeps state of a
   * dead connection across its reconnect: the last error the server sent (57P01 'terminating
   * connection') fails the first query after it, seconds or minutes later, and a write that was
   * waiting to go out can keep the new connection from ever starting. A fresh pool has none of
   * that, so the pool that was in use is replaced (once: a pool that never got through cannot hold
   * such state) and ended when its last queries are done. Found by the fault tests.
   */
  const failed = (p: Pool, e: unknown): void => {
    if (!isUnavailable(e) || p !== pool || !p.used) return;
    pool = open();
    void p.sql.end({ timeout: 10 }).catch(() => {});
  };
  const wrap = (p: Pool, c: Client): Sql => ({
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      try {
        const rows = (await c.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as T[];
        p.used = true;
        return rows;
      } catch (e) {
        failed(p, e);
        return mapDriverError(e);
      }
    },
  });
  // Never more work at once than connections: postgres.js would pipeline the rest (poolGate.ts).
  const gate = poolGate(options.max ?? 10);
  const query: Sql['query'] = (text, params) => gate.run(() => wrap(pool, pool.sql).query(text, params));
  await query('select 1');
  return {
    kind: 'postgres',
    query,
    tx: (fn, last) => gate.transaction(async () => {
      // postgres.js 3.4.9 crashes the process when a write lands on a connection whose socket has
      // closed (porsager/postgres#1208: TypeError 'reading write' in nextWrite, thrown from a
      // setImmediate, so nothing can catch it). sql.begin writes its own ROLLBACK after the
      // callback fails — onto the dead connection when the database went away mid-transaction.
      // So once this transaction has seen the connection fail, nothing more is written to it: its
      // queries are refused here, and the callback's failure is held back from begin until begin
      // has given up on its own (it rejects when the connection closes); the server has rolled
      // the transaction back already. Found by the fault tests (PostgreSQL stopped under load).
      const p = pool;
      let lost = false;
      let settled = false;
      let beginSettled!: () => void;
      const whenSettled = new Promise<void>((resolve) => (beginSettled = resolve));
      const guarded = (t: Client): Sql => {
        const inner = wrap(p, t);
        return {
          async query<T>(text: string, params?: unknown[]): Promise<T[]> {
            if (lost || settled) throw new StoreUnavailableError(new Error('the connection to the database was lost'));
            try {
              return await inner.query<T>(text, params);
            } catch (e) {
              if (isUnavailable(e)) lost = true;
              throw e;
            }
          },
        };
      };
      // The last statement, sent without waiting for its answer: begin writes its COMMIT right
      // behind it on the same connection. If it fails, the server has aborted the transaction and
      // answers that COMMIT with a rollback, which begin does not report: its own answer does.
      const sent: { final?: Promise<Record<string, unknown>[]>; onRows?: (rows: Record<string, unknown>[]) => void } = {};
      try {
        const result = (await p.sql.begin(async (t) => {
          try {
            const result = await fn(guarded(t));
            // The connection closed while the callback finished: begin has rejected; no COMMIT.
            if (settled) await new Promise(() => {});
            const statement = last?.();
            if (statement) {
              if (lost) throw new StoreUnavailableError(new Error('the connection to the database was lost'));
              const final = t.unsafe(statement.text, statement.params as postgres.ParameterOrJSON<never>[], { prepare: true }).execute() as unknown as Promise<Record<string, unknown>[]>;
              final.catch(() => {}); // awaited once begin has settled
              sent.final = final;
              sent.onRows = statement.onRows?.bind(statement);
            }
            return result;
          } catch (e) {
            if (!lost) throw e;
            // Let begin reject when the connection closes; if it is somehow still open after a
            // while, the ROLLBACK can go to a live socket.
            await Promise.race([whenSettled, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
            if (settled) await new Promise(() => {});
            throw e;
          }
        })) as Awaited<ReturnType<typeof fn>>;
        if (sent.final) {
          const rows = await sent.final;
          sent.onRows?.(rows);
        }
        return result;
      } catch (e) {
        failed(p, e);
        return mapDriverError(e);
      } finally {
        settled = true;
        beginSettled();
      }
    }),
    exec: (text) => gate.run(async () => {
      const p = pool;
      try {
        await p.sql.unsafe(text);
        p.used = true;
      } catch (e) {
        failed(p, e);
        mapDriverError(e);
      }
    }),
    async close() {
      await pool.sql.end({ timeout: 5 });
    },
  };
}
