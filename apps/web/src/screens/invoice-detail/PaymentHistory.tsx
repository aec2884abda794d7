import { useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzDate, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { applyDetailChange, removePayment } from './queries.ts';
import { money } from './view.ts';
import { PROVIDER_NAME } from '../shared/documents.ts';
import { Card } from '../../ui/Card.tsx';

interface Props {
  doc: DocumentDetail;
  isVoid: boolean;
  /** The invoice is in Xero, which is not told about card refunds. */
  synced?: boolean;
  show: (text: string, tone?: NoticeTone) => void;
}

export const REFUND_TEXT = {
  refunded: (amount: number, date: string) => `Refunded ${money(amount)} on ${formatNzDate(date)}`,
  notInXero: `Card refunds aren't sent to ${PROVIDER_NAME}: record them there (a refund on the payment, or a credit note).`,
} as const;

/**
 * An invoice's payments, each with the card refunds made on it (so the list adds up to what Paid
 * says), removable (after a confirm) while the invoice is not void and the payment has no refund.
 */
export function PaymentHistory({ doc, isVoid, synced = false, show }: Props) {
  const queryClient = useQueryClient();

  const paymentRemoval = useCommand({
    run: (paymentId: string) => removePayment(api, doc.id, paymentId),
    failed: 'Could not remove the payment',
    onDone: (updated) => {
      applyDetailChange(queryClient, updated);
      show('Payment removed');
    },
    onFailed: (message) => show(message, 'error'),
  });

  const confirmRemovePayment = (paymentId: string) => {
    if (window.confirm('Remove this payment?')) paymentRemoval.run(paymentId);
  };

  return (
    <Card titleId="detail-payments-title" title="Payment history">
      {doc.payments.length === 0 ? (
        <p className="detail__empty">No payments recorded yet.</p>
      ) : (
        <ul className="row-list detail-payments">
          {doc.payments.map((p) => (
            <li key={p.id} className="row-list__item detail-payments__item">
              <span className="detail-payments__main">
                <span className="list-entry__money">{money(p.amount)}</span>
                <span className="list-entry__meta">
                  {formatNzDate(p.date)} · {PAYMENT_METHOD_LABELS[p.method as PaymentMethod] ?? p.method}
                  {p.reference ? ` · ${p.reference}` : ''}
                </span>
                {p.refunds.map((r) => (
                  <span key={r.id} className="list-entry__meta detail-payments__refund">
                    {REFUND_TEXT.refunded(r.amount, r.date)}
                  </span>
                ))}
              </span>
              {/* A refunded payment stays, with its refund: the server refuses to remove it. */}
              {!isVoid && p.refunds.length === 0 && (
                <button
                  type="button"
                  className="button button--danger button--compact"
                  onClick={() => confirmRemovePayment(p.id)}
                  disabled={paymentRemoval.pending && paymentRemoval.input === p.id}
                >
                  Remove<span className="visually-hidden"> payment of {money(p.amount)} on {formatNzDate(p.date)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {synced && doc.payments.some((p) => p.refunds.length > 0) && (
        <p className="callout detail__note" data-testid="refunds-not-in-xero">
          {REFUND_TEXT.notInXero}
        </p>
      )}
    </Card>
  );
}
