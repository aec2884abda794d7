// Counters for rate limits, kept in the database so every API process shares them. A limit is a
// number of hits in a fixed window; a hit is counted with one atomic upsert that answers the new
// count, so forty requests arriving together count 1..40 and no two see the same number. The caller
// counts first and does the expensive or risky thing (a password check, an email) only when the
// count is within the limit.
import type { Migration, Sql } from '@tradie/store';
import type { AppError} from '../errors.ts';
import { LimitReached } from '../errors.ts';

export interface Limit {
  /** What is limited, for the row key and the logs: 'login:account', 'forgot:email', ... */
  name: string;
  max: number;
  windowSeconds: number;
}

export const securityMigrations: Migration[] = [
  {
    id: 'security-001-rate-limits',
    sql: `
CREATE TABLE IF NOT EXISTS rate_limits (
  key           text        NOT NULL,
  window_start  timestamptz NOT NULL,
  window_end    timestamptz NOT NULL,
  hits          integer     NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX IF NOT EXISTS rate_limits_end ON rate_limits (window_end);
`,
  },
];

export interface Hit {
  /** The count including this hit. */
  count: number;
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

const windowOf = (limit: Limit, now: Date): { start: Date; end: Date } => {
  const ms = limit.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(start), end: new Date(start + ms) };
};

const rowKey = (limit: Limit, subject: string): string => `${limit.name}:${subject}`;

/** Counts `weight` hits (default 1) for `subject` under `limit`, atomically, and answers whether they fit. */
export async function hit(sql: Sql, limit: Limit, subject: string, now: Date, weight = 1): Promise<Hit> {
  const { start, end } = windowOf(limit, now);
  const [row] = await sql.query<{ hits: number }>(
    `INSERT INTO rate_limits (key, window_start, window_end, hits) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limits.hits + EXCLUDED.hits
     RETURNING hits`,
    [rowKey(limit, subject), start.toISOString(), end.toISOString(), weight],
  );
  const count = Number(row?.hits ?? weight);
  return { count, allowed: count <= limit.max, retryAfter: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)) };
}

/** How many hits `subject` has in the current window, without counting one. */
export async function peek(sql: Sql, limit: Limit, subject: string, now: Date): Promise<Hit> {
  const { start, end } = windowOf(limit, now);
  const [row] = await sql.query<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1 AND window_start = $2', [rowKey(limit, subject), start.toISOString()]);
  const count = Number(row?.hits ?? 0);
  return { count, allowed: count < limit.max, retryAfter: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)) };
}

/** Forgets `subject`'s hits in the current window (a successful sign-in clears its failures). */
export async function clear(sql: Sql, limit: Limit, subject: string, now: Date): Promise<void> {
  const { start } = windowOf(limit, now);
  await sql.query('DELETE FROM rate_limits WHERE key = $1 AND window_start = $2', [rowKey(limit, subject), start.toISOString()]);
}

/** A 429 with Retry-After and a detail that says when to try again. */
export function tooMany(detail: string, h: Pick<Hit, 'retryAfter'>): AppError {
  return new LimitReached(detail, undefined, h.retryAfter);
}

/** '15 minutes', '1 hour', '2 hours': the window in words, for the 429's detail. */
export function windowWords(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  const m = Math.ceil(seconds / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/** Counts one hit and throws a 429 when it is over the limit. */
export async function enforce(sql: Sql, limit: Limit, subject: string, now: Date, detail: string, weight = 1): Promise<Hit> {
  const h = await hit(sql, limit, subject, now, weight);
  if (!h.allowed) throw tooMany(detail, h);
  return h;
}
