// Xero's webhooks (docs/integrations/xero.md): Xero posts what changed — for invoices, the id and
// the organisation (tenant), never the new figures — signed with the app's webhook key.
//
// A delivery is hostile until verified: its body is bounded before it is read, its
// x-xero-signature (the base64 HMAC-SHA256 of the raw body with the webhook key) is compared in
// constant time before anything parses it, and a mismatch answers 401 with an empty body, as
// Xero's Intent to Receive check requires (a correctly signed delivery with no events answers 200).
// A verified invoice event is only a cue: a read of the invoice from Xero (pullFromXero) is queued
// in the outbox for each account whose connection is to that organisation and whose synced invoice
// it is, once per event, and the answer goes at once; so a forged event changes nothing and a
// replayed one at most makes the app look at Xero again.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { documentStreamId } from '@tradie/domain';
import type { AppDeps } from '../../deps.ts';
import { enqueueReactions, OUTBOX_SWEEP_GRACE_MS } from '../../reactions/outbox.ts';
import { XERO_INVOICE_CHANGED, xeroChangeId } from './changeCause.ts';

/** Xero's deliveries are small (a few events); anything larger is refused unread. */
export const XERO_WEBHOOK_MAX_BYTES = 64 * 1024;
/** At most this many invoices are queued for one delivery; Xero batches events in small deliveries. */
export const XERO_WEBHOOK_MAX_INVOICES = 50;

/** Whether `signature` is the base64 HMAC-SHA256 of `rawBody` with `key`, compared in constant time. */
export function xeroSignatureValid(rawBody: Uint8Array, signature: string | undefined, key: string): boolean {
  if (!signature || key === '') return false;
  const expected = Buffer.from(createHmac('sha256', key).update(rawBody).digest('base64'));
  const given = Buffer.from(signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const id = z.string().min(1).max(64);
const eventSchema = z.object({
  resourceUrl: z.string().max(500).optional(),
  resourceId: id,
  tenantId: id,
  tenantType: z.string().max(50).optional(),
  eventCategory: z.string().max(50),
  eventType: z.string().max(50),
  eventDateUtc: z.string().max(50).optional(),
});
/** Xero's delivery: `events` empty for the Intent to Receive check. */
export const xeroWebhookSchema = z.object({
  events: z.array(eventSchema).max(1000),
  firstEventSequence: z.number().int().optional(),
  lastEventSequence: z.number().int().optional(),
  entropy: z.string().max(100).optional(),
});
export type XeroWebhook = z.infer<typeof xeroWebhookSchema>;

export interface WebhookOutcome {
  /** Reads queued (one outbox row per account and invoice the change concerns). */
  queued: number;
  /** Changes already queued before (a redelivery, or the same event twice in one delivery). */
  duplicates: number;
  /** Events about nothing synced here (another app's invoice, a disconnected organisation, a contact). */
  ignored: number;
}

type Deps = Pick<AppDeps, 'store' | 'clock' | 'log'>;

/**
 * Queues a read of each synced invoice a verified delivery names, for the accounts connected to
 * the organisation the event came from and only them, and answers at once: the reads are the
 * xero-pull reaction's (reactions/registry.ts), run by the outbox after the answer went, so Xero
 * gets its answer well inside its 5 seconds however slow Xero is to read. Each change is queued
 * once: its row's id is made from the account and the event (organisation, invoice, type and
 * time), and the outbox keeps one row per id, so a redelivery, in this process or another, does
 * nothing more. Rows are due for the outbox's next sweep at once.
 */
export async function handleXeroWebhook(deps: Deps, delivery: XeroWebhook): Promise<WebhookOutcome> {
  const out: WebhookOutcome = { queued: 0, duplicates: 0, ignored: 0 };
  const seen = new Set<string>();
  const due = new Date(deps.clock.now().getTime() - OUTBOX_SWEEP_GRACE_MS).toISOString();
  for (const e of delivery.events) {
    const invoice = `${e.tenantId}\n${e.resourceId}`;
    if (e.eventCategory !== 'INVOICE' || (!seen.has(invoice) && seen.size >= XERO_WEBHOOK_MAX_INVOICES)) {
      out.ignored++;
      continue;
    }
    seen.add(invoice);
    // The tenant → account mapping: the invoice must be synced by an account whose live
    // connection is to the organisation the event is from (pullFromXero checks it again).
    const rows = await deps.store.db.query<{ account_id: string; document_id: string }>(
      `SELECT s.account_id, s.document_id FROM xero_sync s
       JOIN xero_connections c ON c.account_id = s.account_id AND c.tenant_id = s.tenant_id AND NOT c.needs_reauth
       WHERE s.tenant_id = $1 AND s.xero_invoice_id = $2`,
      [e.tenantId, e.resourceId],
    );
    if (rows.length === 0) out.ignored++;
    for (const row of rows) {
      const written = await enqueueReactions(deps.store.db, {
        accountId: row.account_id,
        streamId: documentStreamId(row.document_id),
        id: xeroChangeId(row.account_id, ['webhook', e.tenantId, e.resourceId, e.eventType, e.eventDateUtc ?? '']),
        type: XERO_INVOICE_CHANGED,
        payload: { documentId: row.document_id, xeroInvoiceId: e.resourceId, eventType: e.eventType, eventDateUtc: e.eventDateUtc ?? null },
        at: due,
      });
      if (written > 0) out.queued++;
      else out.duplicates++;
    }
  }
  return out;
}
