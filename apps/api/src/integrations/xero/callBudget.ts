// Each Xero organisation's call budget, shared by every API process through the database.
//
// Xero limits each app, per organisation, to 60 calls in a minute and 5,000 in a day (fixed
// windows), and answers 429 with Retry-After beyond them (docs/api/accounting.md). The push, the
// pull after a webhook and the poll all spend the same organisation's calls, so the adapter takes
// one from here before every Accounting API request (retries included): the count of the current
// minute and day goes up in one statement, and only while both are under our limits (set a little
// below Xero's, for calls another app of the same business makes) and no 429 told us to wait. A
// refused call is an AccountingError 'rate_limited' with the seconds to wait, as Xero's own 429 is,
// so the outbox puts the work off until then instead of spending its attempts.
import type { Sql } from '@tradie/store';
import { AccountingError } from './port.ts';

/** Below Xero's 60 a minute and 5,000 a day per organisation. */
export const XERO_CALLS_PER_MINUTE = 50;
export const XERO_CALLS_PER_DAY = 4_500;

export interface CallBudget {
  /** Takes one call of the organisation's budget, or throws 'rate_limited' with the seconds to wait. */
  take(tenantId: string): Promise<void>;
  /** Xero answered 429: no call for the organisation until `seconds` from now. */
  blocked(tenantId: string, seconds: number): Promise<void>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export function xeroCallBudget(db: () => Sql, now: () => Date, limits: { perMinute?: number; perDay?: number } = {}): CallBudget {
  const perMinute = limits.perMinute ?? XERO_CALLS_PER_MINUTE;
  const perDay = limits.perDay ?? XERO_CALLS_PER_DAY;
  return {
    async take(tenantId) {
      const t = now().getTime();
      const minute = new Date(Math.floor(t / MINUTE) * MINUTE).toISOString();
      const day = new Date(Math.floor(t / DAY) * DAY).toISOString();
      const taken = await db().query(
        `INSERT INTO xero_call_budget AS b (tenant_id, minute_start, minute_calls, day_start, day_calls, blocked_until)
         VALUES ($1, $2::timestamptz, 1, $3::timestamptz, 1, NULL)
         ON CONFLICT (tenant_id) DO UPDATE SET
           minute_start = EXCLUDED.minute_start,
           minute_calls = CASE WHEN b.minute_start = EXCLUDED.minute_start THEN b.minute_calls + 1 ELSE 1 END,
           day_start = EXCLUDED.day_start,
           day_calls = CASE WHEN b.day_start = EXCLUDED.day_start THEN b.day_calls + 1 ELSE 1 END
         WHERE (b.blocked_until IS NULL OR b.blocked_until <= $4::timestamptz)
           AND (b.minute_start <> EXCLUDED.minute_start OR b.minute_calls < $5::int)
           AND (b.day_start <> EXCLUDED.day_start OR b.day_calls < $6::int)
         RETURNING tenant_id`,
        [tenantId, minute, day, new Date(t).toISOString(), perMinute, perDay],
      );
      if (taken.length > 0) return;
      const [row] = await db().query<{ blocked_until: Date | string | null; minute_start: Date | string; minute_calls: number; day_start: Date | string; day_calls: number }>(
        'SELECT blocked_until, minute_start, minute_calls, day_start, day_calls FROM xero_call_budget WHERE tenant_id = $1',
        [tenantId],
      );
      const ms = (v: Date | string | null | undefined): number => (v === null || v === undefined ? 0 : new Date(v).getTime());
      let until = t;
      if (row && ms(row.blocked_until) > t) until = Math.max(until, ms(row.blocked_until));
      if (row && ms(row.day_start) === ms(day) && row.day_calls >= perDay) until = Math.max(until, ms(day) + DAY);
      else if (row && ms(row.minute_start) === ms(minute) && row.minute_calls >= perMinute) until = Math.max(until, ms(minute) + MINUTE);
      const seconds = Math.max(1, Math.ceil((until - t) / 1000));
      throw new AccountingError('rate_limited', `This business has used its calls to Xero for now. The app tries again in ${seconds} seconds.`, { status: 429, retryAfterSeconds: seconds });
    },
    async blocked(tenantId, seconds) {
      const t = now().getTime();
      const until = new Date(t + Math.max(0, seconds) * 1000).toISOString();
      const minute = new Date(Math.floor(t / MINUTE) * MINUTE).toISOString();
      const day = new Date(Math.floor(t / DAY) * DAY).toISOString();
      await db().query(
        `INSERT INTO xero_call_budget AS b (tenant_id, minute_start, minute_calls, day_start, day_calls, blocked_until)
         VALUES ($1, $2::timestamptz, 0, $3::timestamptz, 0, $4::timestamptz)
         ON CONFLICT (tenant_id) DO UPDATE SET blocked_until = GREATEST(COALESCE(b.blocked_until, EXCLUDED.blocked_until), EXCLUDED.blocked_until)`,
        [tenantId, minute, day, until],
      );
    },
  };
}
