// The postgres.js adapter for a real PostgreSQL server (DATABASE_URL). Fails fast when the
// server is unreachable, so the API can answer 503 instead of hanging (issue: reliability).
import postgres from 'postgres';
import { mapDriverError } from './errors.ts';
import type { Db, Sql } from './types.ts';

export interface PostgresOptions {
  url: string;
  /** Pool size. */
  max?: number;
  /** Seconds to wait for a connection before failing. */
  connectTimeout?: number;
}

type Client = postgres.Sql | postgres.TransactionSql;

export async function openPostgres(options: PostgresOptions): Promise<Db> {
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeout ?? 3,
    idle_timeout: 30,
    max_lifetime: 60 * 30,
    onnotice: () => {},
    // bigint (int8) comes back as a string; the store selects positions as text anyway.
    types: {},
  });
  const wrap = (c: Client): Sql => ({
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      try {
        return (await c.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as T[];
      } catch (e) {
        return mapDriverError(e);
      }
    },
  });
  const base = wrap(sql);
  await base.query('select 1');
  return {
    kind: 'postgres',
    query: base.query,
    async tx(fn) {
      try {
        return (await sql.begin((t) => fn(wrap(t)))) as Awaited<ReturnType<typeof fn>>;
      } catch (e) {
        return mapDriverError(e);
      }
    },
    async exec(text) {
      try {
        await sql.unsafe(text);
      } catch (e) {
        mapDriverError(e);
      }
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
