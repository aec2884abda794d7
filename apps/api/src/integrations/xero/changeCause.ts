// The outbox cause of "Xero says this synced invoice changed" (a webhook's event, or the poll): a
// leaf module, so the webhook and the poll that write such rows and the reaction that follows them
// (reactions/registry.ts xeroPull) name it without importing each other.
import { createHash } from 'node:crypto';

/** Not a domain event: nothing is in the log until the invoice is read back and something changed. */
export const XERO_INVOICE_CHANGED = 'XeroInvoiceChanged';

/**
 * The outbox row's event id for one change Xero told us of, for one account: the same change told
 * twice (Xero redelivers; the poll finds what a webhook already brought) is the same id, and the
 * outbox's unique (reaction, event_id) keeps one row for it. A UUID built from a SHA-256 of the parts.
 */
export function xeroChangeId(accountId: string, parts: readonly string[]): string {
  const hex = createHash('sha256').update(['xero-change', accountId, ...parts].join('\n')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
