// Synced invoices whose latest changes Xero does not have (a push it refused, or could not take): the
// invoice, Xero's reason and when the app tries again, and Try again. An invoice leaves the list once
// a push gets through.
import { api } from '../../api/client.ts';
import { nzDateTime } from '../shared/nzTime.ts';
import { accountingPushFailuresQuery, PUSH_FAILED, pushToAccounting } from '../shared/accountingPush.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { AttentionBanner, useListUntilDone } from './AttentionBanner.tsx';

export const BEHIND_TEXT = {
  title: (n: number) => (n === 1 ? `An invoice isn't up to date in ${PROVIDER_NAME}` : `${n} invoices aren't up to date in ${PROVIDER_NAME}`),
  item: (reference: string, reason: string, retryAt: string | null) =>
    `${reference}: ${reason}${retryAt ? ` We'll try again at ${nzDateTime(retryAt)}.` : ''}`,
  tryAgain: 'Try again',
} as const;

export function AccountingBehindBanner() {
  const { items, act, busyId, error } = useListUntilDone(accountingPushFailuresQuery(api), (id) => pushToAccounting(api, id).then(() => undefined));
  return (
    <AttentionBanner
      name="accounting-behind"
      title={BEHIND_TEXT.title(items.length)}
      items={items.map((i) => ({ id: i.id, text: BEHIND_TEXT.item(i.reference, i.last_error, i.retry_at), documentId: i.document_id, reference: i.reference }))}
      action={BEHIND_TEXT.tryAgain}
      actionFor={(i) => `sending ${i.reference ?? 'the invoice'} to ${PROVIDER_NAME}`}
      onAction={act}
      busyId={busyId}
      error={error}
      failed={PUSH_FAILED}
    />
  );
}
