import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS, type PaymentMethod } from '@tradie/domain';
import { FormField } from '../../ui/FormField.tsx';

interface Props {
  /** The form's id: the fields are `${id}-date` and `${id}-method`. */
  id: string;
  date: string;
  onDate: (date: string) => void;
  method: PaymentMethod;
  onMethod: (method: PaymentMethod) => void;
}

/** When money moved and how (a payment received, a refund paid back): the date and method fields of a .form-grid. */
export function PaymentDateMethodFields({ id, date, onDate, method, onMethod }: Props) {
  return (
    <>
      <FormField id={`${id}-date`} label="Date">
        {() => <input id={`${id}-date`} className="input" type="date" required value={date} onChange={(e) => onDate(e.target.value)} />}
      </FormField>
      <FormField id={`${id}-method`} label="Method">
        {() => (
          <select id={`${id}-method`} className="input" value={method} onChange={(e) => onMethod(e.target.value as PaymentMethod)}>
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {PAYMENT_METHOD_LABELS[m]}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </>
  );
}
