import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentDetail } from '@tradie/contracts';
import { formatNzDate, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';
import { applyDetailChange, removePayment } from './queries.ts';
import { money } from './view.ts';
import { Card } from '../../ui/Card.tsx';

interface Props {
  doc: DocumentDetail;
  isVoid: boolean;
  show: (text: string, tone?: NoticeTone) => void;
}

/** An invoice's payments, each removable (after a confirm) while the invoice is not void. */
export function PaymentHistory({ doc, isVoid, show }: Props) {
  const queryClient = useQueryClient();

  const paymentRemoval = useMutation({
    mutationFn: (paymentId: string) => removePayment(api, doc.id, paymentId),
    onSuccess: (updated) => {
      applyDetailChange(queryClient, updated);
      show('Payment removed');
    },
    onError: (e) => show(errorDetail(e) ?? 'Could not remove the payment', 'error'),
  });

  const confirmRemovePayment = (paymentId: string) => {
    if (window.confirm('Remove this payment?')) paymentRemoval.mutate(paymentId);
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
              </span>
              {!isVoid && (
                <button
                  type="button"
                  className="button button--danger button--compact"
                  onClick={() => confirmRemovePayment(p.id)}
                  disabled={paymentRemoval.isPending && paymentRemoval.variables === p.id}
                >
                  Remove<span className="visually-hidden"> payment of {money(p.amount)} on {formatNzDate(p.date)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
