import { Chip, PaymentBadge, StatusChip, TypeChip } from '../../ui/Chip.tsx';
import { PROVIDER_NAME } from './documents.ts';

export { PaymentBadge, StatusChip, TypeChip };

/** '✓ Xero' once the invoice has been synced. */
export function SyncedBadge() {
  return <Chip tone="success">✓ {PROVIDER_NAME}</Chip>;
}
