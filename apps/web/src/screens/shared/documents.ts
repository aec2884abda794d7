// What the quotes-and-invoices screens (the list, the detail, the calculator) show alike: pure
// helpers for references, money, sync state and messages. Their server data is in ./queries.ts (what
// they share) and the queries.ts beside each screen.
import type { AccountingSyncResult } from '@tradie/contracts';
import { Decimal, fallbackReference, toCents, toCentsHalfUp } from '@tradie/domain';
import { ApiError } from '../../api/client.ts';
import type { DocumentType } from './queries.ts';

export type { DocumentType };

/** The accounting provider: Xero. */
export const PROVIDER_NAME = 'Xero';
export const PROVIDER_PATH = 'xero';
export const PROVIDER_INVOICE_ID = 'xero_invoice_id';

/** The reference, or 'QTE-'/'INV-' plus the first 8 characters of the id. */
export const referenceOf = (d: { type: DocumentType; reference: string; id: string }): string => d.reference || fallbackReference(d.type, d.id);

/**
 * A money number from the API to whole cents, through the domain. The API rounds to cents, so
 * toCents is exact; anything else (a float sum) is rounded to the cent rather than shown wrong.
 */
export function centsOf(amount: number): bigint {
  if (!Number.isFinite(amount)) return 0n;
  try {
    return toCents(amount);
  } catch (e) {
    // A fraction of a cent (a float sum): rounded to the cent rather than shown wrong. Anything else is a bug.
    if (!(e instanceof RangeError)) throw e;
    return toCentsHalfUp(new Decimal(amount));
  }
}


export const isSynced = (extra: Record<string, string> | null | undefined): boolean => Boolean(extra?.[PROVIDER_INVOICE_ID]);

export const syncedMessage = (r: AccountingSyncResult): string =>
  r.already_synced ? `Already synced ${PROVIDER_NAME}: ${r.xero_invoice_number}` : `✓ Synced ${PROVIDER_NAME}: ${r.xero_invoice_number}`;

/** Sync failures: HTTP 400 shows the detail (or 'Please connect … in Settings first'); else 'Failed to sync to …'. */
export function syncErrorMessage(e: unknown): string {
  if (e instanceof ApiError && e.status === 400) return e.detail || `Please connect ${PROVIDER_NAME} in Settings first`;
  return `Failed to sync to ${PROVIDER_NAME}`;
}

export const MARK_PAID_CONFIRM = 'Mark this invoice as paid?';
export const MARK_PAID_FAILED = 'Failed to mark as paid';

/** A fresh Idempotency-Key (randomUUID needs a secure context; getRandomValues does not). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
