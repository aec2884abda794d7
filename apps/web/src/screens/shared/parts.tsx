import { Chip, PaymentBadge } from '../../ui/Chip.tsx';
import { PROVIDER_NAME } from './documents.ts';

/** What Xero's word on an invoice shows as (the API's extra_data: paid_in, voided_in). */
export const XERO_STATE_TEXT = {
  paidThere: `Paid (in ${PROVIDER_NAME})`,
  voidedThere: `Voided in ${PROVIDER_NAME}`,
} as const;

/**
 * An invoice's payment badge, the same on the list and the invoice screen: 'Paid (in Xero)' when
 * it was paid with money that came back from Xero, else the payment status; and 'Voided in Xero'
 * (amber) while Xero's copy is voided and the invoice still stands here.
 */
export function InvoiceStateBadges({ status, extra }: { status: string; extra: Record<string, string> }) {
  return (
    <>
      {extra['paid_in'] ? <Chip tone="success">{XERO_STATE_TEXT.paidThere}</Chip> : <PaymentBadge status={status} />}
      {extra['voided_in'] && <Chip tone="warning">{XERO_STATE_TEXT.voidedThere}</Chip>}
    </>
  );
}

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
