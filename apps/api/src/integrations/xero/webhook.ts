// Xero's webhooks (docs/integrations/xero.md): Xero posts what changed — for invoices, the id and
// the organisation (tenant), never the new figures — signed with the app's webhook key.
//
// A delivery is hostile until verified: its body is bounded before it is read, its
// x-xero-signature (the base64 HMAC-SHA256 of the raw body with the webhook key) is compared in
// constant time before anything parses it, and a mismatch answers 401 with an empty body, as
// Xero's Intent to Receive check requires (a correctly signed delivery with no events answers 200).
// A verified invoice event is only a cue: the invoice is read back from Xero (pullPaymentsFromXero)
// for each account whose connection is to that organisation and whose synced invoice it is, so a
// forged or replayed event can at most make the app look at Xero again.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { pullPaymentsFromXero } from './sync.ts';

/** Xero's deliveries are small (a few events); anything larger is refused unread. */
export const XERO_WEBHOOK_MAX_BYTES = 64 * 1024;
/** At most this many invoices are read back for one delivery; Xero batches events in small deliveries. */
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
  /** Invoices read back from Xero. */
  pulled: number;
  /** Events about nothing synced here (another app's invoice, a disconnected organisation, a contact). */
  ignored: number;
  /** Reads that failed (logged; the next event or a push tries again). */
  failed: number;
}

type Deps = Pick<AppDeps, 'store' | 'secrets' | 'clock' | 'ids' | 'log' | 'accounting'>;

/**
 * Reads back from Xero each synced invoice a verified delivery names, once per invoice, for the
 * accounts connected to the organisation the event came from and only them.
 */
export async function handleXeroWebhook(deps: Deps, delivery: XeroWebhook): Promise<WebhookOutcome> {
  const out: WebhookOutcome = { pulled: 0, ignored: 0, failed: 0 };
  const seen = new Set<string>();
  for (const e of delivery.events) {
    const key = `${e.tenantId}\n${e.resourceId}`;
    if (e.eventCategory !== 'INVOICE' || seen.has(key)) {
      out.ignored++;
      continue;
    }
    seen.add(key);
    if (seen.size > XERO_WEBHOOK_MAX_INVOICES) {
      out.ignored++;
      continue;
    }
    // The tenant → account mapping: the invoice must be synced by an account whose live
    // connection is to the organisation the event is from (pullPaymentsFromXero checks it again).
    const rows = await deps.store.db.query<{ account_id: string; document_id: string }>(
      `SELECT s.account_id, s.document_id FROM xero_sync s
       JOIN xero_connections c ON c.account_id = s.account_id AND c.tenant_id = s.tenant_id AND NOT c.needs_reauth
       WHERE s.tenant_id = $1 AND s.xero_invoice_id = $2`,
      [e.tenantId, e.resourceId],
    );
    if (rows.length === 0) out.ignored++;
    for (const row of rows) {
      try {
        await pullPaymentsFromXero(deps, row.account_id, row.document_id);
        out.pulled++;
      } catch (err) {
        out.failed++;
        deps.log('info', 'xero webhook: reading an invoice back failed', { accountId: row.account_id, documentId: row.document_id, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return out;
}
