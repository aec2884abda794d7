// Record refund: money paid back to the client against a credit note (at most what the invoice owes
// back and what is left of the note; the server says so when it is more).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { CreditNoteRecord, CreditNoteRefundInput } from '@tradie/contracts';
import { nzDateOf, PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { money } from '../invoice-detail/view.ts';
import { creditNoteKeys, invalidateDocuments, recordRefund } from './queries.ts';

interface Props {
  note: CreditNoteRecord;
  /** What may be paid back now: the amount's default. */
  max: number;
  invoiceId: string;
  onDone: (amountText: string) => void;
  onCancel: () => void;
}

export function RefundForm({ note, max, invoiceId, onDone, onCancel }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  const { keyFor, forget } = useIdempotencyKeys();
  const [amount, setAmount] = useState(max.toFixed(2));
  const [date, setDate] = useState(() => nzDateOf(new Date()));
  const [method, setMethod] = useState<PaymentMethod>('bank_transfer');

  const refund = useMutation({
    mutationFn: (body: CreditNoteRefundInput) => recordRefund(api, note.id, body, keyFor('refund', body)),
    onSuccess: (updated) => {
      forget('refund');
      queryClient.setQueryData<CreditNoteRecord[]>(creditNoteKeys.list(invoiceId), (prev) => prev?.map((n) => (n.id === updated.id ? updated : n)));
      void invalidateDocuments(queryClient);
      onDone(money(updated.refunded - note.refunded));
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!refund.isPending) refund.mutate({ amount: amount.trim().replace(/^\$/, ''), date, method });
  };

  return (
    <form className="credit-notes__refund" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="credit-notes__refund-title">
        Refund on {note.reference}
      </h3>
      <div className="form-grid">
        <FormField id={`${id}-amount`} label="Amount paid back" hint={`Up to ${money(max)}.`}>
          {(describedBy) => (
            <div className="input-affix">
              <span className="input-affix__prefix" aria-hidden="true">
                $
              </span>
              <input
                id={`${id}-amount`}
                className="input input--number"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                required
                value={amount}
                aria-describedby={describedBy}
                onChange={(e) => setAmount(e.target.value)}
              />
            </div>
          )}
        </FormField>
        <FormField id={`${id}-date`} label="Date">
          {() => <input id={`${id}-date`} className="input" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />}
        </FormField>
        <FormField id={`${id}-method`} label="Method">
          {() => (
            <select id={`${id}-method`} className="input" value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
              {PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      {refund.isError && (
        <p className="callout callout--error" role="alert">
          {errorDetail(refund.error) ?? 'Could not record the refund'}
        </p>
      )}
      <div className="detail-form__buttons">
        <button type="submit" className="button button--primary" disabled={refund.isPending} aria-busy={refund.isPending}>
          {refund.isPending ? 'Saving...' : 'Save refund'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={refund.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
