// Record refund: money paid back to the client against a credit note (at most what the invoice owes
// back and what is left of the note; the server says so when it is more).
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CreditNoteRecord, CreditNoteRefundInput } from '@tradie/contracts';
import { nzDateOf, type PaymentMethod } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { PaymentDateMethodFields } from '../shared/PaymentDateMethodFields.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { money } from '../invoice-detail/view.ts';
import { creditNoteKeys, recordRefund } from './queries.ts';
import { invalidateDocuments } from '../shared/queries.ts';

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

  const refund = useCommand({
    run: (body: CreditNoteRefundInput) => recordRefund(api, note.id, body, keyFor('refund', body)),
    failed: 'Could not record the refund',
    onDone: (updated) => {
      forget('refund');
      queryClient.setQueryData<CreditNoteRecord[]>(creditNoteKeys.list(invoiceId), (prev) => prev?.map((n) => (n.id === updated.id ? updated : n)));
      void invalidateDocuments(queryClient);
      onDone(money(updated.refunded - note.refunded));
    },
  });

  const submit = refund.submit(() => ({ ok: true, body: { amount: amount.trim().replace(/^\$/, ''), date, method } }));

  return (
    <form className="credit-notes__refund" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="credit-notes__refund-title">
        Refund on {note.reference}
      </h3>
      <div className="form-grid">
        <FormField id={`${id}-amount`} label="Amount paid back" hint={`Up to ${money(max)}.`}>
          {(describedBy) => <MoneyInput id={`${id}-amount`} required value={amount} aria-describedby={describedBy} onValueChange={setAmount} />}
        </FormField>
        <PaymentDateMethodFields id={id} date={date} onDate={setDate} method={method} onMethod={setMethod} />
      </div>
      <ErrorAlert message={refund.error} />
      <FormButtons className="detail-form__buttons" submit={refund.pending ? 'Saving...' : 'Save refund'} busy={refund.pending} onCancel={onCancel} />
    </form>
  );
}
