// What deleting an account winds down, in the deletion's own transaction (commands.ts
// deleteAccount): from that commit the account is closed (liveness.ts) and every door and job
// refuses it; these steps leave nothing of it running and the rows saying so. What needs Stripe or
// Xero is written as outbox rows in the same transaction and run by the outbox, with retries
// (reactions/registry.ts: account-closed-checkout, account-closed-xero). What each step is for:
// docs/decisions/0010-account-deletion.md.
import type { Sql } from '@tradie/store';
import type { Origin } from '../auth/commands/shared.ts';
import type { AppDeps } from '../deps.ts';
import { enqueueReactions } from '../reactions/outbox.ts';
import { ACCOUNT_CLOSED_CAUSE, accountStreamId } from './liveness.ts';

/** Winds the account down inside the deletion's transaction `sql`, at `at` (ISO 8601). */
export async function closeAccountIn(sql: Sql, deps: Pick<AppDeps, 'ids'>, accountId: string, origin: Origin, at: string): Promise<void> {
  // Every client link is withdrawn: the row says when and why (the pages answer 410 from the closed
  // account itself, clientLinks/resolve.ts).
  await sql.query("UPDATE client_links SET withdrawn_at = $2, withdrawn_reason = 'account_closed' WHERE account_id = $1 AND withdrawn_at IS NULL", [accountId, at]);
  // Card payments: the business's Stripe account is disconnected here, so no Checkout Session is made
  // on it again. It is their own Standard account: nothing of it is closed at Stripe.
  await sql.query('UPDATE payment_accounts SET disconnected_at = COALESCE(disconnected_at, $2), charges_enabled = false, updated_at = $2 WHERE account_id = $1', [accountId, at]);
  // A Xero Connect still in its ten minutes cannot finish.
  await sql.query('DELETE FROM xero_oauth_states WHERE account_id = $1', [accountId]);
  // Payment reminders: nothing queued, and no settings to plan from again.
  await sql.query('DELETE FROM reminder_queue WHERE account_id = $1', [accountId]);
  await sql.query('DELETE FROM reminder_settings WHERE account_id = $1', [accountId]);
  // Stripe (open Checkout Sessions expired) and Xero (the refresh token revoked): through the outbox.
  await enqueueReactions(sql, {
    accountId, streamId: accountStreamId(accountId), id: deps.ids.uuid(), type: ACCOUNT_CLOSED_CAUSE, payload: { ip: origin.ip, userAgent: origin.userAgent ?? null }, at,
  });
}
