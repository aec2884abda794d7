import { STATUS_LABELS, type DocumentStatus } from '@tradie/domain';
import { paymentBadge, PROVIDER_NAME } from './documents.ts';

/** A status chip: the domain's label ('Draft', 'Sent', 'Partly paid', ...), coloured by status. */
export function StatusChip({ status }: { status: string }) {
  const label = (STATUS_LABELS as Record<string, string>)[status] ?? status;
  return <span className={`doc-chip doc-chip--${status as DocumentStatus}`}>{label}</span>;
}

/** '✓ Paid', 'Partial' or 'Unpaid' (spec §2 Invoices tab). */
export function PaymentBadge({ status }: { status: string }) {
  const badge = paymentBadge(status);
  return <span className={`doc-chip doc-chip--${badge.tone}`}>{badge.label}</span>;
}

/** '✓ Xero' once the invoice has been synced. */
export function SyncedBadge() {
  return <span className="doc-chip doc-chip--synced">✓ {PROVIDER_NAME}</span>;
}
