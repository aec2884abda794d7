// The poll: the backstop for Xero's webhooks, which are delivered at least once but may be late,
// lost, or switched off. Every few minutes, for each account connected to Xero with synced
// invoices, Xero is asked for the sales invoices changed since the last poll began
// (If-Modified-Since, a page of 100 at a time, at most XERO_POLL_MAX_PAGES pages a run), and a read
// of each one synced by the account is queued in the outbox exactly as a webhook's event is
// (webhook.ts), unless the invoice was read after that change already (xero_sync.pulled_at). The
// calls spend the organisation's budget like every other (callBudget.ts): when it is spent, or
// Xero says 429, the account is left for the next run, and its If-Modified-Since stays where it
// was, so nothing is missed.
import { documentStreamId } from '@tradie/domain';
import { closedAccounts } from '../../account/liveness.ts';
import type { AppDeps } from '../../deps.ts';
import { enqueueReactions, OUTBOX_SWEEP_GRACE_MS } from '../../reactions/outbox.ts';
import { repeatEvery } from '../../repeat.ts';
import { XERO_INVOICE_CHANGED, xeroChangeId } from './changeCause.ts';
import { INVOICE_PAGE_SIZE } from './port.ts';
import { xeroRuntime } from './sync.ts';

/** How often the poll runs (main.ts). */
export const XERO_POLL_EVERY_MS = 5 * 60_000;
/** Pages read for one account in one run; what is left is read by the next run, from where this one stopped. */
export const XERO_POLL_MAX_PAGES = 5;
/** The first poll of an account looks back this far. */
export const XERO_POLL_FIRST_LOOKBACK_MS = 24 * 3_600_000;

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'ids' | 'log' | 'accounting'>;

export interface PollOutcome {
  /** Accounts whose changes were read. */
  polled: number;
  /** Reads queued (invoices synced here that changed in Xero since they were last read). */
  queued: number;
  /** Accounts left for the next run (Xero failed, its limit or the budget was reached). */
  failed: number;
}

/** Xero's UpdatedDateUTC ("/Date(1778112000000+0000)/") as milliseconds, or null. */
export function xeroInstantMs(text: string): number | null {
  const m = /^\/Date\((-?\d{1,15})(?:[+-]\d{4})?\)\/$/.exec(text);
  if (m) return Number(m[1]);
  const iso = Date.parse(text);
  return Number.isNaN(iso) ? null : iso;
}

/** One run of the poll over every connected account with synced invoices. Never throws. */
export async function pollXero(deps: Deps): Promise<PollOutcome> {
  const out: PollOutcome = { polled: 0, queued: 0, failed: 0 };
  const runtime = xeroRuntime(deps);
  if (!runtime) return out;
  const db = deps.store.db;
  const accounts = await db.query<{ account_id: string; tenant_id: string; modified_since: Date | string | null }>(
    `SELECT c.account_id, c.tenant_id, p.modified_since FROM xero_connections c
     LEFT JOIN xero_polls p ON p.account_id = c.account_id
     WHERE NOT c.needs_reauth AND EXISTS (SELECT 1 FROM xero_sync s WHERE s.account_id = c.account_id AND s.tenant_id = c.tenant_id AND s.xero_invoice_id IS NOT NULL)
     ORDER BY p.polled_at NULLS FIRST, c.account_id`,
  );
  // A closed account takes nothing more from Xero (account/liveness.ts).
  const closed = await closedAccounts(db, accounts.map((a) => a.account_id));
  for (const a of accounts) {
    if (closed.has(a.account_id)) continue;
    const startedAt = deps.clock.now();
    let since = a.modified_since === null ? new Date(startedAt.getTime() - XERO_POLL_FIRST_LOOKBACK_MS) : new Date(a.modified_since);
    try {
      const caughtUp = await runtime.keeper.withConnection(a.account_id, async (conn) => {
        if (conn.tenantId !== a.tenant_id) return true;
        for (let page = 1; page <= XERO_POLL_MAX_PAGES; page++) {
          const changed = await runtime.provider.invoicesChangedSince(conn, since, page);
          out.queued += await queueChanged(deps, a.account_id, conn.tenantId, changed);
          if (changed.length < INVOICE_PAGE_SIZE) return true;
          // Oldest change first: the next run goes on from the last change read.
          const last = xeroInstantMs(changed.at(-1)?.updatedAt ?? '');
          if (last !== null && page === XERO_POLL_MAX_PAGES) since = new Date(last - 1000);
        }
        return false;
      });
      const next = caughtUp ? startedAt : since;
      await db.query(
        `INSERT INTO xero_polls (account_id, modified_since, polled_at) VALUES ($1, $2, $3)
         ON CONFLICT (account_id) DO UPDATE SET modified_since = EXCLUDED.modified_since, polled_at = EXCLUDED.polled_at`,
        [a.account_id, next.toISOString(), deps.clock.now().toISOString()],
      );
      out.polled++;
    } catch (e) {
      out.failed++;
      deps.log('info', 'polling Xero failed; the next run tries again', { accountId: a.account_id, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** Queues a read of each changed invoice the account synced, unless it was read after the change. */
async function queueChanged(deps: Deps, accountId: string, tenantId: string, changed: readonly { invoiceId: string; updatedAt: string }[]): Promise<number> {
  if (changed.length === 0) return 0;
  const db = deps.store.db;
  const synced = await db.query<{ document_id: string; xero_invoice_id: string; pulled_at: Date | string | null }>(
    'SELECT document_id, xero_invoice_id, pulled_at FROM xero_sync WHERE account_id = $1 AND tenant_id = $2 AND xero_invoice_id = ANY($3::text[])',
    [accountId, tenantId, changed.map((c) => c.invoiceId)],
  );
  const due = new Date(deps.clock.now().getTime() - OUTBOX_SWEEP_GRACE_MS).toISOString();
  let queued = 0;
  for (const c of changed) {
    const row = synced.find((s) => s.xero_invoice_id === c.invoiceId);
    if (!row) continue;
    const changedAt = xeroInstantMs(c.updatedAt);
    if (row.pulled_at !== null && changedAt !== null && new Date(row.pulled_at).getTime() > changedAt) continue;
    queued += await enqueueReactions(db, {
      accountId,
      streamId: documentStreamId(row.document_id),
      id: xeroChangeId(accountId, ['poll', tenantId, c.invoiceId, c.updatedAt]),
      type: XERO_INVOICE_CHANGED,
      payload: { documentId: row.document_id, xeroInvoiceId: c.invoiceId, eventType: 'POLL', eventDateUtc: c.updatedAt },
      at: due,
    });
  }
  return queued;
}

/** The poll now and every `everyMs` (main.ts); the reads it queues are the outbox's. */
export function scheduleXeroPoll(deps: Deps, everyMs = XERO_POLL_EVERY_MS): () => Promise<void> {
  return repeatEvery(everyMs, async () => {
    const r = await pollXero(deps).catch((e: unknown) => {
      deps.log('error', 'polling Xero failed', { error: e instanceof Error ? e.message : String(e) });
      return null;
    });
    if (r && r.queued + r.failed > 0) deps.log('info', 'xero polled', { ...r });
  });
}
