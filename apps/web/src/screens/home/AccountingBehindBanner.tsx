// Synced invoices whose latest changes Xero does not have (a push it refused, or could not take), or
// whose changes in Xero could not be read back: the invoice, the reason and when the app tries again,
// and Try again (a push, or a read). An invoice leaves the list once one gets through.
import { useRef } from 'react';
import { api } from '../../api/client.ts';
import { nzDateTime } from '../shared/nzTime.ts';
import { accountingPushFailuresQuery, PUSH_FAILED, tryAccountingAgain } from '../shared/accountingPush.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { AttentionBanner, useListUntilDone } from './AttentionBanner.tsx';

export const BEHIND_TEXT = {
  title: (n: number) => (n === 1 ? `An invoice isn't up to date in ${PROVIDER_NAME}` : `${n} invoices aren't up to date in ${PROVIDER_NAME}`),
  item: (reference: string, reason: string, retryAt: string | null, direction: 'to_xero' | 'from_xero' = 'to_xero') =>
    `${reference}: ${direction === 'from_xero' ? `couldn't be checked in ${PROVIDER_NAME} for payments made there. ` : ''}${reason}${retryAt ? ` We'll try again at ${nzDateTime(retryAt)}.` : ''}`,
  tryAgain: 'Try again',
} as const;

export function AccountingBehindBanner() {
  // Which way each one failed, for its Try again: send ours, or read Xero's back.
  const directions = useRef(new Map<string, 'to_xero' | 'from_xero'>());
  const { items, act, busyId, error } = useListUntilDone(accountingPushFailuresQuery(api), (id) => tryAccountingAgain(api, id, directions.current.get(id) ?? 'to_xero').then(() => undefined));
  directions.current = new Map(items.map((i) => [i.id, i.direction]));
  return (
    <AttentionBanner
      name="accounting-behind"
      title={BEHIND_TEXT.title(items.length)}
      items={items.map((i) => ({ id: i.id, text: BEHIND_TEXT.item(i.reference, i.last_error, i.retry_at, i.direction), documentId: i.document_id, reference: i.reference }))}
      action={BEHIND_TEXT.tryAgain}
      actionFor={(i) => (directions.current.get(i.id) === 'from_xero' ? `checking ${i.reference ?? 'the invoice'} in ${PROVIDER_NAME}` : `sending ${i.reference ?? 'the invoice'} to ${PROVIDER_NAME}`)}
      onAction={act}
      busyId={busyId}
      error={error}
      failed={PUSH_FAILED}
    />
  );
}
