// One rule at every door: a business that deleted its account no longer trades. From the deletion
// (its account_deletions row, written in the deletion's own transaction: commands.ts) until the
// purge erases everything of it (purge.ts), the account is *closed*. closedAccounts is the rule,
// written once; every path that acts for an account asks it, and nothing else decides:
//   - the signed-in routes, through requireAuth (401: the session ended);
//   - the doors without a sign-in that act for an account: the client's links — quote and invoice
//     pages, their PDFs and the credit notes' PDFs, answers to a quote and to its variations, the
//     view beacon and Pay now (clientLinks/resolve.ts) —, the signed logo link and the download
//     links, Stripe's billing and Connect webhooks, Xero's Connect callback (410 ACCOUNT_CLOSED, or
//     the webhook's event recorded as for a closed account and nothing done);
//   - every background job: the outbox's reactions (reactions/outbox.ts: only the reactions that
//     wind a closed account down run), the reminder schedule and the reminder sender, the Xero
//     poll, and the repeating expenses' run (costs/recurring.ts);
//   - the one door for mail on an account's behalf (documents/sendGuard.ts sendForAccount: 410),
//     whoever asks — a send, a reminder automatic or by hand, a notice, a credit note, a variation.
// What still answers for a deleted account, door by door, and the test that holds it:
// docs/reliability.md.
import { ACCOUNT_CLOSED } from '@tradie/contracts';
import type { Sql } from '@tradie/store';
import { Gone } from '../errors.ts';

/**
 * What the outbox rows that wind a closed account down name as their cause (an account has no
 * event stream; reactions/outbox.ts enqueueReactions), and the stream they are kept under.
 */
export const ACCOUNT_CLOSED_CAUSE = 'AccountClosed';
export const accountStreamId = (accountId: string): string => `account-${accountId}`;

/** The accounts among `accountIds` that are closed: deleted, and waiting for their purge. */
export async function closedAccounts(sql: Sql, accountIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Set();
  const rows = await sql.query<{ account_id: string }>('SELECT account_id FROM account_deletions WHERE account_id = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.account_id));
}

/** Whether one account is closed (closedAccounts for one). */
export async function isAccountClosed(sql: Sql, accountId: string): Promise<boolean> {
  return (await closedAccounts(sql, [accountId])).has(accountId);
}

/** A door without a sign-in: a closed account's answer is 410 with the words the client reads. */
export async function refuseClosedAccount(sql: Sql, accountId: string): Promise<void> {
  if (await isAccountClosed(sql, accountId)) throw new Gone(ACCOUNT_CLOSED);
}
