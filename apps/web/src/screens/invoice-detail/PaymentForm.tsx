import { useId, useState } from 'react';
import { nzDateOf, type PaymentMethod } from '@tradie/domain';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { PaymentDateMethodFields } from '../shared/PaymentDateMethodFields.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import type { PaymentInput } from '@tradie/contracts';

interface Props {
  /** The balance as the API gives it (a number rounded to cents): the amount's default. */
  balance: number;
  onSubmit: (body: PaymentInput, idempotencyKey: string) => Promise<{ warning?: string | undefined }>;
  /** `warning`: the payment was recorded, with something the tradie must know (Xero has the invoice voided). */
  onDone: (amountText: string, warning?: string) => void;
  onCancel: () => void;
}

/**
 * Record a payment: amount (the balance by default; part payments allowed), date (today in NZ),
 * method and reference. The server checks the amount (more than $0, whole cents, no more than
 * the balance) and its sentence is shown as it is.
 */
export function PaymentForm({ balance, onSubmit, onDone, onCancel }: Props) {
  const id = useId();
  const [amount, setAmount] = useState(balance.toFixed(2));
  const [date, setDate] = useState(() => nzDateOf(new Date()));
  const [method, setMethod] = useState<PaymentMethod>('bank_transfer');
  const [reference, setReference] = useState('');
  const { keyFor } = useIdempotencyKeys();
  const save = useCommand({
    run: (body: PaymentInput) => onSubmit(body, keyFor('payment', body)),
    failed: 'Could not record the payment',
    onDone: (recorded, body) => onDone(String(body.amount), recorded.warning),
  });
  const busy = save.pending;
  const submit = save.submit(() => ({ ok: true, body: { amount: amount.trim(), date, method, reference: reference.trim() } }));

  return (
    <form className="card card--emphasis detail-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="card__title">
        Record payment
      </h3>
      <div className="form-grid detail-form__grid">
        <FormField id={`${id}-amount`} label="Amount" hint="A part payment is fine.">
          {(describedBy) => <MoneyInput id={`${id}-amount`} required value={amount} aria-describedby={describedBy} onValueChange={setAmount} />}
        </FormField>
        <PaymentDateMethodFields id={id} date={date} onDate={setDate} method={method} onMethod={setMethod} />
        <FormField id={`${id}-reference`} label="Reference">
          {() => <input id={`${id}-reference`} className="input" type="text" autoComplete="off" maxLength={200} value={reference} onChange={(e) => setReference(e.target.value)} />}
        </FormField>
      </div>
      <ErrorAlert message={save.error} />
      <FormButtons className="detail-form__buttons" submit={busy ? 'Saving...' : 'Save payment'} busy={busy} onCancel={onCancel} />
    </form>
  );
}
