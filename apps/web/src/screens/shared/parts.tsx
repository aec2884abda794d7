import { Chip } from '../../ui/Chip.tsx';
import { PROVIDER_NAME } from './documents.ts';

/**
 * '✓ Xero' once the invoice has been synced; '! Xero' (amber) while Xero does not have its latest
 * changes (a push that failed: the invoice's screen and the home screen say why).
 */
export function SyncedBadge({ behind = false }: { behind?: boolean }) {
  if (behind) {
    return (
      <Chip tone="warning">
        ! {PROVIDER_NAME}
        <span className="visually-hidden"> not up to date</span>
      </Chip>
    );
  }
  return <Chip tone="success">✓ {PROVIDER_NAME}</Chip>;
}
